package app

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"slices"

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
// A record belongs to the batch its file named (Ballot.Batch); records
// without one (keyed-in paper ballots) to a batch named by their source
// ("paper"). Within a batch, records go in the order of their record ids
// (numerically where both are numbers), then of their ballot ids.
type auditBallots struct {
	CVRs   [][]Ballot
	Total  int
	Digest string
}

// auditBatchOf is the manifest batch a record belongs to.
func auditBatchOf(b Ballot) string {
	if b.Batch != "" {
		return b.Batch
	}
	return b.Source
}

// layOutBallots matches an election's ballots to a manifest. Every record
// must be in a batch the manifest names once, with no more records than the
// manifest counts there; ballots cast on a screen (at a kiosk or signed in)
// have no paper to audit and are refused.
func layOutBallots(tx Tx, election string, m rla.Manifest) (auditBallots, error) {
	groups := map[string][]Ballot{}
	screen := 0
	total := 0
	err := tx.Query(electionPK(election), prefixBallot, func(it Item) (bool, error) {
		b, err := ballotFromItem(it)
		if err != nil {
			return false, err
		}
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
	out := auditBallots{CVRs: make([][]Ballot, len(m.Batches)), Total: total}
	seen := map[string]int{}
	for i, b := range m.Batches {
		if j, dup := seen[b.Name]; dup {
			return auditBallots{}, Errorf(CodeInvalid, "the manifest names batch %q twice (lines %d and %d); the cast vote records name batches by name alone", b.Name, j+2, i+2)
		}
		seen[b.Name] = i
		recs := groups[b.Name]
		if len(recs) > b.Ballots {
			return auditBallots{}, Errorf(CodeInvalid, "batch %q holds %d cast vote records but the manifest counts %d ballots in it; a manifest counts every sheet of paper, so recount the batch", b.Name, len(recs), b.Ballots)
		}
		slices.SortFunc(recs, compareRecords)
		out.CVRs[i] = recs
		delete(groups, b.Name)
	}
	if len(groups) > 0 {
		missing := make([]string, 0, len(groups))
		for k := range groups {
			missing = append(missing, k)
		}
		slices.Sort(missing)
		return auditBallots{}, Errorf(CodeInvalid, "the manifest does not list batch %q, which holds %d cast vote records (%d batches missing)", missing[0], len(groups[missing[0]]), len(missing))
	}
	out.Digest = out.digest(m)
	return out, nil
}

// compareRecords orders the records of a batch: by record id, numerically
// where both are whole numbers, then by ballot id.
func compareRecords(a, b Ballot) int {
	x, okx := new(big.Int).SetString(a.SourceID, 10)
	y, oky := new(big.Int).SetString(b.SourceID, 10)
	if okx && oky {
		if c := x.Cmp(y); c != 0 {
			return c
		}
	} else if c := cmp.Compare(a.SourceID, b.SourceID); c != 0 {
		return c
	}
	return cmp.Compare(a.Confirmation, b.Confirmation)
}

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
