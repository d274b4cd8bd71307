package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"votedesk/app"
)

func TestCastBallot(t *testing.T) {
	e := newEnv(t)
	r, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Open", Voter: "v1",
		Rankings: []app.Ranking{{Candidate: "B", Rank: 1}, {Candidate: "A", Rank: 2}, {Candidate: "C", Rank: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmation == "" || r.Recast || r.WhenCast.IsZero() {
		t.Errorf("receipt = %+v", r)
	}
	bs, _ := e.svc.Ballots(e.ctx, "user", "Open")
	if len(bs) != 1 || bs[0].Voter != "v1" || bs[0].Confirmation != r.Confirmation {
		t.Fatalf("ballots = %+v", bs)
	}
	want := []app.Ranking{{Candidate: "B", Rank: 1}, {Candidate: "A", Rank: 2}, {Candidate: "C", Rank: 2}}
	if !slices.Equal(bs[0].Rankings, want) {
		t.Errorf("rankings = %v, want %v (ties allowed)", bs[0].Rankings, want)
	}
	el, _ := e.svc.Election(e.ctx, "user", "Open")
	if el.Ballots != 1 {
		t.Errorf("ballot count = %d", el.Ballots)
	}
	voters, _ := e.svc.Voters(e.ctx, "user", "Open")
	for _, v := range voters {
		if v.Voted != (v.Name == "v1") {
			t.Errorf("voter %s voted = %v", v.Name, v.Voted)
		}
	}
	t.Run("VoterCastsOwnBallot", func(t *testing.T) {
		if err := cast(e, "voter", "Open", "voter", "C"); err != nil {
			t.Error(err)
		}
	})
	t.Run("EmptyBallotAllowed", func(t *testing.T) {
		if err := cast(e, "user", "Open", "v2"); err != nil {
			t.Error(err)
		}
	})
}

func TestRecastKeepsConfirmation(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.CreateElection(e.ctx, "user", "R", "", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", "R", "A", "B"))
	e.must(e.svc.AddVoters(e.ctx, "user", "R", app.VoterEntry{Name: "v1"}))
	yes := true
	e.must(e.svc.UpdateElection(e.ctx, "user", "R", 0, app.ElectionChanges{AllowRecast: &yes}))
	e.must(e.svc.LaunchElection(e.ctx, "user", "R"))
	first, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "R", Voter: "v1", Rankings: rank("A", "B")})
	e.must(err)
	second, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "R", Voter: "v1", Rankings: rank("B")})
	e.must(err)
	if !second.Recast || second.Confirmation != first.Confirmation {
		t.Errorf("re-cast receipt %+v; want Recast with confirmation %s", second, first.Confirmation)
	}
	bs, _ := e.svc.Ballots(e.ctx, "user", "R")
	if len(bs) != 1 || len(bs[0].Rankings) != 1 || bs[0].Rankings[0].Candidate != "B" {
		t.Errorf("ballots after re-cast = %+v", bs)
	}
	el, _ := e.svc.Election(e.ctx, "user", "R")
	if el.Ballots != 1 {
		t.Errorf("ballot count after re-cast = %d, want 1", el.Ballots)
	}
}

