package cloudsync

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"time"

	"votedesk/app"
)

// Local is the device's side of sync: its log (a confirmed prefix and the
// pending outbox) and projection. localstore.Store implements it.
type Local interface {
	// SyncHead returns the confirmed head and the number of pending events.
	SyncHead(ctx context.Context) (confirmed uint64, hash string, pending int, err error)
	// Pending returns up to max pending events (all when max <= 0).
	Pending(ctx context.Context, max int) ([]*app.Event, error)
	// IntegrateMarked applies a page of cloud events after the confirmed
	// head and rebases the pending events on top, and keeps mark with the
	// new head, in one transaction.
	IntegrateMarked(ctx context.Context, page []*app.Event, mark []byte) (rebased int, err error)
	// ConfirmPushedMarked confirms the first pending events, just appended
	// to the cloud log at the sequence numbers they hold locally, and keeps
	// mark with the new head.
	ConfirmPushedMarked(ctx context.Context, evs []*app.Event, mark []byte) error
	// SyncMark returns the mark kept with the confirmed head (nil if none).
	SyncMark(ctx context.Context) ([]byte, error)
	// CloudDelta returns the items the cloud projection needs to go from
	// event `after` to the confirmed head.
	CloudDelta(ctx context.Context, after uint64) (head uint64, puts, deletes []app.Item, err error)
	// PruneCloudDirty forgets changes the cloud projection already holds.
	PruneCloudDirty(ctx context.Context, through uint64) error
	// ConfirmedItems returns every item of the confirmed projection (what
	// the cloud projection must hold), without the device's own partitions.
	ConfirmedItems(ctx context.Context) (head uint64, items []app.Item, err error)
	// ProjectionBytes returns about how many bytes the projection holds.
	ProjectionBytes(ctx context.Context) (int, error)
	// SyncSetting and SetSyncSetting keep sync settings and status.
	SyncSetting(ctx context.Context, name string) ([]byte, bool, error)
	SetSyncSetting(ctx context.Context, name string, value []byte) error
}

// Names of the settings a device keeps (never credentials).
const (
	settingEndpoint = "endpoint"
	settingPrefix   = "table_prefix"
	settingStatus   = "status"
	// settingUncut notes, per election shard, how far it held events no
	// cut ordered when this device last looked (sweep).
	settingUncut = "uncut"
	// settingProposals lists the proposals this device wrote whose runs
	// are not in the log yet (claim.go, dropProposals).
	settingProposals = "proposals"
)

// maxRounds bounds how many races for the head of the log one cycle may
// lose before it gives up.
const maxRounds = 30

// retryBackoff sets the wait before a retry after a lost race: full jitter
// over retryBackoff x 2^round, at most 64 x retryBackoff (sync/doc.go,
// "Contention", has the measurements that chose it).
const retryBackoff = 80 * time.Millisecond

// agedAfter is how long a device may keep losing the race before its
// retries wait an eighth as long, so that it goes before devices that
// started contending later.
const agedAfter = 10 * time.Second

// retryCeiling is the most a device waits before its next try after losing
// the race round times in this cycle, having kept losing for waited: the
// wait is drawn at random below it (full jitter).
func retryCeiling(round int, waited time.Duration) time.Duration {
	base := retryBackoff
	if waited > agedAfter {
		base = retryBackoff / 8 // waited long already: go before the others
	}
	return base << min(round, 6)
}

// Syncer syncs one device's database with the cloud tables; it implements
// app.Syncer. One cycle runs at a time.
type Syncer struct {
	local Local
	cfg   Config

	// Step, when set, is called after each step of a cycle with its name
	// (page, proposed (a large run written for its claim, claim.go),
	// appended (to an election's shard, before its cut), pushed, lost,
	// confirmed, projection-claimed, projection-chunk,
	// projection-done): tests stop the process there to simulate a crash,
	// and count appends and lost races.
	Step func(name string)
	// Now tells the time for the status; nil means the wall clock.
	Now func() time.Time
	// NoProjection leaves the cloud projection to other devices (a kiosk on
	// a slow link) or to a later step; the log is synced all the same.
	NoProjection bool
	// CheckProjection makes the cycle compare the whole cloud projection
	// with this device's and repair it, whatever its size (see
	// projection_check.go).
	CheckProjection bool

	// repaired counts the items a projection check wrote back this cycle.
	repaired int

	mu       sync.Mutex
	progress app.SyncProgress
	report   func(app.SyncProgress)
	// contendedSince is when this device first lost the race with events
	// it still has pending (zero when it has none).
	contendedSince time.Time
	// lostRaces counts the races this cycle lost.
	lostRaces int
	// appended holds, per election's shard, the entries this cycle
	// appended there, as placed (content, place, hash): the pull that
	// follows takes them from here when a cut orders them, instead of
	// reading back what this device just wrote (see ownRange).
	appended map[string][]entry
	// proposed is the run this cycle proposed last: raced for again, it is
	// not proposed again (claim.go).
	proposed *proposedRun
	// claimsMu guards noted and placedBy. noted holds the partition keys
	// of the proposals this device wrote and has not settled yet
	// (settingProposals); placedBy, for each of them, the proposal that a
	// claim this Syncer wrote or read names: the one that placed the run
	// (dropProposals removes the others).
	claimsMu sync.Mutex
	noted    map[string]bool
	placedBy map[string]string
	// lastSweep is when this Syncer last swept, at most every sweepEvery
	// (sweep).
	lastSweep  time.Time
	sweepEvery time.Duration

	// pmu guards reporting and last, the progress last reported: the
	// SDK's retries report waits from any goroutine (waiting).
	pmu  sync.Mutex
	last app.SyncProgress
}

