package app_test

import (
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
