package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"votedesk/app/apptest"
)

// openHome makes a home folder with Documents holding an export folder, a
// busy folder of 450 folders, files the import reads and files it does
// not.
func openHome(t *testing.T) (home, docs string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	docs = filepath.Join(home, "Documents")
	for _, dir := range []string{"exports/Dominion", "busy"} {
		if err := os.MkdirAll(filepath.Join(docs, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 450 {
		if err := os.Mkdir(filepath.Join(docs, "busy", fmt.Sprintf("f%03d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"ballots.csv", "Ballots-2.CSV", "cvr.xlsx", "notes.pdf", ".hidden.csv"} {
		if err := os.WriteFile(filepath.Join(docs, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home, docs
}

func shownNames(op *OpenPath) []string {
	var out []string
	for row := range op.shown {
		out = append(out, op.cell(row, 0))
	}
	return out
}

// TestOpenDialog walks the open dialog as an official does: it starts in
// Documents, fills the window, lists folders then the files the import
// reads, narrows as a name is typed, goes anywhere by a typed or pasted
// path (the 450-folder folder in one step), says why a path cannot be
// opened and stays, opens a file, remembers its folder, and closes on
// Escape.
func TestOpenDialog(t *testing.T) {
	_, docs := openHome(t)
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")
	c := h.win.Canvas()
	var chosen []string
	op := askOpenPath(h.sh.sess, openSpec{Title: "Import ballots", Kinds: cvrKinds(), Files: true, Folders: true}, func(p string) { chosen = append(chosen, p) })
	h.wait()

	if op.Dir != docs || op.Path.Text != docs+"/" || c.Focused() != op.Path {
		t.Fatalf("starts in %q (field %q, focus %v), want Documents with the focus in the path", op.Dir, op.Path.Text, c.Focused())
	}
	if got, want := shownNames(op), []string{"busy/", "exports/", "Ballots-2.CSV", "ballots.csv", "cvr.xlsx"}; !slices.Equal(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
	if got := op.cell(4, 1); !strings.Contains(got, "ES&S") {
		t.Errorf("cvr.xlsx is of kind %q", got)
	}
	// It uses the window, not a corner of it.
	h.relayout()
	if got, win := op.List.Size(), c.Size(); got.Width < 0.85*win.Width || got.Height < 0.6*win.Height {
		t.Errorf("a list of %v in a window of %v", got, win)
	}
	op.AllFiles.SetChecked(true)
	h.wait()
	if got := shownNames(op); !slices.Contains(got, "notes.pdf") || !slices.Contains(got, ".hidden.csv") {
		t.Errorf("every file: %q", got)
	}
	op.AllFiles.SetChecked(false)
	h.wait()

	// Typing a name narrows the list and selects the first match; Enter
	// opens it.
	test.Type(op.Path, "ba")
	if got := shownNames(op); !slices.Equal(got, []string{"Ballots-2.CSV", "ballots.csv"}) || op.sel != 0 {
		t.Errorf("after typing ba: %q, selected %d", got, op.sel)
	}
	// Typing a folder and its separator goes into it: 450 folders, one
	// step.
	op.Path.SetText(docs + "/")
	test.Type(op.Path, "busy/")
	h.wait()
	if op.Dir != filepath.Join(docs, "busy") || len(op.shown) != 450 {
		t.Fatalf("after typing busy/: in %q with %d rows", op.Dir, len(op.shown))
	}
	// Folders are read off the UI goroutine: a listing asked for first and
	// arriving last is dropped, and what is typed while a folder is read is
	// kept and narrows its list.
	op.Navigate(docs)
	op.Path.SetText(filepath.Join(docs, "busy") + "/f44")
	op.Navigate(filepath.Join(docs, "busy"))
	h.wait()
	if op.Dir != filepath.Join(docs, "busy") || len(op.shown) != 10 || op.Path.Text != filepath.Join(docs, "busy")+"/f44" {
		t.Fatalf("after two listings: in %q, %d rows, field %q", op.Dir, len(op.shown), op.Path.Text)
	}
	op.Path.SetText(op.Path.Text + "9")
	op.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	h.wait()
	if op.Dir != filepath.Join(docs, "busy", "f449") {
		t.Fatalf("Enter on f449: in %q", op.Dir)
	}
	test.Tap(op.Up)
	h.wait()
	test.Tap(op.Up)
	h.wait()
	if op.Dir != docs {
		t.Fatalf("Up twice: in %q", op.Dir)
	}
	// A path that is not there is said, and nothing closes.
	op.Path.SetText(filepath.Join(docs, "missing.csv"))
	op.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	if !op.Message.Visible() || !strings.Contains(op.Message.Text, "missing.csv: no such file or folder") || c.Overlays().Top() == nil || len(chosen) != 0 {
		t.Fatalf("a missing path: message %q, open %v, chosen %q", op.Message.Text, c.Overlays().Top() != nil, chosen)
	}
	// A pasted path of a file opens it, wherever it is (~ is home).
	op.Path.SetText("~/Documents/cvr.xlsx")
	op.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	if !slices.Equal(chosen, []string{filepath.Join(docs, "cvr.xlsx")}) || c.Overlays().Top() != nil {
		t.Fatalf("pasted path: chosen %q, open %v", chosen, c.Overlays().Top() != nil)
	}

	// The next dialog starts in the folder last used; Escape in the path
	// closes it.
	if err := os.MkdirAll(filepath.Join(docs, "exports", "usb"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.sh.sess.prefs.SetString(prefLastFolder, filepath.Join(docs, "exports"))
	op = askOpenPath(h.sh.sess, openSpec{Title: "Import ballots", Kinds: cvrKinds(), Files: true, Folders: true}, func(p string) { chosen = append(chosen, p) })
	h.wait()
	if op.Dir != filepath.Join(docs, "exports") {
		t.Errorf("second dialog starts in %q", op.Dir)
	}
	op.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Overlays().Top() != nil || len(chosen) != 1 {
		t.Errorf("Escape: open %v, chosen %q", c.Overlays().Top() != nil, chosen)
	}

	// A folder is chosen by going into it, or selecting it, then Use.
	op = askOpenPath(h.sh.sess, openSpec{Title: "Export folder", Folders: true}, func(p string) { chosen = append(chosen, p) })
	h.wait()
	if got := shownNames(op); !slices.Equal(got, []string{"Dominion/", "usb/"}) || !op.Open.Disabled() {
		t.Errorf("folders only: %q, Go into enabled %v", got, !op.Open.Disabled())
	}
	op.List.Select(widget.TableCellID{Row: 0})
	if op.UseFolder.Text != `Use "Dominion"` {
		t.Errorf("with Dominion selected the button says %q", op.UseFolder.Text)
	}
	test.Tap(op.UseFolder)
	if chosen[len(chosen)-1] != filepath.Join(docs, "exports", "Dominion") {
		t.Errorf("chosen %q", chosen)
	}
}

// TestImportFolderThroughTheDialog imports San Francisco's Dominion export
// from Import export folder: the path is pasted, Enter goes into it, Use
// this folder reads it.
func TestImportFolderThroughTheDialog(t *testing.T) {
	openHome(t)
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "D3", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "D3", "Aaron Peskin", "Danny Sauter"))
	h.signIn("Olivia")
	h.sh.OpenElection("D3", tabOverview)
	h.wait()
	es := h.sh.Election
	test.Tap(es.ImportFolder)
	h.wait()
	op := h.sh.sess.opening
	dir := filepath.Join(apptest.SharedTestdata(), "rctab-more", "dominion_multi_file", "dominion_multi_file_input_data")
	op.Path.SetText(dir)
	op.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	h.wait()
	if op.Dir != dir {
		t.Fatalf("Enter on the pasted folder: in %q", op.Dir)
	}
	test.Tap(op.UseFolder)
	h.wait()
	if es.Import.ContestChoice == nil || !strings.Contains(h.dialogText(), "holds 42 contests") {
		t.Fatalf("no contest choice; dialog %q", h.dialogText())
	}
}
