package cloudsync_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"votedesk/app"
)

// seed registers the users and elections every scenario starts from, on
// the first device: olga (OWNER), clerks ann, ben and cat (USER), and the
// elections "Mayor" (launched; voters v0001-v0900), "Levy" (launched;
// voters l001-l100) and "Council" (a draft, for concurrent edits).
func seed(d *device, voters int) {
	d.t.Helper()
	ctx := d.ctx
	d.must(d.svc.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password"))
	for _, u := range []string{"ann", "ben", "cat"} {
		d.must(d.svc.RegisterUser(ctx, "olga", u, u+"@example.org", "clerk-password"))
	}
	d.must(d.svc.CreateElection(ctx, "ann", "Mayor", "city mayor", false))
	d.must(d.svc.AddCandidates(ctx, "ann", "Mayor", "Kiss", "Wright", "Montroll"))
	var entries []app.VoterEntry
	for i := 1; i <= voters; i++ {
		entries = append(entries, app.VoterEntry{Name: fmt.Sprintf("v%04d", i)})
	}
	d.must(d.svc.AddVoters(ctx, "ann", "Mayor", entries...))
	d.must(d.svc.LaunchElection(ctx, "ann", "Mayor"))
	d.must(d.svc.CreateElection(ctx, "olga", "Levy", "school levy", true))
	d.must(d.svc.AddCandidates(ctx, "olga", "Levy", "Yes", "No"))
	entries = entries[:0]
	for i := 1; i <= 100; i++ {
		entries = append(entries, app.VoterEntry{Name: fmt.Sprintf("l%03d", i)})
	}
	d.must(d.svc.AddVoters(ctx, "olga", "Levy", entries...))
	d.must(d.svc.LaunchElection(ctx, "olga", "Levy"))
	d.must(d.svc.CreateElection(ctx, "olga", "Council", "city council", false))
	d.must(d.svc.AddCandidates(ctx, "olga", "Council", "X", "Y", "Z"))
}

var mayorOrder = [][]string{{"Kiss", "Wright", "Montroll"}, {"Wright", "Montroll"}, {"Montroll", "Kiss"}}

// castMayor casts ballots for voters from..to on a device.
func castMayor(d *device, actor string, from, to int) int {
	d.t.Helper()
	for i := from; i <= to; i++ {
		names := mayorOrder[i%len(mayorOrder)]
		r := make([]app.Ranking, len(names))
		for j, n := range names {
			r[j] = app.Ranking{Candidate: n, Rank: j + 1}
		}
		_, err := d.svc.CastBallot(d.ctx, actor, app.Cast{Election: "Mayor", Voter: fmt.Sprintf("v%04d", i), Rankings: r})
		d.must(err)
	}
	return to - from + 1
}

// editCouncil makes n edits of the Council election's description, each
// against the version the device sees.
func editCouncil(d *device, actor string, n int) int {
	d.t.Helper()
	for i := 0; i < n; i++ {
		e, err := d.svc.Election(d.ctx, actor, "Council")
		d.must(err)
		desc := fmt.Sprintf("edited by %s on %s (%d)", actor, d.name, i)
		d.must(d.svc.UpdateElection(d.ctx, actor, "Council", e.Version, app.ElectionChanges{Description: &desc}))
	}
	return n
}

// syncRounds syncs the devices in random order (the first round all at
// once) until a whole round moves nothing.
func syncRounds(t *testing.T, rng *rand.Rand, devs []*device) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(devs))
	for i, d := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = d.syncer.Sync(d.ctx, nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		// A cycle may give up while hundreds sync at once (the cloud busy,
		// the head taken 30 times); it changes nothing, and the rounds
		// below must still bring every device to the same state.
		if app.IsCode(err, app.CodeUnavailable) {
			t.Logf("%s: concurrent sync: %v", devs[i].name, err)
		} else if err != nil {
			t.Fatalf("%s: concurrent sync: %v", devs[i].name, err)
		}
	}
	for round := 1; ; round++ {
		moved := 0
		for _, i := range rng.Perm(len(devs)) {
			res := devs[i].sync()
			moved += res.Pulled + res.Pushed
		}
		if moved == 0 {
			return
		}
		if round == 5 {
			t.Fatalf("still moving events after %d rounds", round)
		}
	}
}

