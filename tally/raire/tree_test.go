package raire_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"votedesk/tally/raire"
)

// assertionsOf returns the assertions of a solution without their scores.
func assertionsOf(sol *raire.Solution) []raire.Assertion {
	as := make([]raire.Assertion, len(sol.Assertions))
	for i, a := range sol.Assertions {
		as[i] = a.Assertion
	}
	return as
}

// tailRuledOut reports whether an assertion rules out a tail of an
// elimination order of n candidates, by trying every order that ends in
// it in a contest with one more candidate, whom no assertion names. The
// extra candidate makes the tail alone decide, as in RAIRE's trees: a
// tail of all candidates but one is not ruled out by what rules out the
// one order it completes to, which is a node of its own one level down.
func tailRuledOut(a raire.Assertion, n int, tail []int) bool {
	var rest []int
	for c := range n + 1 {
		if !slices.Contains(tail, c) {
			rest = append(rest, c)
		}
	}
	ok := true
	permutations(len(rest), func(p []int) {
		order := make([]int, 0, n+1)
		for _, i := range p {
			order = append(order, rest[i])
		}
		ok = ok && ruledOut(a, append(order, tail...))
	})
	return ok
}

// uncovered returns the complete elimination orders won by someone other
// than winner that no assertion rules out, as strings, sorted.
func uncovered(n, winner int, as []raire.Assertion) []string {
	var out []string
	permutations(n, func(order []int) {
		if order[n-1] != winner && !slices.ContainsFunc(as, func(a raire.Assertion) bool { return ruledOut(a, order) }) {
			out = append(out, fmt.Sprint(order))
		}
	})
	slices.Sort(out)
	return out
}

// checkTrees checks the trees' shape against the definitions, enumerating
// orders: a root for each candidate but the winner, in order; a node's
// children put each candidate not in its tail in front, in order; a node
// lists exactly the assertions that rule its tail out, in order, and no
// assertion rules out its parent; a node has children only if nothing
// rules it out and it is not complete; NotRuledOut marks exactly the
// complete tails nothing rules out. It returns the NotRuledOut tails,
// sorted.
func checkTrees(t *testing.T, tr raire.Trees, n, winner int, as []raire.Assertion) []string {
	t.Helper()
	var roots []int
	for _, r := range tr.Roots {
		roots = append(roots, r.Candidate())
	}
	var want []int
	for c := range n {
		if c != winner {
			want = append(want, c)
		}
	}
	if !slices.Equal(roots, want) {
		t.Fatalf("roots %v, want %v", roots, want)
	}
	var open []string
	nodes := 0
	var visit func(node *raire.TreeNode, parent []int)
	visit = func(node *raire.TreeNode, parent []int) {
		nodes++
		if len(node.Tail) != len(parent)+1 || !slices.Equal(node.Tail[1:], parent) || node.Depth != len(parent) {
			t.Fatalf("node %v (depth %d) under %v", node.Tail, node.Depth, parent)
		}
		var by []int
		for i, a := range as {
			if tailRuledOut(a, n, node.Tail) {
				by = append(by, i)
				if len(parent) > 0 && tailRuledOut(a, n, parent) {
					t.Errorf("%v rules out %v, so the walk should have stopped there", a, parent)
				}
			}
		}
		if !slices.Equal(node.PrunedBy, by) {
			t.Errorf("%v: pruned by %v, want %v", node.Tail, node.PrunedBy, by)
		}
		complete := len(node.Tail) == n
		if node.NotRuledOut != (complete && len(by) == 0) {
			t.Errorf("%v: NotRuledOut %v with pruners %v", node.Tail, node.NotRuledOut, by)
		}
		if node.NotRuledOut {
			open = append(open, fmt.Sprint(node.Tail))
		}
		if node.Truncated {
			if len(by) > 0 || complete || !node.Leaf() || !tr.Truncated {
				t.Errorf("%v: truncated with pruners %v and %d children", node.Tail, by, len(node.Children))
			}
			return
		}
		var kids []int
		for _, c := range node.Children {
			kids = append(kids, c.Candidate())
		}
		var wantKids []int
		if len(by) == 0 && !complete {
			for c := range n {
				if !slices.Contains(node.Tail, c) {
					wantKids = append(wantKids, c)
				}
			}
		}
		if !slices.Equal(kids, wantKids) {
			t.Fatalf("%v: children %v, want %v", node.Tail, kids, wantKids)
		}
		for _, c := range node.Children {
			visit(c, node.Tail)
		}
	}
	for _, r := range tr.Roots {
		visit(r, nil)
	}
	if nodes != tr.Nodes {
		t.Errorf("%d nodes, Nodes says %d", nodes, tr.Nodes)
	}
	slices.Sort(open)
	return open
}

