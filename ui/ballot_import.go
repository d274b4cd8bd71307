package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"votedesk/app/dataio"
	"votedesk/tally/cvr"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// BallotImport imports a cast vote record file into an election, as
// `votedesk import cvr` does (app/dataio): the file is read and checked
// against the candidates off the UI goroutine, the official sees what will be
// imported (ballots, format, names matched other than exactly) and confirms,
// then the ballots are recorded in one change, all or nothing, with a
// progress bar throughout.
type BallotImport struct {
	s        *session
	election string
	done     func()

	// Progress is the dialog shown while the file is read and recorded.
	Progress *progressDialog
	// Preview is what was read, waiting for the official's go-ahead.
	Preview *dataio.CVRImport
	// Imported is set once the ballots are recorded.
	Imported bool
	// ContestChoice, while a folder with several contests is open, picks the
	// contest to import.
	ContestChoice *modal.Select
	// Matching, while open, asks what the file's names that are not
	// candidates stand for.
	Matching *NameMatching

	// matched is what the official said the file's names stand for, kept
	// for the file being imported.
	matched dataio.CVROptions
}

// NameMatching asks what each name in a file that is no candidate of the
// election stands for: a candidate (a write-in the official counts for the
// election's write-in, a misspelling), a rank left blank (a file's own
// label, "XXX"), or an overvote.
type NameMatching struct {
	Names   []string
	Choices []*modal.Select // one per name
	Rest    *modal.Select   // for every name left unchosen
	dialog  *modal.Dialog
}

// The choices for a name other than the candidates.
const (
	matchBlank    = "(a rank left blank)"
	matchOvervote = "(an overvote)"
)

func newBallotImport(s *session, election string, done func()) *BallotImport {
	return &BallotImport{s: s, election: election, done: done, Progress: newProgressDialog("Importing ballots", 460)}
}

// chooseFolder asks for a Dominion or Hart export folder.
func (bi *BallotImport) chooseFolder() {
	askOpenPath(bi.s, openSpec{Title: "Import ballots from a vendor's export folder",
		Hint:    "Go into a Dominion CVR export (the folder with CvrExport*.json and its manifests), a Hart export (a folder of XML ballot files) or a folder holding a ballot image and its master lookup (San Francisco, Alameda County), then Use this folder.",
		Folders: true}, bi.ReadFolder)
}

// ReadFolder reads a vendor's export folder: the contest it holds, or the
// one the official picks when it holds several.
func (bi *BallotImport) ReadFolder(path string) {
	bi.matched = dataio.CVROptions{}
	// Telling the vendor and listing the contests read files: off the UI
	// goroutine.
	offui.Run(bi.s.tasks, func() ([]cvr.ContestInfo, error) {
		format, err := cvr.DetectFile(path)
		if err != nil {
			return nil, err
		}
		if format != cvr.FormatDominion && format != cvr.FormatHart && format != cvr.FormatBallotImage {
			return nil, fmt.Errorf("%s is not a Dominion or Hart export folder, nor a ballot image with its master lookup", path)
		}
		contests, err := cvr.Contests(path, format)
		if err == nil && len(contests) == 0 {
			err = fmt.Errorf("%s lists no contests", path)
		}
		return contests, err
	}, func(contests []cvr.ContestInfo, err error) {
		if err != nil {
			bi.s.failHint("Cannot import "+path, err, "Nothing was imported.")
			return
		}
		bi.chooseContest(path, contests)
	})
}

// chooseContest reads the folder's only contest, or asks which one.
func (bi *BallotImport) chooseContest(path string, contests []cvr.ContestInfo) {
	if len(contests) == 1 {
		bi.ReadContest(path, contests[0].ID)
		return
	}
	labels := make([]string, len(contests))
	for i, c := range contests {
		labels[i] = fmt.Sprintf("%s (contest %s)", c.Name, c.ID)
		if c.ID == c.Name {
			labels[i] = c.Name
		}
	}
	var d *modal.Dialog
	bi.ContestChoice = modal.NewSelect(labels, func(label string) {
		i := slices.Index(labels, label)
		if i < 0 {
			return
		}
		d.Hide()
		bi.ContestChoice = nil
		bi.ReadContest(path, contests[i].ID)
	})
	bi.ContestChoice.PlaceHolder = "Choose the contest"
	d = modal.NewCustom("Which contest?", "Cancel", container.NewVBox(
		widget.NewLabel(fmt.Sprintf("%s holds %d contests. Import the ballots of:", filepath.Base(path), len(contests))),
		bi.ContestChoice), bi.s.win)
	d.Resize(fyne.NewSize(520, 0))
	modal.Show(bi.s.win, d, nil)
	bi.s.win.Canvas().Focus(bi.ContestChoice) // Space opens the list of contests
}

