package kiosk

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"votedesk/app"
)

var confirmationRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestVoterSessionByKeyboard runs a whole voter session with keys only:
// check-in, ranking with number keys and the move buttons, review, cast,
// receipt, and back to check-in.
func TestVoterSessionByKeyboard(t *testing.T) {
	h := newHarness(t, "Mayor")
	k := h.k
	if !h.win.FullScreen() {
		t.Error("the kiosk window is not full screen")
	}
	h.checkIn("ann lee")
	b := k.ballot
	if b == nil || k.session.voter != "Ann Lee" || k.session.recast {
		t.Fatalf("after check-in: screen %T, session %+v", k.screen, k.session)
	}
	if f := h.win.Canvas().Focused(); f != b.cands[0] {
		t.Errorf("ballot: focus on %T, want the first candidate", f)
	}
	h.typ("3")      // Montroll first
	h.key("Return") // the focused button: Kiss, now second
	if got := b.rows[1].name.Text; got != "2nd choice: Kiss" {
		t.Errorf("after 3 and Enter on Kiss, row 2 = %q", got)
	}
	if f := h.win.Canvas().Focused(); f != b.cands[1] {
		t.Errorf("after ranking Kiss: focus on %v, want the next candidate, Wright", f)
	}
	h.typ("3") // Montroll again: refused, said
	if !strings.Contains(b.status.Text, "already your 1st choice") || len(k.session.ranking) != 2 {
		t.Errorf("ranking Montroll twice: status %q, ranking %v", b.status.Text, k.session.ranking)
	}
	h.press(b.rows[1].up) // Kiss first, Montroll second
	if f := h.win.Canvas().Focused(); f != b.rows[0].down {
		t.Errorf("after moving Kiss up: focus on %v, want Kiss's Down", f)
	}
	h.typ("4") // Smith third
	h.key(fyne.KeyBackspace)
	h.typ("2") // Wright third
	if got := k.session.rankings(k.candidates); !sameRanking(got, "Kiss", "Montroll", "Wright") {
		t.Fatalf("ranking = %v", got)
	}
	if got := b.cands[0].Text; got != "1   Kiss   (your 1st choice)" {
		t.Errorf("candidate 1 button = %q", got)
	}
	h.press(b.cands[0]) // a ranked candidate stays readable and says where it is
	if !strings.Contains(b.status.Text, "Kiss is already your 1st choice") || len(k.session.ranking) != 3 {
		t.Errorf("pressing a ranked candidate: %q, ranking %v", b.status.Text, k.session.ranking)
	}

	h.press(b.review)
	r := k.review
	if r == nil {
		t.Fatalf("Review: screen %T", k.screen)
	}
	var lines []string
	for _, l := range r.lines {
		lines = append(lines, l.Text)
	}
	if want := "1st choice: Kiss|2nd choice: Montroll|3rd choice: Wright"; strings.Join(lines, "|") != want {
		t.Errorf("review lines = %q, want %q", lines, want)
	}
	if !strings.Contains(r.warn.Text, "You ranked 3 of the 4 candidates") {
		t.Errorf("short-ballot warning = %q", r.warn.Text)
	}
	if f := h.win.Canvas().Focused(); f != r.back {
		t.Errorf("review of a short ballot: focus on %v, want Change my ballot", f)
	}
	h.key(fyne.KeyReturn) // back to the ballot, as it was
	if k.screen != b || len(k.session.ranking) != 3 {
		t.Fatalf("Change my ballot: screen %T, ranking %v", k.screen, k.session.ranking)
	}
	h.press(b.review)
	h.press(k.review.cast)

	rc := k.receipt
	if rc == nil || k.screen != rc {
		t.Fatalf("Cast: screen %T", k.screen)
	}
	code := rc.code.Text
	if !confirmationRE.MatchString(code) {
		t.Errorf("receipt shows %q, want a confirmation code", code)
	}
	if k.session != nil || k.ballot != nil || k.review != nil {
		t.Errorf("the receipt shows but the voter is still held: session %v, ballot %v, review %v", k.session, k.ballot, k.review)
	}
	bs := h.ballots("Mayor")
	if len(bs) != 1 || bs[0].Voter != "Ann Lee" || bs[0].Confirmation != code || bs[0].Source != app.SourceKiosk ||
		bs[0].Transcribed || !sameRanking(bs[0].Rankings, "Kiss", "Montroll", "Wright") {
		t.Errorf("stored ballots = %+v", bs)
	}
	h.key(fyne.KeyReturn) // Done
	if k.checkIn == nil || k.screen != k.checkIn || k.receipt != nil {
		t.Errorf("Done: screen %T, receipt %v", k.screen, k.receipt)
	}
}

func sameRanking(r []app.Ranking, names ...string) bool {
	if len(r) != len(names) {
		return false
	}
	for i, x := range r {
		if x.Candidate != names[i] || x.Rank != i+1 {
			return false
		}
	}
	return true
}

