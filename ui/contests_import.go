package ui

import (
	"context"
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"votedesk/app/dataio"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// ContestsImport imports many contests at once, as `votedesk import
// contests` does (dataio.ImportContests): every RCTab contest config in a
// folder becomes a draft election with its ballots, each contest all or
// nothing, with one progress bar over them all and, at the end, a table of
// what each contest became.
type ContestsImport struct {
	s    *session
	done func()

	Progress *progressDialog
	// Results is what the last import did, contest by contest; Table shows it.
	Results []dataio.ContestImport
	Table   *grid
}

func newContestsImport(s *session, done func()) *ContestsImport {
	return &ContestsImport{s: s, done: done, Progress: newProgressDialog("Importing contests", 520)}
}

// choose asks for the folder of contest configs (or one config).
func (ci *ContestsImport) choose() {
	askOpenPath(ci.s, openSpec{Title: "Import contests",
		Hint:  "A folder of RCTab contest configs (every .json under it is read), or one config file.",
		Kinds: []fileKind{{".json", "RCTab contest config"}}, Files: true, Folders: true}, func(path string) { ci.Import(path) })
}

// Import imports every contest config in the folders or files paths name,
// off the UI goroutine, then shows what each became.
func (ci *ContestsImport) Import(paths ...string) {
	ci.showProgress(dataio.ContestsProgress{})
	actor := ci.s.actor()
	offui.Run(ci.s.tasks, func() ([]dataio.ContestImport, error) {
		configs, err := dataio.ExpandConfigs(paths)
		if err != nil {
			return nil, err
		}
		return dataio.ImportContests(context.Background(), ci.s.svc, actor, configs, func(p dataio.ContestsProgress) {
			ci.s.tasks.Post(func() { ci.showProgress(p) })
		}), nil
	}, func(results []dataio.ContestImport, err error) {
		ci.Progress.hide()
		if err != nil {
			ci.s.failHint("Cannot import the contests", err, "Nothing was imported.")
			return
		}
		ci.Results = results
		ci.done()
		ci.showResults()
	})
}

// showProgress shows (or updates) the one progress bar: contests done, and
// how far the current one has got.
func (ci *ContestsImport) showProgress(p dataio.ContestsProgress) {
	if p.Contests == 0 {
		ci.Progress.show(ci.s.win, "Looking for contest configs", 0)
		return
	}
	part := 0.0
	if p.Total > 0 {
		part = float64(p.Done) / float64(p.Total)
	}
	ci.Progress.show(ci.s.win, fmt.Sprintf("Contest %d of %d: %s", p.Contest+1, p.Contests, filepath.Base(p.Config)),
		(float64(p.Contest)+part)/float64(p.Contests))
}

// showResults shows a table of what each contest became: its election and
// ballots, or why nothing was imported for it.
func (ci *ContestsImport) showResults() {
	failed := 0
	for _, r := range ci.Results {
		if r.Err != nil {
			failed++
		}
	}
	rs := ci.Results
	ci.Table = newGrid([]column{
		{"Config", 240, fyne.TextAlignLeading},
		{"Election", 220, fyne.TextAlignLeading},
		{"Ballots", 90, fyne.TextAlignTrailing},
		{"Outcome", 360, fyne.TextAlignLeading},
	}, func() int { return len(rs) }, func(row, col int) string {
		r := rs[row]
		switch col {
		case 0:
			return filepath.Base(r.Config)
		case 1:
			return r.Election
		case 2:
			if r.Import != nil {
				return fmtCount(r.Import.Ballots)
			}
			return ""
		}
		if r.Err != nil {
			return "Not imported: " + r.Error
		}
		return "Imported"
	}, func(_, col int) bool { return col == 3 })
	summary := widget.NewLabel(fmt.Sprintf("%s imported, %d not imported. Each contest was imported whole or not at all.",
		plural(len(rs)-failed, "contest", "contests"), failed))
	summary.Wrapping = fyne.TextWrapWord
	title := "Contests imported"
	if failed > 0 {
		title = "Contests imported, some refused"
	}
	d := modal.NewCustom(title, "Close", container.NewBorder(summary, nil, nil, nil, ci.Table), ci.s.win)
	d.Resize(fitTo(ci.s.win, fyne.NewSize(940, 480)))
	modal.Show(ci.s.win, d, nil)
}

// fitTo returns size made no larger than the window's content, less a
// margin, so a dialog opened at it stays on the screen the window is on.
func fitTo(win fyne.Window, size fyne.Size) fyne.Size {
	room := win.Canvas().Size()
	if room.Width <= 0 || room.Height <= 0 {
		return size
	}
	const margin = 40
	return fyne.NewSize(min(size.Width, room.Width-margin), min(size.Height, room.Height-margin))
}
