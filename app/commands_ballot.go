package app

import (
	"context"
	"fmt"
	"time"
)

// Cast is a ballot to record: the voter (empty for a paper ballot of no
// poll-book voter), the rankings, and where it came from.
type Cast struct {
	Election    string
	Voter       string
	Rankings    []Ranking
	Source      string
	Transcribed bool
}

// Receipt is what a voter is told once their ballot is durably recorded.
type Receipt struct {
	Election     string
	Voter        string
	Confirmation string
	WhenCast     time.Time
	Recast       bool
	Seq          uint64
}

// CastBallot records a ballot. A voter who already voted re-casts when the
// election allows it (keeping their confirmation code) and is refused
// otherwise. It returns once the ballot is durably stored.
func (s *Service) CastBallot(ctx context.Context, actor string, c Cast) (Receipt, error) {
	if c.Source == "" {
		c.Source = SourceDirect
	}
	if c.Voter != "" {
		v, err := CleanName("voter name", c.Voter)
		if err != nil {
			return Receipt{}, err
		}
		c.Voter = v
	}
	r := Receipt{Election: c.Election, Voter: c.Voter}
	ev, err := s.run(ctx, "cast ballot in "+c.Election, actor, func(tx Tx) (decision, error) {
		e, err := electionFor(ctx, tx, c.Election)
		if err != nil {
			return decision{}, err
		}
		cands, err := candidatesOf(tx, e.Name)
		if err != nil {
			return decision{}, err
		}
		rankings, err := normalizeRankings(c.Rankings, orderOf(cands))
		if err != nil {
			return decision{}, err
		}
		if c.Voter != "" {
			it, voted, err := tx.Get(electionPK(e.Name), ballotSK(c.Voter))
			if err != nil {
				return decision{}, err
			}
			if voted {
				if !e.AllowRecast {
					return decision{}, Errorf(CodeConflict, "%q has already voted in %q, which does not allow re-casting", c.Voter, e.Name)
				}
				r.Recast, r.Confirmation = true, it.Str("confirmation")
				return decision{typ: EvBallotRankingsChanged, data: ballotRankingsChanged{Election: e.Name, ElectionID: e.ID, Voter: c.Voter,
					Rankings: rankings, Secret: e.Secret}}, nil
			}
		}
		// A code the election already holds for an unlisted ballot is drawn
		// again (a voter's ballot is keyed by the voter, so its code
		// cannot collide in the store).
		for try := 0; ; try++ {
			r.Confirmation = confirmationFrom(s.ids.NewID())
			taken, err := unlistedTaken(tx, electionPK(e.Name), unlistedBallotSK(r.Confirmation))
			if err != nil {
				return decision{}, err
			}
			if !taken {
				break
			}
			if try == 16 {
				return decision{}, Errorf(CodeInternal, "no free confirmation code in %q after %d draws", e.Name, try+1)
			}
		}
		return decision{typ: EvBallotCast, data: ballotCast{Election: e.Name, ElectionID: e.ID, Voter: c.Voter, Confirmation: r.Confirmation,
			Rankings: rankings, Source: c.Source, Transcribed: c.Transcribed, Secret: e.Secret}}, nil
	})
	if err != nil {
		return Receipt{}, err
	}
	r.WhenCast, r.Seq = ev.When, ev.Seq
	return r, nil
}

// ImportBatch is how many ballots one BallotsImported event carries.
const ImportBatch = 5000

// ImportBallots adds ballots that belong to no poll-book voter (cast vote
// records) to an election, all or nothing: one transaction holds every
// batch. Each ballot's id (its confirmation code) is its event's id and its
// place in the batch: imported ballots carry no voter, so the order of their
// ids reveals nothing but the order of the file, and ordered ids keep the
// import fast (appending to the key space instead of splitting it). A source
// id names one ballot: an import in which one repeats, or which repeats one
// already imported into the election, is refused (empty ids are not
// checked). A refusal caused by one ballot is a *BallotError saying which.
// progress, if set, is told how many ballots are recorded so far.
func (s *Service) ImportBallots(ctx context.Context, actor, election, source string, ballots []ImportedBallot, progress func(done int)) (int, error) {
	return s.ImportBallotsFrom(ctx, actor, election, source, ImportedBallots(ballots), progress)
}

// ImportSource is the ballots of an import, which ImportBallotsFrom reads a
// batch at a time: a large import is not held in memory as ballots whole,
// beside what they were read from (cast vote records hold their marks far
// more compactly than ImportedBallot does).
type ImportSource interface {
	// Len is how many ballots the import holds.
	Len() int
	// SourceID is ballot i's source id ("" for none).
	SourceID(i int) string
	// Batch returns ballots lo to hi-1.
	Batch(lo, hi int) []ImportedBallot
}

// ImportedBallots is the ImportSource of ballots already made.
type ImportedBallots []ImportedBallot

func (b ImportedBallots) Len() int                          { return len(b) }
func (b ImportedBallots) SourceID(i int) string             { return b[i].SourceID }
func (b ImportedBallots) Batch(lo, hi int) []ImportedBallot { return b[lo:hi] }

