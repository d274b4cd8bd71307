package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// bigBallotList is the size from which the ballots tab asks before loading.
const bigBallotList = 200000

// ballotNote says what the ballots tab shows for this user and election.
func (sc *ResultsScreen) ballotNote() string {
	e := sc.election
	text := fmt.Sprintf("%s. ", plural(e.Ballots, "ballot", "ballots"))
	switch {
	case e.Secret && !sc.s.can(app.PermViewSecrets):
		text += "Secret ballot: for your role the list shows no voter names or times, ordered by confirmation code, so nothing links a voter to a ranking."
	case e.Secret:
		text += "Secret ballot: as " + sc.s.user.Role.String() + " you see voter names; roles below AUDITOR do not."
	}
	if e.Ballots > bigBallotList {
		text += " The list is long and takes a while to load."
	}
	return text
}

// loadBallots reads the ballots off the UI goroutine, as app shows them to
// this user.
func (sc *ResultsScreen) loadBallots() {
	sc.LoadBallots.Disable()
	load(sc.s, "Cannot list the ballots", func(ctx context.Context) ([]app.Ballot, error) {
		return sc.s.svc.Ballots(ctx, sc.s.actor(), sc.name)
	}, func(bs []app.Ballot) {
		sc.ballots = bs
		sc.BallotList.Refresh()
		sc.LoadBallots.Enable()
	})
}

// findCode selects the listed ballot whose confirmation code is typed (in
// any case, with or without dashes, O for 0 and I or L for 1), and says
// whether there is one.
func (sc *ResultsScreen) findCode(typed string) {
	code, ok := app.ParseConfirmation(typed)
	switch {
	case !ok:
		sc.Found.SetText(fmt.Sprintf("%q is not a confirmation code (like K3QZ-8WPM-T2VD)", strings.TrimSpace(typed)))
		return
	case sc.ballots == nil:
		sc.Found.SetText("Show the ballots first")
		return
	}
	for i, b := range sc.ballots {
		if strings.EqualFold(b.Confirmation, code) {
			sc.BallotList.Select(widget.TableCellID{Row: i, Col: 0})
			sc.BallotList.ScrollTo(widget.TableCellID{Row: i, Col: 0})
			sc.Found.SetText(fmt.Sprintf("%s is ballot %s of %s", code, fmtCount(i+1), fmtCount(len(sc.ballots))))
			return
		}
	}
	sc.BallotList.UnselectAll()
	sc.Found.SetText(fmt.Sprintf("No ballot with the code %s", code))
}

func (sc *ResultsScreen) ballotCell(row, col int) string {
	b := sc.ballots[row]
	switch col {
	case 0:
		return b.Confirmation
	case 1:
		if b.Voter == "" && sc.election.Secret && !sc.s.can(app.PermViewSecrets) {
			return "(secret)"
		}
		return orDash(b.Voter)
	case 2:
		return fmtTime(b.WhenCast)
	}
	return rankingText(b.Rankings)
}

// rankingText writes rankings in order: "1 Ann, 2 Bob = Cid".
func rankingText(r []app.Ranking) string {
	var b strings.Builder
	for i, x := range r {
		switch {
		case i == 0:
			fmt.Fprintf(&b, "%d %s", x.Rank, x.Label())
		case x.Rank == r[i-1].Rank:
			fmt.Fprintf(&b, " = %s", x.Label())
		default:
			fmt.Fprintf(&b, ", %d %s", x.Rank, x.Label())
		}
	}
	if b.Len() == 0 {
		return "(blank)"
	}
	return b.String()
}