func TestSecretBallotHidesVoters(t *testing.T) {
	e := newEnv(t)
	for _, v := range []string{"v1", "v2", "v3"} {
		e.must(cast(e, "user", "Secret", v, "A", "B"))
	}
	t.Run("ErrContentsWhilePollsOpen", func(t *testing.T) {
		for _, actor := range []string{"observer", "user", "admin"} {
			if _, err := e.svc.Ballots(e.ctx, actor, "Secret"); !app.IsCode(err, app.CodeForbidden) {
				t.Errorf("%s lists the ballots of an open secret election: %v", actor, err)
			}
		}
	})
	e.must(e.svc.CloseElection(e.ctx, "user", "Secret"))
	for _, tc := range []struct {
		actor     string
		seesVoter bool
	}{{"observer", false}, {"user", false}, {"admin", false}, {"auditor", true}, {"owner", true}} {
		name := "HidesVoterFrom" + tc.actor
		if tc.seesVoter {
			name = "ShowsVoterTo" + tc.actor
		}
		t.Run(name, func(t *testing.T) {
			bs, err := e.svc.Ballots(e.ctx, tc.actor, "Secret")
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bs {
				if (b.Voter != "") != tc.seesVoter || (!b.WhenCast.IsZero()) != tc.seesVoter {
					t.Errorf("ballot %s: voter %q, when %v", b.Confirmation, b.Voter, b.WhenCast)
				}
			}
			if !tc.seesVoter && !slices.IsSortedFunc(bs, func(a, b app.Ballot) int { return strings.Compare(a.Confirmation, b.Confirmation) }) {
				t.Error("published ballots are not in confirmation-code order")
			}
			var casts int
			err = e.svc.Log(e.ctx, tc.actor, 1, func(ev *app.Event) error {
				if ev.Type == app.EvBallotCast {
					casts++
					if strings.Contains(string(ev.Data), "rankings") || strings.Contains(string(ev.Sealed), "rankings") != tc.seesVoter {
						t.Errorf("log shows %s: %s sealed %s", tc.actor, ev.Data, ev.Sealed)
					}
				}
				if strings.Contains(string(ev.Data), "$argon2id$") {
					t.Errorf("log shows a password hash: %s", ev.Data)
				}
				return nil
			})
			if err != nil || casts != 3 {
				t.Errorf("log: %d casts, %v", casts, err)
			}
		})
	}
}

func TestPaperBallotWithoutVoter(t *testing.T) {
	e := newEnv(t)
	r, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Open", Rankings: rank("C", "A"), Source: app.SourcePaper, Transcribed: true})
	e.must(err)
	bs, _ := e.svc.Ballots(e.ctx, "user", "Open")
	if len(bs) != 1 || bs[0].Voter != "" || !bs[0].Transcribed || bs[0].Confirmation != r.Confirmation || bs[0].Source != app.SourcePaper {
		t.Errorf("paper ballot = %+v", bs)
	}
	t.Run("ErrVoterEntersPaper", func(t *testing.T) {
		_, err := e.svc.CastBallot(e.ctx, "voter", app.Cast{Election: "Open", Rankings: rank("C"), Source: app.SourcePaper})
		if app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("VOTER entering a paper ballot: %v", err)
		}
	})
}

