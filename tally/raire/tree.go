package raire

import "slices"

// MaxTreeNodes is the most nodes Tree builds, so that the picture of a
// large contest stays drawable.
const MaxTreeNodes = 2000

// Trees are the pruned elimination trees of a set of assertions, as the
// RAIRE paper and "A Guide to RAIRE" draw them: one tree for each
// candidate who could win instead of Winner. A tree's root is the tail
// "c wins"; a node's children put one more candidate in front, eliminated
// just before the rest of the tail; a branch ends at the first tail an
// assertion rules out. When every branch ends that way, the assertions
// rule out every outcome but Winner's.
type Trees struct {
	NumCandidates, Winner int
	// Assertions are the assertions the trees were built from; a node's
	// PrunedBy indexes them.
	Assertions []Assertion
	// Roots are the trees, one per candidate other than Winner, in
	// candidate order.
	Roots []*TreeNode
	// Nodes is the number of nodes in all the trees.
	Nodes int
	// Truncated is set when the trees would have more than MaxTreeNodes
	// nodes: some nodes are then left unexpanded (TreeNode.Truncated).
	Truncated bool
}

// TreeNode is one tail of an elimination order: the candidates left at
// some point of the count, in the order they would be eliminated.
type TreeNode struct {
	// Tail lists the candidates, first eliminated first, the alternative
	// winner last; Tail[0] is the candidate the node adds to its parent.
	Tail []int
	// Depth is the node's distance from its root (len(Tail) - 1).
	Depth int
	// PrunedBy indexes the assertions that rule the tail out, in the
	// order they were given; empty when none does. The first is the one a
	// picture labels the node with.
	PrunedBy []int
	// NotRuledOut marks a complete elimination order that no assertion
	// rules out: an outcome other than Winner's that the assertions leave
	// possible. It never happens with a correct set of assertions.
	NotRuledOut bool
	// Truncated marks a node whose children were left out to keep the
	// trees within MaxTreeNodes.
	Truncated bool
	Children  []*TreeNode
}

// Candidate returns the candidate the node adds to its parent's tail: the
// one eliminated just before the rest (at a root, the alternative winner).
func (n *TreeNode) Candidate() int { return n.Tail[0] }

// Leaf reports whether the node has no children.
func (n *TreeNode) Leaf() bool { return len(n.Children) == 0 }

// Tree builds the elimination trees that the assertions leave for a
// contest of numCandidates won by winner (see Trees). It goes level by
// level across all the trees, so that if the node cap is reached every
// tree is shown to the same depth; a node's children are added all
// together or not at all.
func Tree(numCandidates, winner int, assertions []Assertion) Trees {
	t := Trees{NumCandidates: numCandidates, Winner: winner, Assertions: slices.Clone(assertions)}
	var level []*TreeNode
	for c := range max(numCandidates, 0) {
		if c != winner {
			if t.Nodes == MaxTreeNodes {
				t.Truncated = true
				break
			}
			n := t.node([]int{c})
			t.Roots = append(t.Roots, n)
			level = append(level, n)
		}
	}
	for len(level) > 0 {
		var next []*TreeNode
		for i, n := range level {
			if len(n.PrunedBy) > 0 || n.NotRuledOut {
				continue
			}
			if t.Nodes+numCandidates-len(n.Tail) > MaxTreeNodes {
				t.Truncated = true
				for _, rest := range slices.Concat(level[i:], next) {
					rest.Truncated = len(rest.PrunedBy) == 0 && !rest.NotRuledOut
				}
				return t
			}
			for c := range numCandidates {
				if !slices.Contains(n.Tail, c) {
					child := t.node(append([]int{c}, n.Tail...))
					n.Children = append(n.Children, child)
					next = append(next, child)
				}
			}
		}
		level = next
	}
	return t
}

// Tree builds the elimination trees of the solution's assertions (see
// Trees); a node's PrunedBy then indexes s.Assertions too.
func (s *Solution) Tree() Trees {
	as := make([]Assertion, len(s.Assertions))
	for i, a := range s.Assertions {
		as[i] = a.Assertion
	}
	return Tree(s.NumCandidates, s.Winner, as)
}

// node makes the node for a tail, with the assertions that rule it out.
// Its parent is not ruled out, so these are the assertions about its
// first candidate.
func (t *Trees) node(tail []int) *TreeNode {
	t.Nodes++
	n := &TreeNode{Tail: tail, Depth: len(tail) - 1}
	for i, a := range t.Assertions {
		if a.contradicts(tail) {
			n.PrunedBy = append(n.PrunedBy, i)
		}
	}
	n.NotRuledOut = len(n.PrunedBy) == 0 && len(tail) == t.NumCandidates
	return n
}

