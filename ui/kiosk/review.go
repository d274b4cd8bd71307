package kiosk

import (
	"context"
	"time"

	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally/report"
)

// reviewScreen lists the ranking in words, warns about an empty or short
// ballot, and casts it.
type reviewScreen struct {
	noKeys
	k      *Kiosk
	s      *session
	lines  []*widget.Label
	warn   *widget.Label
	status *widget.Label
	back   *button
	cast   *button
	obj    fyne.CanvasObject
}

func newReviewScreen(k *Kiosk, s *session) *reviewScreen {
	r := &reviewScreen{k: k, s: s, warn: message(widget.WarningImportance), status: message(widget.DangerImportance)}
	list := container.NewVBox()
	for p, c := range s.ranking {
		l := widget.NewLabelWithStyle(fmt.Sprintf("%s choice: %s", report.Ordinal(p+1), k.candidates[c].Name), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.SizeName = theme.SizeNameSubHeadingText
		l.Wrapping = fyne.TextWrapWord
		r.lines = append(r.lines, l)
		list.Add(l)
	}
	n, all := len(s.ranking), len(k.candidates)
	var warn string
	switch {
	case n == 0:
		warn = "You have not ranked any candidate. If you cast this ballot, it counts for no one. " +
			"You may go back and rank candidates."
	case n < all:
		warn = fmt.Sprintf("You ranked %d of the %d candidates. That is allowed: you do not have to rank them all. "+
			"You may go back and rank more.", n, all)
	}
	if s.recast {
		warn += " This ballot replaces the one you cast earlier."
	}
	r.warn.SetText(warn)
	if warn == "" {
		r.warn.Hide()
	}
	r.back = newButton(k, "Change my ballot", theme.NavigateBackIcon(), k.backToBallot)
	r.cast = newButton(k, "Cast my ballot", theme.ConfirmIcon(), r.castBallot)
	r.cast.Importance = widget.HighImportance
	help := label("Please check your ballot. When it is right, cast it. You cannot change it after casting.")
	if k.election.AllowRecast {
		help.SetText("Please check your ballot. When it is right, cast it. This election lets you cast again later; your last ballot counts.")
	}
	r.obj = page(heading("Check your ballot"), container.NewVBox(help, r.warn, list, r.status), r.back, r.cast)
	return r
}

func (r *reviewScreen) view() fyne.CanvasObject { return r.obj }
func (r *reviewScreen) voterFacing() bool       { return true }

// first is Cast for a complete ballot and Change for an empty or short one,
// so that a quick Enter does not cast a ballot the voter was warned about.
func (r *reviewScreen) first() fyne.Focusable {
	if len(r.s.ranking) < len(r.k.candidates) {
		return r.back
	}
	return r.cast
}

// castBallot records the ballot off the UI goroutine; the receipt shows only
// once the ballot is on disk (CastBallot returns after the fsync).
func (r *reviewScreen) castBallot() {
	k := r.k
	if k.busy || k.session != r.s {
		return
	}
	k.busy = true
	r.back.Disable()
	r.cast.Disable()
	r.status.Importance = widget.MediumImportance
	r.status.SetText("Recording your ballot…")
	e, c := k.election, app.Cast{Voter: r.s.voter, Rankings: r.s.rankings(k.candidates), Source: app.SourceKiosk}
	k.run.Go(func() func() {
		var rc app.Receipt
		now, err := k.forElection(e, func(ctx context.Context, election string) (err error) {
			c.Election = election
			rc, err = k.cfg.Service.CastBallot(ctx, k.cfg.Official, c)
			return err
		})
		return func() {
			k.busy = false
			if k.followed(e, now, err) {
				k.nextVoter()
				return
			}
			if err != nil {
				r.status.Importance = widget.DangerImportance
				r.status.SetText(sentence(app.ErrorMessage(err)) + " Your ballot was not recorded. Please ask a poll worker.")
				r.back.Enable()
				r.cast.Enable()
				return
			}
			k.casts++
			k.showReceipt(rc.Confirmation)
			k.refreshPending()
		}
	})
}

// wipe empties every text that shows the ranking.
func (r *reviewScreen) wipe() {
	for _, l := range r.lines {
		l.SetText("")
	}
	r.lines = nil
	r.warn.SetText("")
	r.status.SetText("")
}

// receiptScreen shows the confirmation code of the ballot just cast, and
// nothing else of it.
type receiptScreen struct {
	noKeys
	code *widget.Label
	done *button
	obj  fyne.CanvasObject
	// clears counts down to the kiosk's return to check-in, each second.
	clears *widget.Label
	left   time.Duration
}

// clearsText says when the receipt clears.
func clearsText(left time.Duration) string {
	return fmt.Sprintf("This screen clears in %s. Press Done or tap the screen to finish now.", app.WaitText(left))
}

// tick counts the receipt's time down by a second, and asks for the next
// second until it is gone (the return timer ends the receipt itself).
func (r *receiptScreen) tick(k *Kiosk) {
	if k.receipt != r || r.left <= time.Second {
		return
	}
	r.left -= time.Second
	r.clears.SetText(clearsText(r.left))
	k.run.After(time.Second, func() { r.tick(k) })
}

func newReceiptScreen(k *Kiosk, code string) *receiptScreen {
	r := &receiptScreen{code: widget.NewLabelWithStyle(code, fyne.TextAlignCenter, fyne.TextStyle{Monospace: true, Bold: true})}
	r.code.SizeName = theme.SizeNameHeadingText
	r.code.Wrapping = fyne.TextWrapBreak
	r.left = k.cfg.ReturnAfter
	r.clears = widget.NewLabelWithStyle(clearsText(r.left), fyne.TextAlignCenter, fyne.TextStyle{})
	r.done = newButton(k, "Done", theme.ConfirmIcon(), func() { k.receiptDone(r) })
	r.done.Importance = widget.HighImportance
	title := heading("Thank you. Your ballot is recorded.")
	title.Alignment = fyne.TextAlignCenter
	body := container.NewVBox(
		title,
		widget.NewLabelWithStyle("Your confirmation code:", fyne.TextAlignCenter, fyne.TextStyle{}),
		r.code,
		label("With this code you can find your ballot in the published list of ballots. Write it down now if you want to keep it: "+
			"it is not shown again."),
		r.clears,
		container.NewCenter(r.done),
	)
	r.obj = newTapArea(container.NewPadded(container.NewCenter(body)), func() { k.receiptDone(r) })
	return r
}

func (r *receiptScreen) view() fyne.CanvasObject { return r.obj }
func (r *receiptScreen) first() fyne.Focusable   { return r.done }
func (r *receiptScreen) voterFacing() bool       { return true }

func (r *receiptScreen) wipe() { r.code.SetText("") }

// tapArea is content that does something when tapped anywhere.
type tapArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	tapped  func()
}

func newTapArea(content fyne.CanvasObject, tapped func()) *tapArea {
	t := &tapArea{content: content, tapped: tapped}
	t.ExtendBaseWidget(t)
	return t
}

func (t *tapArea) Tapped(*fyne.PointEvent) { t.tapped() }

func (t *tapArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.content) }
