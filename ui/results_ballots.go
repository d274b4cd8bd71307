package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/offui"
)

// bigBallotList is the size from which the ballots tab says that listing
// takes a while: a million ballots are listed in about a second.
const bigBallotList = 2_000_000

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
		text += " The list is long and takes a few seconds to load."
	}
	return text
}

// ballotPages is the ballots tab's list: which ballots, in order
// (app.BallotList), and the pages of them read so far. A page is read off
// the UI goroutine when a row of it is first shown: a million ballots
// were listed whole in 8 s and 1.2 GB, and now the list opens in about a
// second and holds a few pages.
type ballotPages struct {
	list  *app.BallotList
	pages map[int][]app.Ballot // page number -> its ballots
	asked map[int]bool         // pages being read
}

// ballotPage is how many ballots a page holds; keptPages how many pages
// the list keeps (the screen shows a few dozen rows).
const (
	ballotPage = 256
	keptPages  = 64
)

// Len is how many ballots the list holds (none before it is shown).
func (p *ballotPages) Len() int {
	if p.list == nil {
		return 0
	}
	return p.list.Len()
}

// loadBallots lists the ballots off the UI goroutine, as app shows them to
// this user, with their first page.
func (sc *ResultsScreen) loadBallots() {
	sc.LoadBallots.Disable()
	type listed struct {
		list  *app.BallotList
		first []app.Ballot
	}
	load(sc.s, "Cannot list the ballots", func(ctx context.Context) (listed, error) {
		l, err := sc.s.svc.ListBallots(ctx, sc.s.actor(), sc.name)
		if err != nil {
			return listed{}, err
		}
		first, err := l.Rows(ctx, 0, ballotPage)
		return listed{l, first}, err
	}, func(v listed) {
		sc.ballots = ballotPages{list: v.list, pages: map[int][]app.Ballot{0: v.first}, asked: map[int]bool{}}
		sc.BallotList.Refresh()
		sc.LoadBallots.Enable()
	})
}

// ballotRow returns ballot row of the list, or false while its page is
// being read (and starts reading it).
func (sc *ResultsScreen) ballotRow(row int) (app.Ballot, bool) {
	p := &sc.ballots
	n := row / ballotPage
	if page, ok := p.pages[n]; ok {
		if i := row % ballotPage; i < len(page) {
			return page[i], true
		}
		return app.Ballot{}, false
	}
	if p.list == nil || p.asked[n] {
		return app.Ballot{}, false
	}
	p.asked[n] = true
	list := p.list
	offui.Run(sc.s.tasks, func() ([]app.Ballot, error) {
		return list.Rows(sc.s.ctx(), n*ballotPage, (n+1)*ballotPage)
	}, func(page []app.Ballot, err error) {
		if p.list != list {
			return // listed again since
		}
		if err != nil {
			// The list no longer holds (the ballots or the rule
			// changed): it is listed again on request.
			sc.ballots = ballotPages{}
			sc.BallotList.Refresh()
			sc.s.fail("Cannot list the ballots", err)
			return
		}
		delete(p.asked, n)
		if len(p.pages) >= keptPages {
			for k := range p.pages {
				if k != n {
					delete(p.pages, k)
					break
				}
			}
		}
		p.pages[n] = page
		sc.BallotList.Refresh()
	})
	return app.Ballot{}, false
}

// findCode selects the listed ballot whose confirmation code is typed (in
// any case, with or without dashes, O for 0 and I or L for 1), or, for
// imported ballots, whose source id (the cast vote record's id, printed on
// its paper) is, and says whether there is one.
func (sc *ResultsScreen) findCode(typed string) {
	typed = strings.TrimSpace(typed)
	l := sc.ballots.list
	switch {
	case typed == "":
		return
	case l == nil:
		sc.Found.SetText("Show the ballots first")
		return
	}
	if code, ok := app.ParseConfirmation(typed); ok {
		if i := l.Find(code); i >= 0 {
			sc.showFound(i, fmt.Sprintf("%s is ballot %s of %s", l.Code(i), fmtCount(i+1), fmtCount(l.Len())))
			return
		}
	}
	// A source id is looked for among the stored ballots, off the UI
	// goroutine.
	sc.Found.SetText(fmt.Sprintf("Looking for source id %q…", typed))
	offui.Run(sc.s.tasks, func() (int, error) {
		return l.FindSource(sc.s.ctx(), typed)
	}, func(i int, err error) {
		switch {
		case sc.ballots.list != l:
			return // listed again since
		case app.ErrorCode(err) == app.CodeForbidden:
			sc.Found.SetText(fmt.Sprintf("No ballot with the code %q (%s)", typed, app.ErrorMessage(err)))
		case err != nil:
			sc.Found.SetText(app.ErrorMessage(err))
		case i < 0:
			sc.BallotList.UnselectAll()
			sc.Found.SetText(fmt.Sprintf("No ballot with the code or source id %q (a code looks like K3QZ-8WPM-T2VD)", typed))
		default:
			sc.showFound(i, fmt.Sprintf("%s is ballot %s of %s, source id %q", l.Code(i), fmtCount(i+1), fmtCount(l.Len()), typed))
		}
	})
}

// showFound selects row i of the ballot list, scrolled to, and says what
// was found.
func (sc *ResultsScreen) showFound(i int, what string) {
	sc.BallotList.Select(widget.TableCellID{Row: i, Col: 0})
	sc.BallotList.scrollToRow(i)
	sc.Found.SetText(what)
}

func (sc *ResultsScreen) ballotCell(row, col int) string {
	b, ok := sc.ballotRow(row)
	if !ok {
		return "…"
	}
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