// Complete reports whether every branch of the trees ends at a tail an
// assertion rules out: no node is NotRuledOut and none was truncated.
func (t Trees) Complete() bool {
	if t.Truncated {
		return false
	}
	ok := true
	t.Walk(func(n *TreeNode) bool {
		ok = ok && !n.NotRuledOut
		return ok
	})
	return ok
}

// Walk calls f on every node, each tree depth first, parents before
// children, until f returns false.
func (t Trees) Walk(f func(n *TreeNode) bool) {
	var visit func(n *TreeNode) bool
	visit = func(n *TreeNode) bool {
		if !f(n) {
			return false
		}
		for _, c := range n.Children {
			if !visit(c) {
				return false
			}
		}
		return true
	}
	for _, r := range t.Roots {
		if !visit(r) {
			return
		}
	}
}

// Branches counts the trees' branches that end at an assertion ruling their
// order out (pruned), and the nodes whose order no assertion rules out
// (open: a gap in the assertions).
func (t Trees) Branches() (pruned, open int) {
	t.Walk(func(n *TreeNode) bool {
		if len(n.PrunedBy) > 0 {
			pruned++
		}
		if n.NotRuledOut {
			open++
		}
		return true
	})
	return pruned, open
}

// TreeLayout places Trees for drawing top-down, in abstract units: one
// unit across is one leaf's slot, one unit down one level of a tree. A
// renderer scales the units to its own sizes (a slot as wide as the
// widest label, say), so an SVG and a canvas draw the same picture.
type TreeLayout struct {
	// Width and Height bound the whole drawing.
	Width, Height float64
	// Nodes are every node with its centre, each tree depth first,
	// parents before children.
	Nodes []PlacedNode
	// Edges join a parent to a child, as indexes into Nodes.
	Edges [][2]int
	// Trees are the trees' places, in the order of Trees.Roots.
	Trees []PlacedTree
}

// PlacedNode is a node and the centre of its box: X is in the middle of
// its slot or of its children, Y in the middle of its level.
type PlacedNode struct {
	*TreeNode
	X, Y float64
}

// PlacedTree is where one tree is drawn: Root indexes Nodes, and X, Y,
// Width, Height bound its nodes, with a level below the deepest for the
// labels under its leaves.
type PlacedTree struct {
	Root                int
	X, Y, Width, Height float64
}

// treeGap is the space between trees in a row, in slots.
const treeGap = 1

// LayoutTrees lays the trees out left to right, each tree as wide as its
// leaves and a node centred over its children, starting a new row of
// trees when the next would make a row wider than maxWidth (in slots; 0
// puts every tree in one row) or than the widest tree, if wider: small
// trees fill the width a big one takes anyway. Every row is one level
// deeper than its deepest tree, so that the labels under the leaves have
// room.
func LayoutTrees(t Trees, maxWidth float64) TreeLayout {
	var l TreeLayout
	widths, depths := make([]float64, len(t.Roots)), make([]int, len(t.Roots))
	for i, root := range t.Roots {
		widths[i], depths[i] = treeSize(root)
		if maxWidth > 0 {
			maxWidth = max(maxWidth, widths[i])
		}
	}
	rowX, rowY, rowH := 0.0, 0.0, 0.0
	for i, root := range t.Roots {
		width, depth := widths[i], depths[i]
		if rowX > 0 && maxWidth > 0 && rowX+treeGap+width > maxWidth {
			rowX, rowY, rowH = 0, rowY+rowH, 0
		}
		if rowX > 0 {
			rowX += treeGap
		}
		pt := PlacedTree{Root: len(l.Nodes), X: rowX, Y: rowY, Width: width, Height: float64(depth + 2)}
		slot := rowX
		var place func(n *TreeNode, parent int)
		place = func(n *TreeNode, parent int) {
			i := len(l.Nodes)
			l.Nodes = append(l.Nodes, PlacedNode{TreeNode: n, Y: rowY + float64(n.Depth) + 0.5})
			if parent >= 0 {
				l.Edges = append(l.Edges, [2]int{parent, i})
			}
			if n.Leaf() {
				l.Nodes[i].X = slot + 0.5
				slot++
				return
			}
			first := len(l.Nodes)
			last := first
			for _, c := range n.Children {
				last = len(l.Nodes)
				place(c, i)
			}
			l.Nodes[i].X = (l.Nodes[first].X + l.Nodes[last].X) / 2
		}
		place(root, -1)
		l.Trees = append(l.Trees, pt)
		rowX += width
		rowH = max(rowH, pt.Height)
		l.Width = max(l.Width, rowX)
		l.Height = rowY + rowH
	}
	return l
}

// treeSize returns the number of leaves under n and its deepest node's
// depth.
func treeSize(n *TreeNode) (leaves float64, depth int) {
	if n.Leaf() {
		return 1, n.Depth
	}
	for _, c := range n.Children {
		l, d := treeSize(c)
		leaves += l
		depth = max(depth, d)
	}
	return leaves, depth
}
