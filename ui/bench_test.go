package ui

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"votedesk/app"
)

// bigElection imports n ballots over eight candidates into "Big" (fixed
// seed), with first choices spread so that IRV takes several rounds.
func bigElection(tb testing.TB, h *harness, n int) {
	cands := []string{"Amara Okafor", "Ben Lindqvist", "Chen Wei", "Dolores Vega", "Emil Novak", "Farah Haddad", "Gus Moreno", "Hana Sato"}
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Big", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Big", cands...))
	rng := rand.New(rand.NewPCG(1, 2))
	weights := []int{22, 19, 17, 14, 11, 8, 5, 4}
	ballots := make([]app.ImportedBallot, n)
	for i := range ballots {
		x, first := rng.IntN(100), 0
		for acc := 0; first < len(weights)-1; first++ {
			if acc += weights[first]; x < acc {
				break
			}
		}
		r := []app.Ranking{{Candidate: cands[first], Rank: 1}}
		for _, c := range rng.Perm(len(cands))[:rng.IntN(4)] {
			if c != first {
				r = append(r, app.Ranking{Candidate: cands[c], Rank: len(r) + 1})
			}
		}
		ballots[i] = app.ImportedBallot{SourceID: strconv.Itoa(i), Rankings: r}
	}
	_, err := h.svc.ImportBallots(h.ctx, "Olivia", "Big", "cvr", ballots, nil)
	h.must(err)
}

// BenchmarkOpenResultsMillion measures what an official waits for when
// opening the results tab of a 1,000,000-ballot election: building the
// screen, reading every ranking from bbolt, counting IRV off the UI
// goroutine, and filling the banner, rounds table, chart and flow picture.
// Target: under 1 s.
func BenchmarkOpenResultsMillion(b *testing.B) {
	h := newHarness(b, nil)
	h.owner()
	bigElection(b, h, 1000000)
	h.signIn("Olivia")
	open := func(b *testing.B) {
		for b.Loop() {
			h.sh.OpenElection("Big", tabResults)
			h.wait()
			r := h.sh.Election.Results
			if r.count == nil || r.count.Ballots.Len() != 1000000 || r.Banner.Text == "" {
				b.Fatalf("results not shown: %q", r.Status.Text)
			}
		}
		b.ReportMetric(float64(len(lastPass(h.sh.Election.Results.count.Result).Rounds)), "rounds")
	}
	b.Run("open", open)
	// Once the polls are closed, the first count keeps what it read and
	// the later ones read that (app/count_cache.go).
	h.must(h.svc.LaunchElection(h.ctx, "Olivia", "Big"))
	h.must(h.svc.CloseElection(h.ctx, "Olivia", "Big"))
	h.sh.OpenElection("Big", tabResults)
	h.wait()
	b.Run("closed", open)
}
