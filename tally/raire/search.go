package raire

import (
	"container/heap"
	"math"
)

// pick is an assertion during the search, kept small: NEN's continuing
// candidates are a set.
type pick struct {
	neb    bool
	w, l   int
	s      set // NEN only
	diff   float64
	wt, lt uint64 // the two tallies
	valid  bool   // false in a tail's zero value, before any assertion is found
}

// easier reports whether p is a better assertion than q: lower difficulty,
// then a bigger margin, then NEB before NEN.
func (p *pick) easier(q *pick) bool {
	if !q.valid {
		return p.valid
	}
	if p.diff != q.diff {
		return p.diff < q.diff
	}
	pm, qm := int64(p.wt)-int64(p.lt), int64(q.wt)-int64(q.lt)
	if pm != qm {
		return pm > qm
	}
	return p.neb && !q.neb
}

// scored turns a pick into a Scored assertion.
func (p *pick) scored() Scored {
	a := Assertion{Type: NEN, Winner: p.w, Loser: p.l, Continuing: members(p.s)}
	if p.neb {
		a = Assertion{Type: NEB, Winner: p.w, Loser: p.l}
	}
	s := Scored{Assertion: a, WinnerTally: p.wt, LoserTally: p.lt, Difficulty: p.diff}
	if p.wt > p.lt {
		s.Margin = p.wt - p.lt
	}
	return s
}

// node is the tail of an elimination order: first is eliminated first, and
// parent is the rest of the tail (nil for a lone alternative winner).
type node struct {
	first  int
	parent *node
	mask   set
	depth  int
	best   pick // the easiest assertion that rules out every order ending in this tail
}

// frontier is a max-heap of tails: the hardest best assertion first, then
// the longest tail (the nearest to a complete order).
type frontier []*node

func (f frontier) Len() int           { return len(f) }
func (f frontier) Less(i, j int) bool { return f.harder(f[i], f[j]) }

// harder orders the frontier: a harder best assertion first, then the
// longer tail.
func (frontier) harder(a, b *node) bool {
	if a.best.diff != b.best.diff {
		return a.best.diff > b.best.diff
	}
	return a.depth > b.depth
}

func (f frontier) Swap(i, j int) { f[i], f[j] = f[j], f[i] }
func (f *frontier) Push(x any)   { *f = append(*f, x.(*node)) }
func (f *frontier) Pop() any     { old := *f; n := old[len(old)-1]; *f = old[:len(old)-1]; return n }

// searcher holds the state of RAIRE's search.
type searcher struct {
	b      *ballots
	audit  Audit
	winner int
	neb    [][]pick // neb[w][l], scored once
	lb     float64  // the lower bound: the hardest complete order met so far
	chosen []pick
	// The chosen assertions indexed for covered: the winners of the
	// chosen NEB assertions by loser, and the chosen NEN assertions'
	// continuing sets and winners.
	nebWinners []set
	nenStates  map[[2]uint64]bool
}

// search finds assertions that together rule out every elimination order
// in which a candidate other than the winner wins, with the hardest as easy
// as possible (see the package documentation).
func search(b *ballots, audit Audit, winner int, work *budget) ([]pick, error) {
	s := &searcher{b: b, audit: audit, winner: winner, nebWinners: make([]set, b.n), nenStates: map[[2]uint64]bool{}}
	s.neb = make([][]pick, b.n)
	for w := range b.n {
		s.neb[w] = make([]pick, b.n)
		for l := range b.n {
			if w != l {
				wt, lt := b.firsts[w], b.nebFor[w][l]
				s.neb[w][l] = pick{neb: true, w: w, l: l, wt: wt, lt: lt, diff: audit.Difficulty(wt, lt), valid: true}
			}
		}
	}
	var f frontier
	for c := range b.n {
		if c != winner {
			if n, err := s.child(nil, c); err != nil {
				return nil, err
			} else if n != nil {
				heap.Push(&f, n)
			}
		}
	}
	for f.Len() > 0 {
		if !work.step() {
			return nil, &Error{Kind: TimeoutFindingAssertions, Difficulty: s.lb}
		}
		n := heap.Pop(&f).(*node)
		if s.covered(n) {
			continue
		}
		if n.best.diff <= s.lb {
			s.choose(n.best)
			continue
		}
		// Expand the tail, then dive: keep expanding its hardest child down
		// to a complete order, queueing the other children.
		for n != nil {
			var err error
			if n, err = s.expand(&f, n); err != nil {
				return nil, err
			}
			if n != nil && n.best.diff <= s.lb {
				heap.Push(&f, n)
				n = nil
			}
			if n != nil && !work.step() {
				return nil, &Error{Kind: TimeoutFindingAssertions, Difficulty: s.lb}
			}
		}
	}
	return s.chosen, nil
}

