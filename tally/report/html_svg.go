package report

import (
	"fmt"
	"html"
	"html/template"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"votedesk/tally"
)

// palette colours candidates by their standing; it stays readable in
// grey-scale print and for the common colour-vision deficiencies.
var palette = []string{"#1f5f99", "#d9822b", "#3b8f5a", "#b8403a", "#7257a3", "#8a6a3b", "#c2578f", "#4f7d8c", "#a39a2a", "#2b9aa8"}

const inactiveColor = "#9aa0a6"

// colorOf returns the colour of the candidate at position i of the standing.
func colorOf(i int) string { return palette[i%len(palette)] }

// esc escapes text for SVG.
func esc(s string) string { return html.EscapeString(s) }

// short cuts a name to n characters for a chart label.
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// px writes a coordinate.
func px(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", f), "0"), ".")
}

// roundChart draws one round as horizontal bars on a scale shared by every
// round of the pass, with the threshold as a dashed line; share writes a
// candidate's share of the round.
func roundChart(c tally.Contest, rd tally.Round, order []int, scale float64, share func(c int) string) template.HTML {
	const width, labelW, valueW, barH, gap, top = 480.0, 146.0, 104.0, 18.0, 7.0, 26.0
	barMax := width - labelW - valueW
	var rows []int
	for _, cand := range order {
		if _, in := rd.VotesOf(cand); in {
			rows = append(rows, cand)
		}
	}
	height := top + float64(len(rows))*(barH+gap) + 6
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="bars" viewBox="0 0 %s %s" role="img" aria-labelledby="r%dt"><title id="r%dt">Round %d tallies</title>`,
		px(width), px(height), rd.Number, rd.Number, rd.Number)
	fmt.Fprintf(&b, `<text class="chart-title" x="0" y="14">Round %d</text>`, rd.Number)
	pos := map[int]int{}
	for i, cand := range order {
		pos[cand] = i
	}
	if t := toFloat(rd.Threshold); t > 0 && t <= scale {
		x := labelW + t/scale*barMax
		fmt.Fprintf(&b, `<line class="threshold" x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x), px(top-6), px(x), px(height-4))
		fmt.Fprintf(&b, `<text class="threshold-label" x="%s" y="%s" text-anchor="middle">threshold %s</text>`, px(x), px(top-9), esc(Votes(rd.Threshold)))
	}
	for i, cand := range rows {
		votes, _ := rd.VotesOf(cand)
		f := toFloat(votes)
		y := top + float64(i)*(barH+gap)
		w := 0.0
		if scale > 0 {
			w = f / scale * barMax
		}
		class := ""
		switch {
		case contains(rd.Eliminated, cand):
			class = ` class="eliminated"`
		case contains(rd.Elected, cand):
			class = ` class="elected"`
		}
		name := c.Candidates[cand].Name
		fmt.Fprintf(&b, `<g%s><title>%s: %s votes</title>`, class, esc(name), esc(Votes(votes)))
		fmt.Fprintf(&b, `<text class="label" x="%s" y="%s" text-anchor="end">%s</text>`, px(labelW-8), px(y+barH-5), esc(short(name, 22)))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" rx="2" fill="%s"/>`, px(labelW), px(y), px(max(w, 1)), px(barH), colorOf(pos[cand]))
		fmt.Fprintf(&b, `<text class="value" x="%s" y="%s">%s <tspan class="share">%s</tspan></text></g>`,
			px(labelW+w+6), px(y+barH-5), esc(chartVotes(votes)), esc(share(cand)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// flowNode is one box of the flow chart: a candidate (or the inactive
// ballots, candidate -1) in one round.
type flowNode struct {
	cand     int
	votes    float64
	y, h     float64
	out, in  float64 // the part of the height already used by drawn bands
	colorIdx int
}

// flowBand is votes moving from a node to a node of the next round.
type flowBand struct {
	from, to *flowNode
	votes    float64
}

// flowChart draws how votes move from round to round: each round a column
// of boxes as tall as the candidates' tallies (and the inactive ballots),
// joined by bands as wide as the votes a candidate keeps or passes on.
func flowChart(c tally.Contest, pass tally.Pass, order []int) template.HTML {
	const width, left, right, top, height, nodeW, gap = 960.0, 170.0, 170.0, 30.0, 380.0, 14.0, 8.0
	rounds := pass.Rounds
	colX := func(r int) float64 {
		if len(rounds) == 1 {
			return left
		}
		return left + float64(r)*(width-left-right-nodeW)/float64(len(rounds)-1)
	}
	pos := map[int]int{}
	for i, cand := range order {
		pos[cand] = i
	}
	cols := make([][]*flowNode, len(rounds))
	byCand := make([]map[int]*flowNode, len(rounds))
	maxTotal, maxNodes := 0.0, 0
	for r, rd := range rounds {
		byCand[r] = map[int]*flowNode{}
		total := 0.0
		for _, cand := range order {
			if v, in := rd.VotesOf(cand); in {
				n := &flowNode{cand: cand, votes: toFloat(v), colorIdx: pos[cand]}
				cols[r] = append(cols[r], n)
				byCand[r][cand] = n
				total += n.votes
			}
		}
		if in := toFloat(rd.Inactive.Total()); in > 0 {
			n := &flowNode{cand: tally.Exhausted, votes: in}
			cols[r] = append(cols[r], n)
			byCand[r][tally.Exhausted] = n
			total += in
		}
		maxTotal, maxNodes = max(maxTotal, total), max(maxNodes, len(cols[r]))
	}
	if maxTotal == 0 {
		return ""
	}
	scale := (height - gap*float64(maxNodes-1)) / maxTotal
	for _, col := range cols {
		y := top
		for _, n := range col {
			n.y, n.h = y, n.votes*scale
			y += n.h + gap
		}
	}
	var bands []flowBand
	for r := 0; r+1 < len(rounds); r++ {
		moved := map[int]float64{}
		for _, t := range rounds[r].Transfers {
			from, to := byCand[r][t.From], byCand[r+1][t.To]
			v := toFloat(t.Votes)
			if from == nil || v <= 0 {
				continue
			}
			moved[t.From] += v
			if to != nil {
				bands = append(bands, flowBand{from, to, v})
			}
		}
		for cand, n := range byCand[r] {
			next := byCand[r+1][cand]
			if next == nil {
				continue
			}
			if kept := min(n.votes-moved[cand], next.votes); kept > 0 {
				bands = append(bands, flowBand{n, next, kept})
			}
		}
	}
	// Bands leave a box in the order of where they go, and enter one in the
	// order of where they come from, so they do not cross inside the boxes.
	sort.SliceStable(bands, func(i, j int) bool {
		a, b := bands[i], bands[j]
		if a.from != b.from {
			return a.from.y < b.from.y
		}
		return a.to.y < b.to.y
	})
	type placed struct {
		band   flowBand
		y0, y1 float64
	}
	var draw []placed
	for _, bd := range bands {
		draw = append(draw, placed{band: bd, y0: bd.from.y + bd.from.out})
		bd.from.out += bd.votes * scale
	}
	sort.SliceStable(draw, func(i, j int) bool {
		a, b := draw[i].band, draw[j].band
		if a.to != b.to {
			return a.to.y < b.to.y
		}
		return a.from.y < b.from.y
	})
	for i := range draw {
		to := draw[i].band.to
		draw[i].y1 = to.y + to.in
		to.in += draw[i].band.votes * scale
	}
	svgH := top + height + 24
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="flow" viewBox="0 0 %s %s" role="img" aria-labelledby="flowt"><title id="flowt">How votes moved between rounds</title>`, px(width), px(svgH))
	colX0 := map[*flowNode]float64{}
	for r := range rounds {
		for _, n := range cols[r] {
			colX0[n] = colX(r)
		}
		fmt.Fprintf(&b, `<text class="col-head" x="%s" y="16" text-anchor="middle">Round %d</text>`, px(colX(r)+nodeW/2), rounds[r].Number)
	}
	for _, d := range draw {
		bd := d.band
		x0, x1 := colX0[bd.from]+nodeW, colX0[bd.to]
		w := bd.votes * scale
		mx := (x0 + x1) / 2
		color := inactiveColor
		if bd.from.cand != tally.Exhausted {
			color = colorOf(bd.from.colorIdx)
		}
		class := "band"
		if bd.from.cand == bd.to.cand {
			class = "band kept"
		}
		fmt.Fprintf(&b, `<path class="%s" fill="%s" d="M%s %sC%s %s %s %s %s %sL%s %sC%s %s %s %s %s %sZ"><title>%s → %s: %s</title></path>`,
			class, color,
			px(x0), px(d.y0), px(mx), px(d.y0), px(mx), px(d.y1), px(x1), px(d.y1),
			px(x1), px(d.y1+w), px(mx), px(d.y1+w), px(mx), px(d.y0+w), px(x0), px(d.y0+w),
			esc(flowName(c, bd.from.cand)), esc(flowName(c, bd.to.cand)), esc(Thousands(trimFloat(bd.votes))))
	}
	for r := range rounds {
		for _, n := range cols[r] {
			color := inactiveColor
			if n.cand != tally.Exhausted {
				color = colorOf(n.colorIdx)
			}
			fmt.Fprintf(&b, `<rect class="node" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, round %d: %s</title></rect>`,
				px(colX(r)), px(n.y), px(nodeW), px(max(n.h, 1)), color, esc(flowName(c, n.cand)), rounds[r].Number, esc(Thousands(trimFloat(n.votes))))
		}
	}
	label := func(n *flowNode, x float64, anchor string) {
		if n.h < 9 {
			return
		}
		fmt.Fprintf(&b, `<text class="flow-label" x="%s" y="%s" text-anchor="%s">%s <tspan class="share">%s</tspan></text>`,
			px(x), px(n.y+n.h/2+4), anchor, esc(short(flowName(c, n.cand), 20)), esc(Thousands(trimFloat(n.votes))))
	}
	for _, n := range cols[0] {
		label(n, colX(0)-6, "end")
	}
	if last := len(rounds) - 1; last > 0 {
		for _, n := range cols[last] {
			label(n, colX(last)+nodeW+6, "start")
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// flowName names a flow chart box.
func flowName(c tally.Contest, cand int) string {
	if cand == tally.Exhausted {
		return "Inactive ballots"
	}
	return c.Candidates[cand].Name
}

// trimFloat writes a vote total without needless decimals.
func trimFloat(f float64) string {
	s := fmt.Sprintf("%.4f", f)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// chartVotes writes a tally for a chart label: at most two decimals.
func chartVotes(d tally.Decimal) string {
	if d.Scale() <= 2 {
		return Votes(d)
	}
	return Thousands(strconv.FormatFloat(toFloat(d), 'f', 2, 64))
}
