package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// PollBookScreen is an election's poll book: who may vote and who has. It
// searches, adds, removes and imports voters, and stays smooth with a
// hundred thousand of them: the whole book is loaded once off the UI
// goroutine, searched in memory, and shown in a virtualized table that is
// refreshed once per change.
type PollBookScreen struct {
	s        *session
	name     string
	election app.Election

	voters   []app.Voter
	keys     []string // lower-cased "name\temail" of each voter, for search
	shown    []int32  // indexes into voters of the rows shown
	voted    int
	selected int

	Search           *modal.Entry
	Table            *grid
	Summary          *widget.Label
	Note             *widget.Label
	Name, Email      *modal.Entry
	Add, Remove      *modal.Button
	Import           *modal.Button
	Progress         *widget.ProgressBarInfinite
	LastImport       *dataio.PollBookImport
	changed          func()
	content          fyne.CanvasObject
	importInProgress bool
}

func newPollBookScreen(s *session, election string, changed func()) *PollBookScreen {
	sc := &PollBookScreen{s: s, name: election, changed: changed, selected: -1,
		Search: modal.NewEntry(), Summary: widget.NewLabel(""), Note: widget.NewLabel(""),
		Name: modal.NewEntry(), Email: modal.NewEntry(), Progress: widget.NewProgressBarInfinite()}
	sc.Note.Wrapping = fyne.TextWrapWord
	sc.Search.SetPlaceHolder("Search voters by name or email")
	sc.Search.OnChanged = func(string) { sc.filter() }
	sc.Name.SetPlaceHolder("Voter name")
	sc.Email.SetPlaceHolder("Email (optional)")
	sc.Email.OnSubmitted = func(string) { sc.add() }
	sc.Name.OnSubmitted = func(string) { sc.add() }
	sc.Table = newGrid([]column{
		{"Voter", 300, fyne.TextAlignLeading},
		{"Email", 280, fyne.TextAlignLeading},
		{"Voted", 80, fyne.TextAlignLeading},
	}, func() int { return len(sc.shown) }, func(row, col int) string {
		v := sc.voters[sc.shown[row]]
		switch col {
		case 0:
			return v.Name
		case 1:
			return v.Email
		}
		if v.Voted {
			return "yes"
		}
		return ""
	}, nil)
	sc.Table.OnSelected = func(id widget.TableCellID) { sc.selected = id.Row; sc.updateButtons() }
	searchGoesTo(sc.Search, sc.Table, sc.Table)
	sc.Add = modal.NewButtonWithIcon("Add", theme.ContentAddIcon(), sc.add)
	sc.Remove = modal.NewButtonWithIcon("Remove", theme.ContentRemoveIcon(), sc.remove)
	sc.Import = modal.NewButtonWithIcon("Import CSV…", theme.UploadIcon(), sc.chooseFile)
	sc.Progress.Hide()
	adder := container.NewBorder(nil, nil, nil, container.NewHBox(sc.Add, sc.Remove, sc.Import),
		container.NewGridWithColumns(2, sc.Name, sc.Email))
	top := container.NewVBox(sc.Note, container.NewBorder(nil, nil, nil, sc.Summary, sc.Search), adder, sc.Progress)
	sc.content = container.NewBorder(top, nil, nil, nil, sc.Table)
	sc.updateButtons()
	return sc
}

// setElection tells the screen the election's current state.
func (sc *PollBookScreen) setElection(e app.Election) {
	sc.election = e
	sc.updateButtons()
}

// refresh reloads the poll book off the UI goroutine, then shows it once.
func (sc *PollBookScreen) refresh() {
	type book struct {
		voters []app.Voter
		keys   []string
		voted  int
	}
	load(sc.s, "Cannot list the poll book", func(ctx context.Context) (book, error) {
		vs, err := sc.s.svc.Voters(ctx, sc.s.actor(), sc.name)
		b := book{voters: vs, keys: make([]string, len(vs))}
		for i, v := range vs {
			b.keys[i] = strings.ToLower(v.Name + "\t" + v.Email)
			if v.Voted {
				b.voted++
			}
		}
		return b, err
	}, func(b book) {
		sc.voters, sc.keys, sc.voted = b.voters, b.keys, b.voted
		sc.filter()
	})
}

// filter shows the voters whose name or email contains the search text.
func (sc *PollBookScreen) filter() {
	q := strings.ToLower(strings.TrimSpace(sc.Search.Text))
	shown := make([]int32, 0, len(sc.voters))
	for i, k := range sc.keys {
		if q == "" || strings.Contains(k, q) {
			shown = append(shown, int32(i))
		}
	}
	sc.shown = shown
	sc.selected = -1
	sc.Table.UnselectAll()
	sc.Table.Refresh()
	sc.Table.ScrollToTop()
	text := fmt.Sprintf("%s, %s voted", plural(len(sc.voters), "voter", "voters"), fmtCount(sc.voted))
	if q != "" {
		text = fmt.Sprintf("%s match of %s", fmtCount(len(shown)), text)
	}
	sc.Summary.SetText(text)
	sc.updateButtons()
}