var _ app.Syncer = (*Syncer)(nil)

// New builds a Syncer over a local database. Empty Endpoint and TablePrefix
// in cfg fall back to AWS_ENDPOINT_URL_DYNAMODB (endpoint only) and then to
// what this device used last; values given are remembered for next time.
func New(local Local, cfg Config) *Syncer {
	return &Syncer{local: local, cfg: cfg, sweepEvery: sweepEvery}
}

func (s *Syncer) now() string {
	if s.Now != nil {
		return app.FormatTime(s.Now())
	}
	return app.FormatTime(time.Now())
}

func (s *Syncer) step(name string) {
	if s.Step != nil {
		s.Step(name)
	}
}

func (s *Syncer) emit(stage string) {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	s.progress.Stage = stage
	s.last = s.progress
	if s.report != nil {
		s.report(s.progress)
	}
}

// waiting reports that the cycle waits d before trying again, and why
// (app.SyncBusy*), then goes back to the stage it was in.
func (s *Syncer) waiting(d time.Duration, why string) {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	if s.report == nil {
		return
	}
	p := s.last
	p.Stage, p.RetryIn, p.Why = "wait", d, why
	s.report(p)
}

// resolve fills in the endpoint and table prefix from the environment and
// the device's settings, and remembers the ones given explicitly.
func (s *Syncer) resolve(ctx context.Context) (Config, error) {
	cfg := s.cfg
	for _, f := range []struct {
		name  string
		value *string
		env   string
	}{{settingEndpoint, &cfg.Endpoint, "AWS_ENDPOINT_URL_DYNAMODB"}, {settingPrefix, &cfg.TablePrefix, ""}} {
		if *f.value != "" {
			if err := s.local.SetSyncSetting(ctx, f.name, []byte(*f.value)); err != nil {
				return cfg, err
			}
			continue
		}
		if f.env != "" && os.Getenv(f.env) != "" {
			continue
		}
		v, ok, err := s.local.SyncSetting(ctx, f.name)
		if err != nil {
			return cfg, err
		}
		if ok {
			*f.value = string(v)
		}
	}
	return cfg, nil
}

func (s *Syncer) connect(ctx context.Context) (*Cloud, error) {
	cfg, err := s.resolve(ctx)
	if err != nil {
		return nil, err
	}
	cfg.onRetry = s.waiting
	c, err := Connect(ctx, cfg)
	if err == nil {
		c.onClaim = s.sawClaim
	}
	return c, err
}

// InitCloud creates the cloud tables if they are missing.
func (s *Syncer) InitCloud(ctx context.Context) ([]string, error) {
	c, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	return c.InitTables(ctx)
}

// Sync runs one cycle: pull, push (pull and retry when another device
// appended first), then bring the cloud projection up to date. The outcome
// is kept as the device's sync status.
func (s *Syncer) Sync(ctx context.Context, report func(app.SyncProgress)) (app.SyncResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.progress, s.report = app.SyncProgress{}, report
	started := s.now()
	res, err := s.cycle(ctx)
	if serr := s.saveStatus(context.WithoutCancel(ctx), started, res, err); serr != nil && err == nil {
		err = serr
	}
	return res, err
}

