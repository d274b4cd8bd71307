package app

import "fmt"

// The one disclosure rule for an election's ballots, which every query of
// ballot contents (counts, round tables, ballot lists, CVR and results
// exports, reports, per-precinct or per-batch slices, the log, conflicts,
// refusals) applies, so every surface shows the same.
//
// In an election whose ballots are secret (BallotsSecret), below AUDITOR
// (VIEW_SECRETS):
//   - no ballot contents in any form while the polls are open, or before
//     they open (ballots imported into a draft): no count, no list, no
//     export or report. Turnout (how many ballots, who has voted, as the
//     poll book shows) stays visible: it reveals no choice.
//   - from when the polls close (closed or finalized), contents are shown,
//     but never which voter cast which ballot, or when: lists come in
//     confirmation-code order.
//   - slices of the count by precinct or batch with fewer ballots than
//     SmallGroupThreshold are suppressed (SmallGroup).
//
// AUDITOR and OWNER see everything. In an open-ballot election everyone
// who may view the application sees the contents and the links, live
// while voting goes on (results marked preliminary).

// Disclosure is what one viewer may see of one election's ballots.
type Disclosure struct {
	// Contents: rankings in any form (counts, lists, exports, reports).
	Contents bool
	// Links: which voter cast which ballot, and when.
	Links bool
	// Secret: the election's ballots are secret.
	Secret bool
}

// Disclose applies the rule to an election and a viewer's role.
func Disclose(e Election, role Role) Disclosure {
	secret := e.BallotsSecret()
	sees := !secret || role.Has(PermViewSecrets)
	return Disclosure{Contents: sees || e.PollsClosed(), Links: sees, Secret: secret}
}

// withheld is the error of a query of contents the rule withholds.
func withheld(e Election) *Error {
	return Errorf(CodeForbidden, "%q is a secret election whose polls are open: its ballots and counts are shown from when its polls close (AUDITOR and up see them now); turnout is shown in the poll book", e.Name)
}

// SmallGroupThreshold is the default fewest ballots a precinct or batch of a
// secret election must hold for its own results to be shown; smaller ones
// are suppressed, as election offices do for small precincts.
const SmallGroupThreshold = 10

// SmallGroup reports whether a slice of an election's count (a precinct, a
// batch) of n ballots must be suppressed, and says why.
func SmallGroup(e Election, n int64) (bool, string) {
	min := int64(SmallGroupThreshold)
	if v, ok := e.Rules[RuleSmallGroup]; ok {
		fmt.Sscan(v, &min)
	}
	if !e.BallotsSecret() || n >= min {
		return false, ""
	}
	return true, fmt.Sprintf("suppressed: %d ballot(s), fewer than %d, in a secret election", n, min)
}

// RuleSmallGroup is the election setting (among its rules) that changes
// SmallGroupThreshold.
const RuleSmallGroup = "smallGroupThreshold"
