package tally

import (
	"runtime"
	"sort"
	"sync"
)

// Pairwise holds the head-to-head counts of a pairwise method. Matrices are
// indexed by position in Candidates, which lists the counted candidates
// (excluded ones left out) sorted by name.
type Pairwise struct {
	Candidates []int
	// Preferences[i][j] is the weight of ballots ranking i strictly above j.
	// A candidate left off a ballot ranks below every candidate on it; two
	// candidates at the same rank are tied on that ballot.
	Preferences [][]int64
	// StrongestPaths are the widest-path strengths over links weighted by
	// their raw preference counts, as VoteDesk's seed system shows them;
	// DefeatPaths are Schulze's winning-votes strengths (over defeats only),
	// which decide the places (Schulze only).
	StrongestPaths, DefeatPaths [][]int64
	// Smith is the smallest set whose members each beat or tie everyone
	// outside it; Schwartz is the union of the minimal sets nobody outside
	// beats. Both hold positions in Candidates.
	Smith, Schwartz []int
	// BestScore is the Kemeny-Young score of the best ranking (Kemeny only).
	BestScore int64
}

// beats reports whether i beats j head to head.
func (p *Pairwise) beats(i, j int) bool { return p.Preferences[i][j] > p.Preferences[j][i] }

// CondorcetWinner reports whether candidate c (an index into the contest's
// candidates) beats every other counted candidate head to head; a candidate
// not counted (excluded) is no Condorcet winner.
func (p *Pairwise) CondorcetWinner(c int) bool {
	i := -1
	for pos, x := range p.Candidates {
		if x == c {
			i = pos
		}
	}
	if i < 0 {
		return false
	}
	for j := range p.Candidates {
		if j != i && !p.beats(i, j) {
			return false
		}
	}
	return true
}

