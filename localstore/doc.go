// Package localstore keeps a VoteDesk database in one bbolt file: the
// projection and the event log (mirrors of the cloud tables), and what never
// leaves the device.
//
// # Buckets and keys
//
//	vote_data        the projection. Key: PK, a zero byte, SK. Value: the
//	                 item's other attributes (codec.go; since layout version
//	                 5 the common attribute names as two bytes, attrNames:
//	                 1,000,000 imported ballots take 479 MB instead of 554).
//	                 Names hold no control
//	                 characters, so a partition's items are contiguous and in
//	                 SK order: "PK = x AND begins_with(SK, y)" is one cursor
//	                 seek to x\x00y and a walk while the prefix holds.
//	voter_names      the poll books' name indexes (app/voter_names.go,
//	                 since layout version 6): items of the partitions
//	                 VOTERNAMES#{election id}, keyed and stored as in
//	                 vote_data, where the transaction routes them (tx.items).
//	                 Derived from the log like the projection, changed by
//	                 the same events (undo keeps them), compared by verify;
//	                 left out of the state hash and the cloud projection
//	                 (app.LocalPartition). A bucket of their own: see
//	                 bucketNames.
//	vote_data_gsi1   GSI-1, the email index. Key: GSI1PK, 0, GSI1SK, 0, item
//	                 key. Value: the item key. Kept by Put and Delete.
//	vote_event_log   the log. Key: sequence number, 8 bytes big-endian (byte
//	                 order = numeric order). Value: the event as JSON
//	                 (app.EncodeEvent), hash-chained to the one before.
//	undo             for each event not yet confirmed by the shared log, the
//	                 before-images of the items it changed (undo.go), so sync
//	                 can take local events off, lay the shared log's events
//	                 under them, and put them back on.
//	cloud_dirty      what the cloud projection may still need (sync.go):
//	                 for each item a confirmed event changed, a mark keyed
//	                 by that event's sequence number (8 bytes big-endian)
//	                 then the item's key, empty value, so marks are
//	                 appended in log order and read or pruned by range.
//	                 A transaction marks an item once, with its last event
//	                 that changed it. Marks the cloud projection holds are
//	                 pruned from the start.
//	cache            values the app derives from the projection to answer
//	                 again faster (app.Tx.Cache: the count cache, keyed by
//	                 election id), each stamped by the app with the log
//	                 head it was derived at; not part of the projection,
//	                 dropped whenever the projection is replayed (cache.go).
//	                 Made on first use: older files have none.
//	device           this device: its id (16 hex digits, the start of every
//	                 event id it makes), its event counter, confirmed_seq
//	                 (the sequence number up to which the log is confirmed by
//	                 the cloud log), the layout version, and sync settings
//	                 under "sync." keys (endpoint, table_prefix, status as
//	                 JSON; never credentials), and names_undo_behind
//	                 (migrate.go, indexPollBooks).
//
// # The log and sync
//
// Events 1..confirmed_seq are the cloud log's, byte for byte; the events
// after them are this device's pending outbox, each with an undo record.
// Integrate lays a page of cloud events under the pending ones (undo them,
// write and replay the page, re-append and replay them) and moves
// confirmed_seq, in one transaction; ConfirmPushed moves it over pending
// events the cloud log took at the same sequence numbers. See sync.go.
//
// Items in vote_data (PK / SK):
//
//	USER#{name} / METADATA                 a user (GSI1PK = email)
//	ELECTION#{name} / METADATA             an election's settings and totals
//	ELECTION#{name} / CANDIDATE#{name}     a candidate
//	ELECTION#{name} / VOTER#{name}         a poll-book entry
//	ELECTION#{name} / BALLOT#{voter}       a voter's ballot
//	ELECTION#{name} / BALLOT##{id}         a ballot of no voter (paper; imported
//	                                       by a format 2 event), or a chunk of an
//	                                       import's ballots (format 3: app/ballot_chunk.go)
//	ELECTION#{name} / CONFLICT#{seq}       a conflict sync found
//	REJECTED / {seq, 20 digits}            an event the rules refused
//	METADATA / COUNTS                      user and election totals
//	METADATA / SYNC                        last event applied, and its hash
//
// # Transactions and durability
//
// A command's event and its projection changes commit in one bbolt
// transaction; bbolt fsyncs before Update returns (NoSync is never set), so
// a receipt shown after Update is on disk. The file is created 0600 and
// opened with a one-second lock timeout: a second VoteDesk process on the
// same file gets "already open by another VoteDesk" instead of hanging.
package localstore
