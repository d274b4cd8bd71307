package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/app/apptest"
)

// TestImportContestsFromElectionsScreen imports the six contest configs of
// RCTab's rctab-more suite through the Elections screen's Import contests:
// six draft elections with their ballots appear in the list, the table
// names each contest's election and ballots, and importing the folder again
// refuses every contest (the names are taken) and changes nothing. The
// results dialog fits the window.
func TestImportContestsFromElectionsScreen(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")
	sc := h.sh.Elections
	if sc.ImportContests.Disabled() {
		t.Fatal("Import contests is disabled for the owner")
	}
	folder := filepath.Join(apptest.SharedTestdata(), "rctab-more")
	sc.Contests.Import(folder)
	h.wait()
	if n := len(sc.Contests.Results); n != 6 {
		t.Fatalf("%d results, want 6; dialog %q", n, h.dialogText())
	}
	h.assertDialog("Contests imported", "6 contests imported, 0 not imported")
	for _, want := range []struct {
		election string
		ballots  int64
	}{{"Alaska Dominion test", 1000}, {"TRAVIS COUNTY OFFICERS", 9}, {"Aliases test (JSON CDF Format)", 30}} {
		e, err := h.svc.Election(h.ctx, "Olivia", want.election)
		if err != nil || e.Ballots != want.ballots {
			t.Errorf("%s: %d ballots (%v), want %d", want.election, e.Ballots, err, want.ballots)
		}
		if !strings.Contains(strings.Join(cellTexts(sc.Contests.Table), "|"), want.election) {
			t.Errorf("the results table does not name %q", want.election)
		}
	}
	if n := len(sc.all); n < 6 {
		t.Errorf("the list shows %d elections after the import", n)
	}
	checkFits(t, h.win)
	h.closeDialogs()

	before := h.logLength()
	sc.Contests.Import(folder)
	h.wait()
	h.assertDialog("some refused", "0 contests imported, 6 not imported")
	if !strings.Contains(strings.Join(cellTexts(sc.Contests.Table), "|"), "exists already") {
		t.Errorf("the table does not say why: %q", cellTexts(sc.Contests.Table))
	}
	if h.logLength() != before {
		t.Error("a refused import changed the log")
	}
	h.closeDialogs()

	sc.Contests.Import(t.TempDir())
	h.wait()
	h.assertDialog("Cannot import the contests", "holds no RCTab contest configs", "Nothing was imported")
}

// cellTexts returns every cell of a grid, row by row, as the grid fills them.
func cellTexts(g *grid) []string {
	var out []string
	rows, cols := g.Length()
	for r := range rows {
		for c := range cols {
			l := g.CreateCell().(*widget.Label)
			g.UpdateCell(widget.TableCellID{Row: r, Col: c}, l)
			out = append(out, l.Text)
		}
	}
	return out
}

// logLength is the number of events in the log.
func (h *harness) logLength() int {
	n := 0
	h.must(h.svc.Log(h.ctx, "Olivia", 1, func(*app.Event) error { n++; return nil }))
	return n
}

// checkFits fails when a dialog on the window reaches past its edges: a
// dialog is a pop-up over the whole window whose content is the box seen.
func checkFits(t *testing.T, win fyne.Window) {
	t.Helper()
	room := win.Canvas().Size()
	var boxes []fyne.CanvasObject
	var walk func(o fyne.CanvasObject, depth int)
	walk = func(o fyne.CanvasObject, depth int) {
		if p, ok := o.(*widget.PopUp); ok {
			boxes = append(boxes, p.Content)
			return
		}
		if w, ok := o.(fyne.Widget); ok && depth < 3 {
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c, depth+1)
			}
		}
	}
	for _, o := range win.Canvas().Overlays().List() {
		walk(o, 0)
	}
	if len(boxes) == 0 {
		t.Error("no dialog is open")
	}
	for _, b := range boxes {
		pos, size := b.Position(), b.Size()
		if pos.X < 0 || pos.Y < 0 || pos.X+size.Width > room.Width+1 || pos.Y+size.Height > room.Height+1 {
			t.Errorf("a dialog at %v of size %v reaches past the window (%v)", pos, size, room)
		}
	}
}
