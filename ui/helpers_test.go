package ui

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/assets"
	"votedesk/localstore"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
	"votedesk/ui/uitest"
)

var update = flag.Bool("update", false, "rewrite the golden markup files under testdata/")

func TestMain(m *testing.M) {
	time.Local = time.UTC
	deaf := map[string]bool{}
	modal.Observe(func(overlay fyne.CanvasObject) {
		for _, d := range deafControls(overlay) {
			deaf[d] = true
		}
	})
	code := m.Run()
	if len(deaf) > 0 {
		fmt.Fprintln(os.Stderr, "FAIL: controls in a dialog that swallow Escape and Enter while focused (use modal's):")
		for _, d := range slices.Sorted(maps.Keys(deaf)) {
			fmt.Fprintln(os.Stderr, "\t"+d)
		}
		code = 1
	}
	os.Exit(code)
}

// deafControls lists the focusable controls shown inside o that are not
// modal.KeyPassers, by type, text and dialog title: with the focus on one of
// them, Escape and Enter would do nothing in the dialog. (Hidden controls,
// such as a form's unused buttons, cannot take the focus.)
func deafControls(o fyne.CanvasObject) []string {
	shown := uitest.Shown(o)
	title := ""
	for _, o := range shown {
		if l, ok := o.(*widget.Label); ok && title == "" && l.TextStyle.Bold {
			title = l.Text
		}
	}
	var deaf []string
	for _, o := range shown {
		if _, ok := o.(fyne.Focusable); !ok {
			continue
		}
		if _, passes := o.(modal.KeyPasser); passes {
			continue
		}
		label := ""
		switch w := o.(type) {
		case *widget.Button:
			label = w.Text
		case *widget.Check:
			label = w.Text
		}
		deaf = append(deaf, fmt.Sprintf("%T %q in %q", o, label, title))
	}
	return deaf
}

var testStart = time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC)

// harness is the desktop app on a real temporary bbolt store, in Fyne's
// test driver.
type harness struct {
	t     testing.TB
	store *localstore.Store
	svc   *app.Service
	clock *apptest.Clock
	app   fyne.App
	win   fyne.Window
	sh    *Shell
	ctx   context.Context
	// replays counts the events replay made as another device.
	replays int
}

// mustOpenStore opens a fresh database in the test's temp dir.
func mustOpenStore(t testing.TB) *localstore.Store {
	t.Helper()
	st, err := localstore.Open(filepath.Join(t.TempDir(), "votedesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// As bbolt's test helper checks its file after every test.
		if r, err := st.Verify(context.Background()); err == nil && !r.OK() {
			t.Errorf("the database does not verify after the test: %v", r.Problems)
		}
		st.Close()
	})
	return st
}

// newHarness starts the app on an empty database; the shell shows its
// first screen.
func newHarness(t testing.TB, sync Syncer) *harness {
	t.Helper()
	st := mustOpenStore(t)
	clock := apptest.NewClock(testStart, 0)
	h := &harness{t: t, store: st, clock: clock, svc: app.NewService(st, clock, &apptest.SeqIDs{}), ctx: context.Background()}
	h.app = test.NewTempApp(t)
	h.win = test.NewWindow(nil)
	t.Cleanup(func() { h.sh.Wait(); h.win.Close() })
	h.sh = NewShell(h.app, h.win, Config{Service: h.svc, DBPath: st.Path(), Sync: sync, Icon: assets.Icon})
	h.sh.tasks = offui.NewManual()
	h.sh.since = func(time.Time) time.Duration { return 42 * time.Millisecond }
	h.sh.Show()
	h.win.Resize(fyne.NewSize(1100, 720))
	return h
}

func (h *harness) must(err error) {
	h.t.Helper()
	if err != nil {
		h.t.Fatal(err)
	}
}

// owner registers the owner "Olivia" (password "olivia-pass") directly in
// the store.
func (h *harness) owner() {
	h.t.Helper()
	h.must(h.svc.RegisterUser(h.ctx, "", "Olivia", "olivia@example.org", "olivia-pass"))
}

// addUser registers a user with a role, made by the owner.
func (h *harness) addUser(name string, role app.Role) {
	h.t.Helper()
	h.must(h.svc.RegisterUser(h.ctx, "Olivia", name, strings.ToLower(name)+"@example.org", strings.ToLower(name)+"-pass"))
	if role != app.RoleUser {
		h.must(h.svc.SetRole(h.ctx, "Olivia", name, role))
	}
}

