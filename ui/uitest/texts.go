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
	for _, o := range Shown(append([]fyne.CanvasObject{c.Content()}, c.Overlays().List()...)...) {
		if x, ok := o.(*canvas.Text); ok && x.Text != "" {
			out = append(out, x.Text)
		}
	}
	return out
}

// Shown lists the objects drawn from roots, in tree order: each root and
// what its containers hold and its widgets render, skipping hidden objects
// and their children.
func Shown(roots ...fyne.CanvasObject) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	var visit func(o fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		out = append(out, o)
		switch x := o.(type) {
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
	for _, r := range roots {
		visit(r)
	}
	return out
}
