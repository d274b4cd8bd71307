package kiosk

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"votedesk/app"
)

// BenchmarkKioskCast times a whole cast as a voter sees it: from Enter on
// "Cast my ballot" to the receipt on screen (the cast off the UI goroutine,
// bbolt's commit with fsync, the result posted back, the receipt built and
// shown), against a real database file. One op is one cast; check-in,
// ranking and review are not timed. It reports the median and the 99th
// percentile; run it with -benchtime 1000x for the figures over 1,000 casts.
func BenchmarkKioskCast(b *testing.B) {
	f := newFixture(b)
	yes := true
	if err := f.svc.UpdateElection(f.ctx, official, "Mayor", 0, app.ElectionChanges{AllowEdit: &yes}); err != nil {
		b.Fatal(err)
	}
	for start := 0; start < b.N; start += 5000 {
		var voters []app.VoterEntry
		for i := start; i < min(start+5000, b.N); i++ {
			voters = append(voters, app.VoterEntry{Name: benchVoter(i)})
		}
		if err := f.svc.AddVoters(f.ctx, official, "Mayor", voters...); err != nil {
			b.Fatal(err)
		}
	}
	h := startHarness(b, f, "Mayor")
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	b.StopTimer()
	for i := range b.N {
		h.checkIn(benchVoter(i))
		h.typ("213")
		h.press(h.k.ballot.review)
		h.tabTo(h.k.review.cast)

		b.StartTimer()
		start := time.Now()
		h.key(fyne.KeyReturn)
		d := time.Since(start)
		b.StopTimer()

		if h.k.receipt == nil || h.k.screen != h.k.receipt {
			b.Fatalf("cast %d: screen %T, want the receipt", i, h.k.screen)
		}
		took = append(took, d)
		h.key(fyne.KeyReturn)
	}
	slices.Sort(took)
	ms := func(q float64) float64 {
		return float64(took[min(int(q*float64(len(took))), len(took)-1)]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(0.5), "ms-median")
	b.ReportMetric(ms(0.99), "ms-p99")
}

func benchVoter(i int) string { return fmt.Sprintf("bench%06d", i) }
