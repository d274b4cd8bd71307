package ui

import (
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"votedesk/app"
	"votedesk/tally/report"
)

// header is the descriptive part of an exported report.
func (sc *ResultsScreen) header() report.Header {
	c := sc.count
	return report.Header{GeneratedBy: "VoteDesk", Contest: c.Election.Name, Date: sc.s.svc.Now().Local().Format("2006-01-02")}
}

// Export writes the result shown: RCTab's detailed report as JSON (or, for
// methods without rounds, the ranking and matrices as JSON), or RCTab's
// detailed CSV report of each pass.
func (sc *ResultsScreen) Export(w io.Writer, format string) error {
	c := sc.count
	if c == nil {
		return app.Errorf(app.CodeInvalid, "count the election first")
	}
	if format == "json" {
		return report.EncodeJSON(w, sc.header(), c.Contest, c.Rules, c.Result)
	}
	if len(c.Result.Passes) == 0 {
		return app.Errorf(app.CodeInvalid, "RCTab's CSV report is for ranked-choice counts (IRV, STV); export %s as JSON", methodLabel(c.Method))
	}
	rules := c.Rules
	if len(c.Result.Passes) > 1 {
		rules.NumberOfWinners = 1
	}
	for i, p := range c.Result.Passes {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := report.WriteDetailedCSV(w, report.RCTab{Header: sc.header(), Contest: c.Contest, Rules: rules, Pass: p}); err != nil {
			return err
		}
	}
	return nil
}

// export asks where to save and writes the report there.
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
		err = sc.Export(wc, format)
		if cerr := wc.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			sc.s.fail("Cannot export", err)
			return
		}
		dialog.ShowInformation("Exported", fmt.Sprintf("The results of %q were written to %s.", sc.name, wc.URI().Path()), sc.s.win)
	}, sc.s.win)
	d.SetFileName(fmt.Sprintf("%s_detailed_report.%s", fileSafe(sc.name), format))
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