func (s *Syncer) cycle(ctx context.Context) (app.SyncResult, error) {
	var res app.SyncResult
	c, err := s.connect(ctx)
	if err != nil {
		return res, err
	}
	head, _, err := c.logHead(ctx)
	if err != nil {
		return res, err
	}
	confirmed, _, pending, err := s.local.SyncHead(ctx)
	if err != nil {
		return res, err
	}
	if head > confirmed {
		s.progress.ToPull = int(head - confirmed)
	}
	s.progress.ToPush = pending
	s.lostRaces = 0
	s.appended = map[string][]entry{}
	s.proposed = nil
	// The proposals this device wrote before, so that the pull notes the
	// claims that placed their runs (dropProposals).
	if _, err := s.proposalsWritten(ctx); err != nil {
		return res, err
	}
	for {
		if err := s.pull(ctx, c, head, &res); err != nil {
			return res, err
		}
		evs, err := s.local.Pending(ctx, 0)
		if err != nil {
			return res, err
		}
		if len(evs) == 0 {
			break
		}
		s.progress.ToPush = s.progress.Pushed + len(evs)
		out, err := s.push(ctx, c, evs, &res)
		if err != nil {
			return res, err
		}
		if out == pushDone {
			break
		}
		if out == pushLost {
			if err := s.backoff(ctx, c, true); err != nil {
				return res, err
			}
		}
		// pushLost: pull what the others appended, rebase, push again;
		// pushAtHead: pull, which confirms what was appended.
	}
	if err := s.sweep(ctx, c, &res); err != nil {
		return res, err
	}
	confirmed, _, pending, err = s.local.SyncHead(ctx)
	if err != nil {
		return res, err
	}
	if pending == 0 {
		s.contendedSince = time.Time{}
	}
	if err := s.dropProposals(ctx, c, pending); err != nil {
		return res, err
	}
	res.LastEventID = confirmed
	if s.NoProjection {
		return res, nil
	}
	s.emit("projection")
	s.repaired = 0
	res.Projection, err = s.updateProjection(ctx, c, func() { s.emit("projection") })
	res.Repaired = s.repaired
	return res, err
}

// sweep orders ballots that sit in an election's shard with no cut to
// order them one sweep after this device first saw them there: their
// device stopped between its append and its cut (a crash, a lost
// connection) and may never come back. Until a cut orders them they are
// stored in the cloud but in no device's log. A sweep ends a cycle at most
// every sweepEvery and reads the heads of up to sweepPerCycle of the
// election shards this device knows, in turn, and of every one it found
// events waiting in (one small query each); a shard whose events past the
// last cut were already there at the last sweep gets a cut to its head,
// after its chain is checked, and the pull that follows takes them in.
// Events seen there for the first time are left to their device, which
// cuts them within its own cycle.
func (s *Syncer) sweep(ctx context.Context, c *Cloud, res *app.SyncResult) error {
	if !s.lastSweep.IsZero() && time.Since(s.lastSweep) < s.sweepEvery {
		return nil
	}
	s.lastSweep = time.Now()
	_, _, m, err := s.where(ctx)
	if err != nil || len(m.Shards) == 0 {
		return err
	}
	var before sweepNote
	if b, ok, err := s.local.SyncSetting(ctx, settingUncut); err != nil {
		return err
	} else if ok {
		_ = json.Unmarshal(b, &before) // a damaged note only delays a sweep
	}
	now := sweepNote{Uncut: map[string]uint64{}}
	var cuts []entry
	names := m.shardNames()
	look := names
	if len(names) > sweepPerCycle {
		// A few shards a cycle, in turn; those with events waiting every
		// cycle.
		look = nil
		for i := range sweepPerCycle {
			look = append(look, names[(before.Next+i)%len(names)])
		}
		now.Next = (before.Next + sweepPerCycle) % len(names)
		for _, sh := range names {
			if before.Uncut[sh] > 0 && !slices.Contains(look, sh) {
				look = append(look, sh)
			}
		}
	}
	for _, shard := range look {
		at := m.Shards[shard]
		head, _, err := c.shardHead(ctx, shard)
		if err != nil {
			return err
		}
		if head <= at.Seq {
			continue
		}
		if seen := before.Uncut[shard]; seen <= at.Seq {
			now.Uncut[shard] = head // new since the last cycle: their device's to cut
			continue
		}
		tail, err := c.readTail(ctx, shard, at)
		if err != nil {
			return err
		}
		if err := checkEntries(shard, at.Hash, at.Seq+1, tail); err != nil {
			return err
		}
		last := tail[len(tail)-1]
		cuts = append(cuts, entry{cut: &cut{Cut: cutOf{Shard: shard, To: last.seq(), ToHash: last.hash()}}})
	}
	if len(now.Uncut) > 0 || len(before.Uncut) > 0 || now.Next != before.Next {
		b, _ := json.Marshal(now)
		if err := s.local.SetSyncSetting(ctx, settingUncut, b); err != nil {
			return err
		}
	}
	if len(cuts) == 0 {
		return nil
	}
	// Another device's sweep may have appended the same cut (a cut's id
	// is what it covers): the pull below takes it in either way.
	if _, err := s.appendEntries(ctx, c, globalShard, m.Global, cuts); err != nil && !errors.Is(err, errCopyAppended) {
		return err
	}
	s.step("swept")
	head, _, err := c.logHead(ctx)
	if err != nil {
		return err
	}
	return s.pull(ctx, c, head, res)
}

