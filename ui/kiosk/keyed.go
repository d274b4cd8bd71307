package kiosk

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"votedesk/app"
)

// keyed is one paper ballot as an official keyed it: for each rank, first
// choice first, the numbers (1 = first candidate on the ballot) of the
// candidates marked at that rank. Several numbers at a rank are an overvote
// and none a skipped rank, so a paper ballot is transcribed as it was marked
// and the counting rules decide what such marks mean. An empty keyed is a
// blank ballot.
type keyed [][]int

// parseKeyed reads a keyed line for a ballot of n candidates:
//
//	3 1 4     candidate 3 first, then 1, then 4 (also "3,1,4" or "3>1>4")
//	314       the same, when there are at most 9 candidates
//	3 1/2 4   candidates 1 and 2 both marked second (an overvote)
//	3 - 4     nothing marked second (a skipped rank)
//	0         a blank ballot
func parseKeyed(line string, n int) (keyed, error) {
	line = strings.TrimSpace(line)
	switch line {
	case "":
		return nil, fmt.Errorf("type the candidate numbers in order of preference (for example 3 1 4), or 0 for a blank ballot")
	case "0":
		return keyed{}, nil
	}
	var out keyed
	seen := map[int]bool{}
	for _, tok := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '>' || r == '\t' }) {
		if tok == "-" || tok == "_" {
			out = append(out, nil)
			continue
		}
		var ranks [][]string
		switch {
		case strings.ContainsAny(tok, "/="):
			ranks = [][]string{strings.FieldsFunc(tok, func(r rune) bool { return r == '/' || r == '=' })}
		case n <= 9 && len(tok) > 1 && isDigits(tok):
			for _, d := range tok {
				ranks = append(ranks, []string{string(d)})
			}
		default:
			ranks = [][]string{{tok}}
		}
		for _, marks := range ranks {
			var rank []int
			for _, m := range marks {
				c, err := strconv.Atoi(m)
				if err != nil || !isDigits(m) {
					return nil, fmt.Errorf("%q is not a candidate number", m)
				}
				if c < 1 || c > n {
					return nil, fmt.Errorf("%d is not a candidate number (they go from 1 to %d)", c, n)
				}
				if seen[c] {
					return nil, fmt.Errorf("candidate %d is keyed twice", c)
				}
				seen[c] = true
				rank = append(rank, c)
			}
			slices.Sort(rank)
			out = append(out, rank)
		}
	}
	for len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no candidate is keyed; type 0 for a blank ballot")
	}
	if len(out) > n {
		return nil, fmt.Errorf("%d ranks keyed, but the ballot has only %d", len(out), n)
	}
	return out, nil
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// String writes k the way parseKeyed reads it, in one canonical form: "3 1/2 - 4", "0".
func (k keyed) String() string {
	if len(k) == 0 {
		return "0"
	}
	parts := make([]string, len(k))
	for i, rank := range k {
		if len(rank) == 0 {
			parts[i] = "-"
			continue
		}
		nums := make([]string, len(rank))
		for j, c := range rank {
			nums[j] = strconv.Itoa(c)
		}
		parts[i] = strings.Join(nums, "/")
	}
	return strings.Join(parts, " ")
}

// words writes k with candidate names: "Kiss > Wright or Montroll > (none) > Smith".
func (k keyed) words(cands []app.Candidate) string {
	if len(k) == 0 {
		return "blank ballot"
	}
	parts := make([]string, len(k))
	for i, rank := range k {
		if len(rank) == 0 {
			parts[i] = "(none)"
			continue
		}
		names := make([]string, len(rank))
		for j, c := range rank {
			names[j] = cands[c-1].Name
		}
		parts[i] = strings.Join(names, " and ")
	}
	return strings.Join(parts, " > ")
}

// rankings is the ballot to record.
func (k keyed) rankings(cands []app.Candidate) []app.Ranking {
	var out []app.Ranking
	for i, rank := range k {
		for _, c := range rank {
			out = append(out, app.Ranking{Candidate: cands[c-1].Name, Rank: i + 1})
		}
	}
	return out
}

// mismatch is a ballot on which the two passes of a double entry differ.
// first or second is nil when that pass has no ballot at the place.
type mismatch struct {
	place         int
	first, second *keyed
}

// compareBatches finds the places where two passes over the same stack of
// paper ballots differ.
func compareBatches(first, second []keyed) []mismatch {
	var out []mismatch
	for i := range max(len(first), len(second)) {
		var a, b *keyed
		if i < len(first) {
			a = &first[i]
		}
		if i < len(second) {
			b = &second[i]
		}
		if a == nil || b == nil || a.String() != b.String() {
			out = append(out, mismatch{place: i, first: a, second: b})
		}
	}
	return out
}
