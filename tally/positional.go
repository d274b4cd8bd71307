package tally

import "math/big"

// DowdallDecimals is how many decimal places Dowdall scores are reported
// with (rounded down); the ranking uses the exact fractions.
const DowdallDecimals = 6

// plurality counts first choices: a ballot counts for the single counted
// candidate at its best rank, and for nobody if that rank holds several.
func plurality(c Contest, b *BallotSet) Result {
	score := make([]int64, len(c.Candidates))
	eachBallot(c, b, func(groups [][]int, w int64) {
		if len(groups) > 0 && len(groups[0]) == 1 {
			score[groups[0][0]] += w
		}
	})
	return scoredResult(c, Plurality, decimals(score), func(i, j int) int { return cmpInt(score[i], score[j]) })
}

// borda gives each candidate on a ballot one point for itself and one for
// every counted candidate ranked below it (so with k candidates the first
// choice earns k and the last 1; candidates left off tie last with 1 point
// each). Dowdall gives 1/(1+p) to a candidate with p candidates ranked
// above it and nothing to those left off.
func borda(c Contest, b *BallotSet, m Method) Result {
	n := len(c.Candidates)
	counted := 0
	for _, cand := range c.Candidates {
		if !cand.Excluded {
			counted++
		}
	}
	points := make([]int64, n)
	exact := make([]*big.Rat, n)
	for i := range exact {
		exact[i] = new(big.Rat)
	}
	eachBallot(c, b, func(groups [][]int, w int64) {
		above, ranked := 0, 0
		for _, g := range groups {
			ranked += len(g)
		}
		for _, g := range groups {
			for _, x := range g {
				points[x] += w * int64(counted-above-len(g)+1)
				exact[x].Add(exact[x], big.NewRat(w, int64(above+1)))
			}
			above += len(g)
		}
		if m == Borda && ranked < counted {
			for x, cand := range c.Candidates {
				if !cand.Excluded && !onBallot(groups, x) {
					points[x] += w
				}
			}
		}
	})
	if m == Borda {
		return scoredResult(c, m, decimals(points), func(i, j int) int { return cmpInt(points[i], points[j]) })
	}
	scores := make([]Decimal, n)
	for i, r := range exact {
		num := fromBig(new(big.Int).Set(r.Num()), 0)
		scores[i] = num.Div(fromBig(new(big.Int).Set(r.Denom()), 0), DowdallDecimals, RoundDown)
	}
	return scoredResult(c, m, scores, func(i, j int) int { return exact[i].Cmp(exact[j]) })
}

func onBallot(groups [][]int, x int) bool {
	for _, g := range groups {
		if oneOf(x, g) {
			return true
		}
	}
	return false
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// scoredResult ranks the counted candidates by score, highest first.
func scoredResult(c Contest, m Method, scores []Decimal, cmp func(i, j int) int) Result {
	var cands []int
	for i, cand := range c.Candidates {
		if !cand.Excluded {
			cands = append(cands, i)
		}
	}
	groups := placesByRelation(len(cands), func(i, j int) bool { return cmp(cands[i], cands[j]) > 0 })
	res := Result{Method: m, Scores: scores, Places: toPlaces(groups, cands)}
	res.Winners = res.Places[0].Candidates
	return res
}

// eachBallot calls f with each ballot's counted candidates grouped by rank,
// best rank first, each candidate at its best rank only, and the ballot's
// weight. Explicit overvote marks and excluded candidates are dropped.
func eachBallot(c Contest, b *BallotSet, f func(groups [][]int, w int64)) {
	seen := make([]bool, len(c.Candidates))
	var groups [][]int
	start := uint32(0)
	for i, end := range b.Ends {
		groups = groups[:0]
		lastRank := -1
		for _, m := range b.Marks[start:end] {
			if m.Candidate == Overvote || c.Candidates[m.Candidate].Excluded || seen[m.Candidate] {
				continue
			}
			seen[m.Candidate] = true
			if int(m.Rank) != lastRank {
				groups = append(groups, nil)
				lastRank = int(m.Rank)
			}
			groups[len(groups)-1] = append(groups[len(groups)-1], int(m.Candidate))
		}
		for _, g := range groups {
			for _, x := range g {
				seen[x] = false
			}
		}
		w := int64(1)
		if b.Counts != nil {
			w = int64(b.Counts[i])
		}
		f(groups, w)
		start = end
	}
}
