package ui

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"golang.org/x/image/vector"

	"votedesk/app"
	"votedesk/tally"
)

// inactiveNode is the node key of the ballots that no longer count.
const inactiveNode = -1

// flowNode is one candidate (or the inactive ballots) in one round.
type flowNode struct {
	key    int // candidate index, or inactiveNode
	label  string
	value  float64
	color  color.NRGBA
	y0, y1 float32 // laid out
	in     float32 // next free offset for incoming links
	out    float32 // next free offset for outgoing links
}

// flowLink is votes moving from a node of one round to a node of the next:
// a candidate keeping its votes, or a transfer.
type flowLink struct {
	round    int
	from, to int // node keys
	value    float64
	color    color.NRGBA
	// laid out: the band's top and bottom at the source and destination
	s0, s1, d0, d1 float32
}

// flowModel is the picture of a ranked-choice count as a Sankey diagram:
// a column of nodes per round, bands between them.
type flowModel struct {
	rounds []int
	nodes  [][]flowNode
	links  []flowLink
	max    float64
}

// newFlowModel builds the picture of the last pass of a count.
func newFlowModel(c app.Count) flowModel {
	p := lastPass(c.Result)
	order := placeOrder(c)
	var m flowModel
	total := tally.Decimal{}
	if len(p.Rounds) > 0 {
		rd := p.Rounds[0]
		total = rd.Active.Add(rd.Inactive.Total())
	}
	scale := func(d tally.Decimal) float64 { return ratio(d, total) }
	for _, rd := range p.Rounds {
		m.rounds = append(m.rounds, rd.Number)
		var col []flowNode
		sum := 0.0
		for _, cand := range order {
			if v, ok := rd.VotesOf(cand); ok {
				col = append(col, flowNode{key: cand, label: c.Contest.Candidates[cand].Name, value: scale(v), color: candidateColor(cand)})
				sum += scale(v)
			}
		}
		if in := rd.Inactive.Total(); in.Sign() > 0 {
			col = append(col, flowNode{key: inactiveNode, label: "Inactive", value: scale(in), color: inactiveColor})
			sum += scale(in)
		}
		m.nodes = append(m.nodes, col)
		m.max = max(m.max, sum)
	}
	for r := 0; r+1 < len(p.Rounds); r++ {
		rd, next := p.Rounds[r], p.Rounds[r+1]
		moved := map[int]tally.Decimal{}
		for _, tr := range rd.Transfers {
			moved[tr.From] = moved[tr.From].Add(tr.Votes)
		}
		for _, n := range m.nodes[r] {
			if n.key == inactiveNode {
				m.links = append(m.links, flowLink{round: r, from: inactiveNode, to: inactiveNode, value: n.value, color: inactiveColor})
				continue
			}
			v, _ := rd.VotesOf(n.key)
			if _, stays := next.VotesOf(n.key); stays {
				if keep := v.Sub(moved[n.key]); keep.Sign() > 0 {
					m.links = append(m.links, flowLink{round: r, from: n.key, to: n.key, value: scale(keep), color: n.color})
				}
			}
		}
		for _, tr := range rd.Transfers {
			to := tr.To
			switch to {
			case tally.ResidualSurplus:
				continue
			case tally.Exhausted:
				to = inactiveNode
			}
			m.links = append(m.links, flowLink{round: r, from: tr.From, to: to, value: scale(tr.Votes), color: candidateColor(tr.From)})
		}
	}
	return m
}

// node finds the node of a key in round r.
func (m *flowModel) node(r, key int) *flowNode {
	for i := range m.nodes[r] {
		if m.nodes[r][i].key == key {
			return &m.nodes[r][i]
		}
	}
	return nil
}

// FlowView draws a flowModel: where each round's votes went.
type FlowView struct {
	widget.BaseWidget
	mu    sync.Mutex // the model, shared with the raster's drawing
	model flowModel
	// geometry of the last layout, in canvas units
	left, colW, step, width float32
}

// NewFlowView makes an empty picture.
func NewFlowView() *FlowView {
	v := &FlowView{}
	v.ExtendBaseWidget(v)
	return v
}

// Set replaces the picture and redraws once.
func (v *FlowView) Set(m flowModel) {
	v.mu.Lock()
	v.model = m
	v.mu.Unlock()
	v.Refresh()
}

const (
	flowNodeW   = 14
	flowLabelW  = 150
	flowTop     = 28
	flowNodeGap = 8
)

