package rctab

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"votedesk/tally"
	"votedesk/tally/cvr"
)

// cdfFile is the name of the CDF export a count writes when the config sets
// generateCdfJson, as RCTab names it ("cvr_cdf"), with _N per pass of a
// multi-pass count.
const cdfFile = "cvr_cdf"

// asWritten is a config's cast vote records as RCTab keeps them before
// counting: each mark names the string the file wrote (a code, an alias,
// "Undeclared Write-ins" for the undeclared write-in label), and each
// record carries RCTab's id for it.
type asWritten struct {
	set   *tally.BallotSet
	names *writtenNames
}

// writtenNames is a cvr.Candidates that gives each distinct string a CVR
// file uses its own index, remembering the contest candidate it stands for,
// so a conversion can name selections as the file did.
type writtenNames struct {
	contest cvr.Candidates
	names   []string
	cands   []uint16
	index   map[string]uint16
}

// Candidate returns the index of the string name, adding it when it is new
// and the contest knows it.
func (w *writtenNames) Candidate(name string) (uint16, bool) {
	if i, ok := w.index[name]; ok {
		return i, true
	}
	c, ok := w.contest.Candidate(name)
	if !ok || len(w.names) >= tally.MaxCandidates {
		return 0, false
	}
	i := uint16(len(w.names))
	w.names = append(w.names, name)
	w.cands = append(w.cands, c)
	w.index[name] = i
	return i, true
}

// readAsWritten reads every source of the config through the same readers
// and settings as a count, keeping the strings the files wrote and giving
// each record RCTab's id (see rctabID).
func (c *Config) readAsWritten(ctx context.Context, rules tally.Rules) (*asWritten, error) {
	contest, opts := c.Reader(rules)
	names := &writtenNames{contest: contest, index: map[string]uint16{}}
	set := &tally.BallotSet{}
	var ids []string
	for i, src := range c.CVRFileSources {
		var infos []cvr.RecordInfo
		o := opts
		o.Record = func(r cvr.RecordInfo) { infos = append(infos, r) }
		before := set.Len()
		if _, err := cvr.Read(ctx, src, names, set, o); err != nil {
			return nil, errorf("cvrFileSources[%d]: %w", i, err)
		}
		if len(infos) != set.Len()-before {
			return nil, errorf("cvrFileSources[%d]: %d records described for %d read", i, len(infos), set.Len()-before)
		}
		for n, info := range infos {
			id, _ := rctabID(src, n, info)
			ids = append(ids, id)
		}
	}
	set.IDs = tally.NewTexts(ids...)
	return &asWritten{set: set, names: names}, nil
}

// rctabID returns RCTab's id for the n-th (0-based) record of a source and
// the vendor's: ES&S and generic CSV "FILE-N" (or the id column's value);
// CDF "FILE(ID)"; Dominion "TABULATOR-BATCH-RECORD", the vendor's being the
// record number.
func rctabID(src cvr.Source, n int, info cvr.RecordInfo) (id, vendor string) {
	base := filepath.Base(src.FilePath)
	switch {
	case src.Provider == cvr.FormatDominion:
		return info.ID, info.RecordID
	case src.Provider == cvr.FormatCDF:
		return RecordID(src, info.ID), info.ID
	case info.ID != "":
		return info.ID, info.ID
	}
	return base + "-" + strconv.Itoa(n+1), info.ID
}

// RecordID is the id RCTab gives a record its file calls id: a CDF
// record's is FILE(ID), so files that each number their records from 1
// stay apart; other formats' records keep their ids.
func RecordID(src cvr.Source, id string) string {
	if src.Provider == cvr.FormatCDF && id != "" {
		return filepath.Base(src.FilePath) + "(" + id + ")"
	}
	return id
}

// WriteCDFJSON writes the config's cast vote records as one NIST CDF cast
// vote record report, as RCTab's "convert to CDF" does: a CVR per record
// with RCTab's id, each selection named by the string the file wrote
// (cs-<string>), the config's candidates (and "overvote" when a source has
// an overvote label) in the election's list. generated is the report's
// GeneratedDate (zero means now).
func (c *Config) WriteCDFJSON(ctx context.Context, w io.Writer, generated time.Time) error {
	rules, err := c.Rules()
	if err != nil {
		return err
	}
	aw, err := c.readAsWritten(ctx, rules)
	if err != nil {
		return err
	}
	return c.writeCDF(w, aw, c.Contest(), generated, 0, nil)
}

