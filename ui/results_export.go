package ui

import (
	"context"
	"fmt"
	"io"
	"strings"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally"
	"votedesk/ui/modal"
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
	for _, s := range tally.Settings(c.Rules) {
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
	name := "detailed_report"
	if format == dataio.ResultsHTML {
		name = "results"
	}
	askSavePath(sc.s, prefLastFolder, "Export results", fmt.Sprintf("%s_%s.%s", fileSafe(sc.name), name, format), true, func(path string) {
		sc.Save(path, format)
	})
}

// Save writes the result shown to path in format, off the UI goroutine,
// through the one guarded writer: a database, a folder or a link is
// refused and nothing is changed.
func (sc *ResultsScreen) Save(path, format string) {
	sc.s.do("Cannot export", func(context.Context) error {
		return dataio.WriteFileAtomic(path, 0o644, func(w io.Writer) error { return sc.Export(w, format) })
	}, func() {
		modal.ShowInformation("Exported", fmt.Sprintf("The results of %q were written to %s.", sc.name, path), sc.s.win)
	})
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
