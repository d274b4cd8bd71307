package ui

import (
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

var screenshotDir = flag.String("screenshots", "", "write PNG screenshots of the main screens with the demo database to this folder")

// shot writes the window as a PNG file.
func (h *harness) shot(dir, name string) {
	h.t.Helper()
	h.wait()
	h.relayout()
	f, err := os.Create(filepath.Join(dir, name+".png"))
	h.must(err)
	defer f.Close()
	h.must(png.Encode(f, h.win.Canvas().Capture()))
}

// TestScreenshots renders every main screen with the demo database (make
// screenshots).
func TestScreenshots(t *testing.T) {
	dir := *screenshotDir
	if dir == "" {
		t.Skip("run with -screenshots DIR (make screenshots)")
	}
	h0 := newHarness(t, nil)
	h0.app.Settings().SetTheme(theme.DefaultTheme())
	h0.win.Resize(fyne.NewSize(1280, 800))
	h0.shot(dir, "01-first-run")

	h := newHarness(t, newFakeSyncer(testStart))
	h.app.Settings().SetTheme(theme.DefaultTheme())
	h.win.Resize(fyne.NewSize(1280, 800))
	h.seedDemo()
	h.sh.Show()
	h.shot(dir, "02-sign-in")
	h.signIn("Olivia")
	h.sh.ShowScreen(screenElections)
	h.wait()
	h.sh.Elections.Select(demoElection)
	h.shot(dir, "03-elections")

	h.sh.OpenElection(demoElection, tabOverview)
	h.shot(dir, "04-election-overview")
	h.sh.Election.ShowTab(tabCandidates)
	h.shot(dir, "05-candidates")
	h.sh.Election.ShowTab(tabPollBook)
	h.wait()
	test.Type(h.sh.Election.PollBook.Search, "an")
	h.shot(dir, "06-poll-book")

	h.sh.Election.ShowTab(tabResults)
	h.wait()
	h.shot(dir, "07-results-rounds")
	r := h.sh.Election.Results
	r.Tabs.SelectIndex(resultChart)
	r.stepRound(-1)
	h.shot(dir, "08-results-chart")
	r.Tabs.SelectIndex(resultFlow)
	h.shot(dir, "09-results-flow")
	r.Method.SetSelected(methodLabel("schulze"))
	r.Recount()
	h.wait()
	h.shot(dir, "10-results-pairwise")
	r.Tabs.SelectIndex(resultRules)
	h.shot(dir, "10b-counting-rules")

	h.sh.OpenElection("Library board", tabOverview)
	h.wait()
	h.sh.Election.Edit.OnTapped()
	h.shot(dir, "11-edit-election")
	h.closeDialogs()

	h.sh.ShowScreen(screenUsers)
	h.wait()
	h.sh.Users.Select("Ursula")
	h.shot(dir, "12-users")
	h.sh.ShowScreen(screenLog)
	h.wait()
	test.Type(h.sh.Audit.Search, "Gus")
	h.sh.Audit.Table.Select(widgetCell(0))
	h.shot(dir, "13-audit-log")
	h.sh.cfg.Sync.(*fakeSyncer).readShards(h, "Olivia")
	h.sh.ShowScreen(screenSync)
	h.wait()
	h.sh.Sync.Conflicts.Select(widgetCell(0))
	h.shot(dir, "14-sync")
	h.auditShots(dir)

	// Import ballots: the open dialog, in Documents, a name being typed.
	home := t.TempDir()
	t.Setenv("HOME", home)
	docs := filepath.Join(home, "Documents")
	for _, d := range []string{"Dominion export 2026-11-03", "Hart export", "Precinct 12 scans"} {
		h.must(os.MkdirAll(filepath.Join(docs, d), 0o755))
	}
	for _, f := range []string{"Mayor cvr.xlsx", "council-ballots.csv", "council-ballots-recount.csv", "cdf-export.json", "minutes.pdf", "2026 primary.blt"} {
		h.must(os.WriteFile(filepath.Join(docs, f), make([]byte, 48213), 0o644))
	}
	h.sh.OpenElection(demoElection, tabOverview)
	h.wait()
	h.sh.Election.Import.choose()
	h.wait()
	test.Type(h.sh.sess.opening.Path, "co")
	h.shot(dir, "15-open-file")
	h.closeDialogs()

	// A county's file naming write-ins and its own blank rank: matched.
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Ward 1 (2009)", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Ward 1 (2009)", "ALE", "FOX", "HAN", "RAN", "REI", "Write-in"))
	h.sh.OpenElection("Ward 1 (2009)", tabOverview)
	h.wait()
	h.sh.Election.Import.Read(filepath.Join("..", "tally", "cvr", "testdata", "real", "minneapolis-2009-ward-1.csv"))
	h.wait()
	if m := h.sh.Election.Import.Matching; m != nil {
		m.Rest.SetSelected("Write-in")
		m.Choices[1].SetSelected(matchBlank)
	}
	h.shot(dir, "15b-match-names")
	h.closeDialogs()
}
