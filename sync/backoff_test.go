package cloudsync

import (
	"testing"
	"time"
)

// TestRetryCeiling: the wait before a retry doubles with each lost race up
// to 64 times the base, and a device that has kept losing for over 10 s
// waits an eighth as long.
func TestRetryCeiling(t *testing.T) {
	for _, tc := range []struct {
		round  int
		waited time.Duration
		want   time.Duration
	}{
		{1, 0, 160 * time.Millisecond},
		{2, time.Second, 320 * time.Millisecond},
		{6, 5 * time.Second, 5120 * time.Millisecond},
		{20, 5 * time.Second, 5120 * time.Millisecond},
		{1, 11 * time.Second, 20 * time.Millisecond},
		{20, time.Minute, 640 * time.Millisecond},
	} {
		if got := retryCeiling(tc.round, tc.waited); got != tc.want {
			t.Errorf("retryCeiling(%d, %s) = %s, want %s", tc.round, tc.waited, got, tc.want)
		}
	}
}
