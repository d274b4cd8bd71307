package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// Syncer syncs this device's log with the shared cloud log. The GUI and the
// command line use it; package sync implements it over DynamoDB.
type Syncer interface {
	// InitCloud creates the cloud tables if they are missing and returns the
	// names of those it created.
	InitCloud(ctx context.Context) (created []string, err error)
	// Sync runs one cycle: pull what others appended, push what this device
	// made offline, bring the cloud projection up to date. progress, if set,
	// is told the counts as they change. Cancelling ctx stops it between
	// steps; whatever was committed stays committed.
	Sync(ctx context.Context, progress func(SyncProgress)) (SyncResult, error)
	// Status reports the state of sync on this device.
	Status(ctx context.Context) (SyncStatus, error)
	// Watch runs Sync until ctx ends: every interval after a success, with
	// exponential backoff and jitter after a failure. after, if set, is told
	// each cycle's outcome. It returns nil when ctx ends.
	Watch(ctx context.Context, interval time.Duration, progress func(SyncProgress), after func(SyncResult, error)) error
}

// CloudOptions choose the cloud tables: the endpoint (empty: the AWS
// environment's) and the table name prefix. Empty fields fall back to what
// this device used last.
type CloudOptions struct {
	Endpoint    string
	TablePrefix string
	// NoProjection leaves the cloud projection out of the cycle (a later
	// cycle or another device writes it); CheckProjection compares the
	// whole cloud projection with this device's and repairs it.
	NoProjection, CheckProjection bool
}

// SyncProgress is where a sync cycle stands, in events.
type SyncProgress struct {
	Stage     string // "pull", "push", "projection", or "wait" (to retry)
	Pulled    int    // events pulled so far, of ToPull
	ToPull    int
	Pushed    int // events pushed so far, of ToPush
	ToPush    int
	Projected int // cloud projection items written so far, of ToProject
	ToProject int
	// While Stage is "wait": how long until the cycle tries again, and why,
	// in plain words (SyncBusy*).
	RetryIn time.Duration
	Why     string
}

// Why a sync waits to retry.
const (
	SyncBusyAppending = "other devices are adding to the log"
	SyncBusyThrottled = "DynamoDB asks to slow down"
	SyncBusyFailing   = "DynamoDB did not answer properly"
)

// Waiting says in plain words what a sync waiting to retry waits for, e.g.
// "The cloud is busy (...); retrying in 4 s." ("" when it is not waiting).
func (p SyncProgress) Waiting() string {
	if p.Stage != "wait" {
		return ""
	}
	in := "a moment"
	switch {
	case p.RetryIn >= 10*time.Second:
		in = fmt.Sprintf("%d s", int(p.RetryIn.Round(time.Second)/time.Second))
	case p.RetryIn >= 100*time.Millisecond:
		in = fmt.Sprintf("%.1f s", p.RetryIn.Seconds())
	}
	return fmt.Sprintf("The cloud is busy (%s); retrying in %s.", p.Why, in)
}

// SyncResult is what one sync cycle did.
type SyncResult struct {
	Pulled      int    // events read from the cloud log and applied here
	Pushed      int    // events of this device appended to the cloud log
	Rebased     int    // local events laid back on top of events pulled
	LastEventID uint64 // the confirmed head of the log after the cycle
	Projection  uint64 // the cloud projection's last event after the cycle
	Repaired    int    // cloud projection items a check found wrong and wrote again
}

// SyncStatus is the state of sync on this device, kept in its database.
type SyncStatus struct {
	Endpoint      string    `json:"endpoint"`
	TablePrefix   string    `json:"table_prefix"`
	LastEventID   uint64    `json:"last_event_id"`
	LastEventHash string    `json:"last_event_hash"`
	Pending       int       `json:"pending"`
	LastAttempt   time.Time `json:"last_attempt,omitzero"`
	LastSuccess   time.Time `json:"last_success,omitzero"`
	LastError     string    `json:"last_error,omitempty"`
	LastPulled    int       `json:"last_pulled"`
	LastPushed    int       `json:"last_pushed"`
	// Shards says how far this device has read each shard of the cloud
	// log: the global shard first, then each election's (sync/doc.go).
	Shards []ShardPlace `json:"shards"`
}

// ShardPlace is how far a device has read one shard of the cloud log.
type ShardPlace struct {
	// Shard is "global" or an election's shard; ElectionID names the
	// election of an election's shard.
	Shard      string `json:"shard"`
	ElectionID string `json:"election_id,omitempty"`
	// Read is the last entry of the shard this device holds.
	Read uint64 `json:"read"`
}

// CloudVerifier checks the cloud's copy of the log (a Syncer may offer it).
type CloudVerifier interface {
	// VerifyCloud reads the whole cloud log and checks its hash chain event
	// by event, and that every event this device holds as confirmed is the
	// same in the cloud. The report names the first bad sequence number.
	VerifyCloud(ctx context.Context) (VerifyReport, error)
}

// Backoff is how long to wait before the next sync cycle after failures
// failures in a row, with cycles every interval when all is well:
// exponential with jitter, up to ten times the interval and at most 15
// minutes.
func Backoff(interval time.Duration, failures int) time.Duration {
	if failures <= 0 {
		return interval
	}
	ceil := min(interval<<min(failures, 10), 10*interval, 15*time.Minute)
	return ceil/2 + time.Duration(rand.Int64N(int64(ceil/2)+1))
}
