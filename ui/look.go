package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// deskTheme is Fyne's own look with a sign of focus that shows on every
// control. Fyne marks a focused button by laying its focus colour, its
// primary blue at a sixth of full strength, over the button: on a primary
// button (New election, Sign in) that is blue over the same blue, so a
// keyboard user who tabbed onto one saw nothing change. Here the focus
// colour is a lighter blue (darker in the light variant) at about half, which
// shows over the primary blue, over a plain button and behind a check box.
type deskTheme struct{ fyne.Theme }

var (
	focusDark  = color.NRGBA{R: 0x8a, G: 0xb4, B: 0xff, A: 0x80}
	focusLight = color.NRGBA{R: 0x0b, G: 0x3d, B: 0x91, A: 0x70}
)

func (t deskTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameFocus {
		if v == theme.VariantLight {
			return focusLight
		}
		return focusDark
	}
	return t.Theme.Color(n, v)
}

// useDeskTheme sets the app's look to deskTheme.
func useDeskTheme(a fyne.App) { a.Settings().SetTheme(deskTheme{theme.DefaultTheme()}) }
