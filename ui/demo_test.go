package ui

import (
	"fmt"
	"math/rand/v2"
	"time"

	"votedesk/app"
)

// The demo database the screenshots and several tests use: a few users, one
// per role, and elections in every phase, the main one with a realistic poll
// book and enough ballots for several IRV rounds.
const (
	demoElection = "City council 2026"
	demoVoters   = 420
	demoBallots  = 360
)

var demoCandidates = []string{"Amara Okafor", "Ben Lindqvist", "Chen Wei", "Dolores Vega", "Emil Novak", "Farah Haddad"}

// demoNames makes distinct, plausible voter names with a fixed seed.
func demoNames(n int, rng *rand.Rand) []app.VoterEntry {
	first := []string{"Ada", "Bruno", "Carmen", "Dmitri", "Elena", "Felix", "Greta", "Hamid", "Ines", "Jonas", "Kaia", "Luca", "Mina", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Samir", "Tara", "Ulla", "Viktor", "Wen", "Yara", "Zeno"}
	last := []string{"Abbott", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat", "Ito", "Jensen", "Kowalski", "Larsen", "Moreau", "Nakamura", "Olsen", "Petrov", "Quist", "Rossi", "Silva", "Tanaka", "Urban", "Varga", "Weber", "Young", "Zhou"}
	seen := map[string]bool{}
	var out []app.VoterEntry
	for len(out) < n {
		f, l := first[rng.IntN(len(first))], last[rng.IntN(len(last))]
		name := f + " " + l
		for k := 2; seen[name]; k++ {
			name = fmt.Sprintf("%s %s %d", f, l, k)
		}
		seen[name] = true
		email := ""
		if rng.IntN(4) != 0 {
			email = fmt.Sprintf("%s.%s%d@example.org", lower(f), lower(l), len(out))
		}
		out = append(out, app.VoterEntry{Name: name, Email: email})
	}
	return out
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// demoRanking draws one voter's ranking: a first choice by popularity, then
// the candidates nearest to it on a left-right line, most voters ranking
// three or four.
func demoRanking(rng *rand.Rand) []app.Ranking {
	weights := []int{27, 22, 19, 15, 10, 7}
	pos := []float64{0.1, 0.8, 0.35, 0.6, 0.2, 0.95}
	x := rng.IntN(100)
	first := 0
	for acc := 0; first < len(weights); first++ {
		if acc += weights[first]; x < acc {
			break
		}
	}
	order := []int{first}
	used := map[int]bool{first: true}
	depth := 1 + rng.IntN(5)
	for len(order) < depth {
		best, bestD := -1, 2.0
		for c := range demoCandidates {
			if used[c] {
				continue
			}
			d := pos[c] - pos[first]
			if d < 0 {
				d = -d
			}
			d += rng.Float64() * 0.35
			if d < bestD {
				best, bestD = c, d
			}
		}
		used[best] = true
		order = append(order, best)
	}
	out := make([]app.Ranking, len(order))
	for i, c := range order {
		out[i] = app.Ranking{Candidate: demoCandidates[c], Rank: i + 1}
	}
	return out
}

// seedDemo fills the harness's database with the demo.
func (h *harness) seedDemo() {
	h.t.Helper()
	h.owner()
	h.addUser("Adam", app.RoleAdmin)
	h.addUser("Audrey", app.RoleAuditor)
	h.addUser("Ursula", app.RoleUser)
	h.addUser("Oscar", app.RoleObserver)
	rng := rand.New(rand.NewPCG(2026, 11))
	svc, ctx := h.svc, h.ctx

	h.must(svc.CreateElection(ctx, "Olivia", demoElection, "Six candidates for one open seat on the city council. Ranked-choice ballot; counted by instant runoff.", false))
	h.must(svc.AddCandidates(ctx, "Olivia", demoElection, demoCandidates...))
	voters := demoNames(demoVoters, rng)
	h.must(svc.AddVoters(ctx, "Olivia", demoElection, voters...))
	open := h.clock.Now().Add(-time.Hour).Format(time.RFC3339)
	yes := true
	h.must(svc.UpdateElection(ctx, "Olivia", demoElection, 0, app.ElectionChanges{NoVotingBefore: &open, AllowRecast: &yes}))
	h.must(svc.LaunchElection(ctx, "Olivia", demoElection))
	for _, i := range rng.Perm(demoVoters)[:demoBallots] {
		h.clock.Add(47 * time.Second)
		_, err := svc.CastBallot(ctx, "Olivia", app.Cast{Election: demoElection, Voter: voters[i].Name, Rankings: demoRanking(rng)})
		h.must(err)
	}

	// What a sync from a polling-place laptop left to review: a second
	// ballot from a voter who had voted here, and a change refused because
	// the election had launched meanwhile.
	var voted string
	for _, v := range voters {
		if e, _ := svc.CheckVoter(ctx, "Olivia", demoElection, v.Name); e.Voted {
			voted = v.Name
			break
		}
	}
	h.replay("Olivia", app.EvBallotCast, map[string]any{"election": demoElection, "voter": voted, "confirmation": "5f0c2a4e-91d3-4c55-8d1e-2b7a9c3e6f10",
		"rankings": [][]string{{"Chen Wei"}, {"Dolores Vega"}}, "source": app.SourceKiosk})
	h.replay("Ursula", app.EvCandidatesAdded, map[string]any{"election": demoElection, "names": []string{"Gus Moreno"}})

	h.must(svc.CreateElection(ctx, "Ursula", "Library board", "Two seats on the library board; the poll book is still being checked.", true))
	h.must(svc.AddCandidates(ctx, "Ursula", "Library board", "Grace Hopper", "Alan Kay", "Barbara Liskov", "Ken Thompson"))
	h.must(svc.AddVoters(ctx, "Ursula", "Library board", demoNames(35, rng)...))

	h.must(svc.CreateElection(ctx, "Olivia", "Park renaming", "Which name should the riverside park take?", true))
	h.must(svc.AddCandidates(ctx, "Olivia", "Park renaming", "Riverside", "Heron Park", "Founders' Green"))
	pv := demoNames(40, rng)
	h.must(svc.AddVoters(ctx, "Olivia", "Park renaming", pv...))
	h.must(svc.LaunchElection(ctx, "Olivia", "Park renaming"))
	options := []string{"Riverside", "Heron Park", "Founders' Green"}
	for i, v := range pv[:33] {
		p := rng.Perm(3)
		r := []app.Ranking{{Candidate: options[p[0]], Rank: 1}, {Candidate: options[p[1]], Rank: 2}}
		if i%3 == 0 {
			r = append(r, app.Ranking{Candidate: options[p[2]], Rank: 3})
		}
		_, err := svc.CastBallot(ctx, "Olivia", app.Cast{Election: "Park renaming", Voter: v.Name, Rankings: r})
		h.must(err)
	}
	h.must(svc.FinalizeElection(ctx, "Olivia", "Park renaming"))
	h.clock.Add(3 * time.Hour)
}