func TestEmptyBallotIsWarnedAndAllowed(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.checkIn("Cy Young")
	h.press(h.k.ballot.review)
	r := h.k.review
	if len(r.lines) != 0 || !strings.Contains(r.warn.Text, "not ranked any candidate") {
		t.Fatalf("empty ballot review: lines %d, warning %q", len(r.lines), r.warn.Text)
	}
	h.press(r.cast)
	if h.k.receipt == nil {
		t.Fatalf("casting an empty ballot: screen %T", h.k.screen)
	}
	if bs := h.ballots("Mayor"); len(bs) != 1 || len(bs[0].Rankings) != 0 {
		t.Errorf("stored = %+v, want one empty ballot", bs)
	}
}

func TestFullBallotHasNoWarningAndFocusesCast(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.checkIn("Dee Fox")
	h.typ("4321")
	if !strings.Contains(h.k.ballot.prompt.Text, "ranked every candidate") {
		t.Errorf("prompt = %q", h.k.ballot.prompt.Text)
	}
	h.press(h.k.ballot.review)
	if r := h.k.review; r.warn.Visible() || h.win.Canvas().Focused() != r.cast {
		t.Errorf("full ballot: warning %q visible %v, focus %v", r.warn.Text, r.warn.Visible(), h.win.Canvas().Focused())
	}
}

func TestReceiptReturnsToCheckInByItself(t *testing.T) {
	h := newHarness(t, "Mayor", func(c *Config) { c.ReturnAfter = 7 * time.Second })
	h.vote("Ann Lee", "1")
	// The receipt counts down the seconds it has left.
	clears := h.k.receipt.clears
	for _, want := range []string{"7 s", "6 s", "5 s"} {
		if !strings.Contains(clears.Text, "clears in "+want) {
			t.Errorf("the receipt says %q, want %s left", clears.Text, want)
		}
		h.timers.fire(time.Second)
	}
	h.timers.fire(7 * time.Second)
	if h.k.screen != h.k.checkIn || h.k.receipt != nil {
		t.Errorf("after the receipt time: screen %T", h.k.screen)
	}
	t.Run("TapAlsoEnds", func(t *testing.T) {
		h.vote("Bob Ray", "2")
		h.k.receipt.obj.(*tapArea).Tapped(&fyne.PointEvent{})
		if h.k.screen != h.k.checkIn {
			t.Errorf("after a tap: screen %T", h.k.screen)
		}
	})
}

func TestCancelLeavesWithoutVoting(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.checkIn("Ann Lee")
	h.typ("12")
	h.press(h.k.ballot.cancel)
	if f := h.win.Canvas().Focused(); f != h.k.ballot.stay {
		t.Fatalf("Cancel: focus on %v, want No, keep voting", f)
	}
	h.key(fyne.KeyReturn)
	if len(h.k.session.ranking) != 2 {
		t.Fatal("keep voting lost the ranking")
	}
	h.press(h.k.ballot.cancel)
	h.press(h.k.ballot.leave)
	if h.k.screen != h.k.checkIn || h.k.session != nil || len(h.ballots("Mayor")) != 0 {
		t.Errorf("leave without voting: screen %T, session %v", h.k.screen, h.k.session)
	}
}

// TestRefusedCheckIns: each refusal is a plain message on the check-in
// screen, and no ballot is shown.
func TestRefusedCheckIns(t *testing.T) {
	for _, tc := range []struct {
		name, election, voter, says string
	}{
		{"ErrNotEligible", "Mayor", "Zed Nobody", "not in the poll book"},
		{"ErrAlreadyVoted", "Mayor", "Bob Ray", "already voted in this election, and it does not allow changing"},
		{"ErrWindowClosed", "Later", "Ann Lee", "Voting is closed: it opens at"},
		{"ErrEmptyName", "Mayor", "", "Type the voter's name first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if _, err := f.svc.CastBallot(f.ctx, official, app.Cast{Election: "Mayor", Voter: "Bob Ray", Source: app.SourceKiosk}); err != nil {
				t.Fatal(err)
			}
			h := startHarness(t, f, tc.election)
			h.checkIn(tc.voter)
			msg := h.k.checkIn.msg.Text
			if h.k.screen != h.k.checkIn || h.k.ballot != nil || !strings.Contains(msg, tc.says) {
				t.Errorf("check-in %q: screen %T, message %q, want %q", tc.voter, h.k.screen, msg, tc.says)
			}
			if strings.Contains(msg, "%!") || strings.Count(msg, "\n") > 0 {
				t.Errorf("message %q is not one plain sentence", msg)
			}
			if h.win.Canvas().Focused() != h.k.checkIn.name {
				t.Error("after a refusal the name field lost the focus")
			}
			h.timers.fire(DefaultReturnAfter)
			if h.k.checkIn.msg.Text != "" || h.k.checkIn.name.Text != "" {
				t.Errorf("the refusal stays for the next person: %q, %q", h.k.checkIn.msg.Text, h.k.checkIn.name.Text)
			}
		})
	}
}

