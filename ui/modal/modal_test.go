package modal

import (
	"errors"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func newWindow(t *testing.T) fyne.Window {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(800, 600))
	t.Cleanup(func() { Forget(w.Canvas()) })
	return w
}

func press(c fyne.Canvas, key fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: key}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	c.OnTypedKey()(ev)
}

// TestEscapeAndEnterWithNothingFocused: a message closes on either key, a
// confirm dialog says no on Escape and yes on Enter, and keys with nothing
// open go to the window's own handler.
func TestEscapeAndEnterWithNothingFocused(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	var other []fyne.KeyName
	Keys(c, func(ev *fyne.KeyEvent) { other = append(other, ev.Name) })

	for _, key := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter} {
		NewError(errors.New("the file is not a ballot file"), w).Show()
		if c.Overlays().Top() == nil {
			t.Fatal("the message is not shown")
		}
		press(c, key)
		if top := c.Overlays().Top(); top != nil {
			t.Errorf("%s left the message open", key)
		}
	}
	for key, want := range map[fyne.KeyName]bool{fyne.KeyEscape: false, fyne.KeyReturn: true} {
		answered := []bool{}
		ShowConfirm("Delete?", "Delete the election?", func(ok bool) { answered = append(answered, ok) }, w)
		press(c, key)
		if len(answered) != 1 || answered[0] != want || c.Overlays().Top() != nil {
			t.Errorf("%s on a confirm: answered %v, open %v; want %v", key, answered, c.Overlays().Top() != nil, want)
		}
	}
	press(c, fyne.KeyEscape)
	press(c, fyne.KeyF5)
	if len(other) != 2 || other[0] != fyne.KeyEscape || other[1] != fyne.KeyF5 {
		t.Errorf("keys with nothing open reached the window's handler as %v", other)
	}
}

