package rla

import (
	"slices"

	"votedesk/tally/raire"
)

// Kind is the kind of audit.
type Kind string

// The kinds of audit.
const (
	// Comparison is a ballot-level comparison audit: each sampled paper
	// ballot is compared with its cast vote record.
	Comparison Kind = "comparison"
	// Polling is a ballot-polling audit: only the paper ballots are read.
	Polling Kind = "polling"
)

// Assort returns SHANGRLA's assorter for the RAIRE assertion on one ballot
// (a preference list, most preferred first): 1 when the ballot counts for
// the assertion's winner, 0 when it counts for its loser, 1/2 otherwise.
//
// For NEB(w, l) the ballot counts for w when w is its first preference,
// and for l when it ranks l above w or ranks l and not w. For NEN(w, l,
// S) it counts for its first candidate in S. The assertion holds exactly
// when the assorter's mean over all the ballots exceeds 1/2. A candidate
// listed twice counts where it first appears; an assertion of another
// type gives 1/2.
func Assort(a raire.Assertion, prefs []int) float64 {
	switch a.Type {
	case raire.NEB:
		if len(prefs) > 0 && prefs[0] == a.Winner {
			return 1
		}
		for _, p := range prefs {
			if p == a.Winner {
				return 0.5
			}
			if p == a.Loser {
				return 0
			}
		}
	case raire.NEN:
		for _, p := range prefs {
			if !slices.Contains(a.Continuing, p) {
				continue
			}
			switch p {
			case a.Winner:
				return 1
			case a.Loser:
				return 0
			}
			return 0.5
		}
	}
	return 0.5
}
