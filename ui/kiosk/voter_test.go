package kiosk

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"votedesk/app"
)

var confirmationRE = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)

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
	if got := b.cands[0].label(); got != "1   Kiss   (your 1st choice)" {
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
		h.advance(time.Second)
	}
	h.advance(3*time.Second + 999*time.Millisecond)
	if h.k.screen != h.k.receipt {
		t.Fatalf("the receipt went before its 7 s: screen %T", h.k.screen)
	}
	h.advance(time.Millisecond)
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
			h.advance(DefaultReturnAfter)
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

// TestTextSizeAndContrast: four text sizes and high contrast, each reachable
// by keyboard, chosen separately, and back to the kiosk's default for the
// next voter.
func TestTextSizeAndContrast(t *testing.T) {
	h := newHarness(t, "Mayor")
	bar := h.k.bar
	th := func() kioskTheme { return h.app.Settings().Theme().(kioskTheme) }
	if !bar.smaller.Disabled() || bar.larger.Disabled() {
		t.Errorf("at the smallest size: Smaller enabled %v, Larger enabled %v", !bar.smaller.Disabled(), !bar.larger.Disabled())
	}
	sizes := []float32{th().Size("text")}
	for range TextSizes - 1 {
		h.press(bar.larger)
		sizes = append(sizes, th().Size("text"))
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] < sizes[i-1]*1.2 {
			t.Errorf("text sizes %v: size %d is not clearly larger than size %d", sizes, i+1, i)
		}
	}
	if !bar.larger.Disabled() || h.win.Canvas().Focused() != bar.smaller {
		t.Errorf("at the largest size: Larger enabled %v, focus on %v (want Smaller)", !bar.larger.Disabled(), h.win.Canvas().Focused())
	}
	if th().contrast {
		t.Error("the text size switched the contrast")
	}
	h.press(bar.contrast)
	if got := th(); !got.contrast || got.size != TextSizes-1 || bar.contrast.label() != "Normal contrast" {
		t.Errorf("after High contrast: theme %+v, button %q", got, bar.contrast.label())
	}
	h.press(bar.smaller)
	if got := th(); got.size != TextSizes-2 || !got.contrast {
		t.Errorf("after Smaller: theme %+v", got)
	}
	h.win.Canvas().Focus(h.k.checkIn.name)
	h.vote("Ann Lee", "1")
	h.key(fyne.KeyReturn)
	if got := th(); got != (kioskTheme{}) {
		t.Errorf("the next voter starts with the previous voter's look %+v", got)
	}
	t.Run("KioskDefault", func(t *testing.T) {
		h := newHarness(t, "Mayor", func(c *Config) { c.TextSize, c.HighContrast = 2, true })
		if got := h.app.Settings().Theme().(kioskTheme); got != (kioskTheme{size: 2, contrast: true}) {
			t.Errorf("theme %+v, want the configured size 3 in high contrast", got)
		}
	})
}

// TestIdleWarning: a voter who stops touching the kiosk mid-ballot is warned
// after IdleAfter with the ballot hidden; any key brings it back as it was;
// after IdleGrace more the unfinished ballot is discarded, nothing is cast,
// and check-in starts with the default text size and contrast.
func TestIdleWarning(t *testing.T) {
	const after, grace = 3 * time.Minute, 25 * time.Second
	h := newHarness(t, "Mayor", func(c *Config) { c.IdleAfter, c.IdleGrace = after, grace })
	h.advance(after)
	if h.k.idle != nil {
		t.Fatal("an untouched check-in was warned about")
	}
	h.checkIn("Ann Lee")
	h.typ("31")
	h.press(h.k.bar.larger)
	h.tabTo(h.k.ballot.cands[1])
	h.advance(after - time.Second)
	if h.k.idle != nil {
		t.Fatal("warned before IdleAfter")
	}
	h.advance(time.Second)
	idle := h.k.idle
	if idle == nil || h.k.screen != idle {
		t.Fatalf("after %v without input: screen %T", after, h.k.screen)
	}
	if texts := strings.Join(allTexts(h.win.Canvas()), "|"); strings.Contains(texts, "Montroll") {
		t.Errorf("the warning shows the ballot: %q", texts)
	}
	if !strings.Contains(idle.count.Text, "In 25 s your ballot is cleared") {
		t.Errorf("warning says %q", idle.count.Text)
	}
	h.advance(time.Second)
	if !strings.Contains(idle.count.Text, "In 24 s") {
		t.Errorf("after a second the warning says %q", idle.count.Text)
	}

	h.typ("4") // any key: back to the ballot as it was; the key does nothing else
	if h.k.screen != h.k.ballot || len(h.k.session.ranking) != 2 || h.win.Canvas().Focused() != h.k.ballot.cands[1] {
		t.Fatalf("a key after the warning: screen %T, ranking %v, focus %v", h.k.screen, h.k.session.ranking, h.win.Canvas().Focused())
	}
	h.advance(grace)
	if h.k.screen != h.k.ballot {
		t.Fatal("the warning's end fired after the voter came back")
	}

	h.advance(after - grace) // IdleAfter since the voter came back
	if h.k.screen != h.k.idle {
		t.Fatalf("second warning: screen %T", h.k.screen)
	}
	h.advance(grace)
	if h.k.screen != h.k.checkIn || h.k.session != nil || h.k.ballot != nil || h.k.idle != nil {
		t.Fatalf("after the grace time: screen %T, session %v", h.k.screen, h.k.session)
	}
	if got := h.app.Settings().Theme().(kioskTheme); got != (kioskTheme{}) {
		t.Errorf("the next voter gets the look %+v", got)
	}
	if n := len(h.ballots("Mayor")); n != 0 {
		t.Errorf("%d ballots cast by the timeout", n)
	}
	if texts := strings.Join(allTexts(h.win.Canvas()), "|"); strings.Contains(texts, "Montroll") || strings.Contains(texts, "Ann Lee") {
		t.Errorf("the voter is still on screen: %q", texts)
	}

	t.Run("TypedNameIsCleared", func(t *testing.T) {
		h.typ("Bob")
		h.advance(after)
		if h.k.screen != h.k.idle || !strings.Contains(h.k.idle.count.Text, "starts again for the next voter") {
			t.Fatalf("a half-typed name: screen %T", h.k.screen)
		}
		h.advance(grace)
		if h.k.screen != h.k.checkIn || h.k.checkIn.name.Text != "" {
			t.Errorf("after the grace time: screen %T, name %q", h.k.screen, h.k.checkIn.name.Text)
		}
	})
	t.Run("ReviewTimesOutToo", func(t *testing.T) {
		h.checkIn("Ann Lee")
		h.typ("1")
		h.press(h.k.ballot.review)
		h.advance(after)
		h.advance(grace)
		if h.k.screen != h.k.checkIn || h.k.review != nil || len(h.ballots("Mayor")) != 0 {
			t.Errorf("review left alone: screen %T", h.k.screen)
		}
	})
}
