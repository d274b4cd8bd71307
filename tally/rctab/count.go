package rctab

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf16"

	"votedesk/tally"
	"votedesk/tally/report"
)

// noPrecinct and noBatch are the slices RCTab reports ballots without a
// precinct or a batch under.
const (
	noPrecinct = "no precinct id"
	noBatch    = "no batch id"
)

// Count is a finished count of a config's contest, ready to be written.
type Count struct {
	Config  *Config
	Contest tally.Contest
	Rules   tally.Rules
	Ballots *tally.BallotSet
	Result  tally.Result
	// auditWritten is set when the audit log was streamed while counting.
	auditWritten bool
	// cdf follows each ballot through the rounds for the CDF export
	// (generateCdfJson), when it was asked for.
	cdf *cdfTracker
	// written is the ballots as their files wrote them, for the CDF export;
	// nil means the counted ballots, named by the contest's candidates.
	written *asWritten
}

// Count tabulates the config's contest from its ballots: IRV for the
// single-winner modes and multi-pass IRV, STV for the multi-seat ones. It
// keeps the audit trail and, when tabulateByPrecinct is set, the rounds of
// each precinct.
func (c *Config) Count(contest tally.Contest, ballots *tally.BallotSet, rules tally.Rules, d tally.Decider) (*Count, error) {
	return c.count(contest, ballots, rules, d, tally.WithAudit())
}

// countStreaming is Count that writes the audit log into dir as it counts,
// so a count of millions of ballots never holds its audit trail in memory.
func (c *Config) countStreaming(contest tally.Contest, ballots *tally.BallotSet, rules tally.Rules, d tally.Decider, dir string) (*Count, error) {
	w, finish, err := createHashed(dir, "audit.log")
	if err != nil {
		return nil, err
	}
	aw := report.NewAuditWriter(w, contest, ballots, rules.WinnerElectionMode == tally.MultiPassIRV)
	sink := aw.Round
	var cdf *cdfTracker
	if c.OutputSettings.GenerateCdfJSON {
		cdf = &cdfTracker{n: ballots.Len()}
		sink = func(pass int, entries []tally.AuditEntry, values []tally.Decimal) error {
			if err := aw.Round(pass, entries, values); err != nil {
				return err
			}
			return cdf.Round(pass, entries, values)
		}
	}
	ct, err := c.count(contest, ballots, rules, d, tally.WithAuditSink(sink))
	if err == nil {
		err = aw.Flush()
	}
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	ct.auditWritten = true
	ct.cdf = cdf
	return ct, nil
}

func (c *Config) count(contest tally.Contest, ballots *tally.BallotSet, rules tally.Rules, d tally.Decider, audit tally.Option) (*Count, error) {
	method := tally.IRV
	if rules.NumberOfWinners > 1 && rules.WinnerElectionMode != tally.MultiPassIRV {
		method = tally.STV
	}
	opts := []tally.Option{audit, tally.WithDecider(d)}
	if c.OutputSettings.TabulateByPrecinct {
		g, err := grouping(ballots.Precincts, ballots.Len(), "Precinct", noPrecinct, "tabulateByPrecinct", "precincts")
		if err != nil {
			return nil, err
		}
		opts = append(opts, tally.WithGroups(g))
	}
	if c.OutputSettings.TabulateByBatch {
		g, err := grouping(ballots.Batches, ballots.Len(), "Batch", noBatch, "tabulateByBatch", "batches")
		if err != nil {
			return nil, err
		}
		opts = append(opts, tally.WithGroups(g))
	}
	res, err := tally.Tabulate(contest, ballots, method, rules, opts...)
	if err != nil {
		return nil, err
	}
	return &Count{Config: c, Contest: contest, Rules: rules, Ballots: ballots, Result: res}, nil
}

// grouping groups ballots by a column (precinct or batch), as RCTab's
// tabulate by precinct and by batch do; a ballot without a value is in the
// group named missing.
func grouping(values []string, n int, name, missing, setting, plural string) (tally.Grouping, error) {
	if values == nil {
		return tally.Grouping{}, errorf("outputSettings.%s is set but the CVRs list no %s", setting, plural)
	}
	g := tally.Grouping{Name: name, Of: make([]uint32, n)}
	index := map[string]uint32{}
	for i := range g.Of {
		p := strings.TrimSpace(values[i])
		if p == "" {
			p = missing
		}
		k, ok := index[p]
		if !ok {
			k = uint32(len(g.Names))
			index[p] = k
			g.Names = append(g.Names, p)
		}
		g.Of[i] = k
	}
	return g, nil
}