// sweepEvery is how often a device that keeps syncing (the app, `sync
// --watch`, a kiosk) sweeps; every one-off sync sweeps. A sweep costs a
// query per shard it looks at, which a kiosk syncing every few seconds
// would otherwise add to every cycle of election day.
const sweepEvery = 30 * time.Second

// sweepPerCycle is how many elections' shards a cycle looks at, at most,
// besides those it found events waiting in last time.
const sweepPerCycle = 8

// sweepNote is what a sweep leaves for the next: per shard, how far it
// held events no cut ordered; and which shard to look at next.
type sweepNote struct {
	Uncut map[string]uint64 `json:"uncut"`
	Next  int               `json:"next,omitempty"`
}

// backoff counts a lost race and waits before the next try: full jitter
// under retryCeiling. A device that has kept losing for a while waits less
// before a pull and rebase (aged), so the oldest waiters go first; before
// an append at the head it does not, since those tries are cheap and a
// crowd of aged devices retrying them at once only collides (sync/doc.go,
// "Contention"). After maxRounds lost races the cycle gives up.
func (s *Syncer) backoff(ctx context.Context, c *Cloud, aged bool) error {
	s.lostRaces++
	if s.lostRaces >= maxRounds {
		return app.Errorf(app.CodeUnavailable, "other devices kept appending to the cloud log first (%d tries); sync again in a moment", maxRounds)
	}
	if s.contendedSince.IsZero() {
		s.contendedSince = time.Now()
	}
	waited := time.Duration(0)
	if aged {
		waited = time.Since(s.contendedSince)
	}
	wait := time.Duration(rand.Int64N(int64(retryCeiling(s.lostRaces, waited))))
	s.waiting(wait, app.SyncBusyAppending)
	if err := sleep(ctx, wait); err != nil {
		return c.classify(ctx, "wait to retry", err)
	}
	return nil
}

// pull reads the cloud log after the confirmed head and integrates it page
// by page. settled is the global shard's head as the cycle first read it:
// every entry up to it is there (readLog may read them eventually
// consistent).
func (s *Syncer) pull(ctx context.Context, c *Cloud, settled uint64, res *app.SyncResult) error {
	confirmed, prev, m, err := s.where(ctx)
	if err != nil {
		return err
	}
	s.emit("pull")
	return c.readMerged(ctx, m, confirmed+1, prev, settled, false, s.appended, func(page []*app.Event, m mark) error {
		if len(page) == 0 {
			// Cuts that ordered nothing new: the mark moves past them.
			_, err := s.local.IntegrateMarked(ctx, nil, m.encode())
			return err
		}
		rebased, err := s.local.IntegrateMarked(ctx, page, m.encode())
		if err != nil {
			return err
		}
		res.Pulled += len(page)
		res.Rebased += rebased
		s.progress.Pulled += len(page)
		s.progress.ToPull = max(s.progress.ToPull, s.progress.Pulled)
		s.emit("pull")
		s.step("page")
		return nil
	})
}

// where returns the confirmed head, its hash, and where the reading of
// each shard stands there.
func (s *Syncer) where(ctx context.Context) (uint64, string, mark, error) {
	confirmed, prev, _, err := s.local.SyncHead(ctx)
	if err != nil {
		return 0, "", mark{}, err
	}
	b, err := s.local.SyncMark(ctx)
	if err != nil {
		return 0, "", mark{}, err
	}
	m, err := decodeMark(b, confirmed, prev)
	return confirmed, prev, m, err
}

// pushOutcome says how a push ended.
type pushOutcome int

const (
	// pushDone: every pending event is in the cloud log and confirmed here.
	pushDone pushOutcome = iota
	// pushLost: another device appended first; pull, rebase, try again.
	pushLost
	// pushAtHead: the events were appended after other devices' events
	// this device has not pulled yet; the next pull confirms them.
	pushAtHead
)

