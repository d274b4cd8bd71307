package ui

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/ui/modal"
)

// CreateForm is the New election dialog.
type CreateForm struct {
	Name, Description *modal.Entry
	Secret            *modal.Check
	Create, Cancel    *modal.Button
	content           fyne.CanvasObject
}

func newCreateForm() *CreateForm {
	f := &CreateForm{Name: modal.NewEntry(), Description: modal.NewMultiLineEntry(),
		Secret: modal.NewCheck("Secret ballot: nobody below AUDITOR sees who cast which ballot", nil),
		Create: modal.NewButton("Create", nil), Cancel: modal.NewButton("Cancel", nil)}
	f.Name.SetPlaceHolder("e.g. Board election 2026")
	f.Description.SetMinRowsVisible(3)
	f.Create.Importance = widget.HighImportance
	f.Name.OnSubmitted = func(string) { f.Create.OnTapped() }
	f.content = widget.NewForm(
		widget.NewFormItem("Name", f.Name),
		widget.NewFormItem("Description", f.Description),
		widget.NewFormItem("", f.Secret))
	return f
}

// methodOptions lists the names in words of the methods an election may
// store (app.Methods).
func methodOptions() []string {
	out := make([]string, len(app.Methods))
	for i, m := range app.Methods {
		out[i] = methodLabel(tally.Method(m))
	}
	return out
}

// methodOf returns the stored method name of a label ("" for none).
func methodOf(label string) string {
	for _, m := range app.Methods {
		if methodLabel(tally.Method(m)) == label {
			return m
		}
	}
	return ""
}

// ElectionForm edits an election's settings: description, secret ballot,
// voting window, re-casting, counting method; once launched, only whether
// the poll book may be edited.
type ElectionForm struct {
	s    *session
	base app.Election

	Description    *modal.Entry
	Secret, Recast *modal.Check
	AllowEdit      *modal.Check
	Retain         *modal.Entry
	Opens, Closes  *windowField
	Method         *modal.Select
	// Seats is how many candidates the count elects (RCTab's
	// numberOfWinners, one of the election's counting rules).
	Seats        *modal.Entry
	Note         *widget.Label
	Save, Cancel *modal.Button

	dialog  *modal.Dialog
	saved   func()
	content fyne.CanvasObject
}

// seatsOf is how many candidates e's count elects, as the form shows it.
func seatsOf(e app.Election) string {
	if v := strings.TrimSpace(e.Rules["numberOfWinners"]); v != "" {
		return v
	}
	return "1"
}

// editElection opens the edit dialog for e; saved is called after a save.
func editElection(s *session, e app.Election, saved func()) *ElectionForm {
	f := &ElectionForm{s: s, saved: saved,
		Description: modal.NewMultiLineEntry(),
		Secret:      modal.NewCheck("Secret ballot: nobody below AUDITOR sees who cast which ballot", nil),
		Recast:      modal.NewCheck("Voters may re-cast (their confirmation code stays)", nil),
		AllowEdit:   modal.NewCheck("Allow poll-book edits", nil),
		Retain:      modal.NewEntry(),
		Opens:       newWindowField(), Closes: newWindowField(),
		Method: modal.NewSelect(methodOptions(), nil),
		Seats:  modal.NewEntry(),
		Note:   widget.NewLabel(""),
		Save:   modal.NewButton("Save", nil), Cancel: modal.NewButton("Cancel", nil)}
	f.Description.SetMinRowsVisible(3)
	f.Note.Wrapping = fyne.TextWrapWord
	f.Save.Importance = widget.HighImportance
	f.Save.OnTapped = f.save
	f.Cancel.OnTapped = func() { f.dialog.Hide() }
	f.Method.PlaceHolder = "Instant runoff (IRV) — the default"
	f.fill(e)
	form := widget.NewForm(
		widget.NewFormItem("Description", f.Description),
		widget.NewFormItem("Ballots", container.NewVBox(f.Secret, f.Recast)),
		widget.NewFormItem("Voting opens", f.Opens.content),
		widget.NewFormItem("Voting closes", f.Closes.content),
		widget.NewFormItem("Counting method", f.Method),
		widget.NewFormItem("Seats", container.NewBorder(nil, nil, nil,
			widget.NewLabel("candidates elected (more than 1: choose STV)"), f.Seats)),
		widget.NewFormItem("Poll book", f.AllowEdit),
		widget.NewFormItem("Records kept", container.NewBorder(nil, nil, nil, widget.NewLabel("months after finalizing"), f.Retain)))
	f.content = container.NewVBox(form, f.Note)
	f.dialog = modal.NewCustomWithoutButtons("Edit "+e.Name, f.content, s.win)
	f.dialog.SetButtons([]fyne.CanvasObject{f.Cancel, f.Save})
	f.dialog.Resize(fyne.NewSize(620, 0))
	modal.Show(s.win, f.dialog, func() { tapIfEnabled(f.Save) })
	// The keyboard starts in the first field that may change: the
	// description of a draft; a launched election's poll-book edits or
	// how long its records are kept.
	for _, w := range []interface {
		fyne.Focusable
		Disabled() bool
	}{f.Description, f.Secret, f.Recast, f.Method, f.Seats, f.AllowEdit, f.Retain} {
		if !w.Disabled() {
			s.win.Canvas().Focus(w)
			break
		}
	}
	return f
}

