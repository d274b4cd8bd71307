package tally

import "sort"

// pairwiseMethod runs one of the methods that work on the preference matrix.
func pairwiseMethod(c Contest, b *BallotSet, m Method, o options) (Result, error) {
	p, err := newPairwise(c, b, o.explicit, o.check)
	if err != nil {
		return Result{}, err
	}
	res := Result{Method: m, Pairwise: p}
	var groups [][]int
	switch m {
	case Schulze:
		groups = schulze(p)
	case RankedPairs, RankedPairsMargin:
		groups = rankedPairs(p, m == RankedPairsMargin)
	case Copeland:
		groups, res.Scores = copeland(p)
	case Minimax, MinimaxMargin, MinimaxOpposition:
		groups, res.Scores = minimax(p, m)
	case Kemeny:
		var err error
		if groups, err = kemeny(p); err != nil {
			return Result{}, err
		}
	}
	res.Places = toPlaces(groups, p.Candidates)
	res.Winners = res.Places[0].Candidates
	if res.Scores != nil {
		res.Scores = byCandidate(res.Scores, p.Candidates, len(c.Candidates))
	}
	return res, nil
}

// byCandidate re-indexes matrix-position scores by candidate number.
func byCandidate(scores []Decimal, cands []int, n int) []Decimal {
	out := make([]Decimal, n)
	for i, c := range cands {
		out[c] = scores[i]
	}
	return out
}

// schulze ranks by Schulze's method with winning votes: the widest paths
// over defeats, a link i->j existing when more voters prefer i to j, with
// the number who do as its strength. It also reports the widest paths over
// every link weighted by its raw count, the strongest-path matrix that
// VoteDesk's seed system displays; on ordinary profiles both give the same
// order (all nine seed scenarios), and where they differ (Schulze's paper,
// example 10) the winning-votes order is the result.
func schulze(p *Pairwise) [][]int {
	k := len(p.Candidates)
	raw, defeats := make([][]int64, k), make([][]int64, k)
	for i := range k {
		raw[i] = append([]int64(nil), p.Preferences[i]...)
		defeats[i] = make([]int64, k)
		for j := range k {
			if i != j && p.beats(i, j) {
				defeats[i][j] = p.Preferences[i][j]
			}
		}
	}
	widest(raw)
	widest(defeats)
	p.StrongestPaths, p.DefeatPaths = raw, defeats
	return placesByRelation(k, func(i, j int) bool { return defeats[i][j] > defeats[j][i] })
}

// widest turns link strengths into widest-path strengths (Floyd-Warshall).
func widest(s [][]int64) {
	k := len(s)
	for m := range k {
		for i := range k {
			if i == m {
				continue
			}
			for j := range k {
				if j != m && j != i {
					s[i][j] = max(s[i][j], min(s[i][m], s[m][j]))
				}
			}
		}
	}
}

// rankedPairs is Tideman's method: lock defeats from strongest to weakest
// unless they would close a cycle. Strength is the winning votes (ties
// broken by fewer losing votes) or the margin. Defeats of equal strength
// are locked together; any that close a cycle among themselves stay
// unlocked, so the result never depends on their order.
func rankedPairs(p *Pairwise, margin bool) [][]int {
	k := len(p.Candidates)
	var ds []defeat
	for i := range k {
		for j := range k {
			if p.beats(i, j) {
				ds = append(ds, defeat{i, j})
			}
		}
	}
	key := func(d defeat) (int64, int64) {
		win, lose := p.Preferences[d.w][d.l], p.Preferences[d.l][d.w]
		if margin {
			return win - lose, 0
		}
		return win, -lose
	}
	sort.SliceStable(ds, func(a, b int) bool {
		a1, a2 := key(ds[a])
		b1, b2 := key(ds[b])
		return a1 > b1 || (a1 == b1 && a2 > b2)
	})
	locked := make([][]bool, k)
	for i := range locked {
		locked[i] = make([]bool, k)
	}
	for start := 0; start < len(ds); {
		end := start + 1
		for end < len(ds) {
			e1, e2 := key(ds[end])
			s1, s2 := key(ds[start])
			if e1 != s1 || e2 != s2 {
				break
			}
			end++
		}
		reach := closure(k, func(i, j int) bool { return locked[i][j] })
		var batch []defeat
		for _, d := range ds[start:end] {
			if !reach[d.l][d.w] {
				batch = append(batch, d)
			}
		}
		trial := closure(k, func(i, j int) bool { return locked[i][j] || hasDefeat(batch, i, j) })
		for _, d := range batch {
			if !trial[d.l][d.w] {
				locked[d.w][d.l] = true
			}
		}
		start = end
	}
	reach := closure(k, func(i, j int) bool { return locked[i][j] })
	return placesByRelation(k, func(i, j int) bool { return i != j && reach[i][j] })
}

// defeat is a head-to-head win of w over l.
type defeat struct{ w, l int }

func hasDefeat(ds []defeat, i, j int) bool {
	for _, d := range ds {
		if d.w == i && d.l == j {
			return true
		}
	}
	return false
}

// copeland scores each candidate by pairwise wins minus losses.
func copeland(p *Pairwise) ([][]int, []Decimal) {
	k := len(p.Candidates)
	score := make([]int64, k)
	for i := range k {
		for j := range k {
			switch {
			case p.beats(i, j):
				score[i]++
			case p.beats(j, i):
				score[i]--
			}
		}
	}
	return placesByScore(score, true), decimals(score)
}

// minimax scores each candidate by its worst head-to-head result: the
// largest winning vote against it in a defeat (winning), the largest margin
// against it (margin), or the largest vote against it (opposition). The
// lowest score wins.
func minimax(p *Pairwise, m Method) ([][]int, []Decimal) {
	k := len(p.Candidates)
	score := make([]int64, k)
	for i := range k {
		first := true
		for j := range k {
			if i == j {
				continue
			}
			var v int64
			switch m {
			case Minimax:
				if p.beats(j, i) {
					v = p.Preferences[j][i]
				}
			case MinimaxMargin:
				v = p.Preferences[j][i] - p.Preferences[i][j]
			default:
				v = p.Preferences[j][i]
			}
			if first || v > score[i] {
				score[i], first = v, false
			}
		}
	}
	return placesByScore(score, false), decimals(score)
}

// placesByScore groups positions by equal score, best first.
func placesByScore(score []int64, highWins bool) [][]int {
	return placesByRelation(len(score), func(i, j int) bool {
		if highWins {
			return score[i] > score[j]
		}
		return score[i] < score[j]
	})
}

func decimals(v []int64) []Decimal {
	out := make([]Decimal, len(v))
	for i, x := range v {
		out[i] = DecimalInt(x)
	}
	return out
}
