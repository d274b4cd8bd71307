package kiosk

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// luminance is the WCAG relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG contrast ratio of a and b, from 1 to 21.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// screenStep is one of the kiosk's screens, reached from the one before.
type screenStep struct {
	name string
	// reach brings the harness to the screen.
	reach func(h *harness)
	// order names the controls in the order Tab visits them from the
	// screen's first control, round to it again.
	order func(h *harness) []namedFocus
	// tabWakes is set on the idle warning: any key, Tab too, ends it.
	tabWakes bool
}

type namedFocus struct {
	name string
	f    fyne.Focusable
}

// barOrder is the top bar's controls that can be pressed.
func barOrder(h *harness) []namedFocus {
	b := h.k.bar
	var o []namedFocus
	if !b.smaller.Disabled() {
		o = append(o, namedFocus{"Smaller text", b.smaller})
	}
	if !b.larger.Disabled() {
		o = append(o, namedFocus{"Larger text", b.larger})
	}
	return append(o, namedFocus{"High contrast", b.contrast}, namedFocus{"Officials", b.officials})
}

// voterScreens walks a voter from check-in to the idle warning and the
// receipt: Mayor's candidates are Kiss, Wright, Montroll, Smith; the ballot
// step ranks Wright then Kiss, so the first row's Up and the second row's
// Down are disabled.
var voterScreens = []screenStep{
	{"check-in", func(h *harness) {}, func(h *harness) []namedFocus {
		c := h.k.checkIn
		return append([]namedFocus{{"name", c.name}, {"Continue", c.next}}, barOrder(h)...)
	}, false},
	{"ballot", func(h *harness) {
		h.checkIn("Ann Lee")
		h.typ("21")
	}, func(h *harness) []namedFocus {
		b := h.k.ballot
		var o []namedFocus
		for i, c := range b.cands {
			o = append(o, namedFocus{fmt.Sprintf("candidate %d", i+1), c})
		}
		o = slices.Concat(o[2:], []namedFocus{
			{"1st Down", b.rows[0].down}, {"1st Remove", b.rows[0].remove},
			{"2nd Up", b.rows[1].up}, {"2nd Remove", b.rows[1].remove},
			{"Cancel", b.cancel}, {"Clear all", b.clearAll}, {"Review", b.review}},
			barOrder(h), o[:2])
		return o
	}, false},
	{"idle", func(h *harness) { h.advance(DefaultIdleAfter) }, func(h *harness) []namedFocus {
		return []namedFocus{{"I need more time", h.k.idle.more}}
	}, true},
	{"review", func(h *harness) {
		h.key(fyne.KeyReturn)
		h.press(h.k.ballot.review)
	}, func(h *harness) []namedFocus {
		r := h.k.review
		return append([]namedFocus{{"Change my ballot", r.back}, {"Cast", r.cast}}, barOrder(h)...)
	}, false},
	{"receipt", func(h *harness) { h.press(h.k.review.cast) }, func(h *harness) []namedFocus {
		return append([]namedFocus{{"Done", h.k.receipt.done}}, barOrder(h)...)
	}, false},
}

// TestFocusOrder: on each voter screen the focus starts on the voter's next
// step and Tab visits every control that can be pressed, in reading order,
// skipping the disabled ones, and comes round again.
func TestFocusOrder(t *testing.T) {
	h := newHarness(t, "Mayor")
	for _, st := range voterScreens {
		st.reach(h)
		if st.tabWakes {
			continue // TestIdleWarning
		}
		want := st.order(h)
		var got, wantNames []string
		for _, w := range want {
			wantNames = append(wantNames, w.name)
		}
		name := func(f fyne.Focusable) string {
			for _, w := range want {
				if w.f == f {
					return w.name
				}
			}
			return fmt.Sprintf("%T %v", f, f)
		}
		if f := h.win.Canvas().Focused(); f != h.k.screen.first() {
			t.Errorf("%s: focus starts on %s, want %s", st.name, name(f), name(h.k.screen.first()))
		}
		for range want {
			got = append(got, name(h.win.Canvas().Focused()))
			h.win.Canvas().FocusNext()
		}
		got = append(got, name(h.win.Canvas().Focused()))
		wantNames = append(wantNames, wantNames[0])
		if strings.Join(got, " > ") != strings.Join(wantNames, " > ") {
			t.Errorf("%s: Tab visits\n  %s\nwant\n  %s", st.name, strings.Join(got, " > "), strings.Join(wantNames, " > "))
		}
	}
}

// changed counts the pixels of rect that differ between a and b by a
// contrast of at least min.
func changed(a, b image.Image, rect image.Rectangle, min float64) int {
	n := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			if contrast(a.At(x, y), b.At(x, y)) >= min {
				n++
			}
		}
	}
	return n
}

// bounds is where o is drawn in the window, in pixels.
func (h *harness) bounds(o fyne.CanvasObject) image.Rectangle {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	scale := h.win.Canvas().Scale()
	s := o.Size()
	return image.Rect(int(p.X*scale), int(p.Y*scale), int((p.X+s.Width)*scale), int((p.Y+s.Height)*scale))
}