// writeCDF writes a CDF report of the ballots as written, with rounds
// interpreted snapshots from allocs.
func (c *Config) writeCDF(w io.Writer, aw *asWritten, contest tally.Contest, generated time.Time, rounds int, allocs func(b, r int) []cvr.CDFAllocation) error {
	set := *aw.set
	if !c.OutputSettings.TabulateByPrecinct {
		set.Precincts = nil // RCTab writes precinct GpUnits only when tabulating by precinct
	}
	rep := cvr.CDFReport{
		ContestName: c.OutputSettings.ContestName, Jurisdiction: c.OutputSettings.ContestJurisdiction,
		Candidates: contest.Names(), GeneratedDate: generated,
		Rounds: rounds, Allocations: allocs,
	}
	if aw.names != nil {
		rep.MarkNames, rep.MarkCandidates = aw.names.names, aw.names.cands
	}
	for _, s := range c.CVRFileSources {
		rep.ListOvervote = rep.ListOvervote || s.OvervoteLabel != ""
	}
	return cvr.WriteCDF(w, rep, &set)
}

// cdfRounds follows each ballot through a count's audit trail to say, per
// round, where its vote counts, as RCTab's CDF snapshots do: the part each
// candidate it helped elect keeps, and the rest with the candidate it
// counts for now. A ballot's entry is kept only for the rounds it changed.
type cdfRounds struct {
	recip  []int32         // candidate counted for, -1 for none
	value  []tally.Decimal // what is left of the vote; zero Decimal before the first entry
	seen   []bool
	locked map[int32][]cvr.CDFAllocation
	snaps  [][]cdfSnap
	one    tally.Decimal
}

type cdfSnap struct {
	round  int32
	allocs []cvr.CDFAllocation
}

func newCDFRounds(n int) *cdfRounds {
	return &cdfRounds{
		recip: make([]int32, n), value: make([]tally.Decimal, n), seen: make([]bool, n),
		locked: map[int32][]cvr.CDFAllocation{}, snaps: make([][]cdfSnap, n), one: tally.DecimalInt(1),
	}
}

// add takes one round's audit entries. When a ballot's value falls, the
// candidate it counted for was elected and keeps the difference.
func (r *cdfRounds) add(entries []tally.AuditEntry, values []tally.Decimal) {
	p := tally.Pass{AuditValues: values}
	for _, e := range entries {
		b := e.Ballot
		v := p.AuditValue(e)
		if r.seen[b] && r.recip[b] >= 0 && v.Cmp(r.value[b]) != 0 {
			r.locked[b] = append(r.locked[b], cvr.CDFAllocation{Candidate: uint16(r.recip[b]), Value: r.value[b].Sub(v)})
		}
		r.seen[b], r.recip[b], r.value[b] = true, e.Candidate, v
		allocs := append([]cvr.CDFAllocation(nil), r.locked[b]...)
		if e.Status == tally.Active && e.Candidate >= 0 {
			allocs = append(allocs, cvr.CDFAllocation{Candidate: uint16(e.Candidate), Value: v})
		} else {
			r.recip[b] = -1
		}
		r.snaps[b] = append(r.snaps[b], cdfSnap{round: e.Round, allocs: allocs})
	}
}

// at returns where ballot b's vote counts in round: as of its last change.
func (r *cdfRounds) at(b, round int) []cvr.CDFAllocation {
	var out []cvr.CDFAllocation
	for _, s := range r.snaps[b] {
		if int(s.round) > round {
			break
		}
		out = s.allocs
	}
	return out
}

// cdfTracker keeps cdfRounds for each pass of a count.
type cdfTracker struct {
	n      int
	passes []*cdfRounds
}

// Round is a tally.AuditSink.
func (t *cdfTracker) Round(pass int, entries []tally.AuditEntry, values []tally.Decimal) error {
	for len(t.passes) < pass {
		t.passes = append(t.passes, newCDFRounds(t.n))
	}
	t.passes[pass-1].add(entries, values)
	return nil
}
