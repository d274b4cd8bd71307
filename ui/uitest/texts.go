package uitest

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// Texts lists every visible piece of text the canvas draws (content, then
// overlays), as a person reads the screen: each canvas.Text the widgets
// render, in tree order, skipping hidden objects and their children.
func Texts(c fyne.Canvas) []string {
	var out []string
	var visit func(o fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *canvas.Text:
			if x.Text != "" {
				out = append(out, x.Text)
			}
		case *fyne.Container:
			for _, k := range x.Objects {
				visit(k)
			}
		case fyne.Widget:
			for _, k := range test.WidgetRenderer(x).Objects() {
				visit(k)
			}
		}
	}
	visit(c.Content())
	for _, o := range c.Overlays().List() {
		visit(o)
	}
	return out
}
