package ui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/rctab"
)

// Export writes the result shown, as the command line's `export results`
// does (app/dataio): RCTab's detailed report as JSON (for methods without
// rounds, the ranking and matrices), RCTab's detailed CSV report, or the
// self-contained HTML report with the digests of its inputs and the log
// head it was counted at. It counts again with the method and rules shown,
// so the report states exactly what it was computed from.
func (sc *ResultsScreen) Export(w io.Writer, format string) error {
	c := sc.count
	if c == nil {
		return app.Errorf(app.CodeInvalid, "count the election first")
	}
	rules := map[string]string{}
	for _, s := range rctab.Settings(c.Rules) {
		rules[s.Name] = s.Value
	}
	_, err := dataio.ExportResults(sc.s.ctx(), sc.s.svc, sc.s.actor(), sc.name, string(c.Method), rules, format, w)
	return err
}

// export asks where to save, then writes the report off the UI goroutine.
func (sc *ResultsScreen) export(format string) {
	if sc.count == nil {
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			sc.s.fail("Cannot export", err)
			return
		}
		if wc == nil {
			return
		}
		var buf bytes.Buffer
		sc.s.do("Cannot export", func(context.Context) error {
			err := sc.Export(&buf, format)
			if err == nil {
				_, err = wc.Write(buf.Bytes())
			}
			if cerr := wc.Close(); err == nil {
				err = cerr
			}
			return err
		}, func() {
			dialog.ShowInformation("Exported", fmt.Sprintf("The results of %q were written to %s.", sc.name, wc.URI().Path()), sc.s.win)
		})
	}, sc.s.win)
	name := "detailed_report"
	if format == dataio.ResultsHTML {
		name = "results"
	}
	d.SetFileName(fmt.Sprintf("%s_%s.%s", fileSafe(sc.name), name, format))
	d.SetFilter(storage.NewExtensionFileFilter([]string{"." + format}))
	d.Show()
}

// fileSafe turns a name into a file name.
func fileSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>| `, r) {
			return '_'
		}
		return r
	}, name)
}
