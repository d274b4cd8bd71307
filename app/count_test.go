package app_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/tally"
)

func TestCountInputReadsEveryBallot(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.CreateElection(e.ctx, "user", "Odd names", "", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Odd names", `Quote "Q"`, `Back\slash`, "Ünïcödé", "Plain"))
	e.must(e.svc.AddVoters(e.ctx, "user", "Odd names", app.VoterEntry{Name: "v1"}, app.VoterEntry{Name: "v2"}, app.VoterEntry{Name: "v3"}))
	e.must(e.svc.LaunchElection(e.ctx, "user", "Odd names"))
	casts := [][]app.Ranking{
		{{Candidate: "Plain", Rank: 1}, {Candidate: `Quote "Q"`, Rank: 2}, {Candidate: `Back\slash`, Rank: 2}, {Candidate: "Ünïcödé", Rank: 4}},
		{},
		{{Candidate: "Ünïcödé", Rank: 1}},
	}
	for i, r := range casts {
		_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Odd names", Voter: []string{"v1", "v2", "v3"}[i], Rankings: r})
		e.must(err)
	}
	in, err := e.svc.CountInput(e.ctx, "observer", "Odd names")
	e.must(err)
	if len(in.Candidates) != 4 || in.Ballots.Len() != 3 {
		t.Fatalf("count input: %d candidates, %d ballots", len(in.Candidates), in.Ballots.Len())
	}
	want := [][]tally.Mark{
		{{Rank: 1, Candidate: 3}, {Rank: 2, Candidate: 0}, {Rank: 2, Candidate: 1}, {Rank: 4, Candidate: 2}},
		{},
		{{Rank: 1, Candidate: 2}},
	}
	for i := range want {
		got, _ := in.Ballots.Ballot(i)
		if len(got) != len(want[i]) {
			t.Errorf("ballot %d marks = %v, want %v", i, got, want[i])
			continue
		}
		for j := range got {
			if got[j] != want[i][j] {
				t.Errorf("ballot %d marks = %v, want %v", i, got, want[i])
			}
		}
	}
}

func TestCount(t *testing.T) {
	e := newEnv(t)
	voters := e.launched("Mayor", false, []string{"Ann", "Bob", "Cid"}, "v%d", 9)
	// First choices Ann 4, Bob 3, Cid 2; Cid's voters prefer Bob, who wins
	// in round 2.
	ballots := [][]string{{"Ann"}, {"Ann"}, {"Ann"}, {"Ann", "Bob"}, {"Bob"}, {"Bob"}, {"Bob"}, {"Cid", "Bob"}, {"Cid", "Bob"}}
	for i, b := range ballots {
		var r []app.Ranking
		for j, c := range b {
			r = append(r, app.Ranking{Candidate: c, Rank: j + 1})
		}
		_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Mayor", Voter: voters[i].Name, Rankings: r})
		e.must(err)
	}
	t.Run("IRVTransfers", func(t *testing.T) {
		c, err := e.svc.Count(e.ctx, "observer", "Mayor", tally.IRV, tally.DefaultRules())
		e.must(err)
		if got := c.Contest.Names(); len(got) != 3 || got[0] != "Ann" || got[2] != "Cid" {
			t.Errorf("contest candidates %v", got)
		}
		if len(c.Result.Winners) != 1 || c.Result.Winners[0] != 1 {
			t.Errorf("winners %v, want [1] (Bob)", c.Result.Winners)
		}
		if n := len(c.Result.Passes[0].Rounds); n != 2 {
			t.Errorf("%d rounds, want 2", n)
		}
	})
	t.Run("Schulze", func(t *testing.T) {
		c, err := e.svc.Count(e.ctx, "observer", "Mayor", tally.Schulze, tally.DefaultRules())
		e.must(err)
		if c.Result.Pairwise == nil || len(c.Result.Places) == 0 {
			t.Fatal("no pairwise result")
		}
	})
	t.Run("ErrRulesContradict", func(t *testing.T) {
		r := tally.DefaultRules()
		r.NumberOfWinners = 2
		_, err := e.svc.Count(e.ctx, "observer", "Mayor", tally.IRV, r)
		if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(app.ErrorMessage(err), "winnerElectionMode") {
			t.Errorf("err = %v, want an invalid-rules message", err)
		}
	})
	t.Run("ErrNotSignedIn", func(t *testing.T) {
		if _, err := e.svc.Count(e.ctx, "nobody", "Mayor", tally.IRV, tally.DefaultRules()); app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("err = %v, want forbidden", err)
		}
	})
}

// A big election is read in blocks on every core and joined in order: its
// ballot set holds what the ballots list holds, ballot for ballot.
func TestCountInputReadsManyBlocks(t *testing.T) {
	e := newEnv(t)
	names := []string{`Quote "Q"`, "Ünïcödé", "Plain", "Other", "Last"}
	e.must(e.svc.CreateElection(e.ctx, "user", "Many", "", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Many", names...))
	rng := rand.New(rand.NewPCG(9, 4))
	ballots := make([]app.ImportedBallot, 30_001)
	for i := range ballots {
		var r []app.Ranking
		rank := 0
		for _, c := range rng.Perm(len(names))[:rng.IntN(len(names)+1)] {
			if rank == 0 || rng.IntN(5) > 0 {
				rank += 1 + rng.IntN(2) // a skipped rank now and then, else a tie
			}
			r = append(r, app.Ranking{Candidate: names[c], Rank: rank})
		}
		ballots[i] = app.ImportedBallot{SourceID: fmt.Sprint(i), Rankings: r}
	}
	if _, err := e.svc.ImportBallots(e.ctx, "user", "Many", app.SourceCVR, ballots, nil); err != nil {
		t.Fatal(err)
	}
	in, err := e.svc.CountInput(e.ctx, "user", "Many")
	e.must(err)
	listed, err := e.svc.Ballots(e.ctx, "user", "Many")
	e.must(err)
	if in.Ballots.Len() != len(listed) || len(listed) != len(ballots) {
		t.Fatalf("read %d ballots, listed %d, imported %d", in.Ballots.Len(), len(listed), len(ballots))
	}
	order := make([]string, len(in.Candidates))
	for i, c := range in.Candidates {
		order[i] = c.Name
	}
	index := app.MarkIndex(order)
	for i, b := range listed {
		want, err := app.RankingsToMarks(nil, b.Rankings, index)
		e.must(err)
		var ref tally.BallotSet // sorts a ballot's marks as a read does
		e.must(ref.Add("", 1, want))
		want, _ = ref.Ballot(0)
		got, _ := in.Ballots.Ballot(i)
		if !slices.Equal(got, want) {
			t.Fatalf("ballot %d (%s): read %v, listed %v", i, b.SourceID, got, want)
		}
	}
}