// fill shows election e in the form.
func (f *ElectionForm) fill(e app.Election) {
	f.base = e
	f.Description.SetText(e.Description)
	f.Secret.SetChecked(e.Secret)
	f.Recast.SetChecked(e.AllowRecast)
	f.AllowEdit.SetChecked(e.AllowEdit)
	f.Retain.SetText(strconv.Itoa(e.RetentionMonths()))
	f.Opens.set(e.NoVotingBefore)
	f.Closes.set(e.NoVotingAfter)
	f.Method.ClearSelected()
	if e.Method != "" {
		f.Method.SetSelected(methodLabel(tally.Method(e.Method)))
	}
	f.Seats.SetText(seatsOf(e))
	draft := e.Status == app.StatusDraft
	for _, w := range []fyne.Disableable{f.Description, f.Secret, f.Recast, f.Method, f.Seats} {
		enable(w, draft)
	}
	f.Opens.enable(draft)
	f.Closes.enable(draft)
	switch e.Status {
	case app.StatusDraft:
		f.Note.SetText(fmt.Sprintf("Leave a window time empty for no limit; times are in %s.", zoneName()))
	default:
		f.Note.SetText(fmt.Sprintf("This election is %s: its settings froze at launch; only poll-book edits and how long its records are kept can change.", e.Status))
	}
}

// changes lists what the form changes against the election it was filled
// from.
func (f *ElectionForm) changes() (app.ElectionChanges, bool, error) {
	var ch app.ElectionChanges
	changed := false
	e := f.base
	if d := f.Description.Text; d != e.Description {
		ch.Description, changed = &d, true
	}
	if v := f.Secret.Checked; v != e.Secret {
		ch.Secret, changed = &v, true
	}
	if v := f.Recast.Checked; v != e.AllowRecast {
		ch.AllowRecast, changed = &v, true
	}
	if v := f.AllowEdit.Checked; v != e.AllowEdit {
		ch.AllowEdit, changed = &v, true
	}
	if v := methodOf(f.Method.Selected); v != e.Method {
		ch.Method, changed = &v, true
	}
	if t := strings.TrimSpace(f.Seats.Text); t != seatsOf(e) {
		rules := maps.Clone(e.Rules)
		if rules == nil {
			rules = map[string]string{}
		}
		rules["numberOfWinners"] = t
		if err := app.CheckRules(rules); err != nil { // the domain's rule, said before the save
			return ch, false, app.Errorf(app.CodeInvalid, "seats: %s", app.ErrorMessage(err))
		}
		ch.Rules, changed = &rules, true
	}
	if t := strings.TrimSpace(f.Retain.Text); t != strconv.Itoa(e.RetentionMonths()) {
		n, err := strconv.Atoi(t)
		if err != nil {
			return ch, false, app.Errorf(app.CodeInvalid, "records kept: %q is not a whole number of months", t)
		}
		ch.RetainMonths, changed = &n, true
	}
	for _, w := range []struct {
		field *windowField
		was   time.Time
		dst   **string
		name  string
	}{{f.Opens, e.NoVotingBefore, &ch.NoVotingBefore, "voting opens"}, {f.Closes, e.NoVotingAfter, &ch.NoVotingAfter, "voting closes"}} {
		t, err := w.field.value()
		if err != nil {
			return ch, false, app.Errorf(app.CodeInvalid, "%s: %s", w.name, app.ErrorMessage(err))
		}
		if !t.Equal(w.was) {
			s := ""
			if !t.IsZero() {
				s = t.Format(time.RFC3339)
			}
			*w.dst, changed = &s, true
		}
	}
	return ch, changed, nil
}

func (f *ElectionForm) save() {
	ch, changed, err := f.changes()
	if err != nil {
		f.s.fail("Cannot save the election", err)
		return
	}
	if !changed {
		f.dialog.Hide()
		return
	}
	name, id, base := f.base.Name, f.base.ID, f.base.Version
	var now app.Election
	f.s.doHint("Cannot save the election", lifecycleHint, func(ctx context.Context) error {
		ctx = app.ForElection(ctx, name, id)
		err := f.s.svc.UpdateElection(ctx, f.s.actor(), name, base, ch)
		if app.IsCode(err, app.CodeConflict) {
			if e, gerr := f.s.svc.Election(ctx, f.s.actor(), name); gerr == nil && e.Version != base {
				now = e
				return nil
			}
		}
		return err
	}, func() {
		if now.Version != 0 {
			f.stale(now)
			return
		}
		f.dialog.Hide()
		f.saved()
	})
}

