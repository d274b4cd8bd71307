package tally

// KemenyMaxCandidates is the most candidates Kemeny-Young counts exactly.
const KemenyMaxCandidates = 10

// kemeny finds the rankings that agree with the most pairwise preferences
// (score: sum of P[i][j] over every i ranked above j), exactly, by dynamic
// programming over sets of candidates: best[S] is the best score of putting
// S, in some order, above everyone else. When several rankings share the
// best score, i stays ahead of j only if it is ahead in all of them.
func kemeny(p *Pairwise) ([][]int, error) {
	k := len(p.Candidates)
	if k > KemenyMaxCandidates {
		return nil, errorf("Kemeny-Young counts at most %d candidates exactly, this contest has %d", KemenyMaxCandidates, k)
	}
	full := 1<<k - 1
	// gain[c][S]: what candidate c earns placed directly above the set S.
	gain := func(c, below int) int64 {
		var g int64
		for x := range k {
			if below&(1<<x) != 0 {
				g += p.Preferences[c][x]
			}
		}
		return g
	}
	const unset = -1
	best := make([]int64, full+1) // best[S]: S on top, in its best order
	rest := make([]int64, full+1) // rest[S]: the others below S, in their best order
	for s := range best {
		best[s], rest[s] = unset, unset
	}
	best[0], rest[full] = 0, 0
	for s := 1; s <= full; s++ {
		for c := range k {
			if s&(1<<c) != 0 {
				v := best[s&^(1<<c)] + gain(c, full&^s)
				best[s] = max(best[s], v)
			}
		}
	}
	for s := full - 1; s >= 0; s-- {
		for c := range k {
			if s&(1<<c) == 0 {
				v := rest[s|1<<c] + gain(c, full&^(s|1<<c))
				rest[s] = max(rest[s], v)
			}
		}
	}
	p.BestScore = best[full]
	// canBeAhead[j][i]: some optimal ranking puts j above i, i.e. some
	// optimal top set holds j but not i.
	canBeAhead := make([][]bool, k)
	for i := range canBeAhead {
		canBeAhead[i] = make([]bool, k)
	}
	for s := 0; s <= full; s++ {
		if best[s]+rest[s] != p.BestScore {
			continue
		}
		for j := range k {
			for i := range k {
				if s&(1<<j) != 0 && s&(1<<i) == 0 {
					canBeAhead[j][i] = true
				}
			}
		}
	}
	return placesByRelation(k, func(i, j int) bool { return i != j && !canBeAhead[j][i] }), nil
}
