package app

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"votedesk/tally"
	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// auditBallots are an election's cast vote records laid out as the
// manifest lays out the paper: CVRs[i] are the records of manifest batch i
// in the order of the ballots in it, so the ballot at position p of batch i
// is CVRs[i][p-1], and a position past the records is a phantom (paper the
// manifest counts without a record).
//
// A record belongs to the batch its file named (Ballot.Batch) on the
// tabulator its file named (Ballot.Tabulator, which Dominion's exports
// give: their batch ids repeat across tabulators); records without a batch
// (keyed-in paper ballots) to a batch named by their source ("paper"). A
// record goes to the manifest line of its tabulator and batch or, when
// there is none, to the one line of its batch name where the line or the
// record does not say a tabulator; a line takes the records of one batch. Within a batch, records go in the order of their
// record ids, numbers within them compared as numbers (Dominion's
// "5-12-9" before "5-12-10"), then of their ballot ids.
type auditBallots struct {
	CVRs   [][]Ballot
	Total  int
	Digest string
}

// batchKey is the batch of the manifest a record belongs to: the
// tabulator and batch its file named.
type batchKey struct{ Tabulator, Name string }

// auditBatchOf is the batch a record belongs to.
func auditBatchOf(b Ballot) batchKey {
	if b.Batch != "" {
		return batchKey{b.Tabulator, b.Batch}
	}
	return batchKey{b.Tabulator, b.Source}
}

// String names the batch as a person finds it: "batch 12 of tabulator 5".
func (k batchKey) String() string {
	if k.Tabulator == "" {
		return fmt.Sprintf("batch %q", k.Name)
	}
	return fmt.Sprintf("batch %q of tabulator %q", k.Name, k.Tabulator)
}

// layOutBallots matches an election's ballots to a manifest. Every record
// must be in one batch the manifest lists, with no more records than the
// manifest counts there; ballots cast on a screen (at a kiosk or signed in)
// have no paper to audit and are refused.
func layOutBallots(tx Tx, election string, m rla.Manifest) (auditBallots, error) {
	groups := map[batchKey][]Ballot{}
	screen := 0
	total := 0
	err := eachBallot(tx, election, prefixBallot, func(b Ballot) (bool, error) {
		if b.Voter != "" || b.Source == SourceKiosk || b.Source == SourceDirect {
			screen++
			return true, nil
		}
		k := auditBatchOf(b)
		groups[k] = append(groups[k], b)
		total++
		return true, nil
	})
	if err != nil {
		return auditBallots{}, err
	}
	if screen > 0 {
		return auditBallots{}, Errorf(CodeInvalid, "election %q has %d ballots cast on a screen (at a kiosk or signed in); they have no paper to audit, so its count cannot be audited against paper", election, screen)
	}
	if total == 0 {
		return auditBallots{}, Errorf(CodeInvalid, "election %q has no cast vote records to audit", election)
	}
	byName := map[string][]int{}
	exact := map[batchKey]int{}
	for i, b := range m.Batches {
		k := batchKey{b.Tabulator, b.Name}
		if j, dup := exact[k]; dup {
			return auditBallots{}, Errorf(CodeInvalid, "the manifest lists %s twice (lines %d and %d): the cast vote records cannot tell the two apart", k, j+2, i+2)
		}
		exact[k] = i
		byName[b.Name] = append(byName[b.Name], i)
	}
	out := auditBallots{CVRs: make([][]Ballot, len(m.Batches)), Total: total}
	from := make([]batchKey, len(m.Batches)) // the records' batch each line took
	for _, k := range slices.SortedFunc(maps.Keys(groups), compareAuditBatches) {
		// The line of the same tabulator and batch; else the one line of
		// the batch where the line or the records do not say a tabulator.
		line, ok := exact[k]
		if !ok {
			line = -1
			for _, i := range byName[k.Name] {
				if t := m.Batches[i].Tabulator; t == "" || k.Tabulator == "" {
					if line >= 0 {
						return auditBallots{}, Errorf(CodeInvalid, "the cast vote records of %s could be the paper of line %d or line %d of the manifest (tabulators %q and %q): give the manifest's lines the tabulators the records name",
							k, line+2, i+2, m.Batches[line].Tabulator, t)
					}
					line = i
				}
			}
		}
		if line < 0 {
			return auditBallots{}, Errorf(CodeInvalid, "the manifest does not list %s, which holds %d cast vote records", k, len(groups[k]))
		}
		if prev := from[line]; len(out.CVRs[line]) > 0 && prev != k {
			return auditBallots{}, Errorf(CodeInvalid, "the manifest's line %d (batch %q) matches the records of both %s and %s: "+
				"their batches come from different tabulators, so give each its own line with its tabulator", line+2, k.Name, prev, k)
		}
		from[line] = k
		out.CVRs[line] = groups[k]
	}
	for i, b := range m.Batches {
		recs := out.CVRs[i]
		if len(recs) > b.Ballots {
			return auditBallots{}, Errorf(CodeInvalid, "%s holds %d cast vote records but the manifest counts %d ballots in it; a manifest counts every sheet of paper, so recount the batch", batchKey{b.Tabulator, b.Name}, len(recs), b.Ballots)
		}
		slices.SortFunc(recs, compareRecords)
	}
	out.Digest = out.digest(m)
	return out, nil
}

