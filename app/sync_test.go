package app

import (
	"testing"
	"time"
)

// TestSyncProgressWaiting: a sync waiting to retry says why and for how
// long, in words an official reads; any other stage says nothing.
func TestSyncProgressWaiting(t *testing.T) {
	for _, tc := range []struct {
		p    SyncProgress
		want string
	}{
		{SyncProgress{Stage: "pull"}, ""},
		{SyncProgress{Stage: "wait", Why: SyncBusyAppending, RetryIn: 40 * time.Millisecond}, "The cloud is busy (other devices are adding to the log); retrying in a moment."},
		{SyncProgress{Stage: "wait", Why: SyncBusyThrottled, RetryIn: 4 * time.Second}, "The cloud is busy (DynamoDB asks to slow down); retrying in 4.0 s."},
		{SyncProgress{Stage: "wait", Why: SyncBusyFailing, RetryIn: 350 * time.Millisecond}, "The cloud is busy (DynamoDB did not answer properly); retrying in 0.3 s."},
		{SyncProgress{Stage: "wait", Why: SyncBusyThrottled, RetryIn: 12600 * time.Millisecond}, "The cloud is busy (DynamoDB asks to slow down); retrying in 13 s."},
	} {
		if got := tc.p.Waiting(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}