// editable says whether the poll book may change now, and if not, why.
func (sc *PollBookScreen) editable() (bool, string) {
	e := sc.election
	switch {
	case e.Name == "":
		return false, ""
	case !sc.s.manages(e):
		return false, fmt.Sprintf("Only the election's owner (%s) or an ADMIN may change the poll book.", e.Owner)
	case e.Status == app.StatusFinalized:
		return false, "The election is finalized: its poll book cannot change."
	case !e.AllowEdit:
		return false, "The election is launched and its poll book is locked; its owner can allow poll-book edits under Edit settings."
	}
	return true, "Voters who have voted stay in the poll book. Import reads one name per line, or CSV with a header row naming a \"name\" column (or \"first name\", \"middle name\", \"last name\", \"suffix\") and an optional \"email\" column."
}

func (sc *PollBookScreen) updateButtons() {
	ok, why := sc.editable()
	sc.Note.SetText(why)
	for _, w := range []fyne.Disableable{sc.Name, sc.Email, sc.Add, sc.Import} {
		enable(w, ok && !sc.importInProgress)
	}
	enable(sc.Remove, ok && sc.selected >= 0 && sc.selected < len(sc.shown) && !sc.voters[sc.shown[sc.selected]].Voted)
}

// add adds the voter typed in.
func (sc *PollBookScreen) add() {
	v := app.VoterEntry{Name: strings.TrimSpace(sc.Name.Text), Email: strings.TrimSpace(sc.Email.Text)}
	if v.Name == "" {
		return
	}
	sc.s.do("Cannot add the voter", func(ctx context.Context) error {
		return sc.s.svc.AddVoters(ctx, sc.s.actor(), sc.name, v)
	}, func() {
		sc.Name.SetText("")
		sc.Email.SetText("")
		sc.s.win.Canvas().Focus(sc.Name)
		sc.changed()
	})
}

// remove asks for confirmation and removes the selected voter.
func (sc *PollBookScreen) remove() {
	if sc.selected < 0 || sc.selected >= len(sc.shown) {
		return
	}
	v := sc.voters[sc.shown[sc.selected]].Name
	modal.ShowConfirm("Remove voter", fmt.Sprintf("Remove %q from the poll book of %q?", v, sc.name), func(ok bool) {
		if !ok {
			return
		}
		sc.s.do("Cannot remove the voter", func(ctx context.Context) error {
			return sc.s.svc.RemoveVoters(ctx, sc.s.actor(), sc.name, v)
		}, sc.changed)
	}, sc.s.win)
}

// chooseFile asks for a poll-book file and imports it.
func (sc *PollBookScreen) chooseFile() {
	askOpenPath(sc.s, openSpec{Title: "Import a poll book", Hint: "A poll-book file: one voter's name per line, or CSV with name, email and id columns.",
		Kinds: []fileKind{{".csv", "Poll book (CSV)"}, {".txt", "Poll book (one name per line)"}}, Files: true}, func(path string) {
		f, err := os.Open(path)
		if err != nil {
			sc.s.fail("Cannot open the file", err)
			return
		}
		sc.ImportFrom(f)
	})
}

// ImportFrom reads a poll-book file (one name per line, or CSV with name,
// email and id columns) and adds its new voters in one change, off the UI
// goroutine, then shows what was added, skipped (already in the poll book or
// repeated in the file) and left out as invalid, by line. The reader is
// closed when done.
func (sc *PollBookScreen) ImportFrom(r io.ReadCloser) {
	sc.importInProgress = true
	sc.Progress.Show()
	sc.Progress.Start()
	sc.updateButtons()
	actor, election := sc.s.actor(), sc.name
	offui.Run(sc.s.tasks, func() (*dataio.PollBookImport, error) {
		defer r.Close()
		f, err := dataio.ReadPollBook(r)
		if err != nil {
			return nil, err
		}
		return dataio.ImportPollBook(sc.s.ctx(), sc.s.svc, actor, election, f, dataio.PollBookOptions{SkipInvalid: true})
	}, func(im *dataio.PollBookImport, err error) {
		sc.importInProgress = false
		sc.Progress.Stop()
		sc.Progress.Hide()
		sc.LastImport = im
		sc.changed()
		if err != nil {
			sc.s.failHint("The import was refused", err, "Nothing was added.")
			return
		}
		sc.showSummary(im)
	})
}

// showSummary tells what an import did, listing the first rows left out.
func (sc *PollBookScreen) showSummary(sum *dataio.PollBookImport) {
	var b strings.Builder
	fmt.Fprintf(&b, "Added: %s\nSkipped: %s\nInvalid: %s",
		fmtCount(len(sum.Added)), fmtCount(len(sum.Skipped)), fmtCount(len(sum.Invalid)))
	rows := append(append([]dataio.PollBookRow{}, sum.Invalid...), sum.Skipped...)
	const show = 12
	for i, r := range rows {
		if i == 0 {
			b.WriteString("\n")
		}
		if i == show {
			fmt.Fprintf(&b, "\n… and %d more", len(rows)-show)
			break
		}
		fmt.Fprintf(&b, "\nline %d: %s", r.Line, r.Reason)
	}
	modal.ShowInformation("Poll book import", b.String(), sc.s.win)
}