// write puts every report file into dir, each with a .sha256 beside it.
func (ct *Count) write(dir, generatedBy, status string) error {
	o := ct.Config.OutputSettings
	header := report.Header{GeneratedBy: generatedBy, Contest: o.ContestName, Jurisdiction: o.ContestJurisdiction,
		Office: o.ContestOffice, Date: o.ContestDate, Status: status}
	rules := ct.Rules
	multi := rules.WinnerElectionMode == tally.MultiPassIRV
	if multi {
		rules.NumberOfWinners = 1
	}
	for i, pass := range ct.Result.Passes {
		suffix := ""
		if multi {
			suffix = fmt.Sprintf("_%d", i+1)
		}
		rep := report.RCTab{Header: header, Contest: ct.Contest, Rules: rules, Pass: pass}
		if err := writeReports(dir, "", suffix, rep); err != nil {
			return err
		}
		used := map[string]bool{}
		for _, g := range pass.Groups {
			slice := rep
			slice.Slice = &report.Slice{Kind: g.Grouping, ID: g.Group, Rounds: g.Rounds}
			prefix := uniqueName(sanitize(g.Group)+"_"+strings.ToLower(g.Grouping), used) + "_"
			if err := writeReports(dir, prefix, suffix, slice); err != nil {
				return err
			}
		}
	}
	if err := ct.writeCDF(dir, multi); err != nil {
		return err
	}
	if ct.auditWritten {
		return nil
	}
	return writeFile(dir, "audit.log", func(w io.Writer) error {
		return report.WriteAudit(w, ct.Contest, ct.Ballots, ct.Result)
	})
}

// writeCDF writes the CDF export of generateCdfJson, a file per pass of a
// multi-pass count, each CVR with a snapshot per round of its pass.
func (ct *Count) writeCDF(dir string, multi bool) error {
	if ct.cdf == nil {
		return nil
	}
	aw := ct.written
	if aw == nil {
		aw = &asWritten{set: ct.Ballots}
	}
	if aw.set.Len() != ct.Ballots.Len() {
		return errorf("CDF export: %d ballots as written for %d counted", aw.set.Len(), ct.Ballots.Len())
	}
	now := time.Now()
	for i, pass := range ct.Result.Passes {
		name := cdfFile + ".json"
		if multi {
			name = fmt.Sprintf("%s_%d.json", cdfFile, i+1)
		}
		var rounds *cdfRounds
		if i < len(ct.cdf.passes) {
			rounds = ct.cdf.passes[i]
		} else {
			rounds = newCDFRounds(ct.Ballots.Len())
		}
		err := writeFile(dir, name, func(w io.Writer) error {
			return ct.Config.writeCDF(w, aw, ct.Contest, now, len(pass.Rounds), rounds.at)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// writeReports writes the detailed JSON and CSV and the summary CSV.
func writeReports(dir, prefix, suffix string, rep report.RCTab) error {
	files := []struct {
		name  string
		write func(io.Writer, report.RCTab) error
	}{
		{"detailed_report" + suffix + ".json", report.WriteDetailedJSON},
		{"detailed_report" + suffix + ".csv", report.WriteDetailedCSV},
		{"summary_report" + suffix + ".csv", report.WriteSummaryCSV},
	}
	for _, f := range files {
		if err := writeFile(dir, prefix+f.name, func(w io.Writer) error { return f.write(w, rep) }); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes one output file and its SHA-256 in sha256sum's format.
func writeFile(dir, name string, write func(io.Writer) error) error {
	w, finish, err := createHashed(dir, name)
	if err != nil {
		return err
	}
	err = write(w)
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return errorf("write %s: %w", name, err)
	}
	return nil
}

// createHashed creates an output file that is hashed as it is written;
// finish closes it and writes the SHA-256 beside it in sha256sum's format.
func createHashed(dir, name string) (io.Writer, func() error, error) {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, nil, errorf("write %s: %w", name, err)
	}
	h := sha256.New()
	finish := func() error {
		if err := f.Close(); err != nil {
			return errorf("write %s: %w", name, err)
		}
		line := fmt.Sprintf("%x  %s\n", h.Sum(nil), name)
		if err := os.WriteFile(filepath.Join(dir, name+".sha256"), []byte(line), 0o644); err != nil {
			return errorf("write %s.sha256: %w", name, err)
		}
		return nil
	}
	return io.MultiWriter(f, h), finish, nil
}

// sanitize makes a name safe in a file name as RCTab does: every UTF-16
// unit outside [a-zA-Z0-9_.-] becomes "_".
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80 && (r == '_' || r == '-' || r == '.' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')):
			b.WriteRune(r)
		default:
			b.WriteString(strings.Repeat("_", len(utf16.Encode([]rune{r}))))
		}
	}
	return b.String()
}

// uniqueName appends _2, _3, ... until name is unused.
func uniqueName(name string, used map[string]bool) string {
	out := name
	for n := 2; used[out]; n++ {
		out = fmt.Sprintf("%s_%d", name, n)
	}
	used[out] = true
	return out
}
