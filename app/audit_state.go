package app

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// AuditState is where an audit stands: its rounds, every draw with what
// the audit board read, and the risk measured so far.
type AuditState struct {
	Audit Audit
	// Rounds are the total draws after each round, smallest first.
	Rounds []int
	Draws  []AuditDraw
	// Unread counts the draws whose ballot has no agreed reading yet.
	Unread int
	// Measured is how many draws the risk is measured over: the draws from
	// the first up to the first one not yet read (a measurement may not
	// pick which ballots it counts).
	Measured int
	Status   rla.Status
	// ByRound is the status after each round whose draws are all read.
	ByRound []rla.Status
	// HeadSeq and HeadHash are the log position the state was read at.
	HeadSeq  uint64
	HeadHash string
	// Problem says why the audit cannot go on (the ballots changed since it
	// started, its assertions no longer rule out every other winner); the
	// status is then not measured.
	Problem string
}

// ReadState is how far the audit board is with a sampled ballot.
type ReadState string

// The states of a sampled ballot's reading.
const (
	ReadNone    ReadState = "not read"
	ReadOnce    ReadState = "read once"
	ReadDiffer  ReadState = "readings differ"
	ReadAgreed  ReadState = "agreed"
	ReadSettled ReadState = "settled"
)

// AuditReading is one entry of an audit board.
type AuditReading struct {
	Rankings []Ranking
	NotFound bool
	By       string
	When     time.Time
}

// AuditDraw is one draw of the sample: the manifest ballot it picked and,
// once the board's reading is agreed or settled, the reading and the cast
// vote record beside it. Before that the record is withheld, so the board
// reads the paper without being led by it.
type AuditDraw struct {
	Draw rla.Draw
	// Batch is the manifest's line for the ballot's batch.
	Batch rla.Batch
	// Repeat marks a ballot drawn before: it is read once and counts again.
	Repeat bool
	State  ReadState
	// Passes are the two members' entries (nil until made); Settled the
	// reading that settled a difference.
	Passes  [2]*AuditReading
	Settled *AuditReading
	// Reading is the agreed reading; CVR the record (nil for a phantom or
	// until agreed); Phantom marks a ballot the manifest counts without a
	// record.
	Reading *AuditReading
	CVR     []Ranking
	// RecordID is the record's id in its file (Dominion's
	// TabulatorId-BatchId-RecordId, which is imprinted on the paper), shown
	// with the record.
	RecordID string
	Phantom  bool
	// Overstatements are, per assertion, the record's assorter value less
	// the paper's (comparison audits, once agreed): 1/2 or 1 overstates
	// the winner's margin, -1/2 or -1 understates it.
	Overstatements []float64
}

// Audits lists an election's audits, newest first.
func (s *Service) Audits(ctx context.Context, actor, election string) ([]Audit, error) {
	var out []Audit
	err := s.view(ctx, "list audits of "+election, actor, PermViewApplication, func(tx Tx, u User) error {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return err
		}
		if !Disclose(e, u.Role).Contents {
			return withheld(e)
		}
		out, err = auditsOf(tx, e.Name)
		return err
	})
	return out, err
}

func auditsOf(tx Tx, election string) ([]Audit, error) {
	var out []Audit
	err := tx.Query(electionPK(election), prefixAudit, func(it Item) (bool, error) {
		if it.Str("entity_type") != "AUDIT" {
			return true, nil
		}
		a, err := auditFromItem(it)
		out = append(out, a)
		return err == nil, err
	})
	slices.SortFunc(out, func(a, b Audit) int { return b.Started.Compare(a.Started) })
	return out, err
}

// resolveAudit finds an audit by id or a unique prefix of it; "" is the
// newest.
func resolveAudit(tx Tx, election, id string) (string, error) {
	all, err := auditsOf(tx, election)
	if err != nil {
		return "", err
	}
	var found []string
	for _, a := range all {
		if a.ID == id || id != "" && strings.HasPrefix(a.ID, id) {
			found = append(found, a.ID)
		}
	}
	switch {
	case len(all) == 0:
		return "", Errorf(CodeNotFound, "election %q has no audit; start one first", election)
	case id == "":
		return all[0].ID, nil
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0:
		return "", Errorf(CodeNotFound, "election %q has no audit %q", election, id)
	}
	return "", Errorf(CodeInvalid, "%q names %d audits of %q; give more of the id", id, len(found), election)
}

