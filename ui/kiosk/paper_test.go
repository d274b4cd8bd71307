package kiosk

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"votedesk/app"
)

func TestParseKeyed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string // canonical form, or "error: ..." part of the message
	}{
		{"3 1 4", 4, "3 1 4"},
		{" 3,1 > 4 ", 4, "3 1 4"},
		{"314", 4, "3 1 4"},
		{"0", 4, "0"},
		{"3 2/1 4", 4, "3 1/2 4"},
		{"3 - 4", 4, "3 - 4"},
		{"3 4 - -", 4, "3 4"},
		{"12 3", 12, "12 3"},
		{"10", 12, "10"},
		{"", 4, "error: type the candidate numbers"},
		{"5", 4, "error: 5 is not a candidate number (they go from 1 to 4)"},
		{"3 1 3", 4, "error: candidate 3 is keyed twice"},
		{"33", 4, "error: candidate 3 is keyed twice"},
		{"3 x", 4, `error: "x" is not a candidate number`},
		{"1 0", 4, "error: 0 is not a candidate number"},
		{"- -", 4, "error: no candidate is keyed"},
		{"1 - - - 2", 4, "error: 5 ranks keyed, but the ballot has only 4"},
	} {
		k, err := parseKeyed(tc.in, tc.n)
		got := k.String()
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("parseKeyed(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestKeyedRankings(t *testing.T) {
	cands := []app.Candidate{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}
	k, err := parseKeyed("3 1/2 - 4", 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []app.Ranking{{Candidate: "C", Rank: 1}, {Candidate: "A", Rank: 2}, {Candidate: "B", Rank: 2}, {Candidate: "D", Rank: 4}}
	got := k.rankings(cands)
	if len(got) != len(want) {
		t.Fatalf("rankings = %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("rankings = %v, want %v", got, want)
		}
	}
	if w := k.words(cands); w != "C > A and B > (none) > D" {
		t.Errorf("words = %q", w)
	}
}

func TestCompareBatches(t *testing.T) {
	parse := func(lines ...string) []keyed {
		var out []keyed
		for _, l := range lines {
			k, err := parseKeyed(l, 5)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, k)
		}
		return out
	}
	ms := compareBatches(parse("1 2", "3", "0", "45"), parse("12", "2", "0"))
	if len(ms) != 2 || ms[0].place != 1 || ms[1].place != 3 || ms[1].second != nil || ms[1].first.String() != "4 5" {
		t.Errorf("mismatches = %+v", ms)
	}
}

// openPaper unlocks the kiosk and opens paper entry, by keyboard.
func (h *harness) openPaper() *paperScreen {
	h.t.Helper()
	h.unlock()
	h.press(h.k.menu.paper)
	p := h.k.paper
	if p == nil || h.win.Canvas().Focused() != p.input {
		h.t.Fatalf("paper entry: screen %T, focus %v", h.k.screen, h.win.Canvas().Focused())
	}
	return p
}

// line keys one paper ballot.
func (h *harness) line(s string) {
	h.typ(s)
	h.key(fyne.KeyReturn)
}

func TestPaperSingleEntry(t *testing.T) {
	h := newHarness(t, "Mayor")
	p := h.openPaper()
	h.line("3 1 4")
	h.line("21")
	h.line("0")
	h.line("9") // refused: not a candidate
	if !strings.Contains(p.msg.Text, "9 is not a candidate number") || p.input.Text != "9" {
		t.Errorf("bad line: message %q, field %q", p.msg.Text, p.input.Text)
	}
	bs := h.ballots("Mayor")
	if len(bs) != 3 {
		t.Fatalf("stored %d ballots, want 3: %+v", len(bs), bs)
	}
	byRanking := map[string]app.Ballot{}
	for _, b := range bs {
		if b.Voter != "" || b.Source != app.SourcePaper || !b.Transcribed || !confirmationRE.MatchString(b.Confirmation) {
			t.Errorf("paper ballot stored as %+v", b)
		}
		byRanking[app.EncodeRankings(b.Rankings)] = b
	}
	for _, want := range []string{`[["Montroll"],["Kiss"],["Smith"]]`, `[["Wright"],["Kiss"]]`, `[]`} {
		b, ok := byRanking[want]
		if !ok {
			t.Errorf("no stored ballot ranks %s (have %v)", want, byRanking)
			continue
		}
		if !strings.Contains(strings.Join(p.rows, "\n"), b.Confirmation) {
			t.Errorf("the list does not show ballot id %s: %q", b.Confirmation, p.rows)
		}
	}
	h.key(fyne.KeyEscape)
	if h.k.screen != h.k.menu {
		t.Errorf("Escape from single entry: screen %T", h.k.screen)
	}
}

// TestPaperDoubleEntry: two passes over four ballots that differ on two;
// the official settles one with F2 and one by keying it again; the batch is
// recorded as settled.
func TestPaperDoubleEntry(t *testing.T) {
	h := newHarness(t, "Mayor")
	p := h.openPaper()
	h.key(fyne.KeyF6)
	if !p.double {
		t.Fatal("F6 did not switch to double entry")
	}
	for _, l := range []string{"1 2", "3", "4 1", "2"} {
		h.line(l)
	}
	h.line("7") // refused, stays in the field
	h.key(fyne.KeyBackspace)
	h.key(fyne.KeyF8) // undo removes "2"
	h.line("2")
	h.key(fyne.KeyF9)
	if p.step != keyingSecond || len(p.rows) != 0 {
		t.Fatalf("after the first pass: step %v, rows %q (the second operator must not see the first pass)", p.step, p.rows)
	}
	for _, l := range []string{"1 2", "2", "4 1", "2 3"} {
		h.line(l)
	}
	h.key(fyne.KeyF9)
	if p.step != adjudicating || len(p.mismatches) != 2 {
		t.Fatalf("compare: step %v, mismatches %+v", p.step, p.mismatches)
	}
	if !strings.Contains(p.stepText.Text, "First entry:  3") || !strings.Contains(p.stepText.Text, "Second entry: 2") {
		t.Errorf("mismatch shown as %q", p.stepText.Text)
	}
	h.key(fyne.KeyF2) // ballot 2: the second pass was right
	h.line("2 3 1")   // ballot 4: both wrong, keyed again
	if p.step != readyToSave {
		t.Fatalf("after settling: step %v", p.step)
	}
	if n := len(h.ballots("Mayor")); n != 0 {
		t.Fatalf("%d ballots stored before the batch is recorded", n)
	}
	h.key(fyne.KeyF9)
	got := map[string]int{}
	for _, b := range h.ballots("Mayor") {
		if !b.Transcribed || b.Source != app.SourcePaper {
			t.Errorf("stored %+v", b)
		}
		got[app.EncodeRankings(b.Rankings)]++
	}
	want := map[string]int{`[["Kiss"],["Wright"]]`: 1, `[["Wright"]]`: 1, `[["Smith"],["Kiss"]]`: 1, `[["Wright"],["Montroll"],["Kiss"]]`: 1}
	if len(got) != len(want) {
		t.Errorf("stored %v, want %v", got, want)
	}
	for r, n := range want {
		if got[r] != n {
			t.Errorf("stored %v, want %v", got, want)
		}
	}
	if p.step != keyingFirst || len(p.pass1) != 0 || !strings.Contains(p.msg.Text, "Recorded 4 ballots") {
		t.Errorf("after recording: step %v, message %q", p.step, p.msg.Text)
	}
}

func TestPaperLeavingAnUnrecordedBatchAsksTwice(t *testing.T) {
	h := newHarness(t, "Mayor")
	p := h.openPaper()
	h.key(fyne.KeyF6)
	h.line("1")
	h.key(fyne.KeyEscape)
	if h.k.screen != p || !strings.Contains(p.msg.Text, "Press Escape again") {
		t.Fatalf("first Escape: screen %T, %q", h.k.screen, p.msg.Text)
	}
	h.key(fyne.KeyEscape)
	if h.k.screen != h.k.menu || len(h.ballots("Mayor")) != 0 {
		t.Errorf("second Escape: screen %T", h.k.screen)
	}
}
