package app_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// auditSeed is a public seed as dice would roll it: 20 digits.
const auditSeed = "31415926535897932384"

// auditElection is a closed election of cast vote records in four batches
// (record ids numbered on from batch to batch), and the paper they came from, by batch and
// position.
type auditElection struct {
	name     string
	manifest rla.Manifest
	paper    map[string][][]app.Ranking // batch -> position-1 -> marks
}

// newAuditElection stores a closed IRV election in which A beats B in the
// final round by about 10% of the ballots: perBatch ballots in each of four
// batches, A 38%, B 32%, C 18% (to A then B), D 12% (to B).
func newAuditElection(t *testing.T, e *env, perBatch int) *auditElection {
	t.Helper()
	ae := &auditElection{name: "Audited", paper: map[string][][]app.Ranking{}}
	e.must(e.svc.CreateElection(e.ctx, "user", ae.name, "an election to audit", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", ae.name, "A", "B", "C", "D"))
	e.must(e.svc.LaunchElection(e.ctx, "user", ae.name))
	rng := rand.New(rand.NewPCG(7, 11))
	var in []app.ImportedBallot
	var batches []rla.Batch
	for b := range 4 {
		name := fmt.Sprintf("Box %d", b+1)
		batches = append(batches, rla.Batch{Container: "Warehouse", Tabulator: "T1", Name: name, Ballots: perBatch})
		for i := range perBatch {
			var r []app.Ranking
			switch x := rng.IntN(100); {
			case x < 38:
				r = rank("A", "B")
			case x < 70:
				r = rank("B")
			case x < 88:
				r = rank("C", "A", "B")
			default:
				r = rank("D", "B", "A")
			}
			ae.paper[name] = append(ae.paper[name], r)
			in = append(in, app.ImportedBallot{SourceID: fmt.Sprint(b*perBatch + i + 1), Batch: name, Rankings: r})
		}
	}
	_, err := e.svc.ImportBallots(e.ctx, "user", ae.name, app.SourceCVR, in, nil)
	e.must(err)
	e.must(e.svc.CloseElection(e.ctx, "user", ae.name))
	ae.manifest, err = rla.NewManifest(batches)
	e.must(err)
	return ae
}

// readAll has the audit board read every unread draw from the paper, both
// passes alike.
func (ae *auditElection) readAll(t *testing.T, e *env, id string) app.AuditState {
	t.Helper()
	st, err := e.svc.AuditState(e.ctx, "user", ae.name, id)
	e.must(err)
	done := map[int]bool{}
	for _, d := range st.Draws {
		if d.Reading != nil || done[d.Draw.Index] {
			continue
		}
		done[d.Draw.Index] = true
		marks := ae.paper[d.Batch.Name][d.Draw.Position-1]
		for _, pass := range []int{1, 2} {
			e.must(e.svc.RecordAuditReading(e.ctx, "user", ae.name, id, d.Draw.Index, pass, marks, false))
		}
	}
	st, err = e.svc.AuditState(e.ctx, "user", ae.name, id)
	e.must(err)
	return st
}

// expectedFirstRound is the first round's size worked out apart from the
// service, from the same ballots: RAIRE's assertions and rla's estimate.
func (ae *auditElection) expectedFirstRound(t *testing.T) int {
	t.Helper()
	names := []string{"A", "B", "C", "D"}
	c := tally.Contest{Candidates: []tally.Candidate{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}}
	set := &tally.BallotSet{}
	for _, papers := range ae.paper {
		for _, r := range papers {
			marks, err := app.RankingsToMarks(nil, r, app.MarkIndex(names))
			if err != nil {
				t.Fatal(err)
			}
			if err := set.Add("", 1, marks); err != nil {
				t.Fatal(err)
			}
		}
	}
	votes, err := raire.FromBallots(c, tally.DefaultRules(), set)
	if err != nil {
		t.Fatal(err)
	}
	total := uint64(ae.manifest.Total())
	sol, err := raire.Assertions(raire.Contest{Candidates: names, NumCandidates: 4, Votes: votes,
		Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: total}}, raire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var as []raire.Assertion
	for _, s := range sol.Assertions {
		as = append(as, s.Assertion)
	}
	au, err := rla.NewAudit(rla.Comparison, 0.05, as, votes, int(total))
	if err != nil {
		t.Fatal(err)
	}
	return au.InitialSampleSize(rla.Expect{})
}

// TestAuditConfirmsWhenThePaperMatches: a comparison audit whose paper
// agrees with every record stops after its first round, of the size worked
// out apart from the service, confirmed within the risk limit.
func TestAuditConfirmsWhenThePaperMatches(t *testing.T) {
	e := newEnv(t)
	ae := newAuditElection(t, e, 500)
	au, err := e.svc.StartAudit(e.ctx, "user", ae.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.05, Seed: auditSeed, Manifest: ae.manifest})
	e.must(err)
	if want := ae.expectedFirstRound(t); au.FirstRound != want {
		t.Errorf("first round %d draws, want %d", au.FirstRound, want)
	}
	if au.Candidates[au.Winner] != "A" || len(au.Assertions) == 0 {
		t.Fatalf("audit of winner %s with %d assertions", au.Candidates[au.Winner], len(au.Assertions))
	}
	st := ae.readAll(t, e, au.ID)
	if st.Problem != "" || !st.Status.Confirmed || st.Measured != au.FirstRound || len(st.Rounds) != 1 {
		t.Fatalf("after round 1: problem %q, confirmed %v, measured %d of %d, rounds %v, risk %v",
			st.Problem, st.Status.Confirmed, st.Measured, au.FirstRound, st.Rounds, st.Status.Risk)
	}
	if st.Status.Risk > 0.05 {
		t.Errorf("confirmed at risk %v", st.Status.Risk)
	}
	for _, d := range st.Draws {
		if d.CVR == nil || !slices.Equal(d.CVR, d.Reading.Rankings) {
			t.Fatalf("draw %v: record %v beside paper %v", d.Draw, d.CVR, d.Reading.Rankings)
		}
	}
	if _, err := e.svc.NextAuditRound(e.ctx, "user", ae.name, au.ID, 0); app.ErrorCode(err) != app.CodeConflict {
		t.Errorf("a next round after confirmation: %v", err)
	}
}

// TestAuditEscalatesWhenAnotherCandidateWon: the paper was altered after
// the count so that B really won (a quarter of A's first-choice ballots
// read B on paper): round after round the risk stays above the limit and
// the audit escalates to a full hand count, never confirming.
func TestAuditEscalatesWhenAnotherCandidateWon(t *testing.T) {
	e := newEnv(t)
	ae := newAuditElection(t, e, 200)
	au, err := e.svc.StartAudit(e.ctx, "user", ae.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.05, Seed: auditSeed, Manifest: ae.manifest})
	e.must(err)
	flipped := 0
	for _, papers := range ae.paper {
		for i, r := range papers {
			if r[0].Candidate == "A" && i%4 == 0 {
				papers[i] = rank("B", "A")
				flipped++
			}
		}
	}
	t.Logf("altered %d paper ballots", flipped)
	for round := 1; ; round++ {
		st := ae.readAll(t, e, au.ID)
		if st.Problem != "" || st.Status.Confirmed {
			t.Fatalf("round %d: problem %q, confirmed %v at risk %v", round, st.Problem, st.Status.Confirmed, st.Status.Risk)
		}
		if st.Status.FullHandCount {
			t.Logf("escalated after %d rounds, %d draws, risk %.3f", round, len(st.Draws), st.Status.Risk)
			// Officials may sample on instead while a round fits, naming its
			// size; it still never confirms, and ends with no round left.
			for st.Status.Continue > 0 {
				if _, err := e.svc.NextAuditRound(e.ctx, "user", ae.name, au.ID, 0); app.ErrorCode(err) != app.CodeConflict {
					t.Fatalf("the suggested round after escalating: %v, want a refusal asking for the size", err)
				}
				if _, err := e.svc.NextAuditRound(e.ctx, "user", ae.name, au.ID, -1); app.ErrorCode(err) != app.CodeInvalid {
					t.Fatalf("a round of -1: %v", err)
				}
				_, err := e.svc.NextAuditRound(e.ctx, "user", ae.name, au.ID, st.Status.Continue)
				e.must(err)
				if st = ae.readAll(t, e, au.ID); st.Status.Confirmed || !st.Status.FullHandCount {
					t.Fatalf("sampling on after escalating: confirmed %v, escalated %v at %d draws", st.Status.Confirmed, st.Status.FullHandCount, len(st.Draws))
				}
			}
			if _, err := e.svc.NextAuditRound(e.ctx, "user", ae.name, au.ID, 10); app.ErrorCode(err) != app.CodeConflict {
				t.Errorf("a round once none fits: %v", err)
			}
			t.Logf("sampled on to %d draws", len(st.Draws))
			break
		}
		if round > 20 {
			t.Fatalf("no escalation after %d rounds (%d draws)", round, len(st.Draws))
		}
		_, err := e.svc.NextAuditRound(e.ctx, "user", ae.name, au.ID, 0)
		e.must(err)
	}
}

