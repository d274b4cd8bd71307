package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// screenSize is a small laptop's screen less the desktop's panels: what
// the window must fit in whatever is open.
var screenSize = fyne.NewSize(1024, 700)

// TestNothingOutgrowsTheScreen opens every screen, tab and expander, and
// the dialogs, on a window the size of a small screen: the window's content
// never needs more room than the screen (a window grows to its content's
// minimum, and a taller one leaves the sidebar and Sign out below the
// screen), and no dialog is larger than the window it opened on. Long
// content scrolls inside.
func TestNothingOutgrowsTheScreen(t *testing.T) {
	h := newHarness(t, newFakeSyncer(testStart))
	h.seedDemo()
	h.signIn("Olivia")
	h.win.Resize(screenSize)
	fits := h.fitsScreen
	for _, s := range []string{screenElections, screenUsers, screenLog, screenSync} {
		h.sh.ShowScreen(s)
		fits(s)
	}
	h.sh.ShowScreen(screenUsers)
	h.wait()
	openAccordions(h.win.Content())
	fits("users with the roles open")
	for _, name := range []string{demoElection, "Library board"} {
		h.sh.OpenElection(name, tabOverview)
		for _, tab := range tabNames {
			h.sh.Election.ShowTab(tab)
			fits(name + " " + tab)
		}
		r := h.sh.Election.Results
		for i := range r.Tabs.Items {
			r.Tabs.SelectIndex(i)
			fits(name + " results " + r.Tabs.Items[i].Text)
		}
		h.sh.Election.Edit.OnTapped()
		fits(name + " edit")
		openAccordions(h.win.Canvas().Overlays().Top())
		fits(name + " edit with everything open")
		h.closeDialogs()
	}
	h.sh.NewElection()
	fits("new election")
	h.closeDialogs()
	h.sh.OpenElection(demoElection, tabOverview)
	h.sh.Election.Import.choose()
	fits("import ballots")
	h.closeDialogs()
	h.sh.ShowGuide()
	fits("the guide")
	h.closeDialogs()
	h.sh.ShowShortcuts()
	fits("the shortcuts")
	h.closeDialogs()
}

// openAccordions opens every accordion item under o.
func openAccordions(o fyne.CanvasObject) {
	for _, w := range walk(o) {
		if a, ok := w.(*widget.Accordion); ok {
			a.OpenAll()
		}
	}
}

// fitsScreen checks, once everything has settled, that the window's
// content needs no more room than screenSize, that the window has not grown
// past it, and that no dialog needs more; what names the state for the
// error.
func (h *harness) fitsScreen(what string) {
	h.t.Helper()
	h.wait()
	h.relayout()
	if got := h.win.Content().MinSize(); got.Width > screenSize.Width || got.Height > screenSize.Height {
		h.t.Errorf("%s: the window needs %v, more than the screen's %v", what, got, screenSize)
	}
	if got := h.win.Canvas().Size(); got.Width > screenSize.Width || got.Height > screenSize.Height {
		h.t.Errorf("%s: the window grew to %v", what, got)
	}
	for _, o := range h.overlays() {
		if got := o.MinSize(); got.Width > screenSize.Width || got.Height > screenSize.Height {
			h.t.Errorf("%s: a dialog needs %v", what, got)
		}
	}
}