func TestConvergence(t *testing.T) {
	prefix := newPrefix(t)
	seedN := time.Now().UnixNano()
	t.Logf("random seed %d", seedN)
	rng := rand.New(rand.NewPCG(uint64(seedN), 7))
	// Device clocks disagree by minutes: order comes from the log only.
	a := newDevice(t, "A", prefix, 0, nil)
	b := newDevice(t, "B", prefix, -5*time.Minute, nil)
	c := newDevice(t, "C", prefix, 3*time.Minute, nil)
	seed(a, 900)
	a.sync()
	b.sync()
	c.sync()
	cloud := connect(t, prefix, nil)
	converged(t, cloud, a, b, c)

	// Offline: about 1,000 changes across the three devices, with the same
	// voters cast on two devices, concurrent edits of one election, and
	// ballots in an election another device finalizes meanwhile.
	made := 0
	made += castMayor(a, "ann", 1, 300)
	made += castMayor(b, "ben", 251, 550)
	made += castMayor(c, "cat", 501, 800)
	made += editCouncil(a, "olga", 20)
	made += editCouncil(b, "olga", 20)
	made += editCouncil(c, "olga", 20)
	a.must(a.svc.FinalizeElection(a.ctx, "olga", "Levy"))
	made++
	for i := 1; i <= 40; i++ {
		_, err := b.svc.CastBallot(b.ctx, "ben", app.Cast{Election: "Levy", Voter: fmt.Sprintf("l%03d", i),
			Rankings: []app.Ranking{{Candidate: "Yes", Rank: 1}}})
		b.must(err)
		made++
	}
	a.must(a.svc.RemoveCandidates(a.ctx, "olga", "Council", "Z"))
	c.must(c.svc.AddVoters(c.ctx, "olga", "Council", app.VoterEntry{Name: "late"}))
	made += 2
	t.Logf("%d changes made offline", made)
	var mine []string
	for _, d := range []*device{a, b, c} {
		evs, err := d.store.Pending(d.ctx, 0)
		d.must(err)
		for _, ev := range evs {
			mine = append(mine, ev.ID)
		}
	}
	if len(mine) != made {
		t.Fatalf("%d pending events, want %d", len(mine), made)
	}

	// A goes first, so its finalizing of Levy precedes B's Levy ballots in
	// log order and they are refused; then everyone syncs, at once and in
	// random order.
	a.sync()
	syncRounds(t, rng, []*device{a, b, c})
	log := converged(t, cloud, a, b, c)
	ids := map[string]int{}
	for _, ev := range log {
		ids[ev.ID]++
	}
	for _, id := range mine {
		if ids[id] != 1 {
			t.Errorf("event %s is in the cloud log %d times, want once", id, ids[id])
		}
	}

	// The conflicts are there, the same on every device, and visible.
	conflicts, err := c.svc.Conflicts(c.ctx, "olga", "")
	c.must(err)
	kinds := map[string]int{}
	for _, k := range conflicts {
		kinds[k.Kind]++
	}
	if kinds["duplicate_ballot"] != 100 {
		t.Errorf("duplicate_ballot conflicts = %d, want 100 (voters 251-300 and 501-550 cast on two devices)", kinds["duplicate_ballot"])
	}
	if kinds["stale_edit"] == 0 {
		t.Errorf("no stale_edit conflict from concurrent edits of Council: %v", kinds)
	}
	t.Logf("conflicts: %v", kinds)
	rejected, err := a.svc.Rejections(a.ctx, "olga")
	a.must(err)
	if len(rejected) != 40 {
		t.Errorf("%d rejected events, want B's 40 Levy ballots cast after A finalized it", len(rejected))
	}
	for _, r := range rejected {
		if r.Type != app.EvBallotCast || r.Code != app.CodeConflict {
			t.Errorf("rejected %+v", r)
		}
	}
	st, err := b.syncer.Status(b.ctx)
	b.must(err)
	if st.Pending != 0 || st.LastEventID != log[len(log)-1].Seq || st.LastSuccess.IsZero() || st.LastError != "" {
		t.Errorf("status after sync = %+v", st)
	}

	t.Run("ResolveConflictSyncs", func(t *testing.T) {
		var dup app.Conflict
		for _, k := range conflicts {
			if k.Kind == "duplicate_ballot" {
				dup = k
				break
			}
		}
		b.must(b.svc.ResolveConflict(b.ctx, "olga", dup.Election, dup.Seq, true, ""))
		b.sync()
		a.sync()
		c.sync()
		converged(t, cloud, a, b, c)
	})

	t.Run("LateDeviceCatchesUp", func(t *testing.T) {
		d := newDevice(t, "D", prefix, time.Hour, nil)
		res := d.sync()
		if res.Pulled != len(cloudLog(t, cloud)) {
			t.Errorf("new device pulled %d events, want the whole log", res.Pulled)
		}
		converged(t, cloud, a, b, c, d)
		if _, err := d.svc.SignIn(context.Background(), "ann", "clerk-password"); err != nil {
			t.Errorf("sign in on the new device: %v", err)
		}
	})
}