// treeCase is a contest and a set of assertions for it.
type treeCase struct {
	name string
	c    raire.Contest
	sol  *raire.Solution
}

// treeCases are Burlington 2009 with VoteDesk's assertions and the
// examples of "A Guide to RAIRE" with RAIRE's.
func treeCases(t *testing.T) []treeCase {
	c := burlington(t)
	sol, err := raire.Assertions(c, raire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []treeCase{{"Burlington2009", c, sol}}
	for _, name := range exampleNames {
		c, want := readExample(t, name)
		cases = append(cases, treeCase{name, c, want})
	}
	return cases
}

// TestTreeRuledOut: with RAIRE's assertions every branch ends at a tail an
// assertion rules out, labelled with exactly those that do, and nothing is
// left NotRuledOut.
func TestTreeRuledOut(t *testing.T) {
	for _, tc := range treeCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			as := assertionsOf(tc.sol)
			tr := raire.Tree(tc.c.NumCandidates, tc.sol.Winner, as)
			if open := checkTrees(t, tr, tc.c.NumCandidates, tc.sol.Winner, as); len(open) > 0 {
				t.Errorf("not ruled out: %v", open)
			}
			if !tr.Complete() || tr.Truncated {
				t.Errorf("Complete %v, Truncated %v", tr.Complete(), tr.Truncated)
			}
			leaves := 0
			tr.Walk(func(n *raire.TreeNode) bool {
				if n.Leaf() {
					leaves++
					if len(n.PrunedBy) == 0 {
						t.Errorf("leaf %v: no assertion", n.Tail)
					}
				}
				return true
			})
			t.Logf("%d candidates, %d assertions: %d nodes, %d leaves", tc.c.NumCandidates, len(as), tr.Nodes, leaves)
		})
	}
}

// TestTreeSolution: Solution.Tree is Tree of the solution's assertions.
func TestTreeSolution(t *testing.T) {
	c, want := readExample(t, "a_guide_to_RAIRE_eg_guide")
	got := want.Tree()
	as := assertionsOf(want)
	checkTrees(t, got, c.NumCandidates, want.Winner, as)
	if !slices.EqualFunc(got.Assertions, as, func(a, b raire.Assertion) bool { return a.String() == b.String() }) {
		t.Errorf("assertions %v, want %v", got.Assertions, as)
	}
}

// TestTreeWithoutAssertion: each of RAIRE's assertions ends some branch
// alone, so without it the trees grow, or leave an order NotRuledOut
// exactly when some order with another winner escapes every assertion.
func TestTreeWithoutAssertion(t *testing.T) {
	for _, tc := range treeCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			all := assertionsOf(tc.sol)
			n, w := tc.c.NumCandidates, tc.sol.Winner
			full := raire.Tree(n, w, all)
			for i := range all {
				as := slices.Delete(slices.Clone(all), i, i+1)
				tr := raire.Tree(n, w, as)
				open := checkTrees(t, tr, n, w, as)
				if len(open) == 0 && tr.Nodes <= full.Nodes {
					t.Errorf("without %v: %d nodes as before, none NotRuledOut", all[i], tr.Nodes)
				}
				if gaps := uncovered(n, w, as); !slices.Equal(open, gaps) {
					t.Errorf("without %v: NotRuledOut %v, enumeration finds %v", all[i], open, gaps)
				}
			}
		})
	}
}

