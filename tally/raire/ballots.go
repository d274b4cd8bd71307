package raire

import "slices"

// set is a set of candidates, one bit each.
type set = uint64

// ballots are the votes aggregated into a prefix tree: each node is a
// ranking prefix, with the number of ballots that start with it. Counting
// the votes for a set of continuing candidates then walks only the
// prefixes made of eliminated candidates, however many ballots share them.
type ballots struct {
	n      int
	cand   []int    // node i's candidate (the last of its prefix)
	count  []uint64 // ballots whose ranking starts with node i's prefix
	first  []int32  // node i's first child, or -1
	next   []int32  // node i's next sibling, or -1
	roots  int32    // the first top-level node, or -1
	cache  map[set][]uint64
	stack  []int32
	nebFor [][]uint64 // nebFor[w][l]: ballots that can count for l while w continues
	firsts []uint64   // first preferences
}

// newBallots builds the prefix tree of the votes (which must be valid) and
// the NEB tallies. The votes are taken in sorted order, so each one shares
// a prefix with the one before and adds new nodes only after it.
func newBallots(n int, votes []Vote) *ballots {
	b := &ballots{n: n, roots: -1, cache: map[set][]uint64{}, firsts: make([]uint64, n)}
	order := make([]int, 0, len(votes))
	for i, v := range votes {
		if v.N > 0 {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(i, j int) int { return slices.Compare(votes[i].Prefs, votes[j].Prefs) })
	var prev []int
	var path []int32 // the nodes of prev's prefixes
	for _, i := range order {
		v := votes[i]
		k := 0
		for k < len(prev) && k < len(v.Prefs) && prev[k] == v.Prefs[k] {
			k++
		}
		path = path[:k]
		for _, node := range path {
			b.count[node] += v.N
		}
		for _, p := range v.Prefs[k:] {
			node := int32(len(b.cand))
			head := &b.roots
			if len(path) > 0 {
				head = &b.first[path[len(path)-1]]
			}
			b.next = append(b.next, *head)
			*head = node // before the append below moves b.first
			b.first = append(b.first, -1)
			b.cand = append(b.cand, p)
			b.count = append(b.count, v.N)
			path = append(path, node)
		}
		prev = v.Prefs
	}
	b.nebTallies()
	return b
}

// nebTallies fills firsts and nebFor: a ballot reaching loser l with the
// candidates of mask ranked above it counts for l while any w outside the
// mask continues.
func (b *ballots) nebTallies() {
	b.nebFor = make([][]uint64, b.n)
	for w := range b.nebFor {
		b.nebFor[w] = make([]uint64, b.n)
	}
	var walk func(node int32, above set)
	walk = func(node int32, above set) {
		for ; node >= 0; node = b.next[node] {
			l, cnt := b.cand[node], b.count[node]
			if above == 0 {
				b.firsts[l] += cnt
			}
			for w := range b.n {
				if w != l && above&(1<<w) == 0 {
					b.nebFor[w][l] += cnt
				}
			}
			walk(b.first[node], above|1<<l)
		}
	}
	walk(b.roots, 0)
}

// tallies returns each candidate's votes when exactly the candidates of s
// continue (zero for the others). The result is cached and must not be
// modified.
func (b *ballots) tallies(s set) []uint64 {
	if t, ok := b.cache[s]; ok {
		return t
	}
	t := make([]uint64, b.n)
	stack := append(b.stack[:0], b.roots)
	for len(stack) > 0 {
		node := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for ; node >= 0; node = b.next[node] {
			if c := b.cand[node]; s&(1<<c) != 0 {
				t[c] += b.count[node]
			} else if b.first[node] >= 0 {
				stack = append(stack, b.first[node])
			}
		}
	}
	b.stack = stack
	b.cache[s] = t
	return t
}

// members lists the candidates of s in increasing order.
func members(s set) []int {
	var out []int
	for c := 0; s != 0; c++ {
		if s&1 != 0 {
			out = append(out, c)
		}
		s >>= 1
	}
	return out
}
