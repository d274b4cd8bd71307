package app_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/tally"
)

// BenchmarkCastDurable measures one durable ballot cast (bbolt commit with
// fsync) as a voter sees it; each op is 1,000 casts, reported as the median
// and 99th percentile latency of a single cast.
func BenchmarkCastDurable(b *testing.B) {
	e := newEnv(b)
	const casts = 1000
	voters := make([]app.VoterEntry, casts)
	lat := make([]time.Duration, 0, casts*b.N)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		name := fmt.Sprintf("Bench %d", i)
		e.must(e.svc.CreateElection(e.ctx, "user", name, "", false))
		e.must(e.svc.AddCandidates(e.ctx, "user", name, "A", "B", "C", "D"))
		for j := range voters {
			voters[j] = app.VoterEntry{Name: fmt.Sprintf("voter-%05d", j)}
		}
		e.must(e.svc.AddVoters(e.ctx, "user", name, voters...))
		e.must(e.svc.LaunchElection(e.ctx, "user", name))
		b.StartTimer()
		for j := range casts {
			t0 := time.Now()
			_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: name, Voter: voters[j].Name, Rankings: rank("C", "A", "D")})
			lat = append(lat, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkBulkImport1M measures importing 1,000,000 ballots (10 candidates,
// random rankings of 1 to 10 choices) into one election, all or nothing.
func BenchmarkBulkImport1M(b *testing.B) {
	const n = 1_000_000
	cands := []string{"C01", "C02", "C03", "C04", "C05", "C06", "C07", "C08", "C09", "C10"}
	ballots := randomBallots(n, cands)
	var size int64
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		e := newEnv(b)
		name := fmt.Sprintf("Bulk %d", i)
		e.must(e.svc.CreateElection(e.ctx, "user", name, "", false))
		e.must(e.svc.AddCandidates(e.ctx, "user", name, cands...))
		b.StartTimer()
		if _, err := e.svc.ImportBallots(e.ctx, "user", name, app.SourceCVR, ballots, nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if fi, err := os.Stat(e.store.Path()); err == nil {
			size = fi.Size()
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "ballots/s")
	// What the database file holds per ballot stored (the file, not its
	// compaction: bbolt keeps freed pages).
	b.ReportMetric(float64(size)/n, "db-B/ballot")
}

// BenchmarkCountInput1M measures reading a stored 1,000,000-ballot
// election into a ballot set for counting (what `votedesk tally ELECTION`
// and the Results tab do before they count): the rankings of every ballot
// item, read out of bbolt and parsed into marks.
func BenchmarkCountInput1M(b *testing.B) {
	const n = 1_000_000
	cands := []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
		"Donald Knuth", "Frances Allen", "John Backus", "Margaret Hamilton", "Ken Thompson"}
	ballots := randomBallots(n, cands)
	e := newEnv(b)
	e.must(e.svc.CreateElection(e.ctx, "user", "Big", "", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Big", cands...))
	if _, err := e.svc.ImportBallots(e.ctx, "user", "Big", app.SourceCVR, ballots, nil); err != nil {
		b.Fatal(err)
	}
	ballots = nil
	read := func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in, err := e.svc.CountInput(e.ctx, "user", "Big")
			if err != nil {
				b.Fatal(err)
			}
			if in.Ballots.Len() != n {
				b.Fatalf("read %d ballots", in.Ballots.Len())
			}
		}
	}
	// What the Results tab's Count button runs: the read and an IRV count.
	irv := func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.svc.Count(e.ctx, "user", "Big", tally.IRV, tally.DefaultRules()); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("read", read)
	b.Run("irv", irv)
	// Once the polls are closed, the first count keeps what it read
	// (count_cache.go) and later ones read that: the same two, from the
	// cache.
	e.must(e.svc.LaunchElection(e.ctx, "user", "Big"))
	e.must(e.svc.CloseElection(e.ctx, "user", "Big"))
	if _, err := e.svc.CountInput(e.ctx, "user", "Big"); err != nil {
		b.Fatal(err)
	}
	b.Run("cached", read)
	b.Run("cached-irv", irv)
}

// BenchmarkBallotList1M measures the Results tab's ballot list of a stored
// 1,000,000-ballot election: /whole lists every ballot (Ballots, what the
// tab did until 2026-11-28, and what `ballot list` and the export read),
// /list lists them as the tab does now (ListBallots and its first page of
// 256). kept-MB is the heap the result holds once the garbage is collected.
func BenchmarkBallotList1M(b *testing.B) {
	const n = 1_000_000
	cands := []string{"Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"}
	e := newEnv(b)
	e.must(e.svc.CreateElection(e.ctx, "user", "Big", "", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Big", cands...))
	if _, err := e.svc.ImportBallots(e.ctx, "user", "Big", app.SourceCVR, randomBallots(n, cands), nil); err != nil {
		b.Fatal(err)
	}
	kept := func(b *testing.B, hold any) {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		before := m.HeapAlloc
		runtime.KeepAlive(hold)
		hold = nil
		runtime.GC()
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(before-min(before, m.HeapAlloc))/1e6, "kept-MB")
	}
	b.Run("whole", func(b *testing.B) {
		var last []app.Ballot
		for b.Loop() {
			last = nil
			bs, err := e.svc.Ballots(e.ctx, "user", "Big")
			if err != nil || len(bs) != n {
				b.Fatalf("%d ballots, %v", len(bs), err)
			}
			last = bs
		}
		kept(b, last)
	})
	b.Run("list", func(b *testing.B) {
		var last *app.BallotList
		for b.Loop() {
			last = nil
			l, err := e.svc.ListBallots(e.ctx, "user", "Big")
			if err != nil || l.Len() != n {
				b.Fatalf("%v", err)
			}
			if rows, err := l.Rows(e.ctx, 0, 256); err != nil || len(rows) != 256 {
				b.Fatalf("%d rows, %v", len(rows), err)
			}
			last = l
		}
		kept(b, last)
	})
}

// randomBallots makes n ballots ranking 1 to all of cands at random (fixed
// seed), with source ids 0, 1, ...
func randomBallots(n int, cands []string) []app.ImportedBallot {
	rng := rand.New(rand.NewPCG(1, 2))
	ballots := make([]app.ImportedBallot, n)
	for i := range ballots {
		perm := rng.Perm(len(cands))[:1+rng.IntN(len(cands))]
		r := make([]app.Ranking, len(perm))
		for j, c := range perm {
			r[j] = app.Ranking{Candidate: cands[c], Rank: j + 1}
		}
		ballots[i] = app.ImportedBallot{SourceID: fmt.Sprint(i), Rankings: r}
	}
	return ballots
}

// BenchmarkPollBook measures adding voters to a poll book: /500k adds
// 500,000 to an empty one (a county's roll, as `import voters` does: all or
// nothing, 2,000 to an event), /2k-to-500k adds 2,000 to one that holds
// 500,000 (a late batch). Each batch checks that none of its names is
// already listed, as the domain compares names. The names come in no
// order, as a roll's do.
func BenchmarkPollBook(b *testing.B) {
	// A roll in the order of its voter ids: names in no order.
	first := []string{"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"}
	roll := func(prefix string, n int) []app.VoterEntry {
		rng := rand.New(rand.NewPCG(3, uint64(n)))
		vs := make([]app.VoterEntry, n)
		for i := range vs {
			vs[i] = app.VoterEntry{Name: fmt.Sprintf("%s %s Voter %07d", first[rng.IntN(len(first))], prefix, i)}
		}
		return vs
	}
	b.Run("500k", func(b *testing.B) {
		voters := roll("County", 500_000)
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			e := newEnv(b)
			name := fmt.Sprintf("Roll %d", i)
			e.must(e.svc.CreateElection(e.ctx, "user", name, "", false))
			b.StartTimer()
			e.must(e.svc.AddVoters(e.ctx, "user", name, voters...))
		}
	})
	b.Run("2k-to-500k", func(b *testing.B) {
		e := newEnv(b)
		e.must(e.svc.CreateElection(e.ctx, "user", "State", "", false))
		e.must(e.svc.AddVoters(e.ctx, "user", "State", roll("State", 500_000)...))
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			batch := roll(fmt.Sprintf("Late %d", i), 2000)
			b.StartTimer()
			e.must(e.svc.AddVoters(e.ctx, "user", "State", batch...))
		}
	})
}
