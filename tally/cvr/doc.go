// Package cvr reads cast vote records — the ballot files voting systems and
// other tabulators export — into a tally.BallotSet, and writes ballot sets
// out again. It sits beside tally, which stays pure: all file I/O is here.
//
// # Reading
//
// A Source describes one file the way an RCTab config's cvrFileSources
// entry does (same JSON names), and Read appends its ballots to a set,
// resolving candidate names through the contest's Candidates. ReadFile
// reads a file on its own terms instead, taking its candidates from the
// file. Formats, with RCTab's semantics for RCTab's providers:
//
//   - cdf: NIST SP 1500-103 CVR report, JSON or XML. The contest is the one
//     whose Name (else @id) is Source.ContestID; each CVR's ballot is that
//     contest in its CurrentSnapshotId snapshot (a CVR without the contest
//     there is skipped). Ranks come from CVRContestSelection.Rank or from
//     each SelectionPosition; positions with HasIndication or IsAllocable
//     "no" and selections with Status "needs-adjudication" are ignored.
//     IsWriteIn selections and CVRWriteIn positions are the undeclared
//     write-in. BallotStyleUnitId names the precinct GpUnit; the id is
//     BallotPrePrintedId, else UniqueId. The file is read twice, streaming
//     the CVRs, so it is never held in memory.
//   - genericCsv: header row of candidate names from firstVoteColumnIndex
//     on; each later row (from firstVoteRowIndex) gives a rank in the
//     column of each candidate it ranks. Blank is not ranked.
//   - clearBallot: Clear Ballot CSV; columns from the 11th are
//     "Choice_N:Contest:Rank:Rule:Candidate:Party", 1 marks the choice.
//   - ess: ES&S xlsx, first sheet streamed row by row; a column per rank
//     from firstVoteColumnIndex, cells naming candidates (overvoteDelimiter
//     splits several), labels, or blank. Options.MaxRankings is the last
//     ranking column, as RCTab's maxRankingsAllowed. All-blank rows are
//     skipped.
//   - blt: OpenSTV/ERS ballot file: weights, "-" skipped ranks, "a=b" ties,
//     "-=-" unknown overvotes (tally.Overvote), withdrawn candidates,
//     "(id)" ballot ids, names and title at the end.
//   - preflib: PrefLib .soc, .soi, .toc, .toi ("count: a,{b,c},d").
//   - votedesk: VoteDesk's ranked-ballot CSV: an optional line
//     "# candidates: A,B,C", the header ballot_id,rank_1,...,rank_n, one
//     ballot per row, a candidate name per cell, "A|B" for two marks at
//     one rank.
//
// Labels apply to every format: a name equal to the source's
// skippedRankLabel (or its older name undervoteLabel) is no mark, one equal
// to the overvoteLabel is a tally.Overvote mark, one equal to the
// undeclaredWriteInLabel is the contest's candidate UndeclaredWriteIn. A
// name the contest's Candidates does not know fails the read with
// ErrUnknownCandidate, unless no ballot marks it — RCTab's rule. Several
// marks at one rank are kept as they are (an overvote or a tie: the count's
// rules decide); so are repeated candidates and skipped ranks. The
// overvote label beside other marks at one rank fails the read, naming
// the record: no rule says whether such a rank is an overvote or the
// candidates marked there (a candidate marked twice at one rank is one
// mark, as RCTab keeps a set per rank).
//
// Blank precinct cells give the precinct "" (RCTab reports these as "no
// precinct id" or "missing_precinct_id"). The batch column is kept out of
// the rankings but not stored: tally.BallotSet has no batch column.
//
// # Errors
//
// Read is all or nothing: the ballots are read into a fresh set and
// appended only when the whole file has been read, so a failed read changes
// nothing. Every problem with a file's content is a *ParseError that names
// the file, the line (or spreadsheet row, or CDF CVR) and the column, and
// says what is wrong, for example
//
//	clear_ballot_kansas_primary.cvr.csv: line 7, column 12: unknown candidate "Joe Biden2"
//
// Cancelling the context stops a read; the error then wraps the context's.
// No input makes a reader panic: every reader is fuzzed.
//
// # Writing
//
// WriteVoteDesk writes VoteDesk's CSV; WriteCDF writes CDF JSON in the
// shape and layout of RCTab's export, so the two diff cleanly.
package cvr
