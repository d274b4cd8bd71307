package cloudsync

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"votedesk/app"
)

// hashLister is what VerifyCloud needs beyond Local: the hashes of this
// device's events (localstore.Store has it).
type hashLister interface {
	EventHashes(ctx context.Context, from, to uint64, fn func(seq uint64, hash string) error) error
}

// rebuilder rebuilds the projection from the confirmed log alone
// (localstore.Store has it).
type rebuilder interface {
	RebuiltConfirmed(ctx context.Context) ([]app.Item, error)
}

var errStop = errors.New("stop")

// VerifyCloud reads the whole cloud log and checks it: every shard's
// entries numbered from 1 without gaps, each chained to the one before
// with a hash that matches its content, every cut ending where its shard's
// chain says; the merged log every device holds numbered and chained
// alike, and every event this device holds as confirmed identical to the
// cloud's; and what each election's shard holds past its last cut. It implements app.CloudVerifier.
func (s *Syncer) VerifyCloud(ctx context.Context) (app.VerifyReport, error) {
	var r app.VerifyReport
	c, err := s.connect(ctx)
	if err != nil {
		return r, err
	}
	confirmed, _, _, err := s.local.SyncHead(ctx)
	if err != nil {
		return r, err
	}
	local := map[uint64]string{}
	if hl, ok := s.local.(hashLister); ok && confirmed > 0 {
		if err := hl.EventHashes(ctx, 1, confirmed, func(seq uint64, h string) error { local[seq] = h; return nil }); err != nil {
			return r, err
		}
	}
	prev, next := "", uint64(1)
	bad := func(seq uint64, err error) error {
		r.FirstBadSeq = seq
		r.Problem("%s", cloudProblem(err))
		return errStop
	}
	// The proposals the log's claims name, to count those none names.
	claimed := map[string]bool{}
	var mu sync.Mutex
	vc := *c
	vc.onClaim = func(pk, sk string) {
		mu.Lock()
		claimed[pk+"/"+sk] = true
		mu.Unlock()
	}
	c = &vc
	start, _ := decodeMark(nil, 0, "")
	end := start
	err = c.readMerged(ctx, start, 1, "", 0, true, nil, func(page []*app.Event, m mark) error {
		end = m
		for _, ev := range page {
			if err := app.CheckRun(prev, next, []*app.Event{ev}); err != nil {
				return bad(next, err)
			}
			if h, ok := local[ev.Seq]; ok && h != ev.Hash {
				return bad(ev.Seq, app.Errorf(app.CodeConflict, "event %d differs from this device's confirmed copy", ev.Seq))
			}
			prev, next = ev.Hash, next+1
		}
		r.Events, r.HeadHash = next-1, prev
		return nil
	})
	switch {
	case errors.Is(err, errStop):
	case app.ErrorCode(err) == app.CodeInvalid:
		// A segment that cannot be read stops ReadLog before the page.
		r.FirstBadSeq = next
		r.Problem("%s", cloudProblem(err))
	case err != nil:
		return r, err
	}
	if r.OK() {
		if err := verifyTails(ctx, c, end, &r); err != nil {
			return r, err
		}
		mu.Lock()
		n, err := c.unclaimedProposals(ctx, claimed)
		mu.Unlock()
		if err != nil {
			return r, err
		}
		if n > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%d proposal(s) in the cloud log table that no claim names: runs of ballots a device wrote before racing for their place and has not claimed: it is racing for the place now, or stopped before its claim and has not synced since (its next sync removes what another claim made unneeded), or its run went into the log another way; nothing reads them, and they take storage only", n))
		}
	}
	if r.OK() && r.Events < confirmed {
		r.FirstBadSeq = r.Events + 1
		r.Problem("cloud log ends at event %d, but this device holds %d confirmed events", r.Events, confirmed)
	}
	if r.OK() {
		if err := s.verifyProjection(ctx, c, confirmed, &r); err != nil {
			return r, err
		}
	}
	return r, nil
}

// verifyTails checks what each election's shard holds past its last cut
// (events appended that no cut orders yet): their hash chain, and says how
// many there are. A device that stopped between its append and its cut
// leaves them there until another device's sync orders them (sweep).
func verifyTails(ctx context.Context, c *Cloud, m mark, r *app.VerifyReport) error {
	for _, shard := range m.shardNames() {
		at := m.Shards[shard]
		tail, err := c.readTail(ctx, shard, at)
		if app.ErrorCode(err) == app.CodeInvalid {
			r.Problem("%s", app.ErrorMessage(err))
			continue
		}
		if err != nil {
			return err
		}
		if err := checkEntries(shard, at.Hash, at.Seq+1, tail); err != nil {
			r.Problem("%s", app.ErrorMessage(err))
			continue
		}
		if len(tail) > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s holds %d event(s) after %d that no cut orders yet: a device appended them and has not finished its sync; the next sync of any device that reads this shard orders them", shard, len(tail), at.Seq))
		}
	}
	return nil
}

// verifyProjection rebuilds the projection from the confirmed log (the
// cloud log up to this device's confirmed head, just checked) and compares
// it with the cloud projection, when the cloud projection says it is
// complete up to that head.
func (s *Syncer) verifyProjection(ctx context.Context, c *Cloud, confirmed uint64, r *app.VerifyReport) error {
	rb, ok := s.local.(rebuilder)
	if !ok {
		return nil
	}
	st, err := c.readProjectionState(ctx)
	if err != nil {
		return err
	}
	if st.last != confirmed {
		r.Notes = append(r.Notes, fmt.Sprintf("the cloud projection is complete up to event %d and this device's log up to %d; sync, then verify again to compare them", st.last, confirmed))
		return nil
	}
	rebuilt, err := rb.RebuiltConfirmed(ctx)
	if err != nil {
		return err
	}
	cloud, err := c.ProjectionItems(ctx)
	if err != nil {
		return err
	}
	diffs := ProjectionDifferences(cloud, rebuilt, 10)
	for _, d := range diffs {
		r.Problem("%s", d)
	}
	if len(diffs) == 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("the cloud projection (%d items) is what the log says up to event %d", len(cloud), confirmed))
	}
	return nil
}

var _ app.CloudVerifier = (*Syncer)(nil)

// cloudProblem says what is wrong with the cloud log, saying it is the
// cloud log's when the message does not.
func cloudProblem(err error) string {
	msg := app.ErrorMessage(err)
	if strings.HasPrefix(msg, "cloud log") {
		return msg
	}
	return "cloud log: " + msg
}