// TestFocusIsVisible: for every control of every voter screen, at the
// smallest text size and at the largest in high contrast, the focused
// rendering differs from the unfocused one by at least 3:1 over more pixels
// than a 2-pixel-thick line round the control (WCAG 2.4.13, focus
// appearance). The blue and yellow buttons are the ones that failed before.
func TestFocusIsVisible(t *testing.T) {
	for _, look := range []kioskTheme{{}, {size: TextSizes - 1, contrast: true}} {
		t.Run(fmt.Sprintf("size%d-contrast%v", look.size+1, look.contrast), func(t *testing.T) {
			h := newHarness(t, "Mayor", func(c *Config) { c.TextSize, c.HighContrast = look.size, look.contrast })
			for _, st := range voterScreens {
				st.reach(h)
				c := h.win.Canvas()
				first := c.Focused()
				h.relayout()
				for _, w := range st.order(h) {
					if !st.tabWakes { // a focus move would end the idle warning
						c.Unfocus()
						c.Focus(w.f) // scrolls it into view
					}
					focused := c.Capture()
					c.Unfocus()
					plain := c.Capture()
					r := h.bounds(w.f.(fyne.CanvasObject))
					need := 2 * (2*r.Dx() + 2*r.Dy())
					// The test painter draws a scroll's content a few
					// pixels off the position the driver reports.
					if got := changed(plain, focused, r.Inset(-4), 3); got < need {
						t.Errorf("%s: focusing %s (%v) changes %d pixels by 3:1, want at least %d", st.name, w.name, r, got, need)
					}
				}
				if !st.tabWakes { // the next step's key ends the warning
					c.Focus(first)
				}
			}
		})
	}
}

// TestDisabledLooksDisabled: a disabled button (Up on the first choice,
// Smaller text at the smallest size) does not look like an enabled one: at
// least an eighth of its pixels differ by 1.2:1 or more (the fill, or in
// high contrast the outline, and the text). Fyne's own disabled button
// differs from its enabled one by 1.08:1.
func TestDisabledLooksDisabled(t *testing.T) {
	for _, look := range []kioskTheme{{}, {contrast: true}} {
		h := newHarness(t, "Mayor", func(c *Config) { c.TextSize, c.HighContrast = look.size, look.contrast })
		h.checkIn("Ann Lee")
		h.typ("21")
		for _, b := range []*button{h.k.ballot.rows[0].up, h.k.bar.smaller} {
			h.win.Canvas().Unfocus()
			h.relayout()
			off := h.win.Canvas().Capture()
			b.Enable()
			on := h.win.Canvas().Capture()
			b.Disable()
			r := h.bounds(b)
			if got, area := changed(off, on, r.Inset(-4), 1.2), r.Dx()*r.Dy(); got*8 < area {
				t.Errorf("%+v: %s disabled and enabled differ in %d of %d pixels", look, b.label(), got, area)
			}
		}
	}
}

// TestHighContrastTenToOne measures the high-contrast kiosk as drawn, at
// every text size, on every voter screen: each text against the colour
// behind it (the commonest colour of its box), and each enabled button's
// edge against the page, are at least 10:1.
func TestHighContrastTenToOne(t *testing.T) {
	page := kioskTheme{contrast: true}.Color(theme.ColorNameBackground, 0)
	for size := range TextSizes {
		h := newHarness(t, "Mayor", func(c *Config) { c.TextSize, c.HighContrast = size, true })
		checked := 0
		for _, st := range voterScreens {
			st.reach(h)
			first := h.win.Canvas().Focused()
			h.win.Canvas().Unfocus()
			h.relayout()
			img := h.win.Canvas().Capture()
			walkVisible(h.win.Canvas().Content(), func(o fyne.CanvasObject) {
				r := h.bounds(o)
				if r.Dx() < 4 || r.Dy() < 4 || !r.In(img.Bounds()) || !h.inView(o) {
					return
				}
				switch x := o.(type) {
				case *button:
					for _, t := range texts(x) {
						checkText(h, img, t, &checked)
					}
					if x.Disabled() {
						return
					}
					best := 1.0
					for x := r.Min.X - 4; x < r.Min.X+6; x++ { // the edge, wherever the painter put it
						best = max(best, contrast(img.At(x, (r.Min.Y+r.Max.Y)/2), page))
					}
					if c := best; c < 10 {
						h.t.Errorf("size %d, %s: the edge of %q is %.1f:1 against the page", size+1, st.name, x.label(), c)
					}
				case *canvas.Text:
					checkText(h, img, x, &checked)
				}
			})
			if !st.tabWakes {
				h.win.Canvas().Focus(first)
			}
		}
		if checked < 40 {
			t.Errorf("size %d: only %d texts measured", size+1, checked)
		}
	}
}

// inView reports whether o is drawn where the voter can see it: not
// scrolled out of the ballot's lists.
func (h *harness) inView(o fyne.CanvasObject) bool {
	b := h.k.ballot
	if b == nil || h.k.screen != b {
		return true
	}
	for _, s := range []*container.Scroll{b.candScroll, b.rankScroll} {
		inside := false
		walk(s.Content, func(x fyne.CanvasObject) { inside = inside || x == o })
		if inside {
			return h.bounds(o).In(h.bounds(s).Inset(-4))
		}
	}
	return true
}

// texts are the drawn texts inside a widget.
func texts(w fyne.Widget) []*canvas.Text {
	var out []*canvas.Text
	walk(w, func(o fyne.CanvasObject) {
		if t, ok := o.(*canvas.Text); ok && t.Visible() && strings.TrimSpace(t.Text) != "" {
			out = append(out, t)
		}
	})
	return out
}

// checkText measures text t against the commonest colour of its box.
func checkText(h *harness, img image.Image, t *canvas.Text, checked *int) {
	r := h.bounds(t).Intersect(img.Bounds())
	if strings.TrimSpace(t.Text) == "" || r.Dx() < 2 || r.Dy() < 2 {
		return
	}
	counts := map[color.RGBA]int{}
	var bg color.RGBA
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			counts[c]++
			if counts[c] > counts[bg] {
				bg = c
			}
		}
	}
	*checked++
	if c := contrast(t.Color, bg); c < 10 {
		h.t.Errorf("%q in %v is %.1f:1 on %v", t.Text, t.Color, c, bg)
	}
}