// push appends pending events to the cloud log. Events of the global shard
// alone go right after the global shard's entry the device read last, a
// transaction at a time, and are confirmed here as each commits; when
// another device appended first and the events fit one transaction, they
// go after the shard's new head at once (appendAtHead). Ballots go to
// their elections' shards, each run followed by a cut (pushShards).
func (s *Syncer) push(ctx context.Context, c *Cloud, evs []*app.Event, res *app.SyncResult) (pushOutcome, error) {
	_, _, m, err := s.where(ctx)
	if err != nil {
		return pushLost, err
	}
	s.emit("push")
	shardFrom := s.cfg.ShardFrom
	if shardFrom <= 0 {
		shardFrom = DefaultShardFrom
	}
	runs := shardRuns(evs, shardFrom)
	if len(runs) > 1 || runs[0].shard != globalShard {
		return s.pushShards(ctx, c, m, runs, res)
	}
	placed := placedAfter(evs, m.Global.Seq, m.Global.Hash)
	segs, err := packSegments(placed)
	if err != nil {
		return pushLost, err
	}
	batches := batchSegments(segs)
	done := 0
	for _, batch := range batches {
		err := s.write(ctx, c, batch)
		if errors.Is(err, errLostRace) {
			s.step("lost")
			if len(batches) == 1 {
				return s.appendAtHead(ctx, c, placed, err, res)
			}
			return pushLost, nil
		}
		if err != nil {
			return pushLost, err
		}
		s.step("pushed")
		n := 0
		for _, seg := range batch {
			n += len(seg.entries)
		}
		last := placed[done+n-1]
		m.Global = place{last.Seq, last.Hash}
		for _, ev := range evs[done : done+n] {
			m.learn(ev)
		}
		if err := s.local.ConfirmPushedMarked(ctx, evs[done:done+n], m.encode()); err != nil {
			return pushLost, err
		}
		done += n
		s.step("confirmed")
		s.pushed(res, n)
	}
	return pushDone, nil
}

// run is a run of consecutive pending events of one shard.
type run struct {
	shard string
	evs   []*app.Event
}

// DefaultShardFrom is the least a run of ballots must weigh (their JSON,
// about) to go to its election's shard: 256 KB, a full segment, a few
// hundred ballots (an import, a polling place's ballots taken offline).
// A lighter run goes to the global shard with the events around it. A run
// in its election's shard costs two appends, each at a contended head (the
// run, then its cut in the global shard, where every device appends), and
// what it spares the global shard is its write units, which matter only
// for bulk: a million-ballot import is 110 MB of JSON, tens of megabytes
// gzipped, so tens of thousands of write units, tens of seconds of a
// partition's whole budget, during which every other device's appends to
// that partition would be throttled. Measured with TestLoad (one election,
// sync/doc.go, "Shards"): with every run in its shard, 200 kiosks pushing
// a ballot or two made 5.1-10.7 lost races a push against about 4, and a
// close of polls of 50 kiosks with 100 ballots each 7.3-7.6 against
// 3.2-3.6.
const DefaultShardFrom = 256 << 10

