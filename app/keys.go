package app

import "fmt"

// Partition and sort keys of the projection, as in the seed design's vote_data
// table. Names are used as they are; ValidateName keeps them free of the
// characters that would make two keys collide.
const (
	pkMetadata     = "METADATA"
	pkRejected     = "REJECTED"
	prefixUser     = "USER#"
	prefixElection = "ELECTION#"
	skMetadata     = "METADATA"
	skCounts       = "COUNTS"
	skSync         = "SYNC"
	prefixCand     = "CANDIDATE#"
	prefixVoter    = "VOTER#"
	prefixBallot   = "BALLOT#"
	prefixConflict = "CONFLICT#"
	// prefixUnlisted marks the sort key of a ballot that belongs to no poll-book
	// voter (an imported cast vote record or a transcribed paper ballot):
	// BALLOT##{ballot id}. Voter names never start with '#'.
	prefixUnlisted = prefixBallot + "#"
)

func userPK(name string) string         { return prefixUser + name }
func electionPK(name string) string     { return prefixElection + name }
func candidateSK(name string) string    { return prefixCand + name }
func voterSK(name string) string        { return prefixVoter + name }
func ballotSK(voter string) string      { return prefixBallot + voter }
func unlistedBallotSK(id string) string { return prefixUnlisted + id }
func conflictSK(seq uint64) string      { return prefixConflict + seqKey(seq) }
func rejectedSK(seq uint64) string      { return seqKey(seq) }

// seqKey writes a log sequence fixed-width, so string order is numeric order.
func seqKey(seq uint64) string { return fmt.Sprintf("%020d", seq) }
