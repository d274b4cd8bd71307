package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// ResultsScreen counts an election and shows the result.
type ResultsScreen struct {
	s        *session
	name     string
	election app.Election
	content  fyne.CanvasObject
}

func newResultsScreen(s *session, name string) *ResultsScreen {
	return &ResultsScreen{s: s, name: name, content: widget.NewLabel("Results")}
}

func (sc *ResultsScreen) setElection(e app.Election) { sc.election = e }
func (sc *ResultsScreen) open()                      {}
func (sc *ResultsScreen) refresh()                   {}