// shardRuns splits pending events into runs by shard, in order; runs of
// an election's shard lighter than shardFrom join the global shard's.
func shardRuns(evs []*app.Event, shardFrom int) []run {
	var out []run
	for _, ev := range evs {
		sh := eventShard(ev)
		if len(out) == 0 || out[len(out)-1].shard != sh {
			out = append(out, run{shard: sh})
		}
		out[len(out)-1].evs = append(out[len(out)-1].evs, ev)
	}
	var merged []run
	for _, r := range out {
		if r.shard != globalShard && runWeight(r.evs) < shardFrom {
			r.shard = globalShard
		}
		if n := len(merged); n > 0 && merged[n-1].shard == r.shard {
			merged[n-1].evs = append(merged[n-1].evs, r.evs...)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// runWeight is about how many bytes of JSON evs are (what a segment holds
// before compression), without encoding them.
func runWeight(evs []*app.Event) int {
	n := 0
	for _, ev := range evs {
		n += len(ev.Data) + len(ev.Sealed) + 500 // ids, keys, signatures, hashes
	}
	return n
}

// pushShards appends runs of pending events, some of them in elections'
// shards, keeping their order in the merged log: each election run goes to
// its shard and is followed, in the global shard, by a cut that orders it
// there; the global events before an election run are in the global shard
// before the run is appended (once it is, any device's cut may order it).
// Nothing is confirmed here: the next pull finds the events where the cuts
// put them, by id and content, as after any append at the head.
func (s *Syncer) pushShards(ctx context.Context, c *Cloud, m mark, runs []run, res *app.SyncResult) (pushOutcome, error) {
	var global []entry // global entries waiting for the next flush
	flush := func() error {
		if len(global) == 0 {
			return nil
		}
		s.lostRaces = 0 // each shard's head is a race of its own
		end, err := s.appendEntries(ctx, c, globalShard, m.Global, global)
		if err != nil {
			return err
		}
		m.Global, global = end, nil
		return nil
	}
	for _, r := range runs {
		if r.shard == globalShard {
			global = append(global, eventEntries(r.evs)...)
			continue
		}
		if err := flush(); err != nil {
			return lostToCopy(err)
		}
		s.lostRaces = 0
		end, err := s.appendEntries(ctx, c, r.shard, m.Shards[r.shard], eventEntries(r.evs))
		if err != nil {
			return pushLost, err
		}
		global = append(global, entry{cut: &cut{Cut: cutOf{Shard: r.shard, To: end.Seq, ToHash: end.Hash}}})
	}
	if err := flush(); err != nil {
		return lostToCopy(err)
	}
	n := 0
	for _, r := range runs {
		n += len(r.evs)
	}
	s.step("pushed")
	s.pushed(res, n)
	return pushAtHead, nil
}

// appendEntries appends entries to shard after from, the last entry this
// device read there, and returns where its last entry landed. It works as
// appendAtHead does: it finds the shard's head (an election's shard moves
// between cuts, the global shard during the push), places the entries
// after it and appends them on condition that the place is free. After a
// lost race it looks at what holds the contested place (DynamoDB returns
// it with the refusal): its own attempt whose answer was lost ends the
// race; otherwise it waits the backoff, finds the head again and tries
// there. Every attempt either committed where it was placed, and is found
// there, or wrote nothing, so no entry goes to a shard twice within a
// cycle. Across cycles and copies of a database, entries that are
// already in the shard are found first: in an election's shard, what it
// holds past its last cut is read and the entries found there by id are
// dropped (catchUp: this device appended them in a cycle that stopped
// before the cut, or a copy did); in the global shard, a run appended
// since this device pulled that starts with one of its entries sends it
// back to pull (globalHead, errCopyAppended).
func (s *Syncer) appendEntries(ctx context.Context, c *Cloud, shard string, from place, todo []entry) (place, error) {
	known := from
	if shard != globalShard {
		// What the shard holds past its last cut is read, not only its
		// head: a run no cut orders yet may hold some of these events,
		// appended by this device in a cycle that stopped, or by a copy
		// of this database, which held them pending too. Only the rest
		// is appended.
		var err error
		if known, todo, err = s.catchUp(ctx, c, shard, known, todo); err != nil || len(todo) == 0 {
			return known, err
		}
	} else {
		var err error
		if known, err = s.globalHead(ctx, c, known, todo); err != nil {
			return from, err
		}
	}
	// The entries are placed and packed once per race, not once per batch:
	// after a batch commits, the rest are still placed right after it.
	var placed []entry
	var segs []segment
	for {
		if segs == nil {
			placed = make([]entry, len(todo))
			at := known
			for i, e := range todo {
				placed[i] = e.placed(at.Seq+1, at.Hash)
				at = place{placed[i].seq(), placed[i].hash()}
			}
			var err error
			if segs, err = packEntries(shardPK(shard), placed); err != nil {
				return from, err
			}
		}
		batch := batchSegments(segs)[0]
		n := 0
		for _, seg := range batch {
			n += len(seg.entries)
		}
		err := s.write(ctx, c, batch)
		if errors.Is(err, errLostRace) {
			s.step("lost")
			id, hash, herr := c.holder(ctx, shard, err, placed[0].seq())
			if herr != nil {
				return from, herr
			}
			if id == placed[0].id() && hash == placed[n-1].hash() {
				err = nil // this attempt committed; its answer was lost
			} else if id == placed[0].id() && shard == globalShard {
				// Another device's append starts with this one's first
				// entry: a copy of this database, which held the same
				// events pending. The pull finds them; appending them at
				// the head would put them in the log twice.
				return from, errCopyAppended
			}
		}
		if err == nil {
			known = place{placed[n-1].seq(), placed[n-1].hash()}
			if shard != globalShard {
				s.appended[shard] = append(s.appended[shard], placed[:n]...)
				s.step("appended")
			}
			if todo = todo[n:]; len(todo) == 0 {
				return known, nil
			}
			placed, segs = placed[n:], segs[len(batch):]
			continue
		}
		if !errors.Is(err, errLostRace) {
			return from, err
		}
		segs = nil // placed again after the head that won
		if err := s.backoff(ctx, c, false); err != nil {
			return from, err
		}
		if shard != globalShard {
			// What won may hold some of these events (a copy's run).
			var err error
			if known, todo, err = s.catchUp(ctx, c, shard, known, todo); err != nil || len(todo) == 0 {
				return known, err
			}
			continue
		}
		if known, err = s.globalHead(ctx, c, known, todo); err != nil {
			return from, err
		}
	}
}

// globalHead returns the global shard's head, reading the frames of what
// was appended after known: if a run among them starts with one of todo's
// events, a copy of this database appended them (it held them pending
// too), and errCopyAppended sends the cycle back to pull them; appending
// them at the head would put them in the log twice.
func (s *Syncer) globalHead(ctx context.Context, c *Cloud, known place, todo []entry) (place, error) {
	frames, err := c.framesFrom(ctx, globalShard, known.Seq+1)
	if err != nil || len(frames) == 0 {
		return known, err
	}
	mine := make(map[string]bool, len(todo))
	for _, e := range todo {
		mine[e.id()] = true
	}
	for _, f := range frames {
		if mine[f.firstID] {
			return known, errCopyAppended
		}
	}
	head := frames[len(frames)-1]
	if len(head.lastHash) != 64 {
		return known, badHead(globalShard)
	}
	return place{head.lastSeq, head.lastHash}, nil
}

// errCopyAppended means an append lost its place to another device's
// append of some of the same events: a copy of this database, which held
// them pending too (appendEntries). The cycle pulls, which confirms them,
// and pushes what is left.
var errCopyAppended = errors.New("cloudsync: a copy of this database appended these events first")

// lostToCopy is the outcome of a push that stopped with err: pull and push
// again after a copy's append, else err.
func lostToCopy(err error) (pushOutcome, error) {
	if errors.Is(err, errCopyAppended) {
		return pushLost, nil
	}
	return pushLost, err
}

// badHead says a shard's last segment gives no hash to chain onto.
func badHead(shard string) error {
	return app.Errorf(app.CodeInvalid, "cloud log%s the segment at its head has no valid hash", shardWords(shard))
}

// catchUp reads what shard holds after known, and returns its head and
// the entries of todo not found there.
func (s *Syncer) catchUp(ctx context.Context, c *Cloud, shard string, known place, todo []entry) (place, []entry, error) {
	tail, err := c.readTail(ctx, shard, known)
	if err != nil {
		return known, todo, err
	}
	if len(tail) == 0 {
		return known, todo, nil
	}
	// What this device chains onto and cuts to must be whole: a cut of a
	// broken chain would stop every device's pull there.
	if err := checkEntries(shard, known.Hash, known.Seq+1, tail); err != nil {
		return known, todo, err
	}
	last := tail[len(tail)-1]
	return place{last.seq(), last.hash()}, skipFound(todo, tail), nil
}

// skipFound drops from todo the entries tail already holds: events by id,
// and cuts that a cut of the same shard in tail reaches.
func skipFound(todo, tail []entry) []entry {
	ids := make(map[string]bool, len(tail))
	reach := map[string]uint64{}
	for _, e := range tail {
		if e.cut != nil {
			reach[e.cut.Cut.Shard] = max(reach[e.cut.Cut.Shard], e.cut.Cut.To)
		} else {
			ids[e.ev.ID] = true
		}
	}
	var out []entry
	for _, e := range todo {
		switch {
		case e.cut != nil && reach[e.cut.Cut.Shard] >= e.cut.Cut.To:
		case e.cut == nil && ids[e.ev.ID]:
		default:
			out = append(out, e)
		}
	}
	return out
}

// pushed counts n events appended to the cloud log and reports progress.
func (s *Syncer) pushed(res *app.SyncResult, n int) {
	res.Pushed += n
	s.progress.Pushed += n
	s.emit("push")
}

// appendAtHead appends the pending events evs, whose append at evs[0].Seq
// lost its race, right after the event the cloud log now ends with,
// without first pulling and applying what the other devices appended: it
// reads the head's sequence number and hash, places copies of the events
// there (sequence numbers and hash chain; an event's content and
// signatures do not depend on its place), and appends them on the same
// condition as any append. The rules decide what an event does where it
// lands in the log, on every device, so this is the log a pull and rebase
// would have made, without the pull: a device that lost a race retries
// after two small requests instead of reading, checking and applying what
// the winners wrote, which is what kept many devices closing their polls
// at once from getting through (sync/doc.go, "Contention").
//
// An attempt whose answer was lost may have committed. So after every
// lost race the segment at the contested place is looked at (as DynamoDB
// returned it with the refusal, or read): if it starts with
// this device's first event and ends with the hash this attempt gave its
// last (which covers every event's content and the place), it is this
// device's append. Every attempt either committed there or did not write
// at all, so no event goes to the log twice. The events stay pending here
// until the next pull finds them at their places (by id and content, as
// after any lost answer). After the first look, the retries are
// appendEntries's, which every append at a head of any shard shares.
func (s *Syncer) appendAtHead(ctx context.Context, c *Cloud, evs []*app.Event, lostErr error, res *app.SyncResult) (pushOutcome, error) {
	id, hash, err := c.holder(ctx, globalShard, lostErr, evs[0].Seq)
	if err != nil {
		return pushLost, err
	}
	if id == evs[0].ID && hash != evs[len(evs)-1].Hash {
		return pushLost, nil // a copy's append (see appendEntries): pull first
	}
	if id != evs[0].ID {
		if err := s.backoff(ctx, c, false); err != nil {
			return pushLost, err
		}
		_, err := s.appendEntries(ctx, c, globalShard, place{evs[0].Seq - 1, evs[0].PrevHash}, eventEntries(evs))
		if errors.Is(err, errCopyAppended) {
			return pushLost, nil
		}
		if err != nil {
			return pushLost, err
		}
	}
	s.step("pushed")
	s.pushed(res, len(evs))
	return pushAtHead, nil
}

// placedAfter returns copies of evs as they would stand in the log right
// after the event seq whose hash is hash: their sequence numbers and hash
// chain. Their content, ids and signatures are unchanged.
func placedAfter(evs []*app.Event, seq uint64, hash string) []*app.Event {
	out := make([]*app.Event, len(evs))
	for i, ev := range evs {
		cp := *ev
		cp.Seq = seq + 1 + uint64(i)
		cp.Chain(hash)
		hash = cp.Hash
		out[i] = &cp
	}
	return out
}

// savedStatus is the part of the status kept in the device bucket.
type savedStatus struct {
	LastAttempt string `json:"last_attempt,omitempty"`
	LastSuccess string `json:"last_success,omitempty"`
	LastError   string `json:"last_error,omitempty"`
	LastPulled  int    `json:"last_pulled"`
	LastPushed  int    `json:"last_pushed"`
}

func (s *Syncer) loadStatus(ctx context.Context) (savedStatus, error) {
	var st savedStatus
	b, ok, err := s.local.SyncSetting(ctx, settingStatus)
	if err != nil || !ok {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return savedStatus{}, nil // a damaged status is only history; start again
	}
	return st, nil
}

func (s *Syncer) saveStatus(ctx context.Context, started string, res app.SyncResult, cycleErr error) error {
	st, err := s.loadStatus(ctx)
	if err != nil {
		return err
	}
	st.LastAttempt, st.LastPulled, st.LastPushed = started, res.Pulled, res.Pushed
	if cycleErr == nil {
		st.LastSuccess, st.LastError = started, ""
	} else {
		st.LastError = app.ErrorMessage(cycleErr)
	}
	b, _ := json.Marshal(st)
	return s.local.SetSyncSetting(ctx, settingStatus, b)
}

// Status reports the device's sync state from its database; it does not
// talk to the cloud.
func (s *Syncer) Status(ctx context.Context) (app.SyncStatus, error) {
	var out app.SyncStatus
	confirmed, hash, pending, err := s.local.SyncHead(ctx)
	if err != nil {
		return out, err
	}
	cfg, err := s.resolveQuiet(ctx)
	if err != nil {
		return out, err
	}
	st, err := s.loadStatus(ctx)
	if err != nil {
		return out, err
	}
	_, _, m, err := s.where(ctx)
	if err != nil {
		return out, err
	}
	out = app.SyncStatus{Endpoint: cfg.Endpoint, TablePrefix: cfg.TablePrefix, LastEventID: confirmed, LastEventHash: hash,
		Pending: pending, LastError: st.LastError, LastPulled: st.LastPulled, LastPushed: st.LastPushed,
		Shards: m.places()}
	out.LastAttempt, _ = time.Parse(time.RFC3339Nano, st.LastAttempt)
	out.LastSuccess, _ = time.Parse(time.RFC3339Nano, st.LastSuccess)
	if out.Endpoint == "" {
		out.Endpoint = os.Getenv("AWS_ENDPOINT_URL_DYNAMODB")
	}
	return out, nil
}

// resolveQuiet is resolve without remembering anything.
func (s *Syncer) resolveQuiet(ctx context.Context) (Config, error) {
	cfg := s.cfg
	if cfg.Endpoint == "" && os.Getenv("AWS_ENDPOINT_URL_DYNAMODB") == "" {
		v, _, err := s.local.SyncSetting(ctx, settingEndpoint)
		if err != nil {
			return cfg, err
		}
		cfg.Endpoint = string(v)
	}
	if cfg.TablePrefix == "" {
		v, _, err := s.local.SyncSetting(ctx, settingPrefix)
		if err != nil {
			return cfg, err
		}
		cfg.TablePrefix = string(v)
	}
	return cfg, nil
}

// Watch runs cycles until ctx ends: every interval after a success, and
// after a failure with exponential backoff and jitter (up to ten times the
// interval, at most 15 minutes). after, if set, is told each cycle's outcome.
func (s *Syncer) Watch(ctx context.Context, interval time.Duration, report func(app.SyncProgress), after func(app.SyncResult, error)) error {
	failures := 0
	for {
		res, err := s.Sync(ctx, report)
		if ctx.Err() != nil {
			return nil
		}
		if after != nil {
			after(res, err)
		}
		if err != nil {
			failures++
		} else {
			failures = 0
		}
		wait := app.Backoff(interval, failures)
		if sleep(ctx, wait) != nil {
			return nil
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