// newPairwise counts the preference matrix of the contest's counted
// candidates. Big ballot sets are split between two goroutines whose
// integer matrices are then added, so the result does not depend on timing.
// check, when set, checks every ballot: as it is counted (addChecked) when
// the per-candidate table is in use, else on each block of ballots just
// before the block is counted (while it is in the cache); its error is the
// earliest ballot's.
func newPairwise(c Contest, b *BallotSet, explicit bool, check *ballotCheck) (*Pairwise, error) {
	p := &Pairwise{}
	for i, cand := range c.Candidates {
		if !cand.Excluded {
			p.Candidates = append(p.Candidates, i)
		}
	}
	sort.SliceStable(p.Candidates, func(i, j int) bool {
		return JavaLess(c.Candidates[p.Candidates[i]].Name, c.Candidates[p.Candidates[j]].Name)
	})
	pos := make([]int, len(c.Candidates))
	for i := range pos {
		pos[i] = -1
	}
	for i, cand := range p.Candidates {
		pos[cand] = i
	}
	k := len(p.Candidates)
	parts := 1
	if b.Len() >= 1<<16 && runtime.GOMAXPROCS(0) > 1 {
		parts = 2
	}
	counts := make([]*pairCounts, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for part := range parts {
		lo, hi := b.Len()*part/parts, b.Len()*(part+1)/parts
		counts[part] = newPairCounts(k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for from := lo; from < hi; from += checkBlock {
				to := min(from+checkBlock, hi)
				switch {
				case check == nil:
					counts[part].add(b, pos, from, to)
				case counts[part].byMask != nil:
					errs[part] = counts[part].addChecked(b, pos, from, to, check)
				default:
					if errs[part] = check.run(from, to); errs[part] == nil {
						counts[part].add(b, pos, from, to)
					}
				}
				if errs[part] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, pc := range counts[1:] {
		counts[0].merge(pc)
	}
	if counts[0].byMask != nil {
		counts[0].spread()
	}
	p.Preferences = counts[0].preferences(explicit)
	p.Smith, p.Schwartz = smithSet(p), schwartzSet(p)
	return p, nil
}

// checkBlock is how many ballots newPairwise checks and counts at a time:
// when the check and the count are two passes, the block's marks stay in
// the cache between them.
const checkBlock = 4096

// pairCounts accumulates, over a range of ballots, above[x*k+y] (y ranked
// strictly above x, both ranked), tied[y*k+x] (x and y ranked at the same
// rank, y marked first) and ranked[x]. Preferences follow as
// ranked[i] - above[i][j] - tied(i, j), since a ranked candidate beats
// every unranked one; this touches only the pairs a ballot actually ranks.
//
// With up to maskCandidates candidates, a ballot without tied ranks only
// adds its weight to byMask[x<<k | S] for each candidate x it ranks, S
// being the set of candidates it ranks above x; the pairs are spread out
// of that table once at the end. That is one addition per ranked candidate
// rather than one per ranked pair.
type pairCounts struct {
	k           int
	above, tied []int64
	ranked      []int64
	byMask      []int64
	order       []int // the current ballot's candidates, in rank order
	seen        []bool
}

// maskCandidates is the most candidates the byMask table is used for.
const maskCandidates = 12

func newPairCounts(k int) *pairCounts {
	pc := &pairCounts{k: k, above: make([]int64, k*k), tied: make([]int64, k*k), ranked: make([]int64, k), seen: make([]bool, k)}
	if k <= maskCandidates {
		pc.byMask = make([]int64, k<<k)
	}
	return pc
}

func (pc *pairCounts) add(b *BallotSet, pos []int, lo, hi int) {
	k := pc.k
	above, tied, ranked, seen, byMask := pc.above, pc.tied, pc.ranked, pc.seen, pc.byMask
	order := pc.order[:0]
	start := uint32(0)
	if lo > 0 {
		start = b.Ends[lo-1]
	}
	for i := lo; i < hi; i++ {
		end := b.Ends[i]
		marks := b.Marks[start:end]
		start = end
		w := int64(1)
		if b.Counts != nil {
			w = int64(b.Counts[i])
		}
		if byMask != nil && strict(marks) {
			mask := 0
			for _, m := range marks {
				if m.Candidate == Overvote {
					continue
				}
				x := pos[m.Candidate]
				if x < 0 || mask&(1<<x) != 0 {
					continue
				}
				byMask[x<<k|mask] += w
				mask |= 1 << x
			}
			continue
		}
		order = order[:0]
		rank, fromAt := -1, 0
		for _, m := range marks {
			if m.Candidate == Overvote {
				continue
			}
			x := pos[m.Candidate]
			if x < 0 || seen[x] {
				continue
			}
			seen[x] = true
			if int(m.Rank) != rank {
				rank, fromAt = int(m.Rank), len(order)
			}
			row := above[x*k : x*k+k]
			for _, y := range order[:fromAt] {
				row[y] += w
			}
			for _, y := range order[fromAt:] {
				tied[y*k+x] += w
			}
			ranked[x] += w
			order = append(order, x)
		}
		for _, x := range order {
			seen[x] = false
		}
	}
	pc.order = order
}

// addChecked is check.run and add in one reading of each ballot's marks,
// for the usual ballot: marks at rising ranks from 1, each a candidate of
// the contest within maxRankingsAllowed. Such a ballot is checked and
// counted into byMask as its marks are read; one that turns out otherwise
// (a tie at a rank, an overvote label, a mark out of range) has what was
// counted of it taken back, is checked closely as run checks it, and is
// counted by add. TestCheckedPairwiseAgrees holds it to check.run and add.
func (pc *pairCounts) addChecked(b *BallotSet, pos []int, lo, hi int, chk *ballotCheck) error {
	k, byMask := pc.k, pc.byMask
	nc, maxRank := chk.nc, chk.maxRank
	start := uint32(0)
	if lo > 0 {
		start = b.Ends[lo-1]
	}
	for i := lo; i < hi; i++ {
		end := b.Ends[i]
		w := int64(1)
		if b.Counts != nil {
			w = int64(b.Counts[i])
		}
		if end >= start && int(end) <= len(b.Marks) && end-start <= 0xFFFF && w != 0 {
			marks := b.Marks[start:end]
			mask, prev, n := 0, uint16(0), 0
			for _, m := range marks {
				if m.Rank <= prev || m.Rank > maxRank || m.Candidate >= nc {
					break
				}
				prev = m.Rank
				n++
				x := pos[m.Candidate]
				if x < 0 || mask&(1<<x) != 0 {
					continue
				}
				byMask[x<<k|mask] += w
				mask |= 1 << x
			}
			if n == len(marks) {
				start = end
				continue
			}
			mask = 0
			for _, m := range marks[:n] {
				x := pos[m.Candidate]
				if x < 0 || mask&(1<<x) != 0 {
					continue
				}
				byMask[x<<k|mask] -= w
				mask |= 1 << x
			}
		}
		if !chk.plain(i, start, end) {
			if err := chk.ballot(i); err != nil {
				return err
			}
		}
		pc.add(b, pos, i, i+1)
		start = end
	}
	return nil
}

// strict reports whether no two marks share a rank.
func strict(marks []Mark) bool {
	for j := 1; j < len(marks); j++ {
		if marks[j].Rank == marks[j-1].Rank {
			return false
		}
	}
	return true
}

// spread moves the byMask counts into above and ranked.
func (pc *pairCounts) spread() {
	k := pc.k
	for x := range k {
		for mask := range 1 << k {
			w := pc.byMask[x<<k|mask]
			if w == 0 {
				continue
			}
			pc.ranked[x] += w
			for y := range k {
				if mask&(1<<y) != 0 {
					pc.above[x*k+y] += w
				}
			}
		}
	}
}

func (pc *pairCounts) merge(o *pairCounts) {
	for i := range pc.above {
		pc.above[i] += o.above[i]
		pc.tied[i] += o.tied[i]
	}
	for i := range pc.ranked {
		pc.ranked[i] += o.ranked[i]
	}
	for i := range pc.byMask {
		pc.byMask[i] += o.byMask[i]
	}
}

// preferences assembles the matrix. above is stored by the lower
// candidate's row: above[x*k+y] counts ballots with y strictly above x.
// With explicit ranking only ballots that rank both candidates count.
func (pc *pairCounts) preferences(explicit bool) [][]int64 {
	k := pc.k
	m := make([][]int64, k)
	for i := range m {
		m[i] = make([]int64, k)
		for j := range m[i] {
			switch {
			case i == j:
			case explicit:
				m[i][j] = pc.above[j*k+i]
			default:
				m[i][j] = pc.ranked[i] - pc.above[i*k+j] - pc.tied[i*k+j] - pc.tied[j*k+i]
			}
		}
	}
	return m
}

// closure returns the transitive closure of the relation edge.
func closure(k int, edge func(i, j int) bool) [][]bool {
	r := make([][]bool, k)
	for i := range r {
		r[i] = make([]bool, k)
		for j := range r[i] {
			r[i][j] = i == j || edge(i, j)
		}
	}
	for m := range k {
		for i := range k {
			if r[i][m] {
				for j := range k {
					r[i][j] = r[i][j] || r[m][j]
				}
			}
		}
	}
	return r
}

// smithSet: x is in it when x reaches every candidate through "beats or
// ties" steps.
func smithSet(p *Pairwise) []int {
	k := len(p.Candidates)
	r := closure(k, func(i, j int) bool { return !p.beats(j, i) })
	var out []int
	for x := range k {
		all := true
		for y := range k {
			all = all && r[x][y]
		}
		if all {
			out = append(out, x)
		}
	}
	return out
}

// schwartzSet: x is in it when every candidate with a path of defeats to x
// is also reached from x by a path of defeats.
func schwartzSet(p *Pairwise) []int {
	k := len(p.Candidates)
	r := closure(k, p.beats)
	var out []int
	for x := range k {
		in := true
		for y := range k {
			if r[y][x] && !r[x][y] {
				in = false
			}
		}
		if in {
			out = append(out, x)
		}
	}
	return out
}

// placesByRelation ranks positions 0..k-1: each place takes every remaining
// candidate that no remaining candidate is ahead of. ahead must be acyclic
// for a full ranking; a cycle leaves its members (and those below) in one
// last shared place.
func placesByRelation(k int, ahead func(i, j int) bool) [][]int {
	left := make([]bool, k)
	for i := range left {
		left[i] = true
	}
	var out [][]int
	for placed := 0; placed < k; {
		var top []int
		for x := range k {
			if !left[x] {
				continue
			}
			beaten := false
			for y := range k {
				if left[y] && y != x && ahead(y, x) {
					beaten = true
					break
				}
			}
			if !beaten {
				top = append(top, x)
			}
		}
		if len(top) == 0 {
			for x := range k {
				if left[x] {
					top = append(top, x)
				}
			}
		}
		for _, x := range top {
			left[x] = false
		}
		placed += len(top)
		out = append(out, top)
	}
	return out
}

// toPlaces turns groups of matrix positions into Places of candidate
// numbers: a group's place is one more than the candidates before it.
func toPlaces(groups [][]int, cands []int) []Place {
	var out []Place
	n := 1
	for _, g := range groups {
		pl := Place{Place: n}
		for _, x := range g {
			pl.Candidates = append(pl.Candidates, cands[x])
		}
		out = append(out, pl)
		n += len(g)
	}
	return out
}