// ImportBallotsFrom is ImportBallots for ballots read from src a batch at a
// time.
func (s *Service) ImportBallotsFrom(ctx context.Context, actor, election, source string, ballots ImportSource, progress func(done int)) (int, error) {
	if ballots.Len() == 0 {
		return 0, Errorf(CodeInvalid, "there are no ballots to import")
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		// Applying each batch authorizes it; checking first keeps the
		// source-id check below from answering someone who may not import.
		gate := &applier{tx: tx, ev: &Event{Actor: actor, Type: EvBallotsImported}}
		e, _, err := gate.manager(election, "")
		if err != nil {
			return err
		}
		if err := checkShown(ctx, tx, election, e); err != nil {
			return err
		}
		cands, err := candidatesOf(tx, election)
		if err != nil {
			return err
		}
		// The batches are checked and encoded on a second goroutine while
		// this one checks the source ids and records the batches before.
		batches := make(chan encodedBatch, 2)
		stop := make(chan struct{})
		go encodeBatches(ballots, orderOf(cands), e, source, batches, stop)
		defer func() {
			close(stop)
			for range batches { // let the encoder end
			}
		}()
		if err := checkSourceIDs(tx, election, ballots); err != nil {
			return err
		}
		for b := range batches {
			if b.err != nil {
				return b.err
			}
			if err := ctx.Err(); err != nil {
				return Errorf(CodeUnavailable, "import cancelled")
			}
			if _, err := s.recordEncoded(tx, actor, b.encodedDecision); err != nil {
				return err
			}
			if progress != nil {
				progress(b.end)
			}
		}
		return nil
	})
	if err != nil {
		return 0, wrapOp("import ballots into "+election, err)
	}
	return ballots.Len(), nil
}

// encodedBatch is one batch of an import ready to record, the place in the
// import where it ends, or the error that refused it.
type encodedBatch struct {
	encodedDecision
	end int
	err error
}

// encodeBatches checks the ballots of an import against the election's
// candidates (order) and encodes them in batches of ImportBatch, in order,
// until they are done, one is refused, or stop is closed; then it closes
// batches.
func encodeBatches(ballots ImportSource, order candidateOrder, e Election, source string, batches chan<- encodedBatch, stop <-chan struct{}) {
	defer close(batches)
	for start := 0; start < ballots.Len(); start += ImportBatch {
		end := min(start+ImportBatch, ballots.Len())
		b := encodedBatch{end: end}
		batch := make([]ImportedBallot, end-start)
		for i, ib := range ballots.Batch(start, end) {
			r, err := normalizeCast(ib.Rankings, order, MaxRank)
			if err != nil {
				b.err = ballotRefused(CodeInvalid, start+i, ib.SourceID, ErrorMessage(err))
				break
			}
			batch[i] = ImportedBallot{SourceID: ib.SourceID, Rankings: r, Precinct: ib.Precinct, Batch: ib.Batch, Tabulator: ib.Tabulator}
			if why := tooBig(batch[i]); why != "" {
				b.err = ballotRefused(CodeInvalid, start+i, ib.SourceID, why)
				break
			}
		}
		if b.err == nil {
			d := decision{typ: EvBallotsImported, data: ballotsImported{Election: e.Name, ElectionID: e.ID, Source: source, Ballots: batch, Secret: e.Secret, normalized: true}}
			b.encodedDecision, b.err = encodeDecision(d)
		}
		select {
		case batches <- b:
		case <-stop:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// BallotError is an import refused because of one of its ballots: its
// place in the list given to ImportBallots (from 0), its source id and the
// reason, so a caller that read the ballots from files can say where. It
// wraps the domain *Error (code and message).
type BallotError struct {
	Index    int
	SourceID string
	Reason   string
	err      *Error
}

func (e *BallotError) Error() string { return e.err.Error() }

// Unwrap returns the domain error.
func (e *BallotError) Unwrap() error { return e.err }

// ballotRefused is the error for one ballot of an import.
func ballotRefused(code Code, i int, sourceID, why string) *BallotError {
	shown := sourceID
	if r := []rune(shown); len(r) > 80 { // an id of a megabyte, shown whole, would be the message
		shown = string(r[:77]) + "…"
	}
	return &BallotError{Index: i, SourceID: sourceID, Reason: why,
		err: Errorf(code, "ballot %d (%s): %s", i+1, shown, why)}
}

// checkSourceIDs refuses an import whose source ids repeat, among its own
// ballots or with ballots already imported into the election.
func checkSourceIDs(tx Tx, election string, ballots ImportSource) error {
	first := NewIDSet(ballots.Len(), ballots.SourceID)
	for i := range ballots.Len() {
		id := ballots.SourceID(i)
		if id == "" {
			continue
		}
		if j, dup := first.Add(id, i); dup {
			return ballotRefused(CodeInvalid, i, id, fmt.Sprintf("source id %q is also ballot %d of this import", id, j+1))
		}
	}
	if first.Len() == 0 {
		return nil
	}
	return ballotAttr(tx, election, prefixUnlisted, "source_id", func(v []byte) (bool, error) {
		if i, dup := first.Find(v); dup && len(v) > 0 {
			return false, ballotRefused(CodeConflict, i, ballots.SourceID(i),
				fmt.Sprintf("a ballot with source id %q was already imported into %q", ballots.SourceID(i), election))
		}
		return true, nil
	})
}