// choose asks for the file (or a vendor's export folder).
func (bi *BallotImport) choose() {
	askOpenPath(bi.s, openSpec{Title: "Import ballots",
		Hint:  "A cast vote record file (ES&S .xlsx, or its sheet as CSV; NIST CDF .json or .xml; Clear Ballot or RCTab CSV; a ballot image with its master lookup beside it; BLT; PrefLib), or a Dominion or Hart export folder: go into it, then Use this folder.",
		Kinds: cvrKinds(), Files: true, Folders: true}, bi.readPath)
}

// readPath reads the file or export folder chosen.
func (bi *BallotImport) readPath(path string) {
	if isDir(path) {
		bi.ReadFolder(path)
		return
	}
	bi.Read(path)
}

// cvrKinds are the cast vote record files offered, as the reader names
// them.
func cvrKinds() []fileKind {
	out := make([]fileKind, len(cvr.FileKinds))
	for i, k := range cvr.FileKinds {
		out[i] = fileKind(k)
	}
	return out
}

// showProgress shows (or updates) the progress dialog.
func (bi *BallotImport) showProgress(p dataio.Progress) {
	stage := "Recording the ballots"
	if p.Stage == dataio.StageRead {
		stage = "Reading " + p.File
	}
	value := -1.0
	if p.Total > 0 {
		value = float64(p.Done) / float64(p.Total)
	}
	bi.Progress.show(bi.s.win, stage, value)
}

// progress reports from the import's goroutine to the UI's.
func (bi *BallotImport) progress(p dataio.Progress) {
	bi.s.tasks.Post(func() { bi.showProgress(p) })
}

// Read reads and checks the file at path, then asks to import it; a
// spreadsheet or ballot image of several contests (New York City's, San
// Francisco's) asks which first, and names that are no candidates what
// they stand for.
func (bi *BallotImport) Read(path string) {
	bi.matched = dataio.CVROptions{}
	offui.Run(bi.s.tasks, func() ([]cvr.ContestInfo, error) {
		format, err := cvr.DetectFile(path)
		if err != nil || format != cvr.FormatESS && format != cvr.FormatBallotImage {
			return nil, nil // the read says what is wrong, or the file holds one contest
		}
		return cvr.Contests(path, format)
	}, func(contests []cvr.ContestInfo, err error) {
		if err != nil {
			bi.s.failHint("Cannot import "+path, err, "Nothing was imported.")
			return
		}
		if len(contests) > 1 {
			bi.chooseContest(path, contests)
			return
		}
		bi.ReadContest(path, "")
	})
}

// ReadContest reads and checks one contest of the file or folder at path,
// then asks to import it.
func (bi *BallotImport) ReadContest(path, contest string) {
	bi.showProgress(dataio.Progress{Stage: dataio.StageRead, File: path})
	actor := bi.s.actor()
	offui.Run(bi.s.tasks, func() (*dataio.CVRImport, error) {
		ctx := bi.s.ctx()
		cands, err := bi.s.svc.Candidates(ctx, actor, bi.election)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(cands))
		for i, c := range cands {
			names[i] = c.Name
		}
		opts := bi.matched
		opts.Progress = bi.progress
		return dataio.ReadCVRs(ctx, names, []cvr.Source{{FilePath: path, ContestID: contest}}, opts)
	}, func(im *dataio.CVRImport, err error) {
		bi.Progress.hide()
		if errors.Is(err, cvr.ErrUnknownCandidate) {
			bi.matchNames(path, contest)
			return
		}
		if err != nil {
			bi.s.failHint("Cannot import "+path, err, "Nothing was imported.")
			return
		}
		bi.Preview = im
		modal.ShowConfirm("Import ballots", bi.describe(im), func(ok bool) {
			if ok {
				bi.Record()
			}
		}, bi.s.win)
	})
}

// describe says what an import will bring in.
func (bi *BallotImport) describe(im *dataio.CVRImport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Import %s into %q?", plural(im.Ballots, "ballot", "ballots"), bi.election)
	for _, f := range im.Files {
		what := f.Format.Label()
		if f.Contest != "" {
			what += ", contest " + f.Contest
		}
		fmt.Fprintf(&b, "\n%s (%s): %s", f.Name, what, plural(f.Records, "record", "records"))
		if f.Undervotes > 0 {
			fmt.Fprintf(&b, ", %s with no marks", plural(f.Undervotes, "record", "records"))
		}
		if f.Skipped > 0 {
			fmt.Fprintf(&b, ", %s without this contest skipped", plural(f.Skipped, "ballot", "ballots"))
		}
	}
	for i, m := range im.Matches {
		if i == 8 {
			fmt.Fprintf(&b, "\n… and %d more names matched", len(im.Matches)-i)
			break
		}
		if m.How == dataio.MatchNoMark || m.How == dataio.MatchOvervote {
			fmt.Fprintf(&b, "\n%q stands for %s", m.InFile, m.How)
			continue
		}
		how := m.How
		if how == dataio.MatchAlias {
			how = "as matched" // the app's aliases are the official's matches
		}
		fmt.Fprintf(&b, "\n%q counts for %s (%s)", m.InFile, m.Candidate, how)
	}
	b.WriteString("\n\nThe ballots are added all together or not at all.")
	return b.String()
}