// TestAuditDoubleEntry: the record stays hidden until both passes agree or
// a difference is settled; a pass the board reads differently waits to be
// settled.
func TestAuditDoubleEntry(t *testing.T) {
	e := newEnv(t)
	ae := newAuditElection(t, e, 50)
	au, err := e.svc.StartAudit(e.ctx, "user", ae.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: auditSeed, Manifest: ae.manifest})
	e.must(err)
	st, err := e.svc.AuditState(e.ctx, "observer", ae.name, au.ID)
	e.must(err)
	d := st.Draws[0]
	state := func() app.AuditDraw {
		st, err := e.svc.AuditState(e.ctx, "observer", ae.name, au.ID)
		e.must(err)
		return st.Draws[0]
	}
	truth := ae.paper[d.Batch.Name][d.Draw.Position-1]
	e.must(e.svc.RecordAuditReading(e.ctx, "user", ae.name, au.ID, d.Draw.Index, 1, truth, false))
	if got := state(); got.State != app.ReadOnce || got.CVR != nil || got.Reading != nil {
		t.Fatalf("after pass 1: %s, record %v", got.State, got.CVR)
	}
	e.must(e.svc.RecordAuditReading(e.ctx, "user", ae.name, au.ID, d.Draw.Index, 2, rank("D"), false))
	if got := state(); got.State != app.ReadDiffer || got.CVR != nil {
		t.Fatalf("after a differing pass 2: %s, record %v", got.State, got.CVR)
	}
	e.must(e.svc.RecordAuditReading(e.ctx, "user", ae.name, au.ID, d.Draw.Index, 0, truth, false))
	if got := state(); got.State != app.ReadSettled || !slices.Equal(got.CVR, truth) {
		t.Fatalf("after settling: %s, record %v", got.State, got.CVR)
	}
	t.Run("ErrNotDrawn", func(t *testing.T) {
		before := e.snapshot()
		undrawn := 0
		for slices.ContainsFunc(st.Draws, func(d app.AuditDraw) bool { return d.Draw.Index == undrawn }) {
			undrawn++
		}
		err := e.svc.RecordAuditReading(e.ctx, "user", ae.name, au.ID, undrawn, 1, truth, false)
		if app.ErrorCode(err) != app.CodeInvalid || e.snapshot() != before {
			t.Errorf("reading an undrawn ballot: %v", err)
		}
	})
	t.Run("ErrObserverReads", func(t *testing.T) {
		err := e.svc.RecordAuditReading(e.ctx, "observer", ae.name, au.ID, d.Draw.Index, 1, truth, false)
		if app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("an OBSERVER on the audit board: %v", err)
		}
	})
	t.Run("ErrOtherUserStarts", func(t *testing.T) {
		_, err := e.svc.StartAudit(e.ctx, "other", ae.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: auditSeed, Manifest: ae.manifest})
		if app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("a USER who does not own the election starts an audit: %v", err)
		}
	})
	t.Run("OtherUserReads", func(t *testing.T) {
		e.must(e.svc.RecordAuditReading(e.ctx, "other", ae.name, au.ID, st.Draws[1].Draw.Index, 1, truth, false))
	})
}

