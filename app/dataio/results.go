package dataio

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/cvr"
	"votedesk/tally/report"
)

// The results export formats.
const (
	ResultsJSON = "json" // RCTab's detailed_report.json, or the ranking JSON of methods without rounds
	ResultsCSV  = "csv"  // RCTab's detailed_report.csv (ranked-choice methods)
	ResultsHTML = "html" // a self-contained report for people (report.WriteHTML)
	ResultsPDF  = "pdf"  // refused: see NoPDF
)

// GeneratedBy names VoteDesk in the reports it writes.
const GeneratedBy = "VoteDesk"

// NoPDF is why results are not written as PDF.
const NoPDF = "VoteDesk does not write PDF: no well-kept pure-Go PDF library does a report like this well " +
	"(go-pdf/fpdf, the maintained gofpdf, was archived in 2025; what remains only draws at coordinates). " +
	"Export --format html and print it to PDF from a browser: the report has a print layout for A4 and Letter"

// Results is a count of an election made for a report: the count, the
// digests of what it was computed from, and when.
type Results struct {
	app.Count
	// RuleText is the method and every rule as "name=value" lines
	// (report.RuleText), and RulesSHA256 its SHA-256.
	RuleText    string
	RulesSHA256 string
	// BallotsSHA256 is the SHA-256 of the ballots counted, as ExportBallots
	// writes them in VoteDesk CSV at the same log position.
	BallotsSHA256 string
}

// CountResults counts an election for a report: method and rules override
// the election's own ("" and nil keep them). The ballots are hashed as
// ExportBallots writes them in CSV, read at the same log position as the
// count (it reads again if the log moved in between).
func CountResults(ctx context.Context, svc *app.Service, actor, election, method string, rules map[string]string) (*Results, error) {
	for try := 0; ; try++ {
		seq, _, err := svc.LogHead(ctx, actor)
		if err != nil {
			return nil, err
		}
		names, set, err := ElectionBallots(ctx, svc, actor, election)
		if err != nil {
			return nil, err
		}
		counted, _, err := svc.CountStored(ctx, actor, election, method, rules, nil)
		if err != nil {
			return nil, err
		}
		if counted.HeadSeq != seq && try < 3 {
			continue
		}
		if counted.HeadSeq != seq {
			return nil, app.Errorf(app.CodeUnavailable, "election %q keeps changing while it is counted; try again when it is quiet", election)
		}
		h := sha256.New()
		if err := cvr.WriteVoteDesk(h, names, set); err != nil {
			return nil, &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
		}
		r := &Results{Count: counted, BallotsSHA256: hex.EncodeToString(h.Sum(nil))}
		var settings [][2]string
		for _, s := range tally.Settings(counted.Rules) {
			settings = append(settings, [2]string{s.Name, s.Value})
		}
		r.RuleText = report.RuleText(counted.Method, settings)
		sum := sha256.Sum256([]byte(r.RuleText))
		r.RulesSHA256 = hex.EncodeToString(sum[:])
		return r, nil
	}
}

// header is the descriptive part of the RCTab reports, with the count's
// standing.
func (r *Results) header() report.Header {
	return report.Header{GeneratedBy: GeneratedBy, Contest: r.Election.Name, Status: r.Standing.String()}
}

// Write writes the results in a format: ResultsJSON, ResultsCSV (refused
// for methods without rounds), or ResultsHTML; ResultsPDF is refused with
// NoPDF.
func (r *Results) Write(w io.Writer, format string, svc *app.Service) error {
	switch format {
	case ResultsJSON:
		return report.EncodeJSON(w, r.header(), r.Contest, r.Rules, r.Result)
	case ResultsCSV:
		return r.writeCSV(w)
	case ResultsHTML:
		return report.WriteHTML(w, r.html(svc))
	case ResultsPDF:
		return app.Errorf(app.CodeInvalid, "%s", NoPDF)
	}
	return app.Errorf(app.CodeInvalid, "results are exported as json, csv or html, not %q", format)
}

// writeCSV writes RCTab's detailed CSV report, one after another for the
// passes of a multi-pass count.
func (r *Results) writeCSV(w io.Writer) error {
	if len(r.Result.Passes) == 0 {
		return app.Errorf(app.CodeInvalid, "RCTab's CSV report is for ranked-choice counts (irv, stv); export %s results as json or html", r.Method)
	}
	rules := r.Rules
	if len(r.Result.Passes) > 1 {
		rules.NumberOfWinners = 1
	}
	for i, p := range r.Result.Passes {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := report.WriteDetailedCSV(w, report.RCTab{Header: r.header(), Contest: r.Contest, Rules: rules, Pass: p}); err != nil {
			return err
		}
	}
	return nil
}

// html is the results as the HTML report shows them.
func (r *Results) html(svc *app.Service) report.HTML {
	e := r.Election
	h := report.HTML{
		Header:       r.header(),
		Description:  e.Description,
		Generated:    svc.Now(),
		Contest:      r.Contest,
		Rules:        r.Rules,
		Result:       r.Result,
		Ballots:      r.Ballots.Total(),
		RuleSettings: r.RuleText,
		LogSeq:       r.HeadSeq,
		LogHash:      r.HeadHash,
		Inputs: []report.Input{
			{Name: "Ballots", SHA256: r.BallotsSHA256,
				Detail:  fmt.Sprintf("of the ballots as this command writes them at event %d:", r.HeadSeq),
				Command: fmt.Sprintf("votedesk export ballots %s --format csv --output FILE", quoteArg(e.Name))},
			{Name: "Counting rules", SHA256: r.RulesSHA256, Detail: "of the method and rules exactly as listed below, one name=value per line"},
		},
	}
	if !r.Standing.Final {
		// The banner says it as the app and the command line do.
		h.StandingLabel = r.Standing.Label[:1] + strings.ToLower(r.Standing.Label[1:])
		h.Preliminary = r.Standing.Detail
	}
	return h
}

// quoteArg quotes a command-line argument for a shell when it needs it.
func quoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?&;|<>()[]{}#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ExportResults counts an election (CountResults) and writes the results in
// a format (Results.Write).
func ExportResults(ctx context.Context, svc *app.Service, actor, election, method string, rules map[string]string, format string, w io.Writer) (*Results, error) {
	switch format {
	case ResultsJSON, ResultsCSV, ResultsHTML:
	case ResultsPDF:
		return nil, app.Errorf(app.CodeInvalid, "%s", NoPDF)
	default:
		return nil, app.Errorf(app.CodeInvalid, "results are exported as json, csv or html, not %q", format)
	}
	r, err := CountResults(ctx, svc, actor, election, method, rules)
	if err != nil {
		return nil, err
	}
	return r, r.Write(w, format, svc)
}