// stale explains that someone else changed the election while this form was
// open, and offers to reload it.
func (f *ElectionForm) stale(now app.Election) {
	msg := fmt.Sprintf("Someone changed %q while you were editing it: it is now at version %d, and you started from version %d (last change %s).\n\nYour changes were not saved, so nobody's edit is lost. Reload to see the current settings, then make your change again.",
		now.Name, now.Version, f.base.Version, fmtTime(now.LastChanged))
	d := modal.NewConfirm("The election changed meanwhile", msg, func(reload bool) {
		if reload {
			f.fill(now)
		}
	}, f.s.win)
	d.SetConfirmText("Reload")
	modal.Show(f.s.win, d, nil)
}

// launchElection asks for confirmation and launches e.
func launchElection(s *session, e app.Election, done func()) {
	msg := fmt.Sprintf("Launch %q? Voting opens (within its window) and its settings and candidates freeze. It has %s and %s.",
		e.Name, plural(e.Candidates, "candidate", "candidates"), plural(e.Voters, "voter", "voters"))
	modal.ShowConfirm("Launch election", msg, func(ok bool) {
		if !ok {
			return
		}
		s.doHint("Cannot launch "+e.Name, lifecycleHint, func(ctx context.Context) error {
			return s.svc.LaunchElection(app.ForElection(ctx, e.Name, e.ID), s.actor(), e.Name)
		}, done)
	}, s.win)
}

// closeElection asks for confirmation and closes the polls of e.
func closeElection(s *session, e app.Election, done func()) {
	msg := fmt.Sprintf("Close the polls of %q? No more ballots are taken. Counting, conflicts and audits go on; finalize the election to certify it. It holds %s.",
		e.Name, plural(e.Ballots, "ballot", "ballots"))
	modal.ShowConfirm("Close polls", msg, func(ok bool) {
		if !ok {
			return
		}
		s.doHint("Cannot close "+e.Name, lifecycleHint, func(ctx context.Context) error {
			return s.svc.CloseElection(app.ForElection(ctx, e.Name, e.ID), s.actor(), e.Name)
		}, done)
	}, s.win)
}

// archiveElection asks for confirmation and archives finalized election e.
func archiveElection(s *session, e app.Election, done func()) {
	msg := fmt.Sprintf("Archive %q? It leaves the list of elections; its records stay in this database and the audit log, and it can be shown again. Its records may be deleted after %s.",
		e.Name, e.RetainUntil().Local().Format("2 January 2006"))
	modal.ShowConfirm("Archive election", msg, func(ok bool) {
		if !ok {
			return
		}
		s.do("Cannot archive "+e.Name, func(ctx context.Context) error {
			return s.svc.ArchiveElection(app.ForElection(ctx, e.Name, e.ID), s.actor(), e.Name)
		}, done)
	}, s.win)
}

// finalizeElection asks for confirmation and finalizes e.
func finalizeElection(s *session, e app.Election, done func()) {
	msg := fmt.Sprintf("Finalize %q? This certifies it: voting ends for good and nothing in it can change again. It holds %s.", e.Name, plural(e.Ballots, "ballot", "ballots"))
	modal.ShowConfirm("Finalize election", msg, func(ok bool) {
		if !ok {
			return
		}
		s.doHint("Cannot finalize "+e.Name, lifecycleHint, func(ctx context.Context) error {
			return s.svc.FinalizeElection(app.ForElection(ctx, e.Name, e.ID), s.actor(), e.Name)
		}, done)
	}, s.win)
}

// deleteElection asks the user to type the election's name, then deletes it.
func deleteElection(s *session, e app.Election, done func()) {
	confirm := modal.NewEntry()
	confirm.SetPlaceHolder(e.Name)
	msg := widget.NewLabel(fmt.Sprintf("This removes %q with its %s, %s and %s from this database (the audit log keeps its history). Type the election's name to confirm.",
		e.Name, plural(e.Candidates, "candidate", "candidates"), plural(e.Voters, "voter", "voters"), plural(e.Ballots, "ballot", "ballots")))
	msg.Wrapping = fyne.TextWrapWord
	d := modal.NewCustomConfirm("Delete election", "Delete", "Cancel", container.NewVBox(msg, confirm), func(ok bool) {
		if !ok {
			return
		}
		if strings.TrimSpace(confirm.Text) != e.Name {
			s.fail("Not deleted", app.Errorf(app.CodeInvalid, "the name typed does not match %q", e.Name))
			return
		}
		kept := ""
		s.do("Cannot delete "+e.Name, func(ctx context.Context) error {
			if e.DeleteKeepsCopy() {
				if err := e.DeleteRefusal(s.user.Role, s.svc.Now()); err != nil {
					return err
				}
				var err error
				if kept, err = s.keep(ctx, "delete"); err != nil {
					return err
				}
			}
			return s.svc.DeleteElection(app.ForElection(ctx, e.Name, e.ID), s.actor(), e.Name)
		}, func() {
			if kept != "" {
				modal.ShowInformation("Deleted", fmt.Sprintf("%q was deleted. The database as it was is kept in %s.", e.Name, kept), s.win)
			}
			done()
		})
	}, s.win)
	d.Resize(fyne.NewSize(480, 0))
	modal.Show(s.win, d, nil)
	s.win.Canvas().Focus(confirm) // the name is typed at once
}