func TestImportBallots(t *testing.T) {
	e := newEnv(t)
	in := make([]app.ImportedBallot, 12001)
	for i := range in {
		in[i] = app.ImportedBallot{SourceID: fmt.Sprintf("cvr-%05d", i), Rankings: rank("A", "C")}
	}
	var last int
	n, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, in, func(done int) { last = done })
	e.must(err)
	if n != len(in) || last != len(in) {
		t.Errorf("imported %d, progress ended at %d, want %d", n, last, len(in))
	}
	el, _ := e.svc.Election(e.ctx, "user", "Open")
	if el.Ballots != int64(len(in)) {
		t.Errorf("ballot count = %d", el.Ballots)
	}
	t.Run("ErrAllOrNothing", func(t *testing.T) {
		before := e.snapshot()
		bad := make([]app.ImportedBallot, 6001)
		for i := range bad {
			bad[i] = app.ImportedBallot{SourceID: fmt.Sprintf("more-%05d", i), Rankings: rank("B")}
		}
		bad[6000] = app.ImportedBallot{SourceID: "bad", Rankings: rank("A", "Q")}
		_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, bad, nil)
		var be *app.BallotError
		if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(app.ErrorMessage(err), "bad") || !errors.As(err, &be) || be.Index != 6000 {
			t.Errorf("import with an unknown candidate: %v", err)
		}
		if e.snapshot() != before {
			t.Error("a refused import changed the database")
		}
	})
	t.Run("ErrSourceIDRepeated", func(t *testing.T) {
		before := e.snapshot()
		_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, []app.ImportedBallot{
			{SourceID: "x1", Rankings: rank("A")}, {SourceID: "", Rankings: rank("B")}, {SourceID: "", Rankings: rank("B")}, {SourceID: "x1", Rankings: rank("C")},
		}, nil)
		var be *app.BallotError
		if app.ErrorCode(err) != app.CodeInvalid || !errors.As(err, &be) || be.Index != 3 || !strings.Contains(app.ErrorMessage(err), "also ballot 1") {
			t.Errorf("import repeating a source id: %v", err)
		}
		if e.snapshot() != before {
			t.Error("a refused import changed the database")
		}
	})
	t.Run("ErrCancelledMidway", func(t *testing.T) {
		before := e.snapshot()
		more := make([]app.ImportedBallot, 3*app.ImportBatch)
		for i := range more {
			more[i] = app.ImportedBallot{SourceID: fmt.Sprintf("late-%05d", i), Rankings: rank("B")}
		}
		ctx, cancel := context.WithCancel(e.ctx)
		defer cancel()
		_, err := e.svc.ImportBallots(ctx, "user", "Open", app.SourceCVR, more, func(done int) {
			if done == app.ImportBatch {
				cancel() // after the first batch is recorded
			}
		})
		if app.ErrorCode(err) != app.CodeUnavailable || !strings.Contains(app.ErrorMessage(err), "cancelled") {
			t.Errorf("import cancelled after its first batch: %v", err)
		}
		if e.snapshot() != before {
			t.Error("a cancelled import changed the database")
		}
	})
	t.Run("ErrSourceIDBeforeRankings", func(t *testing.T) {
		// Both faults: the repeated source id, in the last batch, is the
		// one reported, as the ids are checked before any batch.
		both := make([]app.ImportedBallot, 2*app.ImportBatch)
		for i := range both {
			both[i] = app.ImportedBallot{SourceID: fmt.Sprintf("both-%05d", i), Rankings: rank("B")}
		}
		both[0].Rankings = rank("A", "Q")
		both[len(both)-1].SourceID = both[1].SourceID
		_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, both, nil)
		var be *app.BallotError
		if !errors.As(err, &be) || be.Index != len(both)-1 || !strings.Contains(be.Reason, "also ballot 2") {
			t.Errorf("import with a repeated source id and an unknown candidate: %v", err)
		}
	})
	t.Run("ErrSourceIDAlreadyImported", func(t *testing.T) {
		before := e.snapshot()
		_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, []app.ImportedBallot{
			{SourceID: "new-1", Rankings: rank("A")}, {SourceID: "cvr-00042", Rankings: rank("B")},
		}, nil)
		var be *app.BallotError
		if app.ErrorCode(err) != app.CodeConflict || !errors.As(err, &be) || be.Index != 1 || be.SourceID != "cvr-00042" ||
			!strings.Contains(app.ErrorMessage(err), "already imported") {
			t.Errorf("import repeating an imported source id: %v", err)
		}
		if e.snapshot() != before {
			t.Error("a refused import changed the database")
		}
	})
}