// signIn restarts the shell and signs in through the sign-in screen.
func (h *harness) signIn(name string) {
	h.t.Helper()
	h.sh.Show()
	s := h.sh.SignIn
	if s == nil {
		h.t.Fatal("no sign-in screen")
	}
	s.Login.SetText("")
	test.Type(s.Login, name)
	test.Type(s.Password, strings.ToLower(name)+"-pass")
	test.Tap(s.SignIn)
	h.wait()
	if h.sh.sess == nil {
		h.t.Fatalf("sign-in as %s failed: %v", name, h.dialogText())
	}
}

// wait lets every background task finish and deliver.
func (h *harness) wait() {
	h.sh.Wait()
}

// overlays lists the dialogs and pop-ups open over the window.
func (h *harness) overlays() []fyne.CanvasObject { return h.win.Canvas().Overlays().List() }

// dialogText is all the text shown in the open dialogs.
func (h *harness) dialogText() string {
	var b strings.Builder
	for _, o := range h.overlays() {
		for _, s := range texts(o) {
			b.WriteString(s)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// closeDialogs dismisses every open dialog.
func (h *harness) closeDialogs() {
	for _, o := range h.overlays() {
		h.win.Canvas().Overlays().Remove(o)
	}
}

// tapDialogButton taps the button labelled label in the top dialog.
func (h *harness) tapDialogButton(label string) {
	h.t.Helper()
	top := h.win.Canvas().Overlays().Top()
	if top == nil {
		h.t.Fatalf("no dialog open to tap %q in", label)
	}
	for _, o := range walk(top) {
		var b fyne.Tappable
		switch x := o.(type) {
		case *widget.Button:
			if x.Text == label {
				b = x
			}
		case *modal.Button:
			if x.Text == label {
				b = x
			}
		}
		if b != nil {
			test.Tap(b)
			h.wait()
			return
		}
	}
	h.t.Fatalf("no button %q in the dialog: %s", label, h.dialogText())
}

// typeInDialog types into the first empty entry of the top dialog.
func (h *harness) typeInDialog(text string) {
	h.t.Helper()
	for _, o := range walk(h.win.Canvas().Overlays().Top()) {
		if e, ok := o.(*modal.Entry); ok && e.Text == "" {
			test.Type(e, text)
			return
		}
	}
	h.t.Fatal("no empty entry in the dialog")
}

// walk lists o and every object inside it, rendering widgets.
func walk(o fyne.CanvasObject) []fyne.CanvasObject {
	if o == nil {
		return nil
	}
	out := []fyne.CanvasObject{o}
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			out = append(out, walk(c)...)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			out = append(out, walk(c)...)
		}
	}
	return out
}

// texts lists the visible text inside o.
func texts(o fyne.CanvasObject) []string {
	var out []string
	for _, x := range walk(o) {
		switch t := x.(type) {
		case *widget.Label:
			if t.Visible() && t.Text != "" {
				out = append(out, t.Text)
			}
		case *widget.RichText:
			if s := t.String(); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// assertDialog checks that an open dialog says each of want.
func (h *harness) assertDialog(want ...string) {
	h.t.Helper()
	got := h.dialogText()
	for _, w := range want {
		if !strings.Contains(got, w) {
			h.t.Errorf("dialog does not say %q; it says:\n%s", w, got)
		}
	}
}

// relayout lays the window out again from the top, as the desktop driver
// does when a widget's minimum size changes (the test canvas does not).
func (h *harness) relayout() { uitest.Relayout(h.win.Canvas()) }

// assertGolden compares the window's markup with testdata/name, rewriting it
// with -update.
func (h *harness) assertGolden(name string) {
	h.t.Helper()
	h.wait()
	h.relayout()
	got := test.RenderToMarkup(h.win.Canvas())
	path := filepath.Join("testdata", name)
	if *update {
		h.must(os.MkdirAll(filepath.Dir(path), 0o755))
		h.must(os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Errorf("golden file %s: %v (run go test -update to create it)", path, err)
		return
	}
	if string(want) != got {
		failed := filepath.Join("testdata", "failed", name)
		_ = os.MkdirAll(filepath.Dir(failed), 0o755)
		_ = os.WriteFile(failed, []byte(got), 0o644)
		h.t.Errorf("%s: the markup differs from the golden file; got written to %s (review, then go test -update)", name, failed)
	}
}

// widgetCell is the first cell of a table row.
func widgetCell(row int) widget.TableCellID { return widget.TableCellID{Row: row} }

var fyneKeyF5 = fyne.KeyEvent{Name: fyne.KeyF5}
