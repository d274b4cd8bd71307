package ui

import (
	"fmt"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"votedesk/tally/raire"
	"votedesk/tally/report"
)

// The elimination trees' sizes on the canvas, as the audit report draws
// them (tally/report/raire_svg.go).
const (
	treesWidth     = 900 // a row of trees is no wider, unless one tree is
	treesMargin    = 10
	treeLevel      = 72 // from one level's boxes to the next
	treeBoxH       = 26
	treeBoxPad     = 14 // a box's width beyond its name
	treeMinSlot    = 70
	treeMaxSlot    = 150
	treeSlotMargin = 12 // between neighbouring leaves' boxes and labels
	treeTextSize   = 12
	treeLabelSize  = 11
)

// The elimination trees' colours, the report's: a branch an assertion ends
// is green, an order nothing rules out red.
var (
	treeEdge       = color.NRGBA{0x9a, 0xa0, 0xa6, 0xff}
	treeInk        = color.NRGBA{0x1c, 0x23, 0x29, 0xff}
	treeStroke     = color.NRGBA{0x5d, 0x68, 0x72, 0xff}
	treeRootStroke = color.NRGBA{0x1f, 0x3a, 0x5f, 0xff}
	treePrunedFill = color.NRGBA{0xe4, 0xf0, 0xe7, 0xff}
	treePruned     = color.NRGBA{0x3b, 0x8f, 0x5a, 0xff}
	treeOpenFill   = color.NRGBA{0xf8, 0xe6, 0xe4, 0xff}
	treeOpen       = color.NRGBA{0xb8, 0x40, 0x3a, 0xff}
)

// fixedSize lays nothing out: its objects stay where they were put, and
// it asks for the size of the drawing.
type fixedSize struct{ size fyne.Size }

func (l *fixedSize) MinSize([]fyne.CanvasObject) fyne.Size { return l.size }
func (l *fixedSize) Layout([]fyne.CanvasObject, fyne.Size) {}