// TestCastVoteRecordsKeptAsCast: an imported cast vote record keeps what was
// marked (an overvote label, several candidates at a rank, skipped ranks, a
// candidate ranked again, more ranks than candidates), stored and read back
// as given and counted with the marks the rules judge; a ballot cast in
// VoteDesk keeps its own checks. Nothing malformed is stored.
func TestCastVoteRecordsKeptAsCast(t *testing.T) {
	e := newEnv(t)
	r := func(rank int, name string) app.Ranking { return app.Ranking{Candidate: name, Rank: rank} }
	asCast := [][]app.Ranking{
		{r(1, app.OvervoteLabel), r(2, "B")},
		{r(1, "A"), r(1, "C"), r(3, "B")},
		{r(1, "B"), r(2, "B"), r(3, "A")},
		{r(2, "C"), r(7, "A")},
	}
	in := make([]app.ImportedBallot, len(asCast))
	for i, rk := range asCast {
		in[i] = app.ImportedBallot{SourceID: fmt.Sprintf("r%d", i), Rankings: rk}
	}
	_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, in, nil)
	e.must(err)
	stored, err := e.svc.Ballots(e.ctx, "user", "Open")
	e.must(err)
	got := map[string][]app.Ranking{}
	for _, b := range stored {
		got[b.SourceID] = b.Rankings
	}
	for i, rk := range asCast {
		if id := fmt.Sprintf("r%d", i); !slices.Equal(got[id], rk) {
			t.Errorf("%s stored as %v, cast as %v", id, got[id], rk)
		}
	}
	in4, err := e.svc.CountInput(e.ctx, "user", "Open")
	e.must(err)
	marks, _ := in4.Ballots.Ballot(0)
	if in4.Ballots.Len() != 4 || len(marks) == 0 {
		t.Fatalf("count input has %d ballots", in4.Ballots.Len())
	}
	overvotes := 0
	for i := range in4.Ballots.Len() {
		m, _ := in4.Ballots.Ballot(i)
		for _, mk := range m {
			if mk.Candidate == 0xFFFF {
				overvotes++
			}
		}
	}
	if overvotes != 1 {
		t.Errorf("%d overvote marks counted, want the 1 stored", overvotes)
	}

	for _, tc := range []struct {
		name string
		rk   []app.Ranking
		want string
	}{
		{"ErrLabelBesideCandidate", []app.Ranking{r(1, app.OvervoteLabel), r(1, "A")}, "overvote label beside candidates"},
		{"ErrTwiceAtOneRank", []app.Ranking{r(1, "A"), r(1, "A")}, `marks "A" twice`},
		{"ErrUnknown", []app.Ranking{r(1, "Q")}, `"Q" is not a candidate`},
		{"ErrRankZero", []app.Ranking{r(0, "A")}, "rank 0"},
		{"ErrRankTooDeep", []app.Ranking{r(app.MaxRank+1, "A")}, "is not from 1 to 65535"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.snapshot()
			_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, []app.ImportedBallot{{SourceID: tc.name, Rankings: tc.rk}}, nil)
			if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(app.ErrorMessage(err), tc.want) {
				t.Errorf("import %v: %v, want %q", tc.rk, err, tc.want)
			}
			if e.snapshot() != before {
				t.Error("a refused import changed the database")
			}
		})
	}
	// Cast in VoteDesk (a voter, a kiosk, paper): each candidate once, known
	// candidates only, no deeper than the number of candidates.
	for _, rk := range [][]app.Ranking{
		{r(1, app.OvervoteLabel)}, {r(1, "B"), r(2, "B")}, {r(4, "A")},
	} {
		for _, source := range []string{app.SourceDirect, app.SourceKiosk, app.SourcePaper} {
			_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Open", Voter: "v3", Rankings: rk, Source: source})
			if app.ErrorCode(err) != app.CodeInvalid {
				t.Errorf("%s ballot %v: %v, want it refused", source, rk, err)
			}
		}
	}
}

// TestImportedBallotJSON: an imported ballot's compact form carries its
// precinct, batch and tabulator as far as it has them, and reads back the
// same; a sixth element is refused.
func TestImportedBallotJSON(t *testing.T) {
	for _, b := range []app.ImportedBallot{
		{SourceID: "1", Rankings: rank("A")},
		{SourceID: "2", Rankings: rank("A", "B"), Precinct: "North"},
		{SourceID: "3", Rankings: rank("B"), Batch: "892"},
		{SourceID: "27-892-10", Rankings: rank("B"), Batch: "892", Tabulator: "27"},
		{SourceID: "4", Tabulator: "T1"},
	} {
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		var back app.ImportedBallot
		if err := json.Unmarshal(data, &back); err != nil || back.SourceID != b.SourceID || back.Precinct != b.Precinct ||
			back.Batch != b.Batch || back.Tabulator != b.Tabulator || len(back.Rankings) != len(b.Rankings) {
			t.Errorf("%s read back as %+v, %v", data, back, err)
		}
	}
	var b app.ImportedBallot
	if err := json.Unmarshal([]byte(`["1",[["A"]],"p","b","t","x"]`), &b); err == nil {
		t.Error("six elements read")
	}
}

