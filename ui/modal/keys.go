package modal

import (
	"slices"

	"fyne.io/fyne/v2"
)

// keys is what one canvas knows of the dialogs shown on it. It is used on
// the UI goroutine only.
type keys struct {
	c     fyne.Canvas
	other func(*fyne.KeyEvent)
	open  []*shown
	// shortcuts are the window's, by name (see Shortcuts).
	shortcuts map[string]func(fyne.Shortcut)
}

// shown is a dialog on screen: its overlay (the pop-up Fyne made for it)
// and what Enter does.
type shown struct {
	overlay fyne.CanvasObject
	d       *Dialog
	enter   func()
	busy    bool
}

var canvases = map[fyne.Canvas]*keys{}

// Keys takes the key handler of c: Escape and Enter go to the dialog or
// pop-up on top, every other key (and Escape or Enter with nothing over the
// window) to other, which may be nil.
func Keys(c fyne.Canvas, other func(*fyne.KeyEvent)) {
	k := keysOf(c)
	k.other = other
	c.SetOnTypedKey(k.typed)
}

func keysOf(c fyne.Canvas) *keys {
	k := canvases[c]
	if k == nil {
		k = &keys{c: c}
		canvases[c] = k
	}
	return k
}

// Shortcuts adds the window's shortcuts to c, each run by f. With nothing
// focused the canvas runs them; a field of this package that has the focus
// hands them on (Fyne gives a focused text field every shortcut, and the
// field drops those it does not know, so Ctrl+3 typed in a search box
// did nothing). The main menu's shortcuts reach the window before any
// field.
func Shortcuts(c fyne.Canvas, list []fyne.Shortcut, f func(fyne.Shortcut)) {
	k := keysOf(c)
	if k.shortcuts == nil {
		k.shortcuts = map[string]func(fyne.Shortcut){}
	}
	for _, s := range list {
		c.AddShortcut(s, f)
		k.shortcuts[s.ShortcutName()] = f
	}
}

// handOn runs s for field, which has the focus, if s is one of its
// window's shortcuts, and reports whether it was.
func handOn(field fyne.CanvasObject, s fyne.Shortcut) bool {
	c := fyne.CurrentApp().Driver().CanvasForObject(field)
	if c == nil || canvases[c] == nil {
		return false
	}
	f := canvases[c].shortcuts[s.ShortcutName()]
	if f == nil {
		return false
	}
	f(s)
	return true
}

// Forget drops what is known of c, when its window closes.
func Forget(c fyne.Canvas) { delete(canvases, c) }

func (k *keys) typed(ev *fyne.KeyEvent) {
	if Key(k.c, ev) {
		return
	}
	if k.other != nil {
		k.other(ev)
	}
}

// Show shows d on win. Escape closes it as its dismiss button does; Enter
// runs enter, or when enter is nil presses its confirm button (a question,
// a form) or closes it (a message). The window's key handler is
// taken if Keys has not been called for it.
func Show(win fyne.Window, d *Dialog, enter func()) {
	if enter == nil {
		enter = d.enter
	}
	installed(win.Canvas()).show(d, &shown{d: d, enter: enter})
	// A form dialog puts the keyboard in its first field that takes it,
	// so what is typed goes somewhere.
	for _, it := range d.fields {
		f, ok := it.Widget.(fyne.Focusable)
		if dis, can := it.Widget.(fyne.Disableable); ok && (!can || !dis.Disabled()) {
			win.Canvas().Focus(f)
			return
		}
	}
}

// ShowBusy shows d, a dialog of work under way (a progress bar), on win:
// Escape and Enter leave it be, as closing it would not stop the work.
func ShowBusy(win fyne.Window, d *Dialog) {
	installed(win.Canvas()).show(d, &shown{d: d, busy: true})
}

// installed is what c knows, taking its key handler if Keys has not.
func installed(c fyne.Canvas) *keys {
	if _, ok := canvases[c]; !ok {
		Keys(c, nil)
	}
	return canvases[c]
}

// show shows d and remembers it by its overlay; a dialog shown again
// replaces what was remembered of it, and one closed is forgotten when the
// overlays are next looked at (find).
func (k *keys) show(d *Dialog, s *shown) {
	d.show()
	s.overlay = k.c.Overlays().Top()
	k.open = slices.DeleteFunc(k.open, func(o *shown) bool { return o.overlay == s.overlay })
	k.open = append(k.open, s)
	if observe != nil {
		observe(s.overlay)
	}
}

// Key handles Escape and Enter for what is on top of c, reporting whether
// it did.
func Key(c fyne.Canvas, ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyEscape:
		return Escape(c)
	case fyne.KeyReturn, fyne.KeyEnter:
		return Enter(c)
	}
	return false
}

// Escape closes what is on top of c: a dialog shown with Show as its
// dismiss button does, any other pop-up by hiding it. It reports whether
// anything was open.
func Escape(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	if s := keysOf(c).find(top); s != nil {
		if !s.busy {
			s.d.Hide()
		}
		return true
	}
	top.Hide()
	if slices.Contains(c.Overlays().List(), top) {
		c.Overlays().Remove(top)
	}
	return true
}

// Enter confirms the dialog on top of c, reporting whether there was one.
func Enter(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	s := keysOf(c).find(top)
	if s == nil {
		return false
	}
	switch {
	case s.busy:
	case s.enter != nil:
		s.enter()
	default:
		s.d.Hide()
	}
	return true
}

// find is the dialog shown as overlay, forgetting dialogs whose overlay was
// taken away without closing them.
func (k *keys) find(overlay fyne.CanvasObject) *shown {
	on := k.c.Overlays().List()
	k.open = slices.DeleteFunc(k.open, func(s *shown) bool { return !slices.Contains(on, s.overlay) })
	for _, s := range k.open {
		if s.overlay == overlay {
			return s
		}
	}
	return nil
}

// EscapeFrom is Escape for the canvas o is on, for widgets that take keys.
func EscapeFrom(o fyne.CanvasObject) bool {
	c := fyne.CurrentApp().Driver().CanvasForObject(o)
	return c != nil && Escape(c)
}
