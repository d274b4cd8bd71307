package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/rla"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// The kinds of audit the start dialog offers.
var auditKinds = []struct {
	kind  rla.Kind
	label string
}{
	{rla.Comparison, "Comparison: each paper ballot beside its cast vote record"},
	{rla.Polling, "Polling: the paper ballots alone"},
}

// AuditStartForm is the Start an audit dialog: the kind of audit, the risk
// limit, the public seed and the ballot manifest (a CSV file of the
// batches of paper ballots and how many each holds). A template of the
// manifest, the batches the cast vote records name, can be saved from it
// to check against the paper. Starting runs RAIRE on the cast vote records
// off the UI goroutine; a refusal is said in the dialog, which keeps what
// was entered.
type AuditStartForm struct {
	sc *RiskAuditScreen

	Kind      *modal.Select
	RiskLimit *modal.Entry
	Seed      *modal.Entry
	// ManifestFile says which manifest was read and what it holds, or why
	// it cannot be used.
	ManifestFile   *widget.Label
	ChooseManifest *modal.Button
	SaveTemplate   *modal.Button
	Form           *modal.Form
	// Started is the audit started, once it is.
	Started *app.Audit

	manifest *rla.Manifest
	path     string
}

// askStartAudit opens the Start an audit dialog.
func askStartAudit(sc *RiskAuditScreen) *AuditStartForm {
	s := sc.s
	f := &AuditStartForm{sc: sc, RiskLimit: modal.NewEntry(), Seed: modal.NewEntry(), ManifestFile: widget.NewLabel("No manifest chosen yet.")}
	labels := make([]string, len(auditKinds))
	for i, k := range auditKinds {
		labels[i] = k.label
	}
	f.Kind = modal.NewSelect(labels, nil)
	f.Kind.SetSelectedIndex(0)
	f.RiskLimit.SetText("5")
	f.RiskLimit.Validator = func(text string) error { _, err := riskLimit(text); return err }
	f.Seed.SetPlaceHolder(fmt.Sprintf("at least %d digits", rla.MinSeedDigits))
	f.Seed.Validator = func(text string) error {
		if err := rla.CheckSeed(text); err != nil {
			return app.Errorf(app.CodeInvalid, "%s", app.ErrorMessage(err))
		}
		return nil
	}
	f.ManifestFile.Wrapping = fyne.TextWrapWord
	f.ChooseManifest = modal.NewButtonWithIcon("Choose…", theme.FolderOpenIcon(), f.chooseManifest)
	f.SaveTemplate = modal.NewButtonWithIcon("Save a template from the records…", theme.DocumentSaveIcon(), f.saveTemplate)
	items := []*widget.FormItem{
		{Text: "Kind", Widget: f.Kind},
		{Text: "Risk limit (%)", Widget: f.RiskLimit, HintText: "The largest chance the audit may confirm a wrong outcome; 5 is usual."},
		{Text: "Public seed", Widget: f.Seed, HintText: fmt.Sprintf("At least %d ten-sided dice rolled in public, digits only: anyone can draw the same sample from it.", rla.MinSeedDigits)},
		{Text: "Ballot manifest", Widget: container.NewBorder(nil, nil, nil, f.ChooseManifest, f.ManifestFile),
			HintText: "A CSV file of the batches of paper ballots and how many each holds (Arlo's, ColoradoRLA's or plain columns)."},
		{Text: "", Widget: container.NewHBox(f.SaveTemplate)},
	}
	f.Form = modal.NewForm(s.win, "Start a risk-limiting audit of "+sc.name, "Start audit", "Cancel", items, f.try)
	f.Form.Resize(fyne.NewSize(min(720, s.win.Canvas().Size().Width*0.95), 0))
	f.Form.Show()
	return f
}

// riskLimit reads a risk limit typed as a percentage ("5", "5%", "2.5")
// as a fraction.
func riskLimit(text string) (float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "%"))
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0 && v < 100) {
		return 0, app.Errorf(app.CodeInvalid, "the risk limit is a percentage between 0 and 100, such as 5, not %q", strings.TrimSpace(text))
	}
	return v / 100, nil
}

