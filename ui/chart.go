package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// bar is one candidate's bar in a round.
type bar struct {
	Label string
	Value float64 // share of the scale, 0..1
	Text  string  // the votes, written
	Color color.Color
	Bold  bool
}

// BarChart draws one round of a count as horizontal bars, one per
// candidate, with the winning threshold as a line.
type BarChart struct {
	widget.BaseWidget
	bars      []bar
	threshold float64 // share of the scale; 0 = none
	caption   string
}

// NewBarChart makes an empty chart.
func NewBarChart() *BarChart {
	c := &BarChart{}
	c.ExtendBaseWidget(c)
	return c
}

// Set replaces the bars and redraws once.
func (c *BarChart) Set(bars []bar, threshold float64, caption string) {
	c.bars, c.threshold, c.caption = bars, threshold, caption
	c.Refresh()
}

// CreateRenderer builds the chart's drawing.
func (c *BarChart) CreateRenderer() fyne.WidgetRenderer {
	r := &barChartRenderer{chart: c, line: canvas.NewLine(theme.Color(theme.ColorNameError)), caption: canvas.NewText("", theme.Color(theme.ColorNameForeground))}
	r.line.StrokeWidth = 2
	r.caption.TextSize = theme.CaptionTextSize()
	r.Refresh()
	return r
}

type barChartRenderer struct {
	chart   *BarChart
	labels  []*canvas.Text
	rects   []*canvas.Rectangle
	values  []*canvas.Text
	line    *canvas.Line
	caption *canvas.Text
	objects []fyne.CanvasObject
}

const (
	barHeight = 26
	barGap    = 10
	// maxLabelW is the widest a candidate's name may be before it is cut.
	maxLabelW = 260
)

// widths are the widths of the name column and of the widest value text
// ("23,897  11.95%  eliminated"), so that neither is cut.
func (r *barChartRenderer) widths() (labelW, valueW float32) {
	pad := theme.Padding()
	labelW, valueW = 80, 60
	for i := range r.chart.bars {
		labelW = max(labelW, min(r.labels[i].MinSize().Width+2*pad, maxLabelW))
		valueW = max(valueW, r.values[i].MinSize().Width+2*pad)
	}
	return labelW, valueW
}

func (r *barChartRenderer) Layout(size fyne.Size) {
	pad := theme.Padding()
	labelW, valueW := r.widths()
	plotW := size.Width - labelW - valueW - 2*pad
	if plotW < 10 {
		plotW = 10
	}
	y := pad
	for i, b := range r.chart.bars {
		r.labels[i].Move(fyne.NewPos(pad, y+(barHeight-r.labels[i].MinSize().Height)/2))
		r.labels[i].Resize(fyne.NewSize(labelW-pad, r.labels[i].MinSize().Height))
		w := float32(b.Value) * plotW
		r.rects[i].Move(fyne.NewPos(labelW, y))
		r.rects[i].Resize(fyne.NewSize(w, barHeight))
		r.values[i].Move(fyne.NewPos(labelW+w+pad, y+(barHeight-r.values[i].MinSize().Height)/2))
		y += barHeight + barGap
	}
	if t := r.chart.threshold; t > 0 {
		x := labelW + float32(t)*plotW
		r.line.Position1 = fyne.NewPos(x, pad/2)
		r.line.Position2 = fyne.NewPos(x, y-barGap+pad/2)
		r.line.Show()
	} else {
		r.line.Hide()
	}
	r.caption.Move(fyne.NewPos(labelW, y))
}

func (r *barChartRenderer) MinSize() fyne.Size {
	n := float32(len(r.chart.bars))
	labelW, valueW := r.widths()
	return fyne.NewSize(labelW+valueW+200, n*(barHeight+barGap)+theme.Padding()+r.caption.MinSize().Height+theme.Padding())
}

func (r *barChartRenderer) Refresh() {
	fg := theme.Color(theme.ColorNameForeground)
	for len(r.labels) < len(r.chart.bars) {
		r.labels = append(r.labels, canvas.NewText("", fg))
		r.rects = append(r.rects, canvas.NewRectangle(color.Transparent))
		r.values = append(r.values, canvas.NewText("", fg))
	}
	r.labels, r.rects, r.values = r.labels[:len(r.chart.bars)], r.rects[:len(r.chart.bars)], r.values[:len(r.chart.bars)]
	r.objects = r.objects[:0]
	for i, b := range r.chart.bars {
		r.labels[i].Text, r.labels[i].Color, r.labels[i].TextStyle.Bold = b.Label, fg, b.Bold
		r.rects[i].FillColor, r.rects[i].CornerRadius = b.Color, 3
		r.values[i].Text, r.values[i].Color, r.values[i].TextStyle.Bold = b.Text, fg, b.Bold
		r.objects = append(r.objects, r.labels[i], r.rects[i], r.values[i])
	}
	r.line.StrokeColor = theme.Color(theme.ColorNameError)
	r.caption.Text, r.caption.Color = r.chart.caption, theme.Color(theme.ColorNamePlaceHolder)
	r.objects = append(r.objects, r.line, r.caption)
	r.Layout(r.chart.Size())
	canvas.Refresh(r.chart)
}

func (r *barChartRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *barChartRenderer) Destroy()                     {}
