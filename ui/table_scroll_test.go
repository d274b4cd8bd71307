package ui

import (
	"fmt"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestGridScrollsToARowOfAMillion: a grid scrolled to a row shows that row,
// however far down (a ballot found among a million was shown 7,469 rows
// from where it is, Table.ScrollTo adding row heights up in float32).
func TestGridScrollsToARowOfAMillion(t *testing.T) {
	test.NewTempApp(t)
	g := newGrid([]column{{Title: "Ballot", Width: 300}}, func() int { return 1_000_000 },
		func(row, _ int) string { return fmt.Sprintf("ballot %d", row+1) }, nil)
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 400))
	for _, row := range []int{0, 7, 777_777, 999_999, 3} {
		g.scrollToRow(row)
		if shown := texts(g); !slices.Contains(shown, fmt.Sprintf("ballot %d", row+1)) {
			t.Errorf("scrolled to row %d, the grid shows %q", row, shown)
		}
	}
}
