package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
)

// maxDetail is how much of an event's data the audit table keeps: an import
// batch of thousands of ballots is cut, the rest is whole.
const maxDetail = 400

// logRow is one event as the audit table shows it.
type logRow struct {
	seq     uint64
	when    string
	actor   string
	typ     string
	details string
	key     string // lower-cased text searched
}

// AuditScreen shows the event log as a searchable table: sequence, time,
// actor, type and details, redacted as app redacts it for the user's role.
type AuditScreen struct {
	s     *session
	rows  []logRow
	shown []int32

	Search  *modal.Entry
	Table   *grid
	Summary *widget.Label
	// Detail shows the selected event's details in full.
	Detail  *widget.Label
	content fyne.CanvasObject
}

func newAuditScreen(s *session) *AuditScreen {
	sc := &AuditScreen{s: s, Search: modal.NewEntry(), Summary: widget.NewLabel(""), Detail: widget.NewLabel("Select an event to read its details in full.")}
	sc.Detail.Wrapping = fyne.TextWrapWord
	sc.Search.SetPlaceHolder("Search the log: actor, type, election, anything in the details")
	sc.Search.OnChanged = func(string) { sc.filter() }
	sc.Table = newGrid([]column{
		{"Seq", 70, fyne.TextAlignTrailing},
		{"Time", 150, fyne.TextAlignLeading},
		{"Actor", 130, fyne.TextAlignLeading},
		{"Type", 190, fyne.TextAlignLeading},
		{"Details", 620, fyne.TextAlignLeading},
	}, func() int { return len(sc.shown) }, func(row, col int) string {
		r := sc.rows[sc.shown[row]]
		switch col {
		case 0:
			return strconv.FormatUint(r.seq, 10)
		case 1:
			return r.when
		case 2:
			return r.actor
		case 3:
			return r.typ
		}
		return r.details
	}, nil)
	sc.Table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(sc.shown) {
			r := sc.rows[sc.shown[id.Row]]
			sc.Detail.SetText(fmt.Sprintf("#%d  %s  %s  %s\n%s", r.seq, r.when, r.actor, r.typ, r.details))
		}
	}
	searchGoesTo(sc.Search, sc.Table, sc.Table)
	sc.content = container.NewBorder(container.NewVBox(title("Audit log"), container.NewBorder(nil, nil, nil, sc.Summary, sc.Search)),
		container.NewVBox(widget.NewSeparator(), sc.Detail), nil, nil, sc.Table)
	return sc
}

// refresh reads the whole log off the UI goroutine.
func (sc *AuditScreen) refresh() {
	load(sc.s, "Cannot read the audit log", func(ctx context.Context) ([]logRow, error) {
		var rows []logRow
		err := sc.s.svc.Log(ctx, sc.s.actor(), 0, func(ev *app.Event) error {
			d := detail(ev.Display())
			r := logRow{seq: ev.Seq, when: ev.When.Local().Format("2006-01-02 15:04:05"), actor: ev.Actor, typ: string(ev.Type), details: d}
			r.key = strings.ToLower(r.actor + "\t" + r.typ + "\t" + d)
			rows = append(rows, r)
			return nil
		})
		return rows, err
	}, func(rows []logRow) {
		sc.rows = rows
		sc.filter()
	})
}

// detail shows event data compactly: the JSON without its outer braces and
// quotes around keys, cut to maxDetail characters.
func detail(data []byte) string {
	s := string(data)
	if len(s) > maxDetail {
		n := maxDetail
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + fmt.Sprintf("… (%s bytes)", fmtCount(len(data)))
	}
	s = strings.TrimPrefix(s, "{")
	s = strings.TrimSuffix(s, "}")
	return strings.NewReplacer(`":`, `: `, `,"`, `, `, `{"`, `{`).Replace(strings.TrimPrefix(s, `"`))
}

// filter shows the events whose text contains the search text, newest
// first.
func (sc *AuditScreen) filter() {
	q := strings.ToLower(strings.TrimSpace(sc.Search.Text))
	shown := make([]int32, 0, len(sc.rows))
	for i := len(sc.rows) - 1; i >= 0; i-- {
		if q == "" || strings.Contains(sc.rows[i].key, q) || strconv.FormatUint(sc.rows[i].seq, 10) == q {
			shown = append(shown, int32(i))
		}
	}
	sc.shown = shown
	sc.Table.Refresh()
	sc.Table.ScrollToTop()
	sc.Summary.SetText(fmt.Sprintf("%s of %s", fmtCount(len(shown)), plural(len(sc.rows), "event", "events")))
}
