package app

import (
	"fmt"
	"slices"
	"strings"
)

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
	min := smallGroupMin(e)
	if n >= min {
		return false, ""
	}
	return true, fmt.Sprintf("suppressed: %d ballot(s), fewer than %d, in a secret election", n, min)
}

// smallGroupMin is the fewest ballots a slice of the election's count may
// show on its own: the election's smallGroupThreshold (SmallGroupThreshold
// unless set) for a secret election, 0 for an open one.
func smallGroupMin(e Election) int64 {
	if !e.BallotsSecret() {
		return 0
	}
	min := int64(SmallGroupThreshold)
	if v, ok := e.Rules[RuleSmallGroup]; ok {
		fmt.Sscan(v, &min)
	}
	return min
}

// MergeSmallGroups applies the small-group rule to one column of a secret
// election's ballots (values[i] is ballot i's precinct or batch; what names
// the column, e.g. "precinct"), for every view that slices a count or a
// cast vote record file by it: every group of fewer ballots than the
// election's threshold is reported with the other small ones, under one
// label, as election offices combine small precincts. When the small ones
// together are still too few, they join the smallest group that is large
// enough (its label says so); when no group is, every ballot is in one group
// (which is the whole count, shown anyway). It returns the column to use
// (values itself when nothing changes) and a note for the reader saying
// which groups were combined and why ("" when none). An open election's
// column is returned as it is.
func MergeSmallGroups(e Election, what string, values []string) ([]string, string) {
	min := smallGroupMin(e)
	if min <= 1 || values == nil {
		return values, ""
	}
	size := map[string]int64{}
	for _, v := range values {
		size[v]++
	}
	var small []string
	var smallTotal int64
	big, bigSize := "", int64(-1)
	for v, n := range size {
		switch {
		case n < min:
			small = append(small, v)
			smallTotal += n
		case bigSize < 0 || n < bigSize || n == bigSize && v < big:
			big, bigSize = v, n
		}
	}
	if len(small) == 0 || len(size) == 1 {
		return values, ""
	}
	slices.Sort(small)
	label := fmt.Sprintf("Combined %ss (fewer than %d ballots each)", what, min)
	switch {
	case smallTotal >= min: // two or more small groups, enough together
	case bigSize >= 0:
		label = fmt.Sprintf("%s with %ss of fewer than %d ballots", groupName(big), what, min)
		small = append(small, big)
	default:
		label = fmt.Sprintf("All %ss (each fewer than %d ballots)", what, min)
	}
	merged := make(map[string]bool, len(small))
	shown := make([]string, 0, len(small))
	for _, v := range small {
		merged[v] = true
		if v != big || bigSize < 0 {
			shown = append(shown, groupName(v))
		}
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = v
		if merged[v] {
			out[i] = label
		}
	}
	subject := fmt.Sprintf("%ss %s had fewer than %d ballots each and are", what, strings.Join(shown, ", "), min)
	if len(shown) == 1 {
		subject = fmt.Sprintf("%s %s had fewer than %d ballots and is", what, shown[0], min)
	}
	note := fmt.Sprintf("%s is a secret election: %s reported as %q, so that no %s's results single out its few voters (smallGroupThreshold).",
		e.Name, subject, label, what)
	return out, note
}

// groupName is how a note names a group: its value, or "(none)" for the
// ballots that name none.
func groupName(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// RuleSmallGroup is the election setting (among its rules) that changes
// SmallGroupThreshold.
const RuleSmallGroup = "smallGroupThreshold"