// TestAuditRefusals: an audit needs a closed IRV election whose records all
// sit in the manifest, and a seed of 20 digits; refused setups change
// nothing.
func TestAuditRefusals(t *testing.T) {
	e := newEnv(t)
	ae := newAuditElection(t, e, 20)
	setup := func(f func(s *app.AuditSetup)) app.AuditSetup {
		s := app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.05, Seed: auditSeed, Manifest: ae.manifest}
		f(&s)
		return s
	}
	short, err := rla.NewManifest([]rla.Batch{{Name: "Box 1", Ballots: 20}, {Name: "Box 2", Ballots: 20}, {Name: "Box 3", Ballots: 20}, {Name: "Box 4", Ballots: 19}})
	e.must(err)
	missing, err := rla.NewManifest([]rla.Batch{{Name: "Box 1", Ballots: 20}, {Name: "Box 2", Ballots: 20}, {Name: "Box 3", Ballots: 20}})
	e.must(err)
	cases := []struct {
		name     string
		election string
		setup    app.AuditSetup
		code     app.Code
	}{
		{"ErrShortSeed", ae.name, setup(func(s *app.AuditSetup) { s.Seed = "12345" }), app.CodeInvalid},
		{"ErrRiskLimit", ae.name, setup(func(s *app.AuditSetup) { s.RiskLimit = 1.5 }), app.CodeInvalid},
		{"ErrKind", ae.name, setup(func(s *app.AuditSetup) { s.Kind = "batch" }), app.CodeInvalid},
		{"ErrBatchShort", ae.name, setup(func(s *app.AuditSetup) { s.Manifest = short }), app.CodeInvalid},
		{"ErrBatchMissing", ae.name, setup(func(s *app.AuditSetup) { s.Manifest = missing }), app.CodeInvalid},
		{"ErrPollsOpen", "Open", setup(func(*app.AuditSetup) {}), app.CodeConflict},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := e.snapshot()
			_, err := e.svc.StartAudit(e.ctx, "user", tc.election, tc.setup)
			if app.ErrorCode(err) != tc.code || e.snapshot() != before {
				t.Errorf("err = %v (code %s), want %s and nothing changed", err, app.ErrorCode(err), tc.code)
			}
		})
	}
}