// TestEscapeFromAField: a field that has the focus hands Escape to its
// dialog (the dialog's callback runs, as for Cancel), and Enter in it
// submits the form.
func TestEscapeFromAField(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	for _, tc := range []struct {
		key  fyne.KeyName
		want []bool
	}{{fyne.KeyEscape, []bool{false}}, {fyne.KeyReturn, []bool{true}}} {
		name := NewEntry()
		var got []bool
		d := NewFormDialog("New election", "Create", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", name)}, func(ok bool) { got = append(got, ok) }, w)
		name.OnSubmitted = func(string) { d.Submit() }
		Show(w, d, nil)
		c.Focus(name)
		test.Type(name, "Mayor")
		press(c, tc.key)
		if len(got) != len(tc.want) || got[0] != tc.want[0] || c.Overlays().Top() != nil {
			t.Errorf("%s in the field: callback %v, open %v", tc.key, got, c.Overlays().Top() != nil)
		}
	}
	// In a field with nothing open, Escape is the field's.
	e := NewEntry()
	w.SetContent(e)
	c.Focus(e)
	test.Type(e, "abc")
	press(c, fyne.KeyEscape)
	if e.Text != "abc" {
		t.Errorf("Escape changed a field with nothing open: %q", e.Text)
	}
}

// TestEscapeClosesTheCalendarFirst: with a date field's calendar open,
// Escape closes the calendar and leaves the dialog; a second closes the
// dialog.
func TestEscapeClosesTheCalendarFirst(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	date := NewDateEntry()
	closed := 0
	d := NewCustomConfirm("Voting window", "Save", "Cancel", date, func(bool) { closed++ }, w)
	d.Resize(fyne.NewSize(400, 200))
	Show(w, d, nil)
	test.WidgetRenderer(date) // makes its calendar button
	test.Tap(date.ActionItem.(*Button))
	if n := len(c.Overlays().List()); n != 2 {
		t.Fatalf("%d overlays with the calendar open, want 2", n)
	}
	// The calendar is a pop-up of its own: the focus is in none of its
	// fields, so Escape reaches the window's handler.
	press(c, fyne.KeyEscape)
	if n := len(c.Overlays().List()); n != 1 || closed != 0 {
		t.Fatalf("after Escape with the calendar open: %d overlays, dialog closed %d times", n, closed)
	}
	press(c, fyne.KeyEscape)
	if n := len(c.Overlays().List()); n != 0 || closed != 1 {
		t.Errorf("after the second Escape: %d overlays, dialog closed %d times", n, closed)
	}
}

// TestBusyDialogStays: Escape and Enter do not close a progress dialog (the
// work goes on either way).
func TestBusyDialogStays(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	d := NewCustomWithoutButtons("Importing ballots", widget.NewProgressBar(), w)
	ShowBusy(w, d)
	press(c, fyne.KeyEscape)
	press(c, fyne.KeyReturn)
	if c.Overlays().Top() == nil {
		t.Fatal("a key closed the progress dialog")
	}
	d.Hide()
	if c.Overlays().Top() != nil {
		t.Fatal("the progress dialog did not close")
	}
}

// TestFormKeepsARefusedTry: a refused try leaves the dialog open with what
// was typed and the reason shown in it; the next try that succeeds closes
// it; a try under way is not started twice.
func TestFormKeepsARefusedTry(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	pass := NewPasswordEntry()
	tries := 0
	var pending func(error)
	f := NewForm(w, "Start a kiosk", "Start", "Cancel", []*widget.FormItem{widget.NewFormItem("Passcode", pass)}, func(done func(error)) {
		tries++
		pending = done
	})
	f.Show()
	if c.Focused() != pass {
		t.Fatalf("focus on %v, want the empty field", c.Focused())
	}
	test.Type(pass, "short")
	press(c, fyne.KeyReturn)
	press(c, fyne.KeyReturn) // while the first try runs
	if tries != 1 || !f.Confirm.Disabled() {
		t.Fatalf("%d tries started, confirm disabled %v", tries, f.Confirm.Disabled())
	}
	pending(errors.New("the kiosk passcode must have at least 6 characters"))
	if c.Overlays().Top() == nil || pass.Text != "short" || !f.Error.Visible() || f.Error.Text == "" || f.Confirm.Disabled() {
		t.Fatalf("after a refusal: open %v, field %q, error %q shown %v", c.Overlays().Top() != nil, pass.Text, f.Error.Text, f.Error.Visible())
	}
	test.Type(pass, "-longer")
	test.Tap(f.Confirm)
	pending(nil)
	if c.Overlays().Top() != nil || tries != 2 {
		t.Errorf("a try that succeeded left the dialog open (tries %d)", tries)
	}
	// Escape in a field cancels.
	f = NewForm(w, "Start a kiosk", "Start", "Cancel", []*widget.FormItem{widget.NewFormItem("Passcode", NewPasswordEntry())}, func(func(error)) { t.Error("Escape tried") })
	f.Show()
	press(c, fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Error("Escape left the form open")
	}
}

// TestKeysWithAControlFocused: with the focus on any control of a dialog
// (reached with Tab, as a keyboard user does), Escape closes it as its
// dismiss button does; Enter presses a focused button, and over any other
// control confirms the dialog; a disabled confirm is not pressed.
func TestKeysWithAControlFocused(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	type made struct {
		d       *Dialog
		answers *[]bool
	}
	kinds := map[string]func() made{
		"confirm": func() made {
			var got []bool
			return made{NewConfirm("Delete?", "Delete the election?", func(ok bool) { got = append(got, ok) }, w), &got}
		},
		"custom confirm": func() made {
			var got []bool
			box := NewCheck("Also delete its ballots", nil)
			pick := NewSelect([]string{"a", "b"}, nil)
			return made{NewCustomConfirm("Delete", "Delete", "Cancel", widget.NewForm(widget.NewFormItem("", box), widget.NewFormItem("Which", pick)), func(ok bool) { got = append(got, ok) }, w), &got}
		},
		"form": func() made {
			var got []bool
			name := NewEntry()
			name.SetText("Mayor")
			return made{NewFormDialog("New election", "Create", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", name), widget.NewFormItem("", NewCheck("Secret", nil))}, func(ok bool) { got = append(got, ok) }, w), &got}
		},
		"message": func() made {
			return made{NewError(errors.New("the file is not a ballot file"), w), nil}
		},
	}
	for name, mk := range kinds {
		// How many controls the dialog has, reached by Tab.
		m := mk()
		m.d.Show()
		var controls []fyne.Focusable
		for c.FocusNext(); c.Focused() != nil && !slices.Contains(controls, c.Focused()); c.FocusNext() {
			controls = append(controls, c.Focused())
		}
		m.d.Hide()
		if len(controls) == 0 {
			t.Fatalf("%s: no control reached by Tab", name)
		}
		for i := range controls {
			for _, key := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
				m := mk()
				m.d.Show()
				for range i + 1 {
					c.FocusNext()
				}
				focused := c.Focused()
				if _, ok := focused.(KeyPasser); !ok {
					t.Errorf("%s: control %d is a %T, which swallows the keys", name, i, focused)
					continue
				}
				press(c, key)
				want := key == fyne.KeyReturn && focused != fyne.Focusable(m.d.DismissButton)
				if top := c.Overlays().Top(); top != nil {
					t.Errorf("%s: %s on the focused %T left the dialog open", name, key, focused)
					m.d.Hide()
					continue
				}
				if m.answers != nil && (len(*m.answers) != 1 || (*m.answers)[0] != want) {
					t.Errorf("%s: %s on the focused %T answered %v, want [%v]", name, key, focused, *m.answers, want)
				}
			}
		}
	}

	// A form with an invalid field: Enter over it does not confirm.
	name := NewEntry()
	name.Validator = func(s string) error {
		if s == "" {
			return errors.New("a name is needed")
		}
		return nil
	}
	var got []bool
	d := NewFormDialog("New election", "Create", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", name)}, func(ok bool) { got = append(got, ok) }, w)
	d.Show()
	c.Focus(d.ConfirmButton)
	press(c, fyne.KeyReturn)
	if len(got) != 0 || c.Overlays().Top() == nil {
		t.Errorf("Enter on a disabled confirm: answered %v, open %v", got, c.Overlays().Top() != nil)
	}
	d.Hide()
}

// TestTabLeavesEveryField: no field keeps Tab (a description of several
// lines included), so the keyboard never gets stuck in one.
func TestTabLeavesEveryField(t *testing.T) {
	for name, e := range map[string]*Entry{"one line": NewEntry(), "several lines": NewMultiLineEntry()} {
		if e.AcceptsTab() {
			t.Errorf("a %s field takes Tab", name)
		}
	}
}

// TestShiftTabGoesBackAField walks a form with Tab and Shift+Tab as the
// desktop driver sends them: forward, Tab reaches a password's eye and a
// date's calendar button after their fields; back, Shift+Tab from a field
// goes to the field before it, past that field's button (Fyne alone lands
// on the button, and a keyboard user signing in as someone else typed the
// name into nothing).
func TestShiftTabGoesBackAField(t *testing.T) {
	w := newWindow(t)
	name, password, date, notes := NewEntry(), NewPasswordEntry(), NewDateEntry(), NewMultiLineEntry()
	done := NewButton("Done", func() {})
	w.SetContent(container.NewVBox(name, password, date, notes, done))
	c := w.Canvas()
	shift := false
	held := shiftHeld
	shiftHeld = func() bool { return shift }
	t.Cleanup(func() { shiftHeld = held })
	// tab is the desktop driver's Tab: the focused widget takes it if it
	// accepts Tab, else the canvas moves the focus.
	tab := func(back bool) {
		shift = back
		if f, ok := c.Focused().(fyne.Tabbable); ok && f.AcceptsTab() {
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
			return
		}
		if back {
			c.FocusPrevious()
		} else {
			c.FocusNext()
		}
	}
	names := map[fyne.Focusable]string{name: "name", password: "password", date: "date", notes: "notes", done: "done"}
	names[password.ActionItem.(fyne.Focusable)] = "eye"
	names[date.ActionItem.(fyne.Focusable)] = "calendar"
	walk := func(from fyne.Focusable, back bool, n int) []string {
		c.Focus(from)
		var got []string
		for range n {
			tab(back)
			got = append(got, names[c.Focused()])
		}
		return got
	}
	if got, want := walk(name, false, 6), []string{"password", "eye", "date", "calendar", "notes", "done"}; !slices.Equal(got, want) {
		t.Errorf("Tab from the name: %v, want %v", got, want)
	}
	if got, want := walk(done, true, 4), []string{"notes", "date", "password", "name"}; !slices.Equal(got, want) {
		t.Errorf("Shift+Tab from Done: %v, want %v", got, want)
	}
}

// TestSpaceOnAButtonTypesNothing: Space on a button that opens a form
// presses it when the key comes up, so the space character of that key
// press does not land in the form's first field. The keys come as the
// desktop driver sends them, each to whatever has the focus then.
func TestSpaceOnAButtonTypesNothing(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	code := NewPasswordEntry()
	opened := 0
	open := NewButton("Start kiosk", func() {
		opened++
		NewForm(w, "Start a kiosk", "Start", "Cancel", []*widget.FormItem{widget.NewFormItem("Passcode", code)},
			func(done func(error)) { done(nil) }).Show()
	})
	w.SetContent(container.NewVBox(open))
	c.Focus(open)
	space := &fyne.KeyEvent{Name: fyne.KeySpace}
	if k, ok := c.Focused().(desktop.Keyable); ok {
		k.KeyDown(space)
	}
	c.Focused().TypedKey(space)
	c.Focused().TypedRune(' ')
	if k, ok := c.Focused().(desktop.Keyable); ok {
		k.KeyUp(space)
	}
	if opened != 1 || c.Focused() != code || code.Text != "" {
		t.Errorf("Space on the button: opened %d times, focus on %T, passcode %q; want once, in the passcode, empty", opened, c.Focused(), code.Text)
	}

	// Without key-down events (Fyne's test driver, some platforms), Space
	// presses it at once.
	c.Focus(open)
	open.TypedKey(space)
	if opened != 2 {
		t.Errorf("Space with no key-down: opened %d times, want 2", opened)
	}
}

// TestFormDialogFocusesItsFirstField: a form dialog puts the keyboard in
// its first item that takes it, past a label and a disabled field.
func TestFormDialogFocusesItsFirstField(t *testing.T) {
	w := newWindow(t)
	off, name := NewEntry(), NewEntry()
	off.Disable()
	items := []*widget.FormItem{widget.NewFormItem("", widget.NewLabel("Say who")), widget.NewFormItem("Frozen", off), widget.NewFormItem("Name", name)}
	Show(w, NewFormDialog("Who?", "OK", "Cancel", items, func(bool) {}, w), nil)
	if f := w.Canvas().Focused(); f != name {
		t.Errorf("focus on %T, want the name", f)
	}
}