// TestTreeRandomContests checks the trees of random small contests against
// enumeration: with the solution's assertions nothing is NotRuledOut, and
// with a random part of them the NotRuledOut nodes are exactly the orders
// with another winner that escape every assertion.
func TestTreeRandomContests(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	done := 0
	for i := 0; done < 150; i++ {
		c := randomContest(r)
		sol, err := raire.Assertions(c, raire.Options{})
		if err != nil {
			continue
		}
		done++
		n, w := c.NumCandidates, sol.Winner
		all := assertionsOf(sol)
		tr := raire.Tree(n, w, all)
		if open := checkTrees(t, tr, n, w, all); len(open) > 0 || !tr.Complete() {
			t.Fatalf("contest %d: %+v: not ruled out: %v", i, c, open)
		}
		var part []raire.Assertion
		for _, a := range all {
			if r.IntN(2) == 0 {
				part = append(part, a)
			}
		}
		tr = raire.Tree(n, w, part)
		open := checkTrees(t, tr, n, w, part)
		if gaps := uncovered(n, w, part); !slices.Equal(open, gaps) {
			t.Fatalf("contest %d with %v: NotRuledOut %v, enumeration finds %v", i, part, open, gaps)
		}
		if tr.Complete() != (len(open) == 0) {
			t.Fatalf("contest %d with %v: Complete %v with %d open", i, part, tr.Complete(), len(open))
		}
	}
}

// TestTreeTruncated: with no assertions, eight candidates' trees would have
// tens of thousands of nodes; Tree stops at MaxTreeNodes, every tree shown
// to the same depth and the nodes left unexpanded marked.
func TestTreeTruncated(t *testing.T) {
	const n, winner = 8, 3
	tr := raire.Tree(n, winner, nil)
	if !tr.Truncated || tr.Nodes > raire.MaxTreeNodes || tr.Complete() {
		t.Fatalf("Truncated %v, %d nodes, Complete %v", tr.Truncated, tr.Nodes, tr.Complete())
	}
	checkTrees(t, tr, n, winner, nil)
	// 7 roots, 49 tails of two, 294 of three and 1,470 of four make 1,820;
	// 45 of the tails of four get their 4 children before the cap.
	depths := map[int]int{}
	cut := 0
	tr.Walk(func(node *raire.TreeNode) bool {
		depths[node.Depth]++
		if node.Truncated {
			cut++
		}
		return true
	})
	want := map[int]int{0: 7, 1: 49, 2: 294, 3: 1470, 4: 180}
	if fmt.Sprint(depths) != fmt.Sprint(want) {
		t.Errorf("nodes by depth %v, want %v", depths, want)
	}
	if cut != 1470-45+180 {
		t.Errorf("%d truncated nodes, want %d", cut, 1470-45+180)
	}
}

// TestTreeOddInput: no candidates, a winner out of range and an assertion
// naming unknown candidates give trees without panicking.
func TestTreeOddInput(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, winner int
		as        []raire.Assertion
		roots     int
	}{
		{"NoCandidates", 0, 0, nil, 0},
		{"NegativeCandidates", -3, 0, nil, 0},
		{"WinnerOutOfRange", 3, 7, []raire.Assertion{{Type: raire.NEB, Winner: 0, Loser: 1}}, 3},
		{"UnknownCandidates", 3, 0, []raire.Assertion{{Type: raire.NEN, Winner: 9, Loser: -1, Continuing: []int{-1, 9}}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := raire.Tree(tc.n, tc.winner, tc.as)
			if len(tr.Roots) != tc.roots {
				t.Errorf("%d roots, want %d", len(tr.Roots), tc.roots)
			}
			raire.LayoutTrees(tr, 4)
		})
	}
}

