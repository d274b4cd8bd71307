package ui

import (
	"context"
	"errors"
	"sync"
	"time"

	"votedesk/app"
)

// fakeSyncer stands in for the sync package, which is being built
// separately: it keeps its settings, reports a status, and "syncs" in
// steps, or fails when told to.
type fakeSyncer struct {
	mu       sync.Mutex
	settings SyncSettings
	status   SyncStatus
	fail     error
	syncs    int
	steps    []int
	// busy, when set, is a wait to retry the sync reports half way.
	busy string
}

func newFakeSyncer(now time.Time) *fakeSyncer {
	return &fakeSyncer{
		settings: SyncSettings{Profile: "votedesk", Region: "eu-west-1"},
		status:   SyncStatus{LastSuccess: now.Add(-42 * time.Minute), Pending: 17},
	}
}

func (f *fakeSyncer) Settings() SyncSettings {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.settings
}

func (f *fakeSyncer) Configure(s SyncSettings) error {
	if s.Region == "" {
		return errors.New("the region is empty")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.settings = s
	return nil
}

func (f *fakeSyncer) Status(context.Context) (SyncStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status, nil
}

func (f *fakeSyncer) Sync(_ context.Context, progress func(SyncProgress)) (SyncReport, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.syncs++
	if f.fail != nil {
		f.status.LastError = f.fail.Error()
		return SyncReport{}, f.fail
	}
	n := f.status.Pending
	for i := 1; i <= n; i++ {
		if i == n/2 && f.busy != "" {
			progress(SyncProgress{Done: i - 1, Total: n, Waiting: f.busy})
		}
		progress(SyncProgress{Done: i, Total: n})
		f.steps = append(f.steps, i)
	}
	f.status.Pending, f.status.LastError = 0, ""
	f.status.LastSuccess = f.status.LastSuccess.Add(42 * time.Minute)
	return SyncReport{Pushed: n, Pulled: 3}, nil
}

// readShards makes the status say the device has read the global shard and
// each election's (as the real syncer reports after a sync).
func (f *fakeSyncer) readShards(h *harness, actor string) {
	es, err := h.svc.Elections(h.ctx, actor)
	if err != nil {
		h.t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Shards = []app.ShardPlace{{Shard: "global", Read: 1204}}
	for i, e := range es {
		f.status.Shards = append(f.status.Shards, app.ShardPlace{Shard: "ELECTION#" + e.ID, ElectionID: e.ID, Read: uint64(310 + 1000*i)})
	}
}
