package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
)

// lifecycleHint explains the election lifecycle under a refused launch,
// finalize or edit.
const lifecycleHint = "An election goes draft → launched → finalized. A draft is edited freely; launching needs at least two candidates, opens voting and freezes the settings; finalizing a launched election ends voting for good."

// ElectionsScreen lists every election with its status, totals and last
// change, and holds the commands on them: new, edit, launch, finalize,
// delete, and opening one (its candidates, poll book and results).
type ElectionsScreen struct {
	s        *session
	all      []app.Election
	shown    []app.Election
	selected string

	Search                                                             *modal.Entry
	Table                                                              *openGrid
	Summary                                                            *widget.Label
	New, Open, Edit, Launch, Close, Finalize, Archive, Delete, Results *modal.Button
	// ImportContests makes an election per RCTab contest config of a
	// folder, with its ballots; Contests is the import it runs.
	ImportContests *modal.Button
	Contests       *ContestsImport
	// CreateForm and EditForm are the dialogs opened last.
	CreateForm *CreateForm
	EditForm   *ElectionForm

	open    func(name, tab string)
	content fyne.CanvasObject
}

func newElectionsScreen(s *session, open func(name, tab string)) *ElectionsScreen {
	sc := &ElectionsScreen{s: s, open: open, Search: modal.NewEntry(), Summary: widget.NewLabel("")}
	sc.Search.SetPlaceHolder("Search elections")
	sc.Search.OnChanged = func(string) { sc.filter() }
	sc.Table = newOpenGrid([]column{
		{"Election", 260, fyne.TextAlignLeading},
		{"Status", 90, fyne.TextAlignLeading},
		{"Candidates", 100, fyne.TextAlignTrailing},
		{"Voters", 90, fyne.TextAlignTrailing},
		{"Ballots", 90, fyne.TextAlignTrailing},
		{"Last change", 150, fyne.TextAlignLeading},
		{"Owner", 120, fyne.TextAlignLeading},
	}, func() int { return len(sc.shown) }, sc.cell, func(_, col int) bool { return col == 0 }, func() {
		// Enter or a double click on the list opens the election.
		if sc.selected != "" {
			sc.open(sc.selected, "")
		}
	})
	sc.Table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(sc.shown) {
			sc.selected = sc.shown[id.Row].Name
			sc.updateButtons()
		}
	}
	searchGoesTo(sc.Search, sc.Table, sc.Table.grid)
	sc.New = modal.NewButtonWithIcon("New election", theme.ContentAddIcon(), sc.NewElection)
	sc.New.Importance = widget.HighImportance
	sc.Contests = newContestsImport(s, sc.refresh)
	sc.ImportContests = modal.NewButtonWithIcon("Import contests…", theme.UploadIcon(), sc.Contests.choose)
	sc.Open = modal.NewButtonWithIcon("Open", theme.FolderOpenIcon(), func() { sc.open(sc.selected, "") })
	sc.Edit = modal.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() {
		if e, ok := sc.current(); ok {
			sc.EditForm = editElection(sc.s, e, sc.refresh)
		}
	})
	sc.Launch = modal.NewButtonWithIcon("Launch", theme.MediaPlayIcon(), func() {
		if e, ok := sc.current(); ok {
			launchElection(sc.s, e, sc.refresh)
		}
	})
	sc.Close = modal.NewButtonWithIcon("Close polls", theme.MediaStopIcon(), func() {
		if e, ok := sc.current(); ok {
			closeElection(sc.s, e, sc.refresh)
		}
	})
	sc.Finalize = modal.NewButtonWithIcon("Finalize", theme.ConfirmIcon(), func() {
		if e, ok := sc.current(); ok {
			finalizeElection(sc.s, e, sc.refresh)
		}
	})
	sc.Archive = modal.NewButtonWithIcon("Archive", theme.FolderIcon(), func() {
		if e, ok := sc.current(); ok {
			archiveElection(sc.s, e, sc.refresh)
		}
	})
	sc.Delete = modal.NewButtonWithIcon("Delete", theme.DeleteIcon(), func() {
		if e, ok := sc.current(); ok {
			deleteElection(sc.s, e, sc.refresh)
		}
	})
	sc.Results = modal.NewButtonWithIcon("Results", theme.ListIcon(), func() { sc.open(sc.selected, tabResults) })
	bar := toolbar(sc.New, widget.NewSeparator(), sc.Open, sc.Edit, sc.Launch, sc.Close, sc.Finalize, sc.Archive, sc.Results, sc.Delete)
	top := container.NewVBox(container.NewBorder(nil, nil, nil, sc.ImportContests, title("Elections")), container.NewBorder(nil, nil, nil, sc.Summary, sc.Search), bar)
	sc.content = container.NewBorder(top, nil, nil, nil, sc.Table)
	sc.updateButtons()
	return sc
}