// TestLayoutTrees checks the layout of Burlington's trees: leaves in
// slots of their own, a parent centred over its children, a level per
// depth, trees side by side without overlapping, rows no wider than asked
// or than the widest tree, and an edge from every parent to each child.
func TestLayoutTrees(t *testing.T) {
	c := burlington(t)
	sol, err := raire.Assertions(c, raire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := sol.Tree()
	for _, maxWidth := range []float64{0, 12, 22, 30} {
		t.Run(fmt.Sprint(maxWidth), func(t *testing.T) {
			l := raire.LayoutTrees(tr, maxWidth)
			limit, rows := maxWidth, map[float64]bool{}
			for _, pt := range l.Trees {
				limit = max(limit, pt.Width)
				rows[pt.Y] = true
			}
			if (maxWidth > 0) != (len(rows) > 1) {
				t.Errorf("%d rows of trees", len(rows))
			}
			if len(l.Nodes) != tr.Nodes || len(l.Edges) != tr.Nodes-len(tr.Roots) || len(l.Trees) != len(tr.Roots) {
				t.Fatalf("%d nodes, %d edges, %d trees for %d nodes and %d roots", len(l.Nodes), len(l.Edges), len(l.Trees), tr.Nodes, len(tr.Roots))
			}
			index := map[*raire.TreeNode]int{}
			for i, n := range l.Nodes {
				index[n.TreeNode] = i
			}
			for _, e := range l.Edges {
				p, ch := l.Nodes[e[0]], l.Nodes[e[1]]
				if e[0] >= e[1] || !slices.Contains(p.Children, ch.TreeNode) {
					t.Errorf("edge %v is not parent to child", e)
				}
			}
			for k, pt := range l.Trees {
				root := l.Nodes[pt.Root].TreeNode
				if root != tr.Roots[k] {
					t.Fatalf("tree %d's root is %v", k, root.Tail)
				}
				slots := map[float64]bool{}
				var visit func(n *raire.TreeNode)
				visit = func(n *raire.TreeNode) {
					p := l.Nodes[index[n]]
					if p.X <= pt.X || p.X >= pt.X+pt.Width || p.Y != pt.Y+float64(n.Depth)+0.5 || p.Y >= pt.Y+pt.Height-1 {
						t.Errorf("node %v at (%v, %v), outside tree %+v", n.Tail, p.X, p.Y, pt)
					}
					if n.Leaf() {
						if p.X-pt.X-0.5 != float64(int(p.X-pt.X)) || slots[p.X] {
							t.Errorf("leaf %v at x %v: not a slot of its own", n.Tail, p.X)
						}
						slots[p.X] = true
						return
					}
					first, last := l.Nodes[index[n.Children[0]]], l.Nodes[index[n.Children[len(n.Children)-1]]]
					if p.X != (first.X+last.X)/2 {
						t.Errorf("%v at x %v, not centred over %v..%v", n.Tail, p.X, first.X, last.X)
					}
					for _, c := range n.Children {
						visit(c)
					}
				}
				visit(root)
				if float64(len(slots)) != pt.Width {
					t.Errorf("tree %d: %d leaves in width %v", k, len(slots), pt.Width)
				}
				if maxWidth > 0 && pt.X+pt.Width > limit {
					t.Errorf("tree %d ends at %v, past %v", k, pt.X+pt.Width, limit)
				}
				for j, other := range l.Trees[:k] {
					if other.Y == pt.Y && other.X+other.Width+1 > pt.X {
						t.Errorf("trees %d and %d overlap: %+v, %+v", j, k, other, pt)
					}
					if other.Y != pt.Y && other.Y+other.Height > pt.Y {
						t.Errorf("tree %d's row overlaps tree %d's: %+v, %+v", j, k, other, pt)
					}
				}
				if pt.X+pt.Width > l.Width || pt.Y+pt.Height > l.Height {
					t.Errorf("tree %d %+v outside %v x %v", k, pt, l.Width, l.Height)
				}
			}
		})
	}
}
