package kiosk

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// walk calls fn for every object under o: containers' children, widgets'
// renderer objects, hidden ones too.
func walk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	if o == nil {
		return
	}
	fn(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, fn)
		}
	case fyne.Widget:
		for _, c := range rendererObjects(x) {
			walk(c, fn)
		}
	}
}

// allTexts returns every text any object of the canvas holds: drawn text,
// and the text fields of labels, buttons and entries (their content, place
// holder and, for the kiosk's entries, the keyed text).
func allTexts(c fyne.Canvas) []string {
	var out []string
	add := func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *canvas.Text:
			out = append(out, x.Text)
		case *widget.Label:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, x.Text)
		case *button:
			out = append(out, x.label())
		case *widget.Entry:
			out = append(out, x.Text, x.PlaceHolder)
		case *entry:
			out = append(out, x.Text, x.PlaceHolder)
		case *widget.RichText:
			out = append(out, x.String())
		}
	}
	walk(c.Content(), add)
	for _, o := range c.Overlays().List() {
		walk(o, add)
	}
	return out
}

// TestNothingOfTheVoterRemains runs a session, then walks the whole canvas
// after the reset: no object holds the voter's name, their ranking or the
// confirmation code, and the kiosk holds no session or voter screen.
func TestNothingOfTheVoterRemains(t *testing.T) {
	for _, ending := range []string{"Done", "Timer"} {
		t.Run(ending, func(t *testing.T) {
			h := newHarness(t, "Mayor")
			before := h.k.checkIn
			h.checkIn("Bob Ray")
			h.typ("42")
			h.press(h.k.ballot.review)
			h.press(h.k.review.cast)
			code := h.k.receipt.code.Text
			if ending == "Done" {
				h.key(fyne.KeyReturn)
			} else {
				h.advance(DefaultReturnAfter)
			}
			k := h.k
			if k.screen != k.checkIn || k.session != nil || k.ballot != nil || k.review != nil || k.receipt != nil {
				t.Fatalf("after the reset: screen %T, session %v, ballot %v, review %v, receipt %v",
					k.screen, k.session, k.ballot, k.review, k.receipt)
			}
			if k.checkIn == before {
				t.Error("the next voter gets the previous check-in screen (and its field's undo history)")
			}
			texts := allTexts(h.win.Canvas())
			if len(texts) < 5 {
				t.Fatalf("the walk found only %q", texts)
			}
			for _, s := range texts {
				for _, leak := range []string{"Bob", "Ray", code, "choice", "Smith", "Wright", "Kiss", "Montroll"} {
					if strings.Contains(s, leak) {
						t.Errorf("after the reset a widget still holds %q (%q)", leak, s)
					}
				}
			}
		})
	}
}

// TestWipeEmptiesDroppedScreens: the screens of the voter before are
// emptied as they are dropped, so a renderer Fyne still caches holds nothing.
func TestWipeEmptiesDroppedScreens(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.checkIn("Ann Lee")
	h.typ("31")
	ballot, sess := h.k.ballot, h.k.session
	h.press(ballot.review)
	review := h.k.review
	h.press(review.cast)
	receipt := h.k.receipt
	h.key(fyne.KeyReturn)
	if sess.voter != "" || len(sess.ranking) != 0 {
		t.Errorf("the dropped session still holds %+v", sess)
	}
	for _, scr := range []fyne.CanvasObject{ballot.view(), review.view(), receipt.view()} {
		walk(scr, func(o fyne.CanvasObject) {
			var s string
			switch x := o.(type) {
			case *widget.Label:
				s = x.Text
			case *button:
				s = x.Text
			}
			if strings.Contains(s, "choice: ") || strings.Contains(s, "choice)") || strings.Contains(s, "Ann") || confirmationRE.MatchString(s) {
				t.Errorf("a dropped screen still shows %q", s)
			}
		})
	}
}

func rendererObjects(w fyne.Widget) []fyne.CanvasObject { return test.WidgetRenderer(w).Objects() }