// Record records the previewed ballots.
func (bi *BallotImport) Record() {
	im := bi.Preview
	if im == nil {
		return
	}
	bi.showProgress(dataio.Progress{Stage: dataio.StageRecord})
	actor := bi.s.actor()
	offui.Run(bi.s.tasks, func() (struct{}, error) {
		return struct{}{}, im.Record(bi.s.ctx(), bi.s.svc, actor, bi.election, bi.progress)
	}, func(_ struct{}, err error) {
		bi.Progress.hide()
		bi.Preview = nil
		if err != nil {
			bi.s.failHint("The import was refused", err, "Nothing was imported.")
			return
		}
		bi.Imported = true
		bi.done()
		modal.ShowInformation("Ballots imported", fmt.Sprintf("%s imported into %q.", plural(im.Ballots, "ballot was", "ballots were"), bi.election), bi.s.win)
	})
}

// matchNames lists the names of the file that are no candidates, and asks
// what each stands for; the file is then read again.
func (bi *BallotImport) matchNames(path, contest string) {
	bi.showProgress(dataio.Progress{Stage: dataio.StageRead, File: path})
	actor := bi.s.actor()
	type found struct{ candidates, unknown []string }
	offui.Run(bi.s.tasks, func() (found, error) {
		ctx := bi.s.ctx()
		cands, err := bi.s.svc.Candidates(ctx, actor, bi.election)
		if err != nil {
			return found{}, err
		}
		var f found
		for _, c := range cands {
			f.candidates = append(f.candidates, c.Name)
		}
		f.unknown, err = dataio.UnknownNames(ctx, f.candidates, []cvr.Source{{FilePath: path, ContestID: contest}}, bi.matched)
		return f, err
	}, func(f found, err error) {
		bi.Progress.hide()
		if err == nil && len(f.unknown) == 0 {
			err = fmt.Errorf("the file names no candidate of %q", bi.election)
		}
		if err != nil {
			bi.s.failHint("Cannot import "+path, err, "Nothing was imported.")
			return
		}
		bi.showMatching(path, contest, f.candidates, f.unknown)
	})
}

// showMatching shows the names to match, each with its choices, below the
// choice for every name left unchosen (where the focus starts; Tab goes on
// down the names).
func (bi *BallotImport) showMatching(path, contest string, candidates, unknown []string) {
	options := append(slices.Clone(candidates), matchBlank, matchOvervote)
	m := &NameMatching{Names: unknown}
	rows := container.New(layout.NewFormLayout())
	for _, name := range unknown {
		choice := modal.NewSelect(options, nil)
		choice.PlaceHolder = "Not matched"
		m.Choices = append(m.Choices, choice)
		rows.Add(widget.NewLabel(name))
		rows.Add(choice)
	}
	m.Rest = modal.NewSelect(options, nil)
	m.Rest.PlaceHolder = "Not matched"
	scroll := container.NewVScroll(rows)
	scroll.SetMinSize(fyne.NewSize(560, min(float32(len(unknown))*44, 360)))
	what := plural(len(unknown), "name that is not a candidate", "names that are not candidates")
	intro := widget.NewLabel(fmt.Sprintf("%s has %s of %q. Say what each stands for: a candidate (a write-in counted for the election's write-in, a name spelled otherwise), a rank left blank (the file's own word for one), or an overvote. The file is then read again; nothing is imported before you confirm.",
		filepath.Base(path), what, bi.election))
	intro.Wrapping = fyne.TextWrapWord
	top := container.NewVBox(intro, container.New(layout.NewFormLayout(), widget.NewLabelWithStyle("Every name not chosen below", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), m.Rest))
	content := container.NewVBox(top, scroll) // in this order for Tab, too
	m.dialog = modal.NewCustomConfirm("Match the file's names", "Read again", "Cancel", content, func(ok bool) {
		bi.Matching = nil
		if !ok {
			return
		}
		bi.applyMatching(m)
		bi.ReadContest(path, contest)
	}, bi.s.win)
	m.dialog.Resize(fyne.NewSize(640, 0))
	bi.Matching = m
	modal.Show(bi.s.win, m.dialog, nil)
	bi.s.win.Canvas().Focus(m.Rest) // Space opens its choices
}

// applyMatching adds what the official chose to the import's options.
func (bi *BallotImport) applyMatching(m *NameMatching) {
	if bi.matched.Aliases == nil {
		bi.matched.Aliases = map[string]string{}
	}
	for i, name := range m.Names {
		choice := m.Choices[i].Selected
		if choice == "" {
			choice = m.Rest.Selected
		}
		switch choice {
		case "":
		case matchBlank:
			bi.matched.NoMark = append(bi.matched.NoMark, name)
		case matchOvervote:
			bi.matched.Overvote = append(bi.matched.Overvote, name)
		default:
			bi.matched.Aliases[name] = choice
		}
	}
}

// Submit reads the file again with the names matched as chosen.
func (m *NameMatching) Submit() { m.dialog.Submit() }