// expand makes the children of the tail n, queueing all but the hardest,
// which it returns (nil when none needs more work).
func (s *searcher) expand(f *frontier, n *node) (*node, error) {
	var hardest *node
	for c := range s.b.n {
		if n.mask&(1<<c) != 0 {
			continue
		}
		child, err := s.child(n, c)
		switch {
		case err != nil:
			return nil, err
		case child == nil:
		case hardest == nil:
			hardest = child
		case f.harder(child, hardest):
			heap.Push(f, hardest)
			hardest = child
		default:
			heap.Push(f, child)
		}
	}
	return hardest, nil
}

// child makes the tail c followed by parent, with its best assertion: the
// parent's, or one that uses c being eliminated first. It returns nil when
// the tail needs no more work: an assertion already chosen rules it out,
// or it is a complete order (whose best assertion is then chosen).
func (s *searcher) child(parent *node, c int) (*node, error) {
	n := &node{first: c, parent: parent, mask: 1 << c, depth: 1}
	if parent != nil {
		n.mask |= parent.mask
		n.depth += parent.depth
		n.best = parent.best
	}
	for w := range s.b.n {
		// NEB(w, c) with w eliminated before c.
		if n.mask&(1<<w) == 0 && s.neb[w][c].easier(&n.best) {
			n.best = s.neb[w][c]
		}
	}
	if parent != nil {
		// NEN(c, l, mask): c is not eliminated now; l, the weakest of the
		// others, has fewer votes.
		t := s.b.tallies(n.mask)
		l := -1
		for o := range s.b.n {
			if o != c && n.mask&(1<<o) != 0 && (l < 0 || t[o] < t[l]) {
				l = o
			}
		}
		p := pick{w: c, l: l, s: n.mask, wt: t[c], lt: t[l], diff: s.audit.Difficulty(t[c], t[l]), valid: true}
		if p.easier(&n.best) {
			n.best = p
		}
	}
	if s.covered(n) {
		return nil, nil
	}
	if n.depth < s.b.n {
		return n, nil
	}
	if math.IsInf(n.best.diff, 1) {
		order := make([]int, 0, s.b.n)
		for m := n; m != nil; m = m.parent {
			order = append(order, m.first)
		}
		return nil, &Error{Kind: CouldNotRuleOut, Candidates: order}
	}
	s.lb = max(s.lb, n.best.diff)
	s.choose(n.best)
	return nil, nil
}

// covered reports whether a chosen assertion already rules out the tail:
// for some suffix of it, starting with m, a chosen NEB(w, m) has w
// eliminated before m (w not in the suffix), or a chosen NEN(m, l, suffix)
// exists.
func (s *searcher) covered(n *node) bool {
	for m := n; m != nil; m = m.parent {
		if s.nebWinners[m.first]&^m.mask != 0 || m.depth > 1 && s.nenStates[[2]uint64{m.mask, uint64(m.first)}] {
			return true
		}
	}
	return false
}

// choose adds an assertion to the answer.
func (s *searcher) choose(p pick) {
	if p.neb {
		if s.nebWinners[p.l]&(1<<p.w) != 0 {
			return
		}
		s.nebWinners[p.l] |= 1 << p.w
	} else {
		k := [2]uint64{p.s, uint64(p.w)}
		if s.nenStates[k] {
			return
		}
		s.nenStates[k] = true
	}
	s.chosen = append(s.chosen, p)
}