// TestRecastStartsEmpty: in a secret election that allows re-casting, a
// voter who voted gets an empty ballot, is told it replaces the earlier one,
// and keeps their confirmation code.
func TestRecastStartsEmpty(t *testing.T) {
	f := newFixture(t)
	first, err := f.svc.CastBallot(f.ctx, official, app.Cast{Election: "Council", Voter: "Ann Lee",
		Rankings: []app.Ranking{{Candidate: "C", Rank: 1}, {Candidate: "A", Rank: 2}}, Source: app.SourceKiosk})
	if err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, f, "Council")
	h.checkIn("Ann Lee")
	b := h.k.ballot
	if b == nil || !h.k.session.recast || len(h.k.session.ranking) != 0 {
		t.Fatalf("re-cast check-in: screen %T, session %+v", h.k.screen, h.k.session)
	}
	if !strings.Contains(b.recast.Text, "replaces your earlier one") || !b.recast.Visible() {
		t.Errorf("re-cast notice = %q", b.recast.Text)
	}
	for _, s := range allTexts(h.win.Canvas()) {
		if strings.Contains(s, "choice: ") {
			t.Errorf("a re-cast ballot shows %q before anything is ranked", s)
		}
	}
	code := h.vote2("2")
	if code != first.Confirmation {
		t.Errorf("re-cast receipt %q, want the first confirmation %q", code, first.Confirmation)
	}
	bs, _ := f.svc.Ballots(f.ctx, official, "Council")
	if len(bs) != 1 || !sameRanking(bs[0].Rankings, "B") {
		t.Errorf("after the re-cast: %+v", bs)
	}
}

// vote2 ranks, reviews and casts on a ballot already showing.
func (h *harness) vote2(choices string) string {
	h.t.Helper()
	h.typ(choices)
	h.press(h.k.ballot.review)
	h.press(h.k.review.cast)
	if h.k.receipt == nil {
		h.t.Fatalf("after Cast: screen %T", h.k.screen)
	}
	return h.k.receipt.code.Text
}

// TestCastRefusedKeepsTheBallot: when voting closes between check-in and the
// cast, the voter is told, nothing is recorded, and no receipt shows.
func TestCastRefusedKeepsTheBallot(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.checkIn("Ann Lee")
	h.typ("1")
	h.press(h.k.ballot.review)
	if err := h.svc.FinalizeElection(h.ctx, official, "Mayor"); err != nil {
		t.Fatal(err)
	}
	h.press(h.k.review.cast)
	r := h.k.review
	if h.k.screen != r || h.k.receipt != nil || !strings.Contains(r.status.Text, "not recorded") || r.cast.Disabled() {
		t.Errorf("refused cast: screen %T, status %q", h.k.screen, r.status.Text)
	}
	if bs := h.ballots("Mayor"); len(bs) != 0 {
		t.Errorf("a refused cast stored %+v", bs)
	}
}

func TestStartRefused(t *testing.T) {
	for election, says := range map[string]string{"Draft": "not launched", "Nowhere": "no election named"} {
		t.Run(election, func(t *testing.T) {
			h := newHarness(t, election)
			s, ok := h.k.screen.(*failedScreen)
			if !ok {
				t.Fatalf("screen %T, want the failure", h.k.screen)
			}
			if texts := strings.Join(allTexts(h.win.Canvas()), "|"); !strings.Contains(texts, says) {
				t.Errorf("failure screen says %q, want %q", texts, says)
			}
			h.press(s.close)
			if !h.exited || h.win.FullScreen() {
				t.Errorf("Close: exited %v, full screen %v", h.exited, h.win.FullScreen())
			}
		})
	}
}

func TestStartByJoinCode(t *testing.T) {
	f := newFixture(t)
	e, err := f.svc.Election(f.ctx, official, "Mayor")
	if err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, f, strings.ToLower(app.JoinCode(e)))
	if h.k.election.Name != "Mayor" || h.k.JoinCode() != app.JoinCode(e) || h.k.screen != h.k.checkIn {
		t.Errorf("kiosk by join code: election %q, code %q, screen %T", h.k.election.Name, h.k.JoinCode(), h.k.screen)
	}
}

// TestLargeTextSwitch: the switch is reachable by keyboard, makes text and
// targets larger, and goes back to normal for the next voter.
func TestLargeTextSwitch(t *testing.T) {
	h := newHarness(t, "Mayor")
	small := h.app.Settings().Theme().Size("text")
	h.press(h.k.bar.textSize)
	th, ok := h.app.Settings().Theme().(kioskTheme)
	if !ok || !th.large || th.Size("text") < small*1.4 {
		t.Fatalf("after the switch: theme %#v", h.app.Settings().Theme())
	}
	if h.k.bar.textSize.Text != "Normal text" {
		t.Errorf("switch says %q", h.k.bar.textSize.Text)
	}
	h.win.Canvas().Focus(h.k.checkIn.name)
	h.vote("Ann Lee", "1")
	h.key(fyne.KeyReturn)
	if th := h.app.Settings().Theme().(kioskTheme); th.large {
		t.Error("the next voter starts with the previous voter's large text")
	}
}