// compareAuditBatches orders batches by tabulator, then name.
func compareAuditBatches(a, b batchKey) int {
	return cmp.Or(naturalCompare(a.Tabulator, b.Tabulator), naturalCompare(a.Name, b.Name))
}

// compareRecords orders the records of a batch: by record id, numbers in
// them compared as numbers, then by ballot id.
func compareRecords(a, b Ballot) int {
	return cmp.Or(naturalCompare(a.SourceID, b.SourceID), cmp.Compare(a.Confirmation, b.Confirmation))
}

// naturalCompare orders text with the runs of digits in it compared as
// numbers: "5-12-9" before "5-12-10", "b2" before "b10". Equal numbers
// written differently ("7", "007") then go in plain text order, so the
// order is total.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			x, y := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			n, m := strings.TrimLeft(a[x:i], "0"), strings.TrimLeft(b[y:j], "0")
			if c := cmp.Or(cmp.Compare(len(n), len(m)), strings.Compare(n, m)); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i, j = i+1, j+1
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digest fingerprints the records in manifest order: per record its batch,
// record id and marks.
func (ab auditBallots) digest(m rla.Manifest) string {
	h := sha256.New()
	for i, recs := range ab.CVRs {
		for _, b := range recs {
			h.Write([]byte(m.Batches[i].Name))
			h.Write([]byte{0})
			h.Write([]byte(b.SourceID))
			h.Write([]byte{0})
			h.Write([]byte(EncodeRankings(b.Rankings)))
			h.Write([]byte{'\n'})
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// record returns the cast vote record of a manifest ballot, or false for a
// phantom.
func (ab auditBallots) record(batch, position int) (Ballot, bool) {
	recs := ab.CVRs[batch]
	if position < 1 || position > len(recs) {
		return Ballot{}, false
	}
	return recs[position-1], true
}

// auditReader reads ballots as the audit's contest counts them: each one's
// preferences (tally.Preferences) under the rules the audit started with.
type auditReader struct {
	contest tally.Contest
	rules   tally.Rules
	index   map[string]uint16
	marks   []tally.Mark
}

func newAuditReader(candidates []string, rules map[string]string) (*auditReader, error) {
	r, err := buildRules(rules)
	if err != nil {
		return nil, err
	}
	if r.OvervoteRule == tally.ExhaustIfMultipleContinuing {
		return nil, Errorf(CodeInvalid, "under overvoteRule %s what an overvoted ballot counts for depends on who is still in the count; RAIRE's audits need each ballot to be one list of preferences", r.OvervoteRule)
	}
	c := tally.Contest{Candidates: make([]tally.Candidate, len(candidates))}
	for i, n := range candidates {
		c.Candidates[i] = tally.Candidate{Name: n}
	}
	return &auditReader{contest: c, rules: r, index: MarkIndex(candidates)}, nil
}

// prefs reads rankings as a preference list.
func (ar *auditReader) prefs(r []Ranking) ([]int, error) {
	var err error
	if ar.marks, err = RankingsToMarks(ar.marks[:0], r, ar.index); err != nil {
		return nil, err
	}
	p, _ := tally.Preferences(nil, ar.contest, ar.rules, ar.marks)
	return p, nil
}

// votes reads every record into RAIRE's votes, identical lists merged.
func (ar *auditReader) votes(ab auditBallots) ([]raire.Vote, error) {
	set := &tally.BallotSet{}
	for _, recs := range ab.CVRs {
		for _, b := range recs {
			var err error
			if ar.marks, err = RankingsToMarks(ar.marks[:0], b.Rankings, ar.index); err != nil {
				return nil, err
			}
			if err := set.Add("", 1, ar.marks); err != nil {
				return nil, err
			}
		}
	}
	v, err := raire.FromBallots(ar.contest, ar.rules, set)
	if err != nil {
		return nil, Errorf(CodeInvalid, "%s", tally.Message(err))
	}
	return v, nil
}