// TestAuditPredicatesMatchTheCommands: for every role, the GUI's offer
// (MayRunAudit, MayReadAuditBallots) is what the commands allow.
func TestAuditPredicatesMatchTheCommands(t *testing.T) {
	for _, role := range app.Roles() {
		t.Run(role.String(), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ae := newAuditElection(t, e, 20)
			actor := roleUsers[role]
			if role == app.RoleUser {
				actor = "other" // a USER who does not own the election
			}
			u, err := e.svc.User(e.ctx, "owner", actor)
			e.must(err)
			el, err := e.svc.Election(e.ctx, "owner", ae.name)
			e.must(err)
			setup := app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: auditSeed, Manifest: ae.manifest}
			_, err = e.svc.StartAudit(e.ctx, actor, ae.name, setup)
			if want := app.MayRunAudit(u, el); (err == nil) != want {
				t.Errorf("%s starting an audit: offered %v, command said %v", role, want, err)
			}
			if err != nil {
				_, err = e.svc.StartAudit(e.ctx, "user", ae.name, setup)
				e.must(err)
			}
			st, err := e.svc.AuditState(e.ctx, "owner", ae.name, "")
			e.must(err)
			d := st.Draws[0]
			err = e.svc.RecordAuditReading(e.ctx, actor, ae.name, "", d.Draw.Index, 1, ae.paper[d.Batch.Name][d.Draw.Position-1], false)
			if want := app.MayReadAuditBallots(u); (err == nil) != want {
				t.Errorf("%s reading a ballot: offered %v, command said %v", role, want, err)
			}
		})
	}
}

