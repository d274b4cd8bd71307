package ui

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"votedesk/tally"
	"votedesk/ui/modal"
)

// A tie the rules leave to a person (tiebreakMode stopCountingAndAsk, or
// previousRoundCountsThenAsk when earlier rounds do not settle it) is put to
// the official without blocking the count's goroutine on the screen: the
// count runs with the decisions made so far, and when it meets a tie nobody
// has decided yet it stops and says which. The official chooses, and the
// count runs again from the start with that decision too. A count is
// deterministic, so it meets the same ties in the same order each time.

// tieAsked stops a count at a tie no decision covers yet.
type tieAsked struct{ tie tally.Tie }

func (e *tieAsked) Error() string { return "a tie needs an official's decision" }

// decisions answers a count's ties from the choices made so far.
type decisions struct {
	chosen []int
	next   int
}

// DecideTie returns the next decision made, or stops the count to ask.
func (d *decisions) DecideTie(t tally.Tie) (int, error) {
	if d.next < len(d.chosen) {
		c := d.chosen[d.next]
		d.next++
		return c, nil
	}
	return 0, &tieAsked{tie: t}
}

// askedTie returns the tie a count stopped at, if it stopped at one.
func askedTie(err error) (tally.Tie, bool) {
	var ta *tieAsked
	if errors.As(err, &ta) {
		return ta.tie, true
	}
	return tally.Tie{}, false
}

// askTie shows the tie and, once the official has chosen, counts again with
// that decision; cancelling leaves the count undone.
func (sc *ResultsScreen) askTie(t tally.Tie, names []string) {
	sc.TieChoice = modal.NewSelect(nil, nil)
	sc.TieChoice.PlaceHolder = "(choose the candidate)"
	for _, c := range t.Tied {
		sc.TieChoice.Options = append(sc.TieChoice.Options, names[c])
	}
	what := "is eliminated"
	if t.SelectingWinner {
		what = "wins"
	}
	tied := make([]string, len(t.Tied))
	for i, c := range t.Tied {
		tied[i] = names[c]
	}
	msg := widget.NewLabel(fmt.Sprintf("Round %d: %s are tied with %s votes each. The counting rules leave the choice to an official: choose the candidate who %s, as election law prescribes (for example by lot).",
		t.Round, strings.Join(tied, ", "), t.Votes, what))
	msg.Wrapping = fyne.TextWrapWord
	items := []*widget.FormItem{widget.NewFormItem("", msg), widget.NewFormItem("Candidate", sc.TieChoice)}
	sc.tieDialog = modal.NewFormDialog("A tie to decide", "Count on", "Cancel", items, func(ok bool) {
		sc.tieDialog = nil
		if !ok || sc.TieChoice.Selected == "" {
			sc.Status.SetText("The count stopped at a tie in round " + fmt.Sprint(t.Round) + " that needs an official's decision.")
			return
		}
		for _, c := range t.Tied {
			if names[c] == sc.TieChoice.Selected {
				sc.tieChoices = append(sc.tieChoices, c)
			}
		}
		sc.count1(false, true)
	}, sc.s.win)
	modal.Show(sc.s.win, sc.tieDialog, nil)
}
