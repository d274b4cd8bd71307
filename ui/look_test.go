package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// over lays c over under as Fyne lays a button's focus colour over it.
func over(under, c color.Color) color.NRGBA {
	u, o := color.NRGBAModel.Convert(under).(color.NRGBA), color.NRGBAModel.Convert(c).(color.NRGBA)
	mix := func(a, b uint8) uint8 { return uint8((int(a)*(255-int(o.A)) + int(b)*int(o.A)) / 255) }
	return color.NRGBA{R: mix(u.R, o.R), G: mix(u.G, o.G), B: mix(u.B, o.B), A: 0xff}
}

// distance is how far apart two colours are, the largest of the channels.
func distance(a, b color.NRGBA) int {
	d := 0
	for _, x := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}} {
		d = max(d, max(int(x[0])-int(x[1]), int(x[1])-int(x[0])))
	}
	return d
}

// TestFocusShowsOnEveryButton: a focused button looks different from the
// same button unfocused, whatever its importance, in both variants. With
// Fyne's own focus colour a primary button (New election, Sign in) looked
// the same either way.
func TestFocusShowsOnEveryButton(t *testing.T) {
	th := deskTheme{theme.DefaultTheme()}
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		for _, bg := range []fyne.ThemeColorName{theme.ColorNamePrimary, theme.ColorNameButton, theme.ColorNameBackground, theme.ColorNameError} {
			plain := color.NRGBAModel.Convert(th.Color(bg, v)).(color.NRGBA)
			if d := distance(plain, over(plain, th.Color(theme.ColorNameFocus, v))); d < 40 {
				t.Errorf("variant %d, a %s button: focused, it changes by %d of 255 in a channel; want 40 or more", v, bg, d)
			}
			if d := distance(plain, over(plain, theme.DefaultTheme().Color(theme.ColorNameFocus, v))); bg == theme.ColorNamePrimary && d >= 40 {
				t.Logf("Fyne's own focus colour now shows on a primary button (%d): deskTheme may no longer be needed", d)
			}
		}
	}
}

// TestSidebarShowsFocus: Tab onto the sidebar draws a ring around it (the
// list's own mark of its focused row does not show over the selected row,
// and the shown screen's row is always selected); the ring goes with the
// focus.
func TestSidebarShowsFocus(t *testing.T) {
	h := mayorListed(t)
	ring := func() bool { return test.WidgetRenderer(h.sh.Nav).(*ringRenderer).ring.Visible() }
	if ring() {
		t.Fatal("the ring shows before the sidebar has the focus")
	}
	c := h.win.Canvas()
	c.Focus(h.sh.Nav)
	if c.Focused() != fyne.Focusable(h.sh.Nav) || !ring() {
		t.Fatalf("after Tab onto the sidebar: focus on %T, ring %v", c.Focused(), ring())
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	h.wait()
	if h.sh.screen != screenUsers {
		t.Errorf("Down then Space on the sidebar: screen %q", h.sh.screen)
	}
	c.Unfocus()
	if ring() {
		t.Error("the ring stayed after the focus left")
	}
}
