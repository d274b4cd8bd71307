// Package cloudsync (import path votedesk/sync) syncs a VoteDesk database
// with DynamoDB: it pushes the events a device made offline to one shared,
// gap-free log, pulls what other devices appended, and keeps the cloud
// projection current. It implements app.Syncer over the Local interface,
// which localstore.Store implements.
//
// # Tables
//
// {prefix}vote_data is the seed design's projection: PK, SK, GSI-1 ("GSI-1"
// on GSI1PK/GSI1SK, the email index), on-demand capacity. Its items are the
// local bbolt items, attribute for attribute (item.go converts losslessly),
// plus METADATA/SYNC, whose last_event_id says up to which log event the
// projection is complete.
//
// {prefix}vote_event_log is the shared log. Its items are segments: runs of
// consecutive events (segment.go).
//
//	PK  LOG#global                     the log's global shard, or
//	    LOG#ELECTION#{id}              an election's (see "Shards")
//	SK  00000000000000000042           the first event's sequence number,
//	                                   20 digits, zero-padded
//	first_seq, last_seq, first_when, last_when, first_id, last_id, last_hash
//	events | events_gz                 the events as JSON lines, byte for
//	                                   byte what the local log stores (seq,
//	                                   id, when, actor, type, data,
//	                                   prev_hash, hash), gzipped when large
//	prev_hash, proposal_pk, proposal_sk  instead of the events, in a
//	                                   claim: a large append's events are
//	                                   in the proposal it names (PK
//	                                   PROPOSAL#{first id}, SK its content's
//	                                   SHA-256), see "Claims"
//
// # Why not the seed's {sequence}#{timestamp} sort key
//
// The seed keyed the log by "{sequence}#{timestamp}". Two devices that both
// read head 41 would both write "42#<their own time>": different keys, so
// DynamoDB accepts both, and sequence 42 exists twice; no condition can stop
// it, because the condition would have to look at a key nobody knows (the
// other device's timestamp). And the key is a string: "10#..." sorts before
// "9#...", so a reader paging "after 9" skips 10 to 89. Time is a device's
// opinion anyway, not an order.
//
// Here the sort key is the sequence number alone, fixed width, so string
// order is numeric order and a sequence number is one key: two devices
// appending at 42 write the same key, and the write is conditional
// (attribute_not_exists), so exactly one wins. Time is an attribute inside
// each event.
//
// # Why segments
//
// Measured against DynamoDB Local on this project's 2-core machine (events of
// about 400 bytes): one PutItem per event, 550-650 events/s; a
// TransactWriteItems of 100 one-event items, about 3,100 events/s (5.6x,
// short of the 10x target); 10-25 segments of 50-1000 events per
// transaction, 19,000-31,000 events/s. So a push packs events into segments
// (at most 1,000 events or 256 KB of JSON each, gzipped above 4 KB; a
// DynamoDB item holds 400 KB) and writes up to 25 segments (3 MB) per
// transaction. An interactive sync of one ballot writes one segment of one
// event. An event too large for one item even compressed (for example
// VotersAdded with hundreds of thousands of names) is refused with a message
// that says so; commands that make events that large should split them.
//
// Figures of `make bench` on that machine (medians, DynamoDB Local in
// memory, 100,000 signed events of about 600 bytes; the Go side verifies two
// Ed25519 signatures per event on every pull and rebase):
//
//	BenchmarkPush          16,700 events/s   segments, 25 per transaction
//	BenchmarkNaivePut       1,150 events/s   one conditional PutItem per event
//	BenchmarkPull           7,100 events/s   query, check, verify, apply
//	BenchmarkNaiveGet       1,570 events/s   one GetItem per event, not applied
//	BenchmarkProjection     5,600 items/s    cloud projection from scratch
//	BenchmarkSyncEndToEnd  23.0 s            100,000 events pushed and projected
//
// Push is 15x the naive baseline, pull 4.5x (applying, about 0.1 ms an
// event in one bbolt transaction at a time, is what is left). The
// projection is written in bulk (below); DynamoDB Local's BatchWriteItem
// is the limit there (the Go side is idle most of the time, the JVM
// busy), so a first sync of 100,000 offline events takes about 6 s with
// the projection deferred (`sync --no-projection`, which is what
// BenchmarkPush measures) and about 23 s with it. The
// projection of the deferred events is written by the next sync without
// --no-projection, by whichever device runs it.
//
// # The protocol
//
// The local log is a confirmed prefix 1..C, identical to the cloud log (C
// is confirmed_seq in the device bucket), followed by pending events
// C+1..H: the outbox, in the log itself, so it survives restarts. Every
// pending event keeps an undo record (the before-images of what it changed).
// A segment boundary is always at C: C only moves by whole segments. One
// cycle (Syncer.Sync):
//
//  1. Head. Read the cloud head (one query, newest first) for progress
//     totals.
//  2. Pull. Query the log from C+1 with consistent reads, all pages. Each
//     page is decoded and checked (frame, no gap, every envelope whole, the
//     hash chain continues C's hash, every hash matches its event) before
//     anything is written; then, in ONE bbolt transaction, Integrate takes
//     the pending events off (undo, newest first), writes the page's events
//     at their cloud sequence numbers and replays them through app.Replay
//     (the rules decide again: effects, a CONFLICT item, or a REJECTED item;
//     our own events are recognised by their stable id and leave the outbox),
//     appends the remaining pending events after the new head, re-chained,
//     and replays them, and sets C to the page's last event. Pending events
//     the pulled page already holds at the same place with the same hash are
//     confirmed where they are, without undo and redo. The next page is
//     queried, decoded, its hash chain and its signatures checked while
//     this one is applied (each event keeps the hash it was found to have,
//     so Integrate's own check of the chain does not hash it again); a
//     failed or cancelled pull stops that read and waits for it.
//  3. Push. Pack all pending events (which now sit at C+1.. with the hashes
//     the cloud will hold) into segments and write them a transaction at a
//     time, each segment on condition attribute_not_exists; a push of one
//     segment (every interactive sync) is a single conditional PutItem,
//     which costs half the write units of a transaction and cannot be
//     cancelled by another device's transaction. The first
//     segment's key is C+1: a device only ever appends right after the head
//     it has pulled. After a commit, ConfirmPushed moves C over the pushed
//     events in one bbolt transaction ("outbox marked"). If a condition
//     fails, or the write meets another device's transaction on the same
//     key (TransactionConflict), another device appended first (or an
//     earlier attempt of ours committed and lost its answer). When the
//     pending events fit one transaction (every interactive sync, and any
//     push up to 3 MB), the device appends at the head (below); otherwise
//     back to 2: pull, rebase, retry. Either way at most 30 lost races a
//     cycle, each followed by a jittered backoff.
//     Appending at the head: look at the segment at the contested place
//     (DynamoDB returns it with the refusal when asked to, with
//     ReturnValuesOnConditionCheckFailure ALL_OLD; when it does not, as for
//     a transaction cancelled by a conflict, a consistent GetItem of its
//     first_id and last_hash): if it starts with our first pending event
//     and ends with the hash our attempt gave the last, it is our own
//     append whose answer was lost, and we are done. If it starts with our
//     first pending event but is not our attempt, a copy of this database
//     (which held the same events pending) appended them: back to 2, whose
//     pull confirms them. Otherwise wait the backoff, read the frames of
//     what was appended since the place we tried (first id, last sequence
//     number and last_hash of each segment: a few hundred bytes each, so
//     about the head's price), and if one starts with any of our pending
//     events, back to 2 as well; else take the last as the head H, place
//     copies of the pending events at H+1.. chained to its hash, and
//     append them on the same condition at H+1; on a lost race, the same
//     again for H+1. After the append commits,
//     the cycle goes back to 2, whose pull finds the events at their
//     places, by id and content, and confirms them (as after a lost
//     answer). An event's content, id and signatures do not depend on its
//     place (the chain hash covers prev_hash and the content, not the
//     sequence number), and the rules decide what an event does where it
//     lands on every device, so this is the log a pull and rebase would
//     have made; it only skips reading, checking and applying the winners'
//     events before trying again.
//  4. Projection. Bring the cloud projection from its last_event_id L up to
//     C (below).
//  5. Status. Save last attempt, last success or error, counts.
//
// Why the log stays gap-free and exactly-once:
//   - A segment is only written at C+1 where C is the end of a segment the
//     writer has read, so segments tile the sequence; a writer behind the
//     head finds its key taken and fails. Segments never change.
//   - A transaction commits all its segments or none, and the next
//     transaction starts where the last committed one ended, after its
//     writer saw it commit. So no reader can see a later number before an
//     earlier one: a consistent query from C+1 returns a contiguous run or
//     nothing, and an event cannot commit late under a lower number.
//   - An event's id (device id + device sequence) never changes. A push whose
//     answer was lost is found on the next pull: the same id, at the place we
//     put it; it is confirmed, not pushed again. A cycle starts with a
//     pull to the end of the cloud log, so a pending event appended in an
//     earlier cycle is found and confirmed before anything is pushed.
//     Within a cycle, a push goes somewhere other than C+1 only at the head,
//     after the place of the last attempt was found to hold
//     another device's segment: every attempt of ours either committed at
//     its place (and is found there, since segments never change)
//     or wrote nothing, so no event is appended twice by this device.
//   - A database copied to kiosks (as officials do) holds its pending
//     events in every copy, under one id each; any copy may append them.
//     A device appends at the head only after reading the frames of every
//     segment appended since it last pulled, and none starts with one of
//     its pending events; if one does, it pulls, which confirms what the
//     copy appended, and pushes the rest (TestCopyAppendsFirst, at the
//     contested place and after another device's append). A copy's run
//     starts with the first of the events it shares with this device that
//     are not in the log yet, which this device holds pending too.
//   - An append at the head chains onto the last_hash the head segment
//     states, which this device has not checked yet. If that segment is
//     bad, the next pull refuses it as any pull does, naming the sequence
//     number; a head with no well-formed hash sends the device back to 2.
//   - The SDK retries throttling (ProvisionedThroughputExceeded, Throttling),
//     5xx, connection errors and truncated answers with exponential backoff
//     and full jitter; every request is a read or a conditional write, so a
//     retry is safe.
//
// # Contention
//
// Measured with TestLoad (make loadtest; 200 kiosks in one process on a
// 2-core machine, DynamoDB Local behind sync/ddblimit): with every push a
// TransactWriteItems, two pushes at the same head cancelled each other
// (TransactionConflict) as often as one won: about 6,000 cancelled
// transactions in a 40 s run, p50 18 s and p99 35-36 s from cast to
// confirmed. One-segment pushes as conditional PutItem lose only to a write
// that committed: no cancelled transactions, about 10 lost races per
// append, p50 11 s and p99 30 s in the same run. The backoff before a retry
// after a lost race then grew from 10 to 80 ms x 2^round (full jitter, so
// up to 160 ms before the first retry and at most about 5 s): fewer devices
// pull and retry at once, so the winner gets
// through sooner: 4.5 lost races per append, p50 8 s, p99 29 s, no failed
// cycle (backoff starts of 20 and 40 ms were in between, 160 ms made
// stragglers: p99 34 s). Last, a device that has kept losing for more than
// 10 s retries with an eighth of the backoff, so the oldest waiters go
// first: p99 27.7 and 25.4 s against 29.0-29.8 s, the slowest ballot 31-32 s
// against 33-36 s, at the price of 3-5 cycles out of about 4,000 giving up
// after 30 tries (none without it).
//
// Then a device that lost the race stopped pulling before it tried again
// (appending at the head: it needs the head's hash to append, not the winners' events).
// Measured on 2026-11-26 against the code before it, same machine, same
// day: at a close of polls (200 kiosks, 20 ballots each cast offline, all
// syncing at once) p50 31.1 -> 12.9-14.5 s and p99 42.8 -> 29.2-33.7 s
// from cast to confirmed, 14.9 -> 5.8-7.2 lost races an append, and every
// ballot confirmed within the run (60 of 4,000 were not); with 200 kiosks
// casting steadily, lost races an append 10.8 -> 3.0 and failed cycles
// 10 -> 0, latency within the noise (p50 15.9 -> 16.1 s, p99 36.0 ->
// 33.7 s). Before appends at the head a device does not take the aged
// shortcut: with it, 111-123 cycles of the steady run gave up after 30
// lost races (8-9 lost races an append), because the cheap retries of
// every aged device collided.
//
// Tried and not kept: an inbox, where a device that lost the race leaves its
// events in a small cloud partition and whoever appends next carries them
// with its own (flat combining). It cut the requests by a quarter and the
// failed cycles from about 90 to 2-60, but the latency grew (p50 19-31 s,
// p99 32-45 s): a carried event waits for the carrier's next cycle, and a
// carrier's failed write is as large as everything it carries, so the
// log's partition was throttled (DynamoDB charges a write refused by its
// condition). On this machine the limit of the test is CPU, not DynamoDB:
// every kiosk pulls and applies every event (200 kiosks, 1,900 ballots:
// 380,000 applications) and the Go process used 1.2 of the 2 cores.
//
// Crash points (tested by killing a child process right after each):
//   - after a local command commits: the event is pending in the log; the
//     next cycle pushes it.
//   - after a page is applied: the page and its checkpoint (C) are one bbolt
//     transaction, so both or neither happened; the next pull starts after
//     the last applied page. There is no moment between "page applied" and
//     "checkpoint saved".
//   - after the cloud commit of a push, before ConfirmPushed: the events are
//     in the cloud and still pending here; the next cycle's pull finds them
//     at C+1.. with the same ids and hashes and confirms them.
//   - after an append at the head commits, before the pull that confirms
//     it: the events are in the cloud at other places than here; the next
//     cycle's pull finds them by id and content and confirms them, and
//     pushes nothing again (TestCrashAfterAppendAtHead stops the cycle
//     there).
//   - after ConfirmPushed, before the projection: the projection is behind;
//     any device's next cycle brings it up (the changed items are remembered
//     in cloud_dirty until the cloud projection has them).
//   - while writing the projection: see below; the next writer takes over.
//
// Bad data pulled from the cloud (a malformed event, an unknown type, a hash
// that does not match, a broken chain, a gap, a segment whose events do not
// match its key) stops the pull with an error naming the sequence number;
// the page is not applied, nothing local changes, and the status keeps the
// error.
//
// # What one partition carries
//
// TestAppendCapacity (make loadtest) measures the log's partition alone:
// hundreds of simulated devices make a sync cycle's requests through
// sync/ddblimit (the head, the pull's queries to the end of the log, the
// append of what they cast, after a lost race at the head with the
// syncer's own appendAtHead and backoff), without decoding or applying
// what they read, which real devices do on their own processors. Measured
// on 2026-11-27 on this 2-core machine:
//
//   - Reads. Every device reads every event, so each ballot costs every
//     device r read units, and a partition read by N devices carries at
//     most 3,000 / (N x r) ballots a second. With 200 kiosks casting a
//     ballot every 2 s (100 ballots/s, one or two ballots a segment),
//     consistent pulls cost r = 0.163 (the queries' rounding up to 4 KB
//     included): 1,540-1,610 units a second, bursts over the budget, and
//     791-1,403 requests throttled in a 40 s run; at most about 90
//     ballots/s. Hence pulls read the settled part of the log eventually
//     consistent, at half price (below): r = 0.092, 937-959 units a
//     second and 7-61 throttled requests in the same runs, about 160
//     ballots/s at most, and p50 from cast to append 8.1-8.6 -> 6.3-6.9 s.
//     Large segments cost less a ballot: they are gzipped.
//   - The head. Appends at one head are optimistic: each device reads the
//     head and writes at the place after it, and loses to whoever wrote
//     there first. Like any such channel it carries at most about one
//     append per round trip, less as the contenders grow: 20 appends a
//     second with 200 devices (3.3-3.9 lost races an append), 14.6 with
//     500 (8 an append). A steady 100 ballots/s from 200 kiosks is
//     carried with p99 23-28 s from cast to append (the longest wait 28
//     s, over 9 sync intervals); 250 ballots/s from 500 kiosks is not
//     (4,048 of 4,777 ballots in the log by the end of the run, p99 61
//     s). A round trip (a head read) took p50 24 ms here against DynamoDB
//     Local on two shared cores; the service answers in a few, so its head
//     should carry several times these appends a second. The backoff's
//     base, tried again on the log alone (200 devices, two runs each):
//     20 ms gave p99 20.5-21.6 s but p50 6.8-7.8 s, 4.9-5.1 lost races an
//     append and 922-2,276 throttled requests; 40 ms 20.7-22.3 s, 3.9-4.1
//     and 446-686; 80 ms 23.0-24.8 s, p50 4.4-6.7 s, 2.9-3.3 and 20-177;
//     160 ms 24.2-27.7 s, 1.9-2.5 and none. A shorter wait buys a few
//     seconds of p99 with writes refused and throttled; 80 ms stays.
//     Tried and not kept: after a lost race, placing the events right
//     after the segment that refused them (DynamoDB returns it) instead of
//     reading the head. A device then chases one segment at a time behind
//     a head that moves several a round trip: 13 lost races an append
//     instead of 3 at 200 devices, 175 after a close of polls. The aged
//     shortcut before appends at the head (see "Contention"), tried again
//     on the log alone: p99 18.6 and 22.8 s against 20.6 and 27.4 s, no
//     failed cycles, in two interleaved pairs of runs; within their noise,
//     and TestLoad had shown it failing cycles, so it is still not taken.
//   - Writes. DynamoDB charges a write refused by its condition by the
//     size of the item that refused it (ddblimit: of the item sent; the
//     two are segments of about the same size), so every lost race costs
//     a segment's write units. After a close of polls (every device holding
//     20 or 100 ballots cast offline), 200 devices put 4,000 ballots into
//     the log in 15 s (268 ballots/s, p99 14 s) and 20,000 in 41 s (488/s,
//     p99 39 s, 801 write units a second); 50 devices put 5,000 in 8 s
//     (608/s). There the write budget is the limit: a ballot is about 0.4
//     KB of gzipped segment, and each lost race is charged a whole
//     segment. (These runs undercount reads: a device stops once its
//     ballots are in.)
//
// So one partition took a few hundred ballots a second from hundreds of
// devices, not the 1,000 a second issue 15 asks of one election's shard;
// with claims (below) a close of polls takes 1,600 to 2,000 a second, and
// steady casting, a ballot or two a sync, is as above.
// Per-election shards (below) spread elections, not one election's
// devices. The hash chain makes appends sequential: an event's hash needs
// the one before it, so one append must land before the next can be
// placed, and a counter that hands out places without contention (an
// UpdateItem ADD) would leave a place whose chain nobody can finish if its
// holder dies. What would lift the limit:
//   - Losing cheaply: built for large appends (below, "Claims"): a device
//     first writes its run as a proposal under a key of its own and races
//     for the place with a small claim that names it. Not built: racing on
//     one small sequencer item instead of the log's places, so a refusal
//     returns the current head and a retry needs no read.
//   - Fewer, larger appends: whoever wins the place carries what other
//     devices left waiting (the inbox above cost latency because a carried
//     event waited for its carrier's next cycle, and each lost race cost
//     the whole carried load; cheap losses and carrying on every try would
//     change both).
//   - Copies of the log for readers: segments copied to several partitions
//     after they commit. Anyone who can write the table can write a copy,
//     so a reader must anchor what it reads from one to the consistent
//     head's hash before applying any of it.
//
// # Claims
//
// Built on 2026-11-28 (claim.go), the first of those designs in part: a
// large append loses its races cheaply. A segment appended alone (one
// PutItem) that would be stored larger than Config.ClaimFrom (default 4 KB,
// about ten ballots gzipped: a close of polls, a laptop back from a day
// offline) is written once as a proposal, under a partition key of its
// own (PROPOSAL#{its first entry's id}, sorted by its content's SHA-256),
// with its entries placed at 1, 2, ... from "": a proposal does not depend
// on where it lands. The place in the log is then raced for with a claim:
// the segment's item without its events, naming the proposal and the hash
// of the entry before it (prev_hash). Every step of the protocol above is
// unchanged, since a claim has a segment's key, first_seq, last_seq,
// first_id and last_hash: the head, the condition, the look at what holds
// a contested place after a lost race (a claim whose answer was lost is
// found by its first id and last hash, as a segment is), the pull that
// confirms. A reader resolves the claims of each page it queries
// (BatchGetItem, eventually consistent, and consistently for what that
// did not find: the proposal was written before its claim), places the
// proposal's entries at the claim's place chained from its prev_hash, and
// takes them only if they end with the claim's last hash and start with
// its first id; then they are checked as any segment's are (the chain, each
// hash against its content, every signature). So a proposal changed,
// reordered, cut short or deleted after its claim was written stops every
// pull there, named by the claim's place, as a changed segment does
// (TestTamperedProposalRefused).
//
// What it changes: a lost race costs the log's partition one write unit
// (the claim is a few hundred bytes) instead of the whole segment's, and
// the segment's bytes are written once, to a partition no one else
// writes, instead of once per attempt. Readers of the log's partition read
// claims; the events are read from the proposals' partitions, one per
// large append, so the reads of a close of polls are spread over as many
// partitions as devices. Measured with TestAppendCapacity at a close of
// polls (200 devices, 100 ballots each cast offline, 20,000 in all), two
// runs each way interleaved (make loadtest, -claimfrom -1 for none): all
// 20,000 in the log at 1,602 and 1,711 ballots/s instead of 619 and 635,
// p50 6.0-6.6 s and p99 10.7-12.4 s from cast to append instead of
// 14.3-15.5 s and 29.9-31.3 s, no failed cycle instead of 164-173, and
// no throttled request instead of 4,219-4,285: the log's partition took
// 89 write units a second instead of 564-580, although a device lost 4.2
// to 4.5 races an append instead of 1.7 to 1.8 (a lost race no longer
// costs enough to be throttled, so devices try more often). The 200
// proposals took 6,589 write units, each within its own partition's
// budget.
//
// What it costs: an append of a large run makes one more request (the
// proposal, once per run and cycle, before the first try), and a reader
// one more for each page that holds claims; small appends (every
// interactive sync of a ballot or two) are not claimed. A proposal whose
// run was never claimed (its device stopped between the two writes, or
// had more to push by its next try, which proposes the longer run, or a
// copy of its database claimed the run first) is removed by the device
// that wrote it (dropProposals, claim.go): it notes each proposal before
// writing it (sync setting "proposals"), and once the run's first event
// is no longer pending and a claim it wrote or read names another
// proposal of that event, it deletes its own. The log holds each event
// once, so no claim can name the proposal removed; a proposal that a
// claim names is never removed, and one whose run went into the log
// another way (a segment, a claim the device did not see) is left
// (TestUnclaimedProposalsDropped: a run that grew, a copy that claimed
// first). What is left stays in the table unread: storage, not a wrong
// log; verify --cloud counts it (it scans the table for proposals).
// Crash points: after a
// proposal is written (TestCrashBetweenSteps/proposed-claim) and after its
// claim commits (appended-claim). A device of a version before claims
// stops its pull at the first claim ("holds no events"), naming its place,
// until it is upgraded. TestRandomDeploymentsKeepEveryReceipt claims every
// append, however small (Config.ClaimFrom 1).
//
// Reading at half price: a cycle reads the head consistently first; every
// event up to it is in the log. When at least 16 of them are to be
// pulled, they are read with eventually consistent queries as far as those
// go, and the rest consistently, from the first event they did not give.
// An eventually consistent read may lag the partition's writes but never
// returns an item that is not there: segments never change once written.
// A copy that lags ends its answer early, or (if a copy could apply
// writes out of order) leaves a gap; either way the consistent read from
// the first missing event decides, so nothing is missed and nothing read
// twice. TestPullEventuallyConsistent pulls through ddblimit's lagging
// copy (StaleReads), TestPullThroughGaps through one that leaves a gap
// (StaleGaps), and TestLimits through a lagging copy with every other
// limit at once.
//
// # The cloud projection
//
// The device's projection after integrating event N, without its pending
// events, equals the cloud projection after N: the same events applied by
// the same code. So a device does not replay anything for the cloud: it
// writes the confirmed values of the items changed since L. localstore keeps
// cloud_dirty (a mark per confirmed transaction and item it changed, keyed
// by the event's sequence number, so those after L are read in one seek)
// and reads
// confirmed values under the pending events (an item a pending event changed
// has its confirmed value as the earliest before-image in the undo records).
//
// Writers must not regress the projection, and a crash can leave it half
// written, so METADATA/SYNC carries a claim:
//
//  1. Read METADATA/SYNC (consistent): L, and any claim with its target T.
//     Nothing to do if C <= L; leave it if another device claims T > C.
//  2. Claim: UpdateItem SET claim = random token, claim_target = C, on
//     condition that last_event_id is still L and the claim is still the one
//     read (or none). Taking over a claim (a crashed or slower writer) is
//     allowed when C >= T: every item the old writer may have written was
//     changed in (L, T], so it is among ours, and we write it again.
//  3. Write the changed items (puts and deletes) with BatchWriteItem, 25
//     per request and about 512 KB (an import's ballots are chunks of up to
//     256 KB), by 8 workers, retrying unprocessed items with backoff.
//     A batch cannot carry a condition, so each worker re-reads the claim
//     (consistent GetItem) at least once a second and stops at once when it
//     is no longer ours. In the seed's layout one election's ballots share
//     its partition (ELECTION#{name}), so DynamoDB paces a large projection
//     at that partition's 1,000 write units a second: a batch refused as
//     busy (throttled whole, or handed back unprocessed) waits and retries
//     for as long as any of the writers makes progress, and gives up only
//     after two call timeouts in which none did
//     (TestProjectionGivesUpWhenNothingMoves). TestProjectionBudget
//     measured, through sync/ddblimit, a million imported ballots (822
//     chunks, 0.024 write units a ballot) in the cloud projection in 24 s
//     and in the log, which is what devices sync and count from, in 6.8 s
//     (2026-11-29). A ballot an item, as imports were stored until then,
//     took a unit each: 975 items a second, 17 minutes a million.
//  4. Finish: SET METADATA/SYNC to the confirmed item (last_event_id = C,
//     last_event_hash) and REMOVE the claim, on condition that it is ours.
//
// Two devices never write older values over newer ones: the only writer is
// the claim holder, a claim moves only to a writer whose target is at least
// as far, and the SYNC item's last_event_id only moves forward (the claim is
// conditioned on it). A writer that loses its claim may still have batches
// in flight; every call ends within the call timeout (below) and the claim
// is re-read before each batch, so a device that takes over a claim waits
// one call timeout plus the re-read interval before it writes. While a claim
// is open, readers of vote_data may see a mix of L and C; METADATA/SYNC says
// which event the projection is complete up to, and the claim says a write
// is in progress. The claim holds no time: no device clock matters.
//
// The projection written is the device's rebuild of the confirmed log
// (cloud_dirty and the undo records), never a value a pusher supplies: what
// the log says, replayed by the same rules. A device that wrote something
// else (a tampered file, a bug, anyone with write access to the table) is
// corrected by the check: when a sync finds nothing new to project, it reads
// the whole of vote_data and compares it with its own confirmed projection,
// and rewrites every item that differs, deleting items the log never made.
// It does so every cycle while the projection holds at most
// ProjectionCheckBytes, at most once per ProjectionCheckEvery above that, and always with `sync --check-projection`. `verify --cloud` rebuilds the projection from the cloud log in
// a scratch database and reports every difference with vote_data.
//
// # Deadlines
//
// Every DynamoDB call, its retries included, ends within Config.CallTimeout
// (DefaultCallTimeout, 30 s). A frozen endpoint ends the cycle with "DynamoDB
// at ... did not answer within 30s"; `sync --watch` and the app retry with
// exponential backoff (app.Backoff), and the watcher opens the database only
// for the length of a cycle, so other commands and the app can use it in
// between.
//
// # Device identity and signatures
//
// Every event since log format 2 carries two Ed25519 signatures: the
// actor's (a key sealed under the actor's password, unlocked at sign-in)
// and the device's (a key made when the database was created). An event id
// is DEVICE-SEQ where DEVICE is derived from the device's public key, so no
// device can take another's ids: a pulled event whose id does not name the
// key that signed it, or whose actor signature does not check against the
// actor's registered key, is refused on every device. A database file is
// bound to where it lives (machine id, device and inode); a copied file
// notices on open that it is a new device and takes a new key and id
// (DeviceJoined, "copied"), and a restored older file notices on its first
// pull, when the cloud log holds its own later events, and does the same
// ("rewound"). Pending events are matched to pulled ones by id and content
// hash; the same id with other content is a recorded device_collision
// conflict, and the pending events are re-signed under the new identity,
// never dropped. See SECURITY.md for what this does and does not protect.
//
// # Devices of different versions
//
// Every device applies every event with its own rules, so two versions
// whose rules differ would hold different states from the same log
// without knowing. The log has no rules version yet; what keeps a mixed
// fleet safe is that a device stops where it meets what it cannot read:
// an event of a type it does not know, an event format above its own, a
// line with a key no event or cut has. It applies nothing of that page
// and says so, naming the place and asking for a newer VoteDesk
// (TestDecodeEntrySaysANewerVoteDesk). The versions before shards stop at
// the first cut ("event N has no id": they cannot say more). So a version
// that changes what the rules decide for events already in use must not
// only change the code: it must append an event of a new type that says
// from where its rules apply, which older devices stop at, and apply the
// old rules to the events before it.
//
// # Shards
//
// Built on 2026-11-27 (issue 15). The log is stored in shards: LOG#global
// holds users, roles, devices, the elections' set-up and lifecycle, poll
// books, decisions on conflicts and small runs of ballots, and
// LOG#ELECTION#{id} holds one election's ballot events (BallotCast,
// BallotRankingsChanged, BallotsImported, AuditBallotRead) pushed in runs
// of at least 256 KB (below; app.ShardOf reads the election's id from the
// payload's first bytes, and anything it cannot place goes to the global
// shard, which is always right). Each shard is a gap-free,
// hash-chained run of segments with its own head, appended to as above
// (conditional writes; the partition key is the shard's).
//
// Where an event stands in the log is decided by the global shard alone.
// Besides events it holds cuts, entries of their own:
//
//	{"seq":57,"cut":{"shard":"ELECTION#…","to":812,"to_hash":"…"},"prev_hash":"…","hash":"…"}
//
// A cut orders the events of its shard after the shard's last cut up to To
// at its own place, and gives the hash the shard's chain has at To (a cut
// that reaches no further than an earlier one orders nothing). Every device
// reads the global shard in order and, at each cut, the events it covers
// (one query per shard per page of the global shard), so every device
// holds one merged log in one order: the local log, numbered and hash
// chained the same on every device (a pulled event is chained again onto
// the merged log's last hash when the one it was stored after differs; an
// event's content, id and signatures do not depend on its place). So every
// rule, every projection item keyed by a sequence number and every
// argument above about one gap-free log holds for the merged log, and the
// two lists TestLocalSequenceInProjection and TestShardScopes keep (app)
// do not matter: this is the design the note of 2026-11-27 called "one
// merged order". A device keeps, with its confirmed head and in the same
// bbolt transaction, where its reading of each shard stands (the mark:
// the global shard's last entry, and for each election's shard the end of
// its last cut, with hashes).
//
// A push splits the pending events into runs by shard, in order. A run of
// ballots lighter than 256 KB of JSON (Config.ShardFrom, DefaultShardFrom:
// a few hundred ballots) joins the global shard's run around it: its cut
// would cost a second append at a contended head, and what a shard spares
// the global partition, write units, matters only for bulk (an import of
// a million ballots would take that partition's whole write budget for
// tens of seconds). A run of the global shard alone is pushed as before and confirmed at once. A
// run of an election's shard is appended to that shard, and a cut to its
// end then goes to the global shard with the global events that follow
// it; global events before an election run are in the global shard before
// the run is appended, since from then on any device's cut may order it.
// Both appends work as an append at the head (appendEntries): read the
// shard's head (one small query), place the entries after it, append on
// condition; after a lost race look at what holds the contested place (its
// own attempt whose answer was lost ends the race), wait the backoff (each
// shard's head counts its own lost races) and read the head again. The
// next pull finds the events where the cuts put them and confirms them by
// id and content, as after an append at the head.
//
// Why nothing is lost or doubled: an event is appended to one shard, at a
// place after everything its device read there, and an attempt either
// committed where it was placed or wrote nothing. Within a cycle every
// lost race is checked for its own lost answer. A run for an election's
// shard is first looked for in what the shard holds past its last cut,
// by id, before every try, and only what is not there is appended: the
// device may have appended it in a cycle that stopped after the append,
// before the cut or the pull that confirms it
// (TestCrashBetweenSteps/appended kills the process there), or a copy of
// this database may have, since it held the same events pending. Until
// 2026-11-28 only a run this device had noted before appending was looked
// for: a random history (TestRandomDeploymentsInShards, seed
// 1795826352289860648, kept as a regression case) copied a laptop to a
// kiosk that was killed right after appending the copied ballots, and the
// laptop appended them again after them; the cut ordered both. A cut orders only events its device read or wrote (a tail
// it read is checked against its chain first), so a device's pull never
// meets a cut it cannot follow unless the shard was damaged, which the
// pull names like any bad segment (a cut whose events are missing or do
// not end with its hash ends the read there, named by its place in the
// merged log). Ordering is the global shard's order, so a ballot whose
// official lost the role earlier in the global shard is refused on every
// device (TestShardsConverge).
//
// A ballot that is in its shard with no cut yet is stored but in nobody's
// log: its device cuts it within the same cycle, and if that device stops
// for good in between (a crash, a kiosk taken away), the next device whose
// sweep finds those events still uncut one sweep after it first saw them
// cuts them itself (TestSweepOrdersAStoppedDevicesBallots). A device knows
// an election's shard from its cuts, from the election's creation and
// from any of its ballots in the global shard. A sweep ends a cycle at
// most every 30 s (every one-off `sync`), and looks at the heads of eight
// shards, in turn (one small query each), and at every one it found events
// waiting in. `verify --cloud` checks every
// shard's chain and every cut, and says how many events each shard holds
// past its last cut.
//
// A log written before shards (every event in LOG#global, no cuts) is the
// global shard's first part and is read as it is: nothing to migrate. A
// database that synced with it kept no mark; its mark is then its
// confirmed head in the global shard, which is what it is
// (TestLogOfOneShardGoesOn). A device of the version before shards stops
// its pulls at the first cut ("cloud log event N is malformed") until it
// is upgraded, so it cannot hold a log that differs; events it still
// appends at the global head are read by the others as events of the
// global shard, which is where that version put everything.
//
// What shards do not do yet:
//   - Every device reads every shard. A kiosk could read only the global
//     shard and its election's, leaving the places of other elections'
//     events empty (a cut says how many events it orders), but the rules
//     applied to a log with holes would decide global events that read
//     another election's state (deleting or merging an election, name
//     checks on poll books) differently from devices that hold it, so
//     such a kiosk would need its own notion of state; not built. The
//     cases, read in app on 2026-11-28: ElectionDeleted is refused while
//     a launched or closed election counts ballots (DeleteRefusal reads
//     e.Ballots, which its shard's imports raise), and a deletion accepted
//     on a kiosk that skipped those imports frees the name for a later
//     rename of the kiosk's own election, which other devices refuse; a
//     merge (ConflictResolved) moves the merged election's ballots, read
//     or not, into the election it joins, and from then on ballots cast
//     by that election's id (in its shard) count in the one it joined, so
//     a kiosk must have read the shard of any election that ever merges
//     into its own, which it cannot know before the merge. Besides, a
//     kiosk's ballots go to the global shard (runs under 256 KB, below),
//     so a kiosk that read only its shard would still read every kiosk's
//     ballots; what it would be spared is other elections' imports.
//   - One election's ballots still go through one head: shards spread
//     the write units of bulk runs (imports) over partitions, not the
//     appends of one busy election (see "What one partition carries"),
//     and a kiosk's ballots go to the global shard. Tried and not kept,
//     measured with TestLoad (one election, a slow afternoon): every run
//     in its election's shard, so every push made two appends (its run,
//     then its cut), each at a contended head. 200 kiosks casting steadily:
//     5.1-10.7 lost races a push, p50 27-36 s and p99 48-72 s from cast to
//     confirmed in five runs, against 25.7-38.6 s and 45.8-74.2 s for the
//     code before shards in three. Then runs under 16 KB in the global
//     shard, and a close of polls of 50 kiosks with 100 ballots each (70
//     KB a run, in the shard): 186 and 216 ballots/s, p99 26.9 and 23.2 s,
//     7.6 and 7.3 lost races a push, against 270 and 210/s, 18.5 and 23.8
//     s, 3.2 and 3.6 before shards, runs interleaved: twice the lost races
//     for nothing one election needs. Hence the threshold of 256 KB. Waiting, when
//     another device had appended after this one's run, for that device's
//     cut to order both (only the last of a burst cuts) did not help: under
//     steady load there is always a later appender, so every device waited.
//   - A device that appended a run takes it, when its cut comes up in the
//     pull, from what it appended rather than reading it back, if the run
//     continues the shard from where the device stands there (ownRange);
//     a run that another device's run came before in the same page is read.
//     TestProjectionBudget's 50,000 imported ballots reached the log in 460
//     ms (570 when read back; 190 before shards: a run in a shard costs
//     two appends, and a mark kept with each page); a million, in 6.8 s
//     under the partition's budget, its transactions of 25 segments
//     cancelled as throttled and sent again (appendSegments).
package cloudsync
