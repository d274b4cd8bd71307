package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
)

// The pairwise tab: the preference matrix (row's votes over column's) and
// the strongest paths (Schulze) or the same matrix as margins, with the
// Smith and Schwartz sets. Row and column 0 are the candidate names.

func (sc *ResultsScreen) pairwiseRows() int {
	if sc.count == nil || sc.count.Result.Pairwise == nil {
		return 0
	}
	return len(sc.count.Result.Pairwise.Candidates)
}

// pairName is the name of the candidate at matrix position i.
func (sc *ResultsScreen) pairName(i int) string {
	p := sc.count.Result.Pairwise
	return sc.count.Contest.Candidates[p.Candidates[i]].Name
}

func (sc *ResultsScreen) prefCell(row, col int) string {
	if col == 0 {
		return sc.pairName(row)
	}
	if row == col-1 {
		return "—"
	}
	return fmtCount(sc.count.Result.Pairwise.Preferences[row][col-1])
}

func (sc *ResultsScreen) prefBold(row, col int) bool {
	if col == 0 || row == col-1 {
		return col == 0
	}
	p := sc.count.Result.Pairwise.Preferences
	return p[row][col-1] > p[col-1][row]
}

func (sc *ResultsScreen) pathCell(row, col int) string {
	if col == 0 {
		return sc.pairName(row)
	}
	if row == col-1 {
		return "—"
	}
	p := sc.count.Result.Pairwise
	switch {
	case p.StrongestPaths != nil:
		return fmtCount(p.StrongestPaths[row][col-1])
	default:
		return strconv.FormatInt(p.Preferences[row][col-1]-p.Preferences[col-1][row], 10)
	}
}

// showPairwise sets the matrices' columns and the sets, and refreshes once.
func (sc *ResultsScreen) showPairwise() {
	n := sc.pairwiseRows()
	var cols []column
	if n > 0 {
		cols = append(cols, column{"", 170, fyne.TextAlignLeading})
		for i := range n {
			cols = append(cols, column{sc.pairName(i), 130, fyne.TextAlignTrailing})
		}
	}
	sc.Preferences.setColumns(cols)
	sc.Paths.setColumns(cols)
	sc.Preferences.Refresh()
	sc.Paths.Refresh()
	sc.Sets.SetText("")
	if n == 0 {
		// No empty grey grids: the tab's note says which methods have
		// matrices.
		sc.PathsTitle.SetText("")
		sc.pairwise.Hide()
		return
	}
	sc.pairwise.Show()
	p := sc.count.Result.Pairwise
	if p.StrongestPaths != nil {
		// The same matrix under the same name as the command line and the
		// HTML report (the JSON's strongestPaths).
		sc.PathsTitle.SetText("Strongest paths: the strength of the strongest chain of head-to-head preferences from row to column")
	} else {
		sc.PathsTitle.SetText("Margins: row's votes over column's minus column's over row's")
	}
	setNames := func(pos []int) string {
		out := make([]string, len(pos))
		for i, x := range pos {
			out[i] = sc.pairName(x)
		}
		return strings.Join(out, ", ")
	}
	text := fmt.Sprintf("Smith set: %s\nSchwartz set: %s", setNames(p.Smith), setNames(p.Schwartz))
	if p.BestScore != 0 {
		text += fmt.Sprintf("\nBest Kemeny-Young score: %s", fmtCount(p.BestScore))
	}
	sc.Sets.SetText(text)
}
