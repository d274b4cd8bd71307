package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"votedesk/tally/raire"
)

// The elimination trees' sizes, in pixels.
const (
	treesMaxWidth  = 940.0 // a row of trees is no wider, unless one tree is
	treesMargin    = 10.0  // above and below the trees
	treeLevel      = 66.0  // from one level's boxes to the next
	treeBoxH       = 22.0
	treeBoxPad     = 12.0 // a box's width beyond its name
	treeNameSize   = 11.5
	treeLabelSize  = 10.5
	treeLabelLine  = 12.5
	treeMinSlot    = 64.0
	treeMaxSlot    = 132.0
	treeSlotMargin = 10.0 // between neighbouring leaves' boxes and labels
	treeBold       = 1.12 // how much wider bold text is
)

// WriteEliminationTreesSVG draws the elimination trees of a RAIRE audit
// (raire.Tree) as one self-contained SVG for the audit report, laid out by
// raire.LayoutTrees: one tree per candidate who could win instead of the
// winner, that candidate at the top and, each level down, the candidate
// eliminated just before. A branch ends at a tail an assertion rules out,
// labelled under it with the assertion ("NEB Kiss > Wright"); an order no
// assertion rules out is drawn in red and labelled "not ruled out". Boxes
// and labels use the candidates' surnames when those tell them apart (the
// last word, or the part before a comma), else their names; every node's
// tooltip names the order in full and gives explain's words for the
// assertions that rule it out: explain(i) explains t.Assertions[i] (for
// the trees of Solution.Tree, sol.Assertions[i].Explain(names) gives the
// tallies and margin too), and when explain is nil, Assertion.Explain
// does. Names are escaped, and characters XML cannot carry replaced. The
// SVG has its natural size, legible at 100%: a page should let it scroll
// sideways when it is wider (in print it is scaled to the page).
func WriteEliminationTreesSVG(w io.Writer, t raire.Trees, names []string, explain func(i int) string) error {
	if explain == nil {
		explain = func(i int) string { return t.Assertions[i].Explain(names) }
	}
	full := make([]string, max(t.NumCandidates, 0))
	for c := range full {
		full[c] = raire.CandidateName(names, c)
	}
	label := Surnames(full)

	slot := treeMinSlot
	for _, n := range label {
		slot = max(slot, treeTextWidth(n, treeNameSize)+treeBoxPad+treeSlotMargin)
	}
	slot = min(slot, treeMaxSlot)
	inner := slot - treeSlotMargin

	l := raire.LayoutTrees(t, math.Floor(treesMaxWidth/slot)-1)
	// Half a slot each side leaves room for a lone root's "wins".
	side := slot / 2
	width := math.Max(l.Width*slot, 200) + 2*side
	height := l.Height*treeLevel + 2*treesMargin
	treeOf := map[*raire.TreeNode]int{}
	for i, pt := range l.Trees {
		treeOf[l.Nodes[pt.Root].TreeNode] = i
	}
	at := func(n raire.PlacedNode) (x, y float64) {
		return side + n.X*slot, treesMargin + n.Y*treeLevel
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="elimination-trees" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-labelledby="et-title et-desc">`,
		px(width), px(height), px(width), px(height))
	fmt.Fprintf(&b, `<title id="et-title">%s</title><desc id="et-desc">%s</desc>`,
		treeXML(fmt.Sprintf("Elimination trees: every way someone other than %s could win, and what rules it out", raire.CandidateName(names, t.Winner))),
		treeXML(treeSummary(t, full)))
	b.WriteString(`<style>` +
		`svg.elimination-trees{width:auto;height:auto;max-width:none}` +
		`@media print{svg.elimination-trees{max-width:100%}}` +
		`.elimination-trees text{font-family:"Helvetica Neue",Helvetica,Arial,"Liberation Sans","DejaVu Sans",sans-serif;font-size:11.5px;fill:#1c2329;text-anchor:middle}` +
		`.elimination-trees .edge{stroke:#9aa0a6;stroke-width:1.2}` +
		`.elimination-trees rect{fill:#fff;stroke:#5d6872;stroke-width:1}` +
		`.elimination-trees .root rect{stroke:#1f3a5f;stroke-width:2}` +
		`.elimination-trees .root .name{font-weight:700}` +
		`.elimination-trees .pruned rect{fill:#e4f0e7;stroke:#3b8f5a}` +
		`.elimination-trees .open rect{fill:#f8e6e4;stroke:#b8403a;stroke-width:2}` +
		`.elimination-trees .cut rect{stroke-dasharray:3 2}` +
		`.elimination-trees .label{font-size:10.5px}` +
		`.elimination-trees .label .kind{font-weight:700;fill:#3b8f5a}` +
		`.elimination-trees .open .label{fill:#b8403a}` +
		`</style>`)
	for _, e := range l.Edges {
		x1, y1 := at(l.Nodes[e[0]])
		x2, y2 := at(l.Nodes[e[1]])
		fmt.Fprintf(&b, `<line class="edge" x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x1), px(y1+treeBoxH/2), px(x2), px(y2-treeBoxH/2))
	}
	for _, n := range l.Nodes {
		x, y := at(n)
		class := "node"
		switch {
		case len(n.PrunedBy) > 0:
			class += " pruned"
		case n.NotRuledOut:
			class += " open"
		case n.Truncated:
			class += " cut"
		}
		if n.Depth == 0 {
			class += " root"
		}
		fmt.Fprintf(&b, `<g class="%s"><title>%s</title>`, class, treeXML(treeNodeText(t, n.TreeNode, full, explain)))
		name, nameW, size := label[n.Candidate()], inner-treeBoxPad, treeNameSize
		if n.Depth == 0 {
			// A root is alone on its level: it may take its tree's width
			// and half the gap each side. It is bold: measure it larger.
			tree := l.Trees[treeOf[n.TreeNode]]
			name, nameW, size = name+" wins", (tree.Width+1)*slot-treeSlotMargin-treeBoxPad, treeNameSize*treeBold
		}
		name = treeFit(name, size, nameW)
		boxW := treeTextWidth(name, size) + treeBoxPad
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" rx="4"/><text class="name" x="%s" y="%s">%s</text>`,
			px(x-boxW/2), px(y-treeBoxH/2), px(boxW), px(treeBoxH), px(x), px(y+4), treeXML(name))
		lines := treeNodeLabel(t, n.TreeNode, label, inner)
		for i, line := range lines {
			fmt.Fprintf(&b, `<text class="label" x="%s" y="%s">%s</text>`, px(x), px(y+treeBoxH/2+treeLabelLine*float64(i+1)), line)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// treeNodeLabel returns the lines under a node, already escaped, each at
// most width wide: a leaf's first assertion (its kind in bold), "not
// ruled out", or "…" where the tree was cut.
func treeNodeLabel(t raire.Trees, n *raire.TreeNode, names []string, width float64) []string {
	switch {
	case n.NotRuledOut:
		return treeWrap([]string{"not", "ruled", "out"}, width, false)
	case n.Truncated:
		return []string{"…"}
	case len(n.PrunedBy) == 0:
		return nil
	}
	a := t.Assertions[n.PrunedBy[0]]
	words := []string{string(a.Type), raire.CandidateName(names, a.Winner), "> " + raire.CandidateName(names, a.Loser)}
	return treeWrap(words, width, true)
}

// treeWrap fills lines of at most width with the words, escaped (a word
// too wide alone is cut short); with kind, the first word is the
// assertion's kind, set in bold.
func treeWrap(words []string, width float64, kind bool) []string {
	var lines []string
	var line strings.Builder
	lineW := 0.0
	space := treeTextWidth(" ", treeLabelSize)
	for i, w := range words {
		size := treeLabelSize
		if kind && i == 0 {
			size *= treeBold
		}
		w = treeFit(w, size, width)
		ww := treeTextWidth(w, size)
		if lineW > 0 && lineW+space+ww > width {
			lines = append(lines, line.String())
			line.Reset()
			lineW = 0
		}
		if lineW > 0 {
			line.WriteString(" ")
			lineW += space
		}
		if kind && i == 0 {
			line.WriteString(`<tspan class="kind">` + treeXML(w) + `</tspan>`)
		} else {
			line.WriteString(treeXML(w))
		}
		lineW += ww
	}
	if lineW > 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// treeNodeText says what a node stands for, for its tooltip: the order's
// end in full and what rules it out.
func treeNodeText(t raire.Trees, n *raire.TreeNode, names []string, explain func(i int) string) string {
	var b strings.Builder
	tail := n.Tail
	win := raire.CandidateName(names, tail[len(tail)-1])
	if len(tail) == 1 {
		fmt.Fprintf(&b, "%s wins.", win)
	} else {
		lead := "The count ends"
		if len(tail) == t.NumCandidates {
			lead = "The count"
		}
		fmt.Fprintf(&b, "%s: %s is eliminated", lead, raire.CandidateName(names, tail[0]))
		for _, c := range tail[1 : len(tail)-1] {
			fmt.Fprintf(&b, ", then %s", raire.CandidateName(names, c))
		}
		fmt.Fprintf(&b, ", and %s wins.", win)
	}
	switch {
	case n.NotRuledOut:
		fmt.Fprintf(&b, " No assertion rules this order out, so the assertions do not show that %s won.", raire.CandidateName(names, t.Winner))
	case n.Truncated:
		fmt.Fprintf(&b, " The orders that lead here are not drawn: the picture stops at %d tails.", raire.MaxTreeNodes)
	}
	for i, k := range n.PrunedBy {
		a := t.Assertions[k]
		if i == 0 {
			b.WriteString(" Ruled out by ")
		} else {
			b.WriteString(" Also by ")
		}
		fmt.Fprintf(&b, "%s %s > %s: %s", a.Type, raire.CandidateName(names, a.Winner), raire.CandidateName(names, a.Loser), explain(k))
	}
	return b.String()
}

// treeSummary describes the trees in a sentence or two for a reader who
// cannot see them.
func treeSummary(t raire.Trees, names []string) string {
	ends, open := t.Branches()
	s := fmt.Sprintf("%d trees, one for each candidate who could win instead of %s, with %d nodes; %d branches end at an assertion that rules them out.",
		len(t.Roots), raire.CandidateName(names, t.Winner), t.Nodes, ends)
	if open > 0 {
		s += fmt.Sprintf(" %d elimination orders are not ruled out.", open)
	}
	if t.Truncated {
		s += fmt.Sprintf(" The trees are cut short at %d nodes: the branches below the nodes marked … are not drawn.", t.Nodes)
	}
	return s
}

// Surnames returns each name's surname (the part before a comma, else the
// last word) when those are all different and at least three letters long,
// and otherwise the names unchanged: the short labels of the elimination
// trees, in the report and on screen.
func Surnames(names []string) []string {
	out := make([]string, len(names))
	seen := map[string]bool{}
	for i, n := range names {
		s, _, comma := strings.Cut(n, ",")
		if !comma {
			f := strings.Fields(n)
			s = ""
			if len(f) > 0 {
				s = f[len(f)-1]
			}
		}
		s = strings.TrimSpace(s)
		key := strings.ToLower(s)
		if utf8.RuneCountInString(s) < 3 || seen[key] {
			return names
		}
		seen[key] = true
		out[i] = s
	}
	return out
}

// treeFit cuts s short with "…" until it is at most width wide at size.
func treeFit(s string, size, width float64) string {
	if treeTextWidth(s, size) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && treeTextWidth(string(r)+"…", size) > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// treeTextWidth estimates how wide s is at size pixels in the report's sans
// serif, by character class, from DejaVu Sans's widths: the widest of
// the fonts the report names, so that labels never overlap.
func treeTextWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("iljI.,:;'|!", r):
			w += 0.28
		case strings.ContainsRune(" ftr()[]-/", r):
			w += 0.36
		case strings.ContainsRune("mwMW@", r):
			w += 0.9
		case unicode.IsUpper(r):
			w += 0.71
		case unicode.IsDigit(r):
			w += 0.64
		case r < 0x80 || unicode.IsLetter(r) && r < 0x2000:
			w += 0.6
		default:
			w += 1.0 // wide scripts and symbols
		}
	}
	return w * size
}

// treeXML escapes s for XML text or an attribute, replacing the
// characters XML 1.0 cannot carry with U+FFFD.
func treeXML(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return '\uFFFD'
	}, s)
	return esc(s)
}
