package cloudsync_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
	cloudsync "votedesk/sync"
	"votedesk/sync/ddblimit"
)

// TestPullEventuallyConsistent: a pull reads the part of the log it knows
// to be settled with eventually consistent queries, at half the read units,
// and what those do not return (a copy of the partition that lags behind
// the recent appends) with consistent ones, so it misses nothing. A second
// laptop pulls a log whose last appends every eventually consistent read
// misses, and one whose appends it all misses; it ends with the first
// laptop's state, for fewer read units than reading it all consistently.
func TestPullEventuallyConsistent(t *testing.T) {
	noClaims(t) // what queries of segments cost; claims read their proposals
	prefix := newPrefix(t)
	clk := apptest.NewClock(start, 0)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true, StaleReads: time.Minute, Now: clk.Now})
	hc := &http.Client{Transport: tr}
	logUnits := func(st ddblimit.Stats) float64 {
		// The log's partitions: the global shard and the elections'.
		u := 0.0
		for k, p := range st.Partitions {
			if strings.HasPrefix(k, cloudsync.TablesFor(prefix).Log+" LOG#") {
				u += p.ReadUnits
			}
		}
		return u
	}

	a := newDevice(t, "laptop", prefix, 0, hc)
	seed(a, 320)
	for from := 1; from <= 300; from += 50 {
		castMayor(a, "ann", from, from+49)
		a.sync()
	}
	clk.Add(time.Hour) // what is in the log so far has reached every copy
	castMayor(a, "ann", 301, 320)
	a.sync()

	b := newDevice(t, "second", prefix, time.Minute, hc)
	before := tr.Stats()
	res := b.sync()
	after := tr.Stats()
	if after.Stale == before.Stale {
		t.Errorf("no eventually consistent read met the lagging copy: the pull did not read eventually consistent")
	}
	if res.Pulled == 0 || b.stateHash() != a.stateHash() {
		t.Fatalf("after a pull of %d events through a lagging copy the second laptop's state differs from the first's", res.Pulled)
	}
	pulled := logUnits(after) - logUnits(before)

	// The same events read consistently cost more.
	c := connect(t, prefix, hc)
	before = tr.Stats()
	all := cloudLog(t, c)
	consistent := logUnits(tr.Stats()) - logUnits(before)
	if len(all) != res.Pulled || pulled >= consistent {
		t.Errorf("the pull of %d events took %.1f read units, a consistent read of the %d in the log %.1f; want fewer", res.Pulled, pulled, len(all), consistent)
	}
	t.Logf("%d events: pulled for %.1f read units, %.1f when read consistently", res.Pulled, pulled, consistent)

	// A copy that has none of the recent appends: everything comes from
	// the consistent read.
	for i := 1; i <= 30; i++ {
		_, err := a.svc.CastBallot(a.ctx, "ben", app.Cast{Election: "Levy", Voter: fmt.Sprintf("l%03d", i),
			Rankings: []app.Ranking{{Candidate: "Yes", Rank: 1}}})
		a.must(err)
	}
	a.must(a.svc.CloseElection(a.ctx, "ann", "Mayor"))
	a.sync()
	before = tr.Stats()
	if res := b.sync(); res.Pulled != 31 || tr.Stats().Stale == before.Stale {
		t.Errorf("the second pull took %d events (want 31), %d eventually consistent reads met the lagging copy (want some)", res.Pulled, tr.Stats().Stale-before.Stale)
	}
	if b.stateHash() != a.stateHash() {
		t.Fatal("after a pull that eventually consistent reads saw nothing of, the second laptop's state differs from the first's")
	}
	converged(t, connect(t, prefix, nil), a, b)
}

// TestPullThroughGaps: an eventually consistent answer that leaves a
// segment out and goes on past it (ddblimit's StaleGaps) is not used from
// the gap on; the consistent read fills it, and the second laptop ends
// with the first laptop's state.
func TestPullThroughGaps(t *testing.T) {
	prefix := newPrefix(t)
	clk := apptest.NewClock(start, 0)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true, StaleReads: time.Minute, StaleGaps: true, Now: clk.Now})
	hc := &http.Client{Transport: tr}
	a := newDevice(t, "laptop", prefix, 0, hc)
	seed(a, 90)
	castMayor(a, "ann", 1, 30)
	a.sync()
	// The next segment is written last as the copy sees it: the one after
	// it is older.
	clk.Add(time.Hour)
	castMayor(a, "ann", 31, 60)
	a.sync()
	clk.Add(-time.Hour)
	castMayor(a, "ann", 61, 90)
	a.sync()
	clk.Add(time.Hour + time.Second)

	b := newDevice(t, "second", prefix, time.Minute, hc)
	before := tr.Stats().Stale
	b.sync()
	if tr.Stats().Stale == before {
		t.Error("no eventually consistent read met the gap")
	}
	if b.stateHash() != a.stateHash() {
		t.Fatal("after a pull through a gap the second laptop's state differs from the first's")
	}
	converged(t, connect(t, prefix, nil), a, b)
}
