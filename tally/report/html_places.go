package report

import (
	"fmt"
	"html/template"
	"strings"

	"votedesk/tally"
)

// placeView is one place of a rank-order or pairwise result.
type placeView struct {
	Place  int
	Names  string
	Score  string
	Winner bool
}

// matrixView is the pairwise preference matrix: how many ballots rank the
// row's candidate above the column's.
type matrixView struct {
	Names []string
	Rows  []matrixRow
	Paths []matrixRow // strongest paths (Schulze), when the method has them
}

type matrixRow struct {
	Name  string
	Cells []matrixCell
}

type matrixCell struct {
	Value string
	Class string // "win", "loss", "tie" or "self"
}

// placesView shows a result without rounds: its places, a bar chart of the
// scores when the method scores, and the pairwise matrices.
func placesView(h HTML) ([]placeView, template.HTML, *matrixView) {
	res := h.Result
	name := func(c int) string { return h.Contest.Candidates[c].Name }
	var places []placeView
	for _, pl := range res.Places {
		v := placeView{Place: pl.Place, Winner: pl.Place == 1}
		var ns, scores []string
		for _, c := range pl.Candidates {
			ns = append(ns, name(c))
			if res.Scores != nil {
				scores = append(scores, Votes(res.Scores[c]))
			}
		}
		v.Names = tally.JoinNames(ns)
		v.Score = strings.Join(scores, ", ")
		places = append(places, v)
	}
	var chart template.HTML
	if res.Scores != nil {
		chart = scoreChart(h.Contest, res)
	}
	p := res.Pairwise
	if p == nil {
		return places, chart, nil
	}
	m := &matrixView{}
	for _, c := range p.Candidates {
		m.Names = append(m.Names, name(c))
	}
	rows := func(values [][]int64) []matrixRow {
		var out []matrixRow
		for i, c := range p.Candidates {
			row := matrixRow{Name: name(c)}
			for j := range p.Candidates {
				cell := matrixCell{Value: Thousands(fmt.Sprint(values[i][j]))}
				switch {
				case i == j:
					cell = matrixCell{Value: "—", Class: "self"}
				case values[i][j] > values[j][i]:
					cell.Class = "win"
				case values[i][j] < values[j][i]:
					cell.Class = "loss"
				default:
					cell.Class = "tie"
				}
				row.Cells = append(row.Cells, cell)
			}
			out = append(out, row)
		}
		return out
	}
	m.Rows = rows(p.Preferences)
	if p.StrongestPaths != nil {
		m.Paths = rows(p.StrongestPaths)
	}
	return places, chart, m
}

// scoreChart draws each candidate's score as a bar, in order of place.
func scoreChart(c tally.Contest, res tally.Result) template.HTML {
	const width, labelW, valueW, barH, gap = 640.0, 170.0, 90.0, 18.0, 7.0
	var order []int
	for _, pl := range res.Places {
		order = append(order, pl.Candidates...)
	}
	top, most := 0.0, 0.0
	for _, cand := range order {
		most = max(most, toFloat(res.Scores[cand]))
	}
	height := float64(len(order))*(barH+gap) + 4
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="bars scores" viewBox="0 0 %s %s" role="img" aria-label="Scores"><title>Scores</title>`, px(width), px(height))
	for i, cand := range order {
		score := toFloat(res.Scores[cand])
		w := 0.0
		if most > 0 && score > 0 {
			w = score / most * (width - labelW - valueW)
		}
		y := top + float64(i)*(barH+gap)
		fmt.Fprintf(&b, `<text class="label" x="%s" y="%s" text-anchor="end">%s</text>`, px(labelW-8), px(y+barH-5), esc(short(c.Candidates[cand].Name, 24)))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" rx="2" fill="%s"/>`, px(labelW), px(y), px(max(w, 1)), px(barH), colorOf(i))
		fmt.Fprintf(&b, `<text class="value" x="%s" y="%s">%s</text>`, px(labelW+w+6), px(y+barH-5), esc(Votes(res.Scores[cand])))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
