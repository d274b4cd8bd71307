// Package uitest holds what the headless tests of the ui packages share.
package uitest

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// Relayout lays the canvas's content and overlays out again from the top,
// as the desktop driver does every frame for containers whose content
// changed size (the test canvas does not).
func Relayout(c fyne.Canvas) {
	if c.Content() != nil {
		layoutTree(c.Content())
	}
	for _, o := range c.Overlays().List() {
		layoutTree(o)
	}
}

func layoutTree(o fyne.CanvasObject) {
	switch x := o.(type) {
	case *fyne.Container:
		if x.Layout != nil {
			x.Layout.Layout(x.Objects, x.Size())
		}
		for _, k := range x.Objects {
			layoutTree(k)
		}
	case fyne.Widget:
		r := test.WidgetRenderer(x)
		r.Layout(x.Size())
		for _, k := range r.Objects() {
			layoutTree(k)
		}
	}
}