// layout places the nodes and bands for a size.
func (v *FlowView) layout(size fyne.Size) {
	m := &v.model
	v.left, v.colW, v.width = flowLabelW, flowNodeW, size.Width
	n := len(m.nodes)
	if n == 0 || m.max == 0 {
		return
	}
	v.step = 0
	if n > 1 {
		v.step = (size.Width - 2*flowLabelW - flowNodeW) / float32(n-1)
	}
	maxNodes := 0
	for _, col := range m.nodes {
		maxNodes = max(maxNodes, len(col))
	}
	h := size.Height - flowTop - theme.Padding() - float32(maxNodes-1)*flowNodeGap
	if h < 10 {
		h = 10
	}
	k := h / float32(m.max)
	for r := range m.nodes {
		y := float32(flowTop)
		for i := range m.nodes[r] {
			nd := &m.nodes[r][i]
			nd.y0, nd.y1 = y, y+float32(nd.value)*k
			nd.in, nd.out = nd.y0, nd.y0
			y = nd.y1 + flowNodeGap
		}
	}
	for i := range m.links {
		l := &m.links[i]
		src, dst := m.node(l.round, l.from), m.node(l.round+1, l.to)
		if src == nil || dst == nil {
			continue
		}
		t := float32(l.value) * k
		l.s0, l.s1 = src.out, src.out+t
		src.out += t
		l.d0, l.d1 = dst.in, dst.in+t
		dst.in += t
	}
}

// x is the left edge of round r's column.
func (v *FlowView) x(r int) float32 { return v.left + float32(r)*v.step }

// draw paints the bands and nodes into an image of w×h pixels.
func (v *FlowView) draw(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	v.mu.Lock()
	defer v.mu.Unlock()
	m := &v.model
	if v.width == 0 || len(m.nodes) == 0 {
		return img
	}
	s := float32(w) / v.width
	z := vector.NewRasterizer(w, h)
	for _, l := range m.links {
		if l.s1 <= l.s0 {
			continue
		}
		x0, x1 := (v.x(l.round)+v.colW)*s, v.x(l.round+1)*s
		xm := (x0 + x1) / 2
		z.Reset(w, h)
		z.MoveTo(x0, l.s0*s)
		z.CubeTo(xm, l.s0*s, xm, l.d0*s, x1, l.d0*s)
		z.LineTo(x1, l.d1*s)
		z.CubeTo(xm, l.d1*s, xm, l.s1*s, x0, l.s1*s)
		z.ClosePath()
		c := l.color
		c.A = 0x70
		z.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{})
	}
	for r, col := range m.nodes {
		for _, nd := range col {
			rect := image.Rect(int(v.x(r)*s), int(nd.y0*s), int((v.x(r)+v.colW)*s), int(nd.y1*s+0.5))
			draw.Draw(img, rect, image.NewUniform(nd.color), image.Point{}, draw.Src)
		}
	}
	return img
}

// CreateRenderer builds the picture: a raster for the bands and nodes, text
// for the labels.
func (v *FlowView) CreateRenderer() fyne.WidgetRenderer {
	r := &flowRenderer{view: v}
	r.raster = canvas.NewRaster(v.draw)
	r.Refresh()
	return r
}

type flowRenderer struct {
	view    *FlowView
	raster  *canvas.Raster
	texts   []*canvas.Text
	objects []fyne.CanvasObject
}

func (r *flowRenderer) Layout(size fyne.Size) {
	v := r.view
	v.mu.Lock()
	v.layout(size)
	m := v.model
	v.mu.Unlock()
	r.raster.Resize(size)
	fg := theme.Color(theme.ColorNameForeground)
	texts := r.texts[:0]
	text := func(s string, pos fyne.Position, bold bool, right bool) {
		var t *canvas.Text
		if i := len(texts); i < len(r.texts) {
			t = r.texts[i]
		} else {
			t = canvas.NewText("", fg)
		}
		t.Text, t.Color, t.TextStyle.Bold = s, fg, bold
		t.TextSize = theme.CaptionTextSize()
		if right {
			pos.X -= t.MinSize().Width
		}
		t.Move(pos)
		texts = append(texts, t)
	}
	for i, n := range m.rounds {
		x := v.x(i) + flowNodeW/2
		text(fmt.Sprintf("Round %d", n), fyne.NewPos(x-24, 4), true, false)
	}
	if len(m.nodes) > 0 {
		for _, nd := range m.nodes[0] {
			text(nd.label, fyne.NewPos(v.x(0)-theme.Padding(), (nd.y0+nd.y1)/2-8), false, true)
		}
		last := len(m.nodes) - 1
		for _, nd := range m.nodes[last] {
			text(nd.label, fyne.NewPos(v.x(last)+flowNodeW+theme.Padding(), (nd.y0+nd.y1)/2-8), false, false)
		}
	}
	r.texts = texts
	r.objects = append(r.objects[:0], r.raster)
	for _, t := range texts {
		r.objects = append(r.objects, t)
	}
}

func (r *flowRenderer) MinSize() fyne.Size { return fyne.NewSize(2*flowLabelW+200, 240) }

func (r *flowRenderer) Refresh() {
	r.Layout(r.view.Size())
	r.raster.Refresh()
	for _, t := range r.texts {
		t.Refresh()
	}
}

func (r *flowRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *flowRenderer) Destroy()                     {}