// AuditState loads an audit's state ("" is the election's newest audit).
// Anyone who may see the election's ballots may see its audit.
func (s *Service) AuditState(ctx context.Context, actor, election, audit string) (AuditState, error) {
	var st AuditState
	err := s.view(ctx, "load the audit of "+election, actor, PermViewApplication, func(tx Tx, u User) error {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return err
		}
		st, err = auditState(tx, e, u, audit)
		return err
	})
	return st, err
}

func auditState(tx Tx, e Election, u User, id string) (AuditState, error) {
	if !Disclose(e, u.Role).Contents {
		return AuditState{}, withheld(e)
	}
	id, err := resolveAudit(tx, e.Name, id)
	if err != nil {
		return AuditState{}, err
	}
	au, err := getAudit(tx, e.Name, id)
	if err != nil {
		return AuditState{}, err
	}
	st := AuditState{Audit: au}
	if st.HeadSeq, st.HeadHash, err = tx.Head(); err != nil {
		return st, err
	}
	if st.Rounds, err = auditRounds(tx, au); err != nil {
		return st, err
	}
	draws := rla.Sample(au.Seed, au.Manifest, st.Rounds[len(st.Rounds)-1])
	reads, err := auditReads(tx, au)
	if err != nil {
		return st, err
	}
	laid, err := layOutBallots(tx, e.Name, au.Manifest)
	if err != nil {
		st.Problem = "the ballots no longer match the audit's manifest: " + ErrorMessage(err)
	} else if laid.Digest != au.Digest {
		st.Problem = "the cast vote records changed after the audit started; start a new audit"
	}
	reader, err := newAuditReader(au.Candidates, au.Rules)
	if err != nil {
		return st, err
	}
	seen := map[int]bool{}
	for _, d := range draws {
		ad := AuditDraw{Draw: d, Batch: au.Manifest.Batches[d.Batch], Repeat: seen[d.Index]}
		seen[d.Index] = true
		r := reads[d.Index]
		ad.Passes, ad.Settled = [2]*AuditReading{r[1], r[2]}, r[0]
		ad.State, ad.Reading = r.state()
		if ad.Reading == nil {
			st.Unread++
		}
		st.Draws = append(st.Draws, ad)
	}
	if st.Problem != "" {
		return st, nil
	}
	if err := st.measure(laid, reader); err != nil {
		return st, err
	}
	return st, nil
}

// measure fills in the records of the read draws and measures the risk
// over the draws read from the first.
func (st *AuditState) measure(laid auditBallots, reader *auditReader) error {
	au := st.Audit
	votes, err := reader.votes(laid)
	if err != nil {
		return err
	}
	ra, err := au.check(votes)
	if err != nil {
		st.Problem = ErrorMessage(err)
		return nil
	}
	var obs []rla.Observation
	counting := true
	for i := range st.Draws {
		d := &st.Draws[i]
		rec, ok := laid.record(d.Draw.Batch, d.Draw.Position)
		d.Phantom = !ok
		if d.Reading == nil {
			counting = false
			continue
		}
		o := rla.Observation{Phantom: !ok, NotFound: d.Reading.NotFound}
		if ok {
			d.CVR, d.RecordID = rec.Rankings, rec.SourceID
			if o.CVR, err = reader.prefs(rec.Rankings); err != nil {
				return err
			}
		}
		if !d.Reading.NotFound {
			if o.Paper, err = reader.prefs(d.Reading.Rankings); err != nil {
				return err
			}
		}
		if au.Kind == rla.Comparison {
			d.Overstatements = overstatements(au.Assertions, o)
		}
		if counting {
			obs = append(obs, o)
		}
	}
	st.Measured = len(obs)
	st.Status = ra.Measure(obs)
	for _, n := range st.Rounds {
		if n <= len(obs) {
			st.ByRound = append(st.ByRound, ra.Measure(obs[:n]))
		}
	}
	return nil
}