// chooseManifest asks for the manifest file and reads it.
func (f *AuditStartForm) chooseManifest() {
	askOpenPath(f.sc.s, openSpec{Title: "Choose the ballot manifest",
		Hint:  "The ballot manifest: a CSV file with a row per batch of paper ballots and how many ballots it holds.",
		Kinds: []fileKind{{".csv", "Ballot manifest (CSV)"}}, Files: true}, f.ReadManifest)
}

// ReadManifest reads the manifest at path off the UI goroutine and shows
// what it holds, or why it cannot be used.
func (f *AuditStartForm) ReadManifest(path string) {
	f.ManifestFile.SetText("Reading " + filepath.Base(path) + "…")
	f.ManifestFile.Importance = widget.MediumImportance
	offui.Run(f.sc.s.tasks, func() (rla.Manifest, error) {
		file, err := os.Open(path)
		if err != nil {
			return rla.Manifest{}, pathError(err)
		}
		defer file.Close()
		return rla.ReadManifest(file)
	}, func(m rla.Manifest, err error) {
		if err != nil {
			f.manifest, f.path = nil, ""
			f.ManifestFile.SetText(fmt.Sprintf("%s cannot be used: %s", filepath.Base(path), app.ErrorMessage(err)))
			f.ManifestFile.Importance = widget.DangerImportance
			f.ManifestFile.Refresh()
			return
		}
		f.manifest, f.path = &m, path
		f.ManifestFile.SetText(fmt.Sprintf("%s: %s in %s.", filepath.Base(path), plural(m.Total(), "ballot", "ballots"), plural(len(m.Batches), "batch", "batches")))
		f.ManifestFile.Refresh()
	})
}

// saveTemplate asks where to save the manifest the cast vote records imply
// (one batch per batch they name, as many ballots as records), then writes
// it off the UI goroutine through the guarded writer. It is a template:
// the manifest the audit uses counts the paper.
func (f *AuditStartForm) saveTemplate() {
	s, name := f.sc.s, f.sc.name
	askSavePath(s, prefLastFolder, "Save a manifest template", fileSafe(name)+"_manifest.csv", true, func(path string) {
		var m rla.Manifest
		s.do("Cannot save the manifest template", func(ctx context.Context) error {
			var err error
			if m, err = s.svc.AuditManifest(ctx, s.actor(), name); err != nil {
				return err
			}
			return dataio.WriteFileAtomic(path, 0o644, m.WriteCSV)
		}, func() {
			modal.ShowInformation("Manifest template saved", fmt.Sprintf("The %s the cast vote records name (%s) were written to %s. "+
				"It is a template: count the paper ballots in each batch, correct the file where the paper differs, then choose it as the manifest.",
				plural(len(m.Batches), "batch", "batches"), plural(m.Total(), "record", "records"), path), s.win)
		})
	})
}

// try starts the audit with what the form holds.
func (f *AuditStartForm) try(done func(error)) {
	s := f.sc.s
	risk, err := riskLimit(f.RiskLimit.Text)
	if err != nil {
		done(err)
		return
	}
	if err := f.Seed.Validator(f.Seed.Text); err != nil {
		done(err)
		return
	}
	if f.manifest == nil {
		done(app.Errorf(app.CodeInvalid, "choose the ballot manifest: the file that says how many paper ballots each batch holds"))
		return
	}
	setup := app.AuditSetup{Kind: auditKinds[max(f.Kind.SelectedIndex(), 0)].kind, RiskLimit: risk, Seed: strings.TrimSpace(f.Seed.Text), Manifest: *f.manifest}
	offui.Run(s.tasks, func() (app.Audit, error) {
		return s.svc.StartAudit(s.ctx(), s.actor(), f.sc.name, setup)
	}, func(au app.Audit, err error) {
		done(err)
		if err != nil {
			return
		}
		f.Started = &au
		f.sc.chosen = au.ID
		f.sc.Board.reset(chooseDraw)
		f.sc.load(func() { f.sc.ShowView(rlaOverview) })
		modal.ShowInformation("Audit started", fmt.Sprintf("%s is the reported winner; %s rule out every other winner. "+
			"Round 1 draws %s of the %s: the audit board reads them on the Audit board tab.",
			au.Candidates[au.Winner], plural(len(au.Assertions), "assertion", "assertions"), plural(au.FirstRound, "ballot", "ballots"),
			fmtCount(au.Manifest.Total())), s.win)
	})
}
