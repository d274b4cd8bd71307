// Package app is VoteDesk's domain: users and roles, elections, candidates,
// poll books, ballots, the event log, and the one gate every command passes.
//
// # Commands and events
//
// Every change is an Event appended to the log: an envelope (id = device id
// and device sequence, sequence number in the log, time, actor, type) and the
// type's data. A command (Service.CastBallot, Service.CreateElection, ...)
// decides which event to record, then, in one Store transaction, appends it
// and applies it to the projection (the items the queries read). Applying is
// where the rules live: apply authorizes the actor against their role at that
// point of the log, validates the event against the projection, and only then
// writes. A command the rules refuse returns a domain *Error and writes
// nothing. Events that reach a device through sync go through the same
// apply (Replay); if the rules refuse one there (its actor lost the role, the
// election was finalized meanwhile), the refusal is recorded in the REJECTED
// partition instead of its effects. The projection is therefore a pure
// function of the log: rebuilding it from the log gives the same bytes.
//
// # Rules
//
// Roles, lowest to highest: NO_ACCESS, OBSERVER, VOTER, USER, ADMIN, AUDITOR,
// OWNER. Permissions: VIEW_APPLICATION (OBSERVER+), VOTE (VOTER+),
// USE_APPLICATION (USER+), MANAGE_USERS (ADMIN+), VIEW_SECRETS (AUDITOR+),
// TRANSFER_OWNER (OWNER). The first user registered becomes OWNER, later ones
// USER (added by someone with MANAGE_USERS). Nobody changes their own role;
// a manager grants only roles below their own, to users below them; the OWNER
// hands ownership over with TransferOwnership (and becomes AUDITOR). Users
// change their own name, email and password; managers those of users below
// them. The OWNER cannot be removed.
//
// An election is created as a draft (edit on, vote off) by a user with
// USE_APPLICATION, who owns it; its owner or an ADMIN+ manages it. Launching
// needs at least two candidates, turns voting on and editing off, and freezes
// the settings (only allow-edit may change, to fix the poll book). Candidates
// change only in a draft, and never once ballots exist; poll-book entries
// change while editing is allowed, but a voter who voted stays. Finalizing a
// launched election turns everything off for good. Deleting removes it from
// the projection; the log keeps its history.
//
// A risk-limiting audit (audit*.go) checks a closed single-winner IRV
// count against the paper. Who may do what:
//
//	start an audit, start its next round    the election's manager (MayRunAudit)
//	record a board's reading of a ballot    USE_APPLICATION (MayReadAuditBallots)
//	see the audit, its sample and records   whoever may see the election's
//	                                        ballots (Disclose: a secret
//	                                        election's after its polls close)
//
// The cast vote record of a sampled ballot is shown only once the board's
// two independent readings agree or a difference is settled. Only paper
// can be audited: an election with ballots cast on a screen (kiosk or
// signed in) is refused. The audit's events (AuditStarted, AuditRoundStarted,
// AuditBallotRead) form a set that converges in any order.
//
// A ballot is one voter's rankings in one election: (candidate, rank) pairs,
// rank 1 first, ties allowed, every candidate at most once. Casting needs
// VOTE; a VOTER casts only their own ballot, officials (USE_APPLICATION) cast
// for any poll-book voter (a kiosk) or enter paper ballots without a voter.
// The election must be launched, voting allowed, and the event's time inside
// the voting window. A second ballot from the same voter re-casts when the
// election allows it (the confirmation code stays) and is refused otherwise;
// when two offline devices both accept a first ballot from one voter, the
// first in log order counts and the other is kept as a CONFLICT for officials
// to resolve. Confirmation codes are short random codes like K3QZ-8WPM-T2VD
// (confirmation.go), so the published list of a secret election, ordered by
// confirmation code, says nothing about who voted when. In a secret election nobody below AUDITOR sees which voter cast which
// rankings: not in ballot lists, conflicts, or the log.
//
// Imported cast vote records (BallotsImported) belong to no voter; ballot i of
// an import event gets the id "{event id}.{i}". A record's id in its file is
// kept as the ballot's source id, which names one ballot per election: the
// import command refuses one that repeats a source id, within itself or with
// ballots already imported (events arriving by sync are not re-checked, so
// two devices importing the same file offline both keep theirs).
//
// # Storage
//
// The projection mirrors the seed design's DynamoDB table vote_data: items
// addressed by PK and SK (see keys.go), with GSI-1 on users' email, and the
// METADATA/COUNTS and METADATA/SYNC items. An Item is an attribute-value list
// that converts losslessly to DynamoDB's attribute-value map. Store and Tx are
// the interfaces localstore implements over bbolt.
//
// # Sync
//
// Syncer (sync.go) is what the GUI and the command line use to sync with the
// cloud; package sync implements it over DynamoDB. Pulled events pass through
// Replay like any other, so the rules above decide them again at their place
// in the shared log; CheckRun checks that a run of events continues a log
// (sequence, hash chain, whole envelopes).
package app