// TestPulledImportIsChecked: a device applies its own import without
// checking the rankings again (the command just did), but an import event
// from another device is checked like any: a candidate marked twice at a
// rank, or one the election does not have, refuses the batch.
func TestPulledImportIsChecked(t *testing.T) {
	e := newEnv(t)
	el, err := e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	before, err := e.svc.Ballots(e.ctx, "user", "Open")
	e.must(err)
	for _, ranks := range []any{[][]string{{"A", "A"}}, [][]string{{"A"}, {"Nobody"}}} {
		refusal := e.foreignEvent("user", app.EvBallotsImported, map[string]any{"election": "Open", "election_id": el.ID,
			"source": "cvr", "ballots": []any{[]any{"r1", ranks}}})
		if !app.IsCode(refusal, app.CodeInvalid) {
			t.Errorf("an import ranking %v from another device: %v", ranks, refusal)
		}
	}
	_, err = e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, []app.ImportedBallot{{SourceID: "r1", Rankings: []app.Ranking{{Candidate: "A", Rank: 1}, {Candidate: "A", Rank: 1}}}}, nil)
	if !app.IsCode(err, app.CodeInvalid) {
		t.Errorf("an import marking A twice at rank 1: %v", err)
	}
	after, err := e.svc.Ballots(e.ctx, "user", "Open")
	e.must(err)
	if len(after) != len(before) {
		t.Errorf("%d ballots after refused imports, %d before", len(after), len(before))
	}
}

// TestImportedBallotTooBigRefused: a ballot that would take more than
// MaxImportedBallotBytes as stored (here candidate A ranked again at each
// of 30,000 ranks) is refused, by the import command with its place and
// when it comes from another device, changing nothing: its chunk would be
// over DynamoDB's item size and stop the cloud projection everywhere. An
// import of format 2, made before the rule, still replays as it did.
func TestImportedBallotTooBigRefused(t *testing.T) {
	e := newEnv(t)
	el, err := e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	big := make([]app.Ranking, 30_000)
	var ranks [][]string
	for i := range big {
		big[i] = app.Ranking{Candidate: "A", Rank: i + 1}
		ranks = append(ranks, []string{"A"})
	}
	before := e.snapshot()
	in := []app.ImportedBallot{{SourceID: "fine", Rankings: rank("A")}, {SourceID: "huge", Rankings: big},
		{SourceID: strings.Repeat("id", 50_000), Rankings: rank("B")}}
	_, err = e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, in, nil)
	var be *app.BallotError
	if !errors.As(err, &be) || be.Index != 1 || !strings.Contains(app.ErrorMessage(err), "a ballot takes at most 64 KB") {
		t.Errorf("an import of a 200 KB ballot: %v", err)
	}
	// An id of 100 KB: refused, and named in a line, not whole.
	_, err = e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, in[2:], nil)
	if !errors.As(err, &be) || be.Index != 0 || len(app.ErrorMessage(err)) > 300 {
		t.Errorf("an import of a ballot with an id of 100 KB: %.300v", err)
	}
	if e.snapshot() != before {
		t.Error("a refused import changed the database")
	}
	refusal := e.foreignEvent("user", app.EvBallotsImported, map[string]any{"election": "Open", "election_id": el.ID,
		"source": "cvr", "ballots": []any{[]any{"huge", ranks}}})
	if !app.IsCode(refusal, app.CodeInvalid) || !strings.Contains(app.ErrorMessage(refusal), "at most 64 KB") {
		t.Errorf("the same ballot from another device: %v", refusal)
	}
	app.StoreImportsAs(t, app.FormatSigned, 256<<10)
	if refusal := e.foreignEvent("user", app.EvBallotsImported, map[string]any{"election": "Open", "election_id": el.ID,
		"source": "cvr", "ballots": []any{[]any{"huge", ranks}}}); refusal != nil {
		t.Errorf("a format 2 import, made before the rule: %v", refusal)
	}
}