func (sc *ElectionsScreen) cell(row, col int) string {
	e := sc.shown[row]
	switch col {
	case 0:
		return e.Name
	case 1:
		return e.Phase(sc.s.svc.Now())
	case 2:
		return fmtCount(e.Candidates)
	case 3:
		return fmtCount(e.Voters)
	case 4:
		return fmtCount(e.Ballots)
	case 5:
		return fmtTime(e.LastChanged)
	default:
		return e.Owner
	}
}

// refresh reloads the list from the store.
func (sc *ElectionsScreen) refresh() {
	load(sc.s, "Cannot list the elections", func(ctx context.Context) ([]app.Election, error) {
		return sc.s.svc.Elections(ctx, sc.s.actor())
	}, func(es []app.Election) {
		sc.all = es
		sc.filter()
	})
}

// filter shows the elections whose name, description or owner contains the
// search text.
func (sc *ElectionsScreen) filter() {
	q := strings.ToLower(strings.TrimSpace(sc.Search.Text))
	sc.shown = sc.shown[:0]
	for _, e := range sc.all {
		if q == "" || strings.Contains(strings.ToLower(e.Name+"\n"+e.Description+"\n"+e.Owner), q) {
			sc.shown = append(sc.shown, e)
		}
	}
	sc.Summary.SetText(fmt.Sprintf("%s of %d", plural(len(sc.shown), "election", "elections"), len(sc.all)))
	sc.Table.UnselectAll()
	for i, e := range sc.shown {
		if e.Name == sc.selected {
			sc.Table.Select(widget.TableCellID{Row: i})
		}
	}
	sc.Table.Refresh()
	sc.updateButtons()
}

// current returns the selected election, if it is still listed.
func (sc *ElectionsScreen) current() (app.Election, bool) {
	for _, e := range sc.shown {
		if e.Name == sc.selected {
			return e, true
		}
	}
	return app.Election{}, false
}

// Select selects an election by name, as a click on its row does.
func (sc *ElectionsScreen) Select(name string) {
	for i, e := range sc.shown {
		if e.Name == name {
			sc.Table.Select(widget.TableCellID{Row: i, Col: 0})
			return
		}
	}
}

// updateButtons enables what the user may do with the selected election.
func (sc *ElectionsScreen) updateButtons() {
	enable(sc.New, sc.s.can(app.PermUseApplication))
	enable(sc.ImportContests, sc.s.can(app.PermUseApplication))
	e, ok := sc.current()
	enable(sc.Open, ok)
	enable(sc.Results, ok)
	m := ok && sc.s.manages(e)
	enable(sc.Edit, m && e.Status != app.StatusFinalized)
	enable(sc.Launch, m && e.Status == app.StatusDraft)
	enable(sc.Close, m && e.Status == app.StatusLaunched)
	enable(sc.Finalize, m && (e.Status == app.StatusLaunched || e.Status == app.StatusClosed))
	enable(sc.Archive, ok && app.MayArchive(sc.s.user, e))
	enable(sc.Delete, m && sc.s.mayDelete(e))
}

// NewElection asks for a new election's name, description and ballot
// secrecy, creates it, and opens it.
func (sc *ElectionsScreen) NewElection() {
	if !sc.s.can(app.PermUseApplication) {
		return
	}
	f := newCreateForm()
	var d *modal.Dialog
	f.Create.OnTapped = func() {
		name := strings.TrimSpace(f.Name.Text)
		sc.s.do("Cannot create the election", func(ctx context.Context) error {
			return sc.s.svc.CreateElection(ctx, sc.s.actor(), name, f.Description.Text, f.Secret.Checked)
		}, func() {
			d.Hide()
			sc.selected = name
			sc.refresh()
			sc.open(name, "")
		})
	}
	f.Cancel.OnTapped = func() { d.Hide() }
	d = modal.NewCustomWithoutButtons("New election", f.content, sc.s.win)
	d.SetButtons([]fyne.CanvasObject{f.Cancel, f.Create})
	d.Resize(fyne.NewSize(520, 0))
	sc.CreateForm = f
	modal.Show(sc.s.win, d, func() { tapIfEnabled(f.Create) })
	sc.s.win.Canvas().Focus(f.Name)
}

// enable enables or disables a widget.
func enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// tapIfEnabled taps b as a click would: not when it is disabled.
func tapIfEnabled(b *modal.Button) {
	if !b.Disabled() && b.OnTapped != nil {
		b.OnTapped()
	}
}

// title is a screen's heading.
func title(text string) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.SizeName = theme.SizeNameSubHeadingText
	return l
}