// newTreesPicture draws RAIRE's elimination trees of an audit (raire.Tree,
// laid out by raire.LayoutTrees) on the canvas as the audit report draws
// them: one tree per candidate who could win instead of the winner, that
// candidate at the top and, each level down, the candidate eliminated just
// before; a branch ends in green at an order an assertion rules out,
// labelled with the assertion, and an order nothing rules out is red.
// Boxes name the candidates by surname when surnames tell them apart.
func newTreesPicture(t raire.Trees, names []string) *fyne.Container {
	label := report.Surnames(names)
	textW := func(s string, size float32, bold bool) float32 {
		return fyne.MeasureText(s, size, fyne.TextStyle{Bold: bold}).Width
	}
	slot := float32(treeMinSlot)
	for _, n := range label {
		slot = max(slot, textW(n, treeTextSize, false)+treeBoxPad+treeSlotMargin)
	}
	slot = min(slot, treeMaxSlot)
	inner := slot - treeSlotMargin
	l := raire.LayoutTrees(t, math.Floor(treesWidth/float64(slot))-1)
	side := slot / 2
	size := fyne.NewSize(max(float32(l.Width)*slot, 200)+2*side, float32(l.Height)*treeLevel+2*treesMargin)
	at := func(n raire.PlacedNode) (x, y float32) {
		return side + float32(n.X)*slot, treesMargin + float32(n.Y)*treeLevel
	}
	treeOf := map[*raire.TreeNode]int{}
	for i, pt := range l.Trees {
		treeOf[l.Nodes[pt.Root].TreeNode] = i
	}
	var objs []fyne.CanvasObject
	for _, e := range l.Edges {
		x1, y1 := at(l.Nodes[e[0]])
		x2, y2 := at(l.Nodes[e[1]])
		line := canvas.NewLine(treeEdge)
		line.StrokeWidth = 1.2
		line.Position1, line.Position2 = fyne.NewPos(x1, y1+treeBoxH/2), fyne.NewPos(x2, y2-treeBoxH/2)
		objs = append(objs, line)
	}
	text := func(s string, c color.Color, size float32, bold bool, x, y float32) {
		t := canvas.NewText(s, c)
		t.TextSize, t.TextStyle.Bold, t.Alignment = size, bold, fyne.TextAlignCenter
		w := t.MinSize()
		t.Resize(w)
		t.Move(fyne.NewPos(x-w.Width/2, y))
		objs = append(objs, t)
	}
	fg := theme.Color(theme.ColorNameForeground)
	for _, n := range l.Nodes {
		x, y := at(n)
		name, nameW, bold := label[n.Candidate()], inner-treeBoxPad, false
		if n.Depth == 0 {
			tree := l.Trees[treeOf[n.TreeNode]]
			name, nameW, bold = name+" wins", (float32(tree.Width)+1)*slot-treeSlotMargin-treeBoxPad, true
		}
		name = treeFit(name, nameW, func(s string) float32 { return textW(s, treeTextSize, bold) })
		box := canvas.NewRectangle(color.White)
		box.StrokeColor, box.StrokeWidth, box.CornerRadius = treeStroke, 1, 4
		switch {
		case len(n.PrunedBy) > 0:
			box.FillColor, box.StrokeColor = treePrunedFill, treePruned
		case n.NotRuledOut:
			box.FillColor, box.StrokeColor, box.StrokeWidth = treeOpenFill, treeOpen, 2
		}
		if n.Depth == 0 {
			box.StrokeColor, box.StrokeWidth = treeRootStroke, 2
		}
		boxW := textW(name, treeTextSize, bold) + treeBoxPad
		box.Resize(fyne.NewSize(boxW, treeBoxH))
		box.Move(fyne.NewPos(x-boxW/2, y-treeBoxH/2))
		objs = append(objs, box)
		nameH := fyne.MeasureText(name, treeTextSize, fyne.TextStyle{Bold: bold}).Height
		text(name, treeInk, treeTextSize, bold, x, y-nameH/2)
		below := y + treeBoxH/2 + 2
		lineH := fyne.MeasureText("Mg", treeLabelSize, fyne.TextStyle{}).Height
		switch {
		case n.NotRuledOut:
			text("not ruled out", treeOpen, treeLabelSize, true, x, below)
		case n.Truncated:
			text("…", fg, treeLabelSize, false, x, below)
		case len(n.PrunedBy) > 0:
			a := t.Assertions[n.PrunedBy[0]]
			text(string(a.Type), treePruned, treeLabelSize, true, x, below)
			words := []string{raire.CandidateName(label, a.Winner), "> " + raire.CandidateName(label, a.Loser)}
			for i, line := range treeWrap(words, inner, func(s string) float32 { return textW(s, treeLabelSize, false) }) {
				text(line, fg, treeLabelSize, false, x, below+lineH*float32(i+1))
			}
		}
	}
	return container.New(&fixedSize{size}, objs...)
}

// treeCaption says in words what the picture shows.
func treeCaption(t raire.Trees, names []string) string {
	ends, open := t.Branches()
	s := fmt.Sprintf("Every way someone other than %s could win, one tree each: at the top who would win, and each level down who would be eliminated just before. "+
		"A branch ends in green where an assertion rules that order out (%d branches); ", raire.CandidateName(names, t.Winner), ends)
	if open > 0 {
		s += fmt.Sprintf("%d orders in red are not ruled out, so the assertions do not show that %s won.", open, raire.CandidateName(names, t.Winner))
	} else {
		s += "none is left open, so if every assertion holds, no one else won."
	}
	if t.Truncated {
		s += fmt.Sprintf(" The picture stops at %d nodes: the branches under … are not drawn.", t.Nodes)
	}
	return s
}

// treeFit cuts s short with "…" until width(s) is at most w.
func treeFit(s string, w float32, width func(string) float32) string {
	if width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && width(string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// treeWrap fills lines at most w wide with the words (a word too wide
// alone is cut short).
func treeWrap(words []string, w float32, width func(string) float32) []string {
	var lines []string
	line := ""
	for _, word := range words {
		word = treeFit(word, w, width)
		if line != "" && width(line+" "+word) > w {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
