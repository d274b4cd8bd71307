package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
)

// TestTieDecidedByOfficial counts an election whose last place is tied
// under tiebreakMode stopCountingAndAsk: the screen asks which candidate is
// eliminated, and the count goes on with that decision.
func TestTieDecidedByOfficial(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Tied", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Tied", "Ann", "Bob", "Cid", "Dee"))
	for _, v := range []string{"v1", "v2", "v3", "v4", "v5", "v6"} {
		h.must(h.svc.AddVoters(h.ctx, "Olivia", "Tied", app.VoterEntry{Name: v}))
	}
	h.must(h.svc.LaunchElection(h.ctx, "Olivia", "Tied"))
	// No majority in round 1, and Bob and Cid tie for last with one vote each.
	for voter, r := range map[string][]string{"v1": {"Ann"}, "v2": {"Ann"}, "v3": {"Bob", "Ann"}, "v4": {"Cid", "Dee"}, "v5": {"Dee"}, "v6": {"Dee"}} {
		var rs []app.Ranking
		for i, c := range r {
			rs = append(rs, app.Ranking{Candidate: c, Rank: i + 1})
		}
		_, err := h.svc.CastBallot(h.ctx, "Olivia", app.Cast{Election: "Tied", Voter: voter, Rankings: rs})
		h.must(err)
	}
	h.signIn("Olivia")
	h.sh.OpenElection("Tied", tabResults)
	h.wait()
	r := h.sh.Election.Results
	r.Rules.Set(map[string]string{"tiebreakMode": "stopCountingAndAsk"})
	test.Tap(r.Count)
	h.wait()
	if c := h.win.Canvas().Focused(); r.TieChoice != nil && c != r.TieChoice {
		t.Errorf("the tie to decide: focus on %T, want the list of the tied", c)
	}
	if r.TieChoice == nil || len(r.TieChoice.Options) != 2 {
		t.Fatalf("no tie was asked (status %q, dialog %q)", r.Status.Text, h.dialogText())
	}
	h.assertDialog("A tie to decide", "Bob, Cid are tied with 1 votes each", "is eliminated")
	r.TieChoice.SetSelected("Cid")
	h.tapDialogButton("Count on")
	h.wait()
	// Cid's vote goes to Dee, Bob's to Ann: Ann and Dee then tie at 3 of 6,
	// and the rules leave the winner to the official.
	h.assertDialog("A tie to decide", "Round 3: Ann, Dee are tied with 3 votes each", "choose the candidate who wins")
	r.TieChoice.SetSelected("Ann")
	h.tapDialogButton("Count on")
	h.wait()
	if r.count == nil || len(r.count.Result.TieBreaks) != 2 {
		t.Fatalf("the count did not go on after the decisions: %q", r.Status.Text)
	}
	for i, want := range []int{2, 0} {
		tb := r.count.Result.TieBreaks[i]
		if tb.Chosen != want || tb.Explanation != "The selected candidate was supplied by the operator." {
			t.Errorf("tie break %d = %+v, want candidate %d chosen by the operator", i+1, tb, want)
		}
	}
	if w := r.count.Result.Winners; len(w) != 1 || w[0] != 0 {
		t.Errorf("winners %v, want Ann", w)
	}
	// The results say under the winner how each tie was broken.
	if !r.Ties.Visible() || !strings.Contains(r.Ties.Text, "Round 3: Ann and Dee tied; Ann elected (The selected candidate was supplied by the operator.).") ||
		strings.Count(r.Ties.Text, "\n") != 1 {
		t.Errorf("the tie-breaks under the banner: shown %v, %q", r.Ties.Visible(), r.Ties.Text)
	}
	t.Run("CancelLeavesNoCount", func(t *testing.T) {
		test.Tap(r.Count)
		h.wait()
		h.tapDialogButton("Cancel")
		h.wait()
		if r.tieDialog != nil {
			t.Error("the tie dialog stayed open")
		}
	})
}