// TestAuditReadingsConvergeInAnyOrder: two laptops that receive the same
// readings of a ballot (two boards' passes, two settlements) in opposite
// orders reach the same state: the latest reading of each pass wins,
// whichever arrived last.
func TestAuditReadingsConvergeInAnyOrder(t *testing.T) {
	type reading struct {
		pass int
		r    []app.Ranking
		at   time.Duration
	}
	readings := []reading{
		{1, rank("A", "B"), 1 * time.Minute},
		{2, rank("B"), 2 * time.Minute},
		{1, rank("B"), 3 * time.Minute},
		{0, rank("C"), 4 * time.Minute},
		{0, rank("B"), 5 * time.Minute},
	}
	states := make([][]app.AuditDraw, 2)
	for k, order := range [][]int{{0, 1, 2, 3, 4}, {4, 2, 3, 1, 0}} {
		e := newEnv(t)
		ae := newAuditElection(t, e, 30)
		au, err := e.svc.StartAudit(e.ctx, "user", ae.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: auditSeed, Manifest: ae.manifest})
		e.must(err)
		el, err := e.svc.Election(e.ctx, "user", ae.name)
		e.must(err)
		st, err := e.svc.AuditState(e.ctx, "user", ae.name, au.ID)
		e.must(err)
		base := e.clock.Now()
		for _, i := range order {
			x := readings[i]
			refusal := e.foreignEventAt(base.Add(x.at), 100+i, "user", app.EvAuditBallotRead, map[string]any{
				"election": ae.name, "election_id": el.ID, "audit": au.ID, "ballot": st.Draws[0].Draw.Index,
				"pass": x.pass, "rankings": json.RawMessage(app.EncodeRankings(x.r))})
			if refusal != nil {
				t.Fatalf("reading %d refused: %v", i, refusal)
			}
		}
		st, err = e.svc.AuditState(e.ctx, "user", ae.name, au.ID)
		e.must(err)
		states[k] = st.Draws
	}
	a, b := states[0][0], states[1][0]
	if a.State != app.ReadSettled || !slices.Equal(a.Reading.Rankings, rank("B")) {
		t.Fatalf("first laptop: %s %v", a.State, a.Reading)
	}
	if b.State != a.State || !slices.Equal(b.Reading.Rankings, a.Reading.Rankings) ||
		!slices.Equal(b.Passes[0].Rankings, a.Passes[0].Rankings) || !slices.Equal(b.Passes[1].Rankings, a.Passes[1].Rankings) {
		t.Errorf("the laptops differ: %v / %v", a, b)
	}
}

// TestVerifyCatchesAForgedAudit: a device that lies can record an audit
// whose assertions do not prove the winner, or whose first round is too
// small; the event is well formed, so it applies, but verify recomputes
// the audit from the ballots and says what is wrong.
func TestVerifyCatchesAForgedAudit(t *testing.T) {
	e := newEnv(t)
	ae := newAuditElection(t, e, 100)
	au, err := e.svc.StartAudit(e.ctx, "user", ae.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.05, Seed: auditSeed, Manifest: ae.manifest})
	e.must(err)
	r, err := e.store.Verify(e.ctx)
	e.must(err)
	if !r.OK() {
		t.Fatalf("an honest audit does not verify: %v", r.Problems)
	}
	el, err := e.svc.Election(e.ctx, "user", ae.name)
	e.must(err)
	var batches []map[string]any
	for _, b := range ae.manifest.Batches {
		batches = append(batches, map[string]any{"name": b.Name, "ballots": b.Ballots})
	}
	forge := func(id string, assertions []map[string]any, first int) {
		refusal := e.foreignEvent("user", app.EvAuditStarted, map[string]any{
			"election": ae.name, "election_id": el.ID, "audit": id, "kind": "comparison", "risk_limit": 0.05,
			"seed": auditSeed, "manifest": batches, "candidates": au.Candidates, "rules": map[string]string{},
			"winner": au.Winner, "assertions": assertions, "ballots": au.Ballots, "digest": au.Digest, "first_round": first})
		if refusal != nil {
			t.Fatalf("forged audit %s refused at apply: %v", id, refusal)
		}
	}
	var honest []map[string]any
	for _, a := range au.Assertions {
		honest = append(honest, map[string]any{"type": a.Type, "winner": a.Winner, "loser": a.Loser, "continuing": a.Continuing})
	}
	e.forged = true
	forge("forged-assertions", honest[:1], au.FirstRound)
	forge("forged-round", honest, 3)
	r, err = e.store.Verify(e.ctx)
	e.must(err)
	got := strings.Join(r.Problems, "\n")
	for _, want := range []string{"audit forged-assertions of Audited: its assertions do not prove the reported winner",
		fmt.Sprintf("audit forged-round of Audited: its first round draws 3 ballots; its assertions call for %d", au.FirstRound)} {
		if !strings.Contains(got, want) {
			t.Errorf("verify says:\n%s\nwant %q", got, want)
		}
	}
}