// overstatements are an observation's overstatement per assertion, with a
// phantom record or a missing paper ballot at their worst (the record for
// the winner, the paper for the loser).
func overstatements(as []raire.Assertion, o rla.Observation) []float64 {
	out := make([]float64, len(as))
	for i, a := range as {
		rec, paper := 1.0, 0.0
		if !o.Phantom {
			rec = rla.Assort(a, o.CVR)
		}
		if !o.NotFound {
			paper = rla.Assort(a, o.Paper)
		}
		out[i] = rec - paper
	}
	return out
}

// auditRounds lists an audit's rounds by their total draws.
func auditRounds(tx Tx, au Audit) ([]int, error) {
	var out []int
	err := tx.Query(electionPK(au.Election), auditRoundPrefix(au.ID), func(it Item) (bool, error) {
		out = append(out, int(it.Int("draws")))
		return true, nil
	})
	if err == nil && len(out) == 0 {
		err = Errorf(CodeInternal, "audit %s has no rounds", au.ID)
	}
	return out, err
}

// auditDraws is the audit's sample so far.
func auditDraws(tx Tx, au Audit) ([]rla.Draw, error) {
	rounds, err := auditRounds(tx, au)
	if err != nil {
		return nil, err
	}
	return rla.Sample(au.Seed, au.Manifest, rounds[len(rounds)-1]), nil
}

func drawn(draws []rla.Draw, ballot int) bool {
	return slices.ContainsFunc(draws, func(d rla.Draw) bool { return d.Index == ballot })
}

// readings are a ballot's entries: settled (0) and the two passes.
type readings [3]*AuditReading

// state says how far a ballot's reading is: settled, agreed (both passes
// the same), differing, read once, or not read; and the reading, once
// agreed or settled.
func (r readings) state() (ReadState, *AuditReading) {
	switch {
	case r[0] != nil:
		return ReadSettled, r[0]
	case r[1] != nil && r[2] != nil && r[1].same(r[2]):
		return ReadAgreed, r[2]
	case r[1] != nil && r[2] != nil:
		return ReadDiffer, nil
	case r[1] != nil || r[2] != nil:
		return ReadOnce, nil
	}
	return ReadNone, nil
}

func (x *AuditReading) same(y *AuditReading) bool {
	return x.NotFound == y.NotFound && slices.Equal(x.Rankings, y.Rankings)
}

// auditReads loads every reading of an audit, by manifest ballot.
func auditReads(tx Tx, au Audit) (map[int]readings, error) {
	out := map[int]readings{}
	err := tx.Query(electionPK(au.Election), auditReadPrefix(au.ID), func(it Item) (bool, error) {
		r, err := DecodeRankings(it.Str("rankings"))
		if err != nil {
			return false, err
		}
		b, p := int(it.Int("ballot")), int(it.Int("pass"))
		if p < 0 || p > 2 {
			return false, Errorf(CodeInternal, "stored audit reading %s has pass %d", it.SK(), p)
		}
		rs := out[b]
		rs[p] = &AuditReading{Rankings: r, NotFound: it.Flag("not_found"), By: it.Str("actor"), When: it.TimeAttr("when")}
		out[b] = rs
		return true, nil
	})
	return out, err
}

// AuditManifest is the ballot manifest an election's cast vote records
// imply: one batch per batch they name (auditBatchOf), with as many ballots
// as records, in name order. It is a template: the manifest an audit uses
// counts the paper.
func (s *Service) AuditManifest(ctx context.Context, actor, election string) (rla.Manifest, error) {
	var m rla.Manifest
	err := s.view(ctx, "list the batches of "+election, actor, PermViewApplication, func(tx Tx, u User) error {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return err
		}
		if !Disclose(e, u.Role).Contents {
			return withheld(e)
		}
		counts := map[batchKey]int{}
		err = eachBallot(tx, e.Name, prefixBallot, func(b Ballot) (bool, error) {
			counts[auditBatchOf(b)]++
			return true, nil
		})
		if err != nil {
			return err
		}
		keys := slices.SortedFunc(maps.Keys(counts), compareAuditBatches)
		batches := make([]rla.Batch, len(keys))
		for i, k := range keys {
			batches[i] = rla.Batch{Tabulator: k.Tabulator, Name: k.Name, Ballots: counts[k]}
		}
		if m, err = rla.NewManifest(batches); err != nil {
			return Errorf(CodeInvalid, "election %q: %s", e.Name, rlaMessage(err))
		}
		return nil
	})
	return m, err
}
