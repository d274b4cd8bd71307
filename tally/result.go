package tally

import (
	"fmt"
	"strings"
)

// Exhausted and ResidualSurplus are the pseudo-destinations of a Transfer:
// votes that left the count, and the fraction of a surplus lost to rounding.
const (
	Exhausted       = -1
	ResidualSurplus = -2
)

// Result is the outcome of a count. Ranked-choice methods fill Passes with
// round-by-round detail; the other methods fill Places and, where they have
// one, Pairwise.
type Result struct {
	Method Method
	// Winners in order of election (for rank-order methods: the first place).
	Winners []int
	// Places ranks every candidate; candidates that tie share a place.
	Places []Place
	// Passes holds the rounds of a ranked-choice count: one pass, or one per
	// seat for multiPassIrv.
	Passes []Pass
	// Pairwise holds the preference matrices of the pairwise methods.
	Pairwise *Pairwise
	// Scores holds the per-candidate score of score-based methods (Borda,
	// Dowdall, Copeland, Minimax, Kemeny-Young, plurality), indexed by candidate.
	Scores []Decimal
	// TieBreaks lists every decision a tie-break made, in order.
	TieBreaks []TieBreak
}

// Place is one position in a ranking; tied candidates share it and the
// next place skips (1, 1, 3).
type Place struct {
	Place      int
	Candidates []int
}

// Pass is one complete ranked-choice count.
type Pass struct {
	// Winners elected in this pass, in order of election.
	Winners []int
	Rounds  []Round
	// Excluded lists candidates left out of this pass (earlier multi-pass
	// winners and candidates the contest excludes).
	Excluded []int
	// Audit is the per-ballot trail, present only when asked for (WithAudit).
	Audit []AuditEntry
	// AuditValues holds the ballot values of audit entries other than 1.
	AuditValues []Decimal
	// Groups has the same rounds restricted to each ballot group, present
	// only when asked for (WithGroups).
	Groups []GroupRounds
}

// Round is the state after one round of counting and what was decided.
type Round struct {
	Number int
	// Tally lists the candidates in the count this round with their votes,
	// by candidate index; candidates already out are absent.
	Tally     []Votes
	Threshold Decimal
	Inactive  Inactive
	// ResidualSurplus is the running total of surplus lost to rounding.
	ResidualSurplus Decimal
	// Active is the total held by candidates plus any final-round surplus
	// (RCTab's "Active Ballots").
	Active Decimal
	// Elected and Eliminated are decided at the end of this round.
	Elected    []int
	Eliminated []int
	// Transfers are the moves of the elected and eliminated candidates'
	// votes, counted in the next round, by source then destination.
	Transfers []Transfer
	// TieBroken lists candidates elected or eliminated here by a tie-break.
	TieBroken []int
}

// Votes is one candidate's tally in a round.
type Votes struct {
	Candidate int
	Votes     Decimal
}

// Inactive counts ballots (weighted by their value) that no longer count for
// a candidate, by the reason they stopped.
type Inactive struct {
	NoRankings       Decimal
	Overvotes        Decimal
	SkippedRankings  Decimal
	ExhaustedChoices Decimal
	RepeatedRankings Decimal
	// FinalRoundSurplus is the value of winners' surpluses with nowhere to go
	// once every seat is filled (multi-seat counts only).
	FinalRoundSurplus Decimal
}

// Total is the sum of every inactive category except the final-round
// surplus, which still counts as active.
func (in Inactive) Total() Decimal {
	return in.NoRankings.Add(in.Overvotes).Add(in.SkippedRankings).Add(in.ExhaustedChoices).Add(in.RepeatedRankings)
}

// Transfer is a movement of votes from one candidate to another, to
// Exhausted, or to ResidualSurplus.
type Transfer struct {
	From, To int
	Votes    Decimal
}

// TieBreak records a tie and how it was resolved.
type TieBreak struct {
	Pass, Round int
	// SelectingWinner is true when the tie decided a winner, false a loser.
	SelectingWinner bool
	Tied            []int
	Votes           Decimal
	Chosen          int
	// Explanation says which rule decided, in words.
	Explanation string
}

// Text says the tie-break in words, as every view of a count says it
// (the app's results, the command line, the HTML report): "Round 2: Ben
// and Cy tied; Cy eliminated (the explanation)." name gives a candidate's
// name.
func (tb TieBreak) Text(name func(int) string) string {
	tied := make([]string, len(tb.Tied))
	for i, c := range tb.Tied {
		tied[i] = name(c)
	}
	what := "eliminated"
	if tb.SelectingWinner {
		what = "elected"
	}
	return fmt.Sprintf("Round %d: %s tied; %s %s (%s).", tb.Round, JoinNames(tied), name(tb.Chosen), what, tb.Explanation)
}

// JoinNames writes "A", "A and B", "A, B and C".
func JoinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Status is why a ballot counts or stopped counting in a round.
type Status uint8

// The ballot statuses of the audit trail.
const (
	Active Status = iota
	NoRankings
	Overvoted
	SkippedRankings
	RepeatedRanking
	ExhaustedChoices
	FinalRoundSurplus
)

// AuditEntry says what happened to one ballot record in one round: it was
// counted for (or transferred to) a candidate, or became inactive. It is
// kept small (a big count has millions).
type AuditEntry struct {
	Round     int32
	Ballot    int32
	Candidate int32 // the candidate counted for, or -1
	Status    Status
	// value indexes the pass's AuditValues; -1 means the ballot's value is
	// exactly 1 (always so in single-winner counts). Holding no pointers,
	// the trail of a big count costs the garbage collector nothing.
	value int32
}

// AuditValue returns the value of the ballot in an audit entry of this pass.
func (p Pass) AuditValue(e AuditEntry) Decimal {
	if e.value < 0 || int(e.value) >= len(p.AuditValues) {
		return DecimalInt(1)
	}
	return p.AuditValues[e.value]
}

// GroupRounds are the rounds seen from one group of ballots (a precinct or
// a batch): the same decisions, counted over that group's ballots only.
type GroupRounds struct {
	Grouping string
	Group    string
	Rounds   []Round
}

// VotesOf returns candidate c's votes in the round, and whether c is
// counted in it (a candidate already out is not).
func (rd Round) VotesOf(c int) (Decimal, bool) {
	for _, v := range rd.Tally {
		if v.Candidate == c {
			return v.Votes, true
		}
	}
	return Decimal{}, false
}

// TallySum is the sum of the candidates' votes in the round.
func (rd Round) TallySum() Decimal {
	var t Decimal
	for _, v := range rd.Tally {
		t = t.Add(v.Votes)
	}
	return t
}
