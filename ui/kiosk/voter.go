package kiosk

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// checkInScreen asks for the voter's name and checks it against the poll
// book.
type checkInScreen struct {
	noKeys
	k        *Kiosk
	name     *entry
	next     *button
	msg      *widget.Label
	obj      fyne.CanvasObject
	checking bool
}

func newCheckInScreen(k *Kiosk) *checkInScreen {
	s := &checkInScreen{k: k, msg: message(widget.DangerImportance)}
	s.name = newEntry("Your name", func(string) { s.submit() })
	s.name.onInput = k.noteInput
	s.name.OnChanged = func(string) {
		if s.msg.Text != "" && !s.checking {
			s.msg.SetText("")
		}
	}
	s.next = newButton(k, "Continue", theme.NavigateNextIcon(), s.submit)
	s.next.Importance = widget.HighImportance
	help := label("Type your name as it is written in the poll book, then press Enter or Continue. " +
		"A poll worker can help you.")
	s.obj = page(heading("Welcome. Please check in."), container.NewVBox(help, s.name, s.msg), s.next)
	return s
}

func (s *checkInScreen) view() fyne.CanvasObject { return s.obj }
func (s *checkInScreen) first() fyne.Focusable   { return s.name }
func (s *checkInScreen) voterFacing() bool       { return true }

// submit checks the name off the UI goroutine.
func (s *checkInScreen) submit() {
	if s.checking {
		return
	}
	k, name := s.k, s.name.Text
	s.checking = true
	s.next.Disable()
	s.msg.Importance = widget.MediumImportance
	s.msg.SetText("Checking the poll book…")
	e := k.election
	k.run.Go(func() func() {
		var ci app.CheckIn
		now, err := k.forElection(e, func(ctx context.Context, election string) (err error) {
			ci, err = k.cfg.Service.CheckInVoter(ctx, k.cfg.Official, election, name)
			return err
		})
		return func() {
			if k.followed(e, now, err) {
				k.nextVoter()
				return
			}
			if k.checkIn != s {
				return
			}
			s.checking = false
			s.next.Enable()
			if err != nil {
				s.refused(err)
				return
			}
			k.startBallot(ci)
		}
	})
}

// refused says why the voter cannot vote, and clears it after the receipt
// time if nobody types, so the next person does not read it.
func (s *checkInScreen) refused(err error) {
	k := s.k
	s.msg.Importance = widget.DangerImportance
	s.msg.SetText(app.ErrorMessage(err))
	k.win.Canvas().Focus(s.name)
	typed := s.name.Text
	k.run.After(k.cfg.ReturnAfter, func() {
		if k.checkIn == s && s.name.Text == typed {
			s.wipe()
		}
	})
}

// wipe empties the name field and the message.
func (s *checkInScreen) wipe() {
	s.name.SetText("")
	s.msg.SetText("")
}

// startBallot gives a checked-in voter an empty ballot. A voter who re-casts
// starts from an empty ballot too: the kiosk never reads an earlier one.
func (k *Kiosk) startBallot(ci app.CheckIn) {
	k.forgetVoter()
	k.session = &session{voter: ci.Voter, recast: ci.Recast}
	k.ballot = newBallotScreen(k, k.session)
	k.show(k.ballot)
}

// showReview shows the ballot in words before it is cast.
func (k *Kiosk) showReview() {
	if k.session == nil {
		return
	}
	if k.review != nil {
		k.review.wipe()
	}
	k.review = newReviewScreen(k, k.session)
	k.show(k.review)
}

// backToBallot returns from the review to the ballot as it was.
func (k *Kiosk) backToBallot() {
	if k.ballot == nil {
		return
	}
	if k.review != nil {
		k.review.wipe()
		k.review = nil
	}
	k.show(k.ballot)
}

// showReceipt forgets the voter and shows the confirmation code until the
// receipt time passes or someone presses Done.
func (k *Kiosk) showReceipt(code string) {
	k.forgetVoter()
	r := newReceiptScreen(k, code)
	k.receipt = r
	k.show(r)
	k.stopReturn = k.run.After(k.cfg.ReturnAfter, func() { k.receiptDone(r) })
	k.run.After(time.Second, func() { r.tick(k) })
}

// receiptDone ends receipt r: back to check-in, or, if the passcode screen
// covers it, just empties and drops it (leaving the official's typing be).
func (k *Kiosk) receiptDone(r *receiptScreen) {
	if k.receipt != r {
		return
	}
	if k.screen == r {
		k.nextVoter()
		return
	}
	if k.stopReturn != nil {
		k.stopReturn()
		k.stopReturn = nil
	}
	r.wipe()
	k.receipt = nil
}

// live reports whether s may be shown again: it is still the kiosk's.
func (k *Kiosk) live(s screen) bool {
	switch s := s.(type) {
	case *checkInScreen:
		return s == k.checkIn
	case *ballotScreen:
		return s == k.ballot
	case *reviewScreen:
		return s == k.review
	case *receiptScreen:
		return s == k.receipt
	case *idleScreen:
		return s == k.idle
	case *menuScreen:
		return s == k.menu
	case *paperScreen:
		return s == k.paper
	}
	return false
}
