package cloudsync_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
)

// TestRandomOfficialsKeepEveryReceipt plays random histories of officials
// and kiosks on three devices that sync in any order: elections made
// offline under names another device also used (the rules give the later
// one a provisional name), some letting voters re-cast, renamed, merged
// into their twin or kept apart, closed, finalized, deleted where they show
// no ballots, voters struck from poll books, the kiosk official's role
// taken away and given back and her password changed on one device (the
// others sign with her old key until she signs in there again), conflicts
// decided either way, while kiosks
// hold their election by id and take ballots in it, officials key in paper
// ballots of no poll-book voter, database files are copied to new kiosks
// and syncs are killed halfway. After healing, every device and the cloud
// agree, every receipt a voter was handed is a counted ballot of that voter
// in some election or a conflict officials can decide (outside any
// election, once its election was deleted), no confirmation code is
// counted twice, and every device's projection is a rebuild of its log.
//
// VOTEDESK_PROPERTY_SEED replays one history; VOTEDESK_PROPERTY_RUNS sets how
// many random ones run (default 3): runHistories.
func TestRandomOfficialsKeepEveryReceipt(t *testing.T) {
	runHistories(t, 27, func(t *testing.T, rng *rand.Rand) { playOfficials(t, rng, 80) })
}

// TestRandomOfficialsInShards plays such histories with every run of
// ballots in its election's shard (inShards): elections made, renamed and
// merged on several devices while their ballots sit in shards.
func TestRandomOfficialsInShards(t *testing.T) {
	inShards(t)
	runHistories(t, 28, func(t *testing.T, rng *rand.Rand) { playOfficials(t, rng, 80) })
}

// pollNames are the names officials give the elections they make and
// rename: few, so that devices collide on them.
var pollNames = []string{"Poll", "Poll B", "Poll C"}

func playOfficials(t *testing.T, rng *rand.Rand, steps int) {
	prefix := newPrefix(t)
	laptop := newDevice(t, "laptop", prefix, 0, nil)
	seed(laptop, 40)
	laptop.sync()
	devs := []*device{laptop, copyDevice(t, laptop, "B", prefix), copyDevice(t, laptop, "C", prefix)}
	for _, d := range devs[1:] {
		d.sync()
	}
	// Each device keeps the signing keys of those signed in on it, as a
	// process does: a password changed on one device leaves the others
	// signing with the key they had until ann signs in there again.
	var ids []string
	for _, name := range []string{"olga", "ann"} {
		u, err := laptop.svc.User(laptop.ctx, "olga", name)
		laptop.must(err)
		ids = append(ids, u.ID)
	}
	keyrings := map[*device]*app.Keyring{}
	// keep gives d's service d's keyring again (a device reopened after a
	// copy or a crash starts with the process's).
	keep := func(d *device) {
		d.svc = app.NewService(d.store, apptest.NewClock(start.Add(time.Hour), time.Millisecond), nil, app.WithKeyring(keyrings[d]))
	}
	ownKeys := func(d *device, from *app.Keyring) {
		kr := &app.Keyring{}
		for _, id := range ids {
			if k, ok := from.Key(id); ok {
				kr.Add(id, k)
			}
		}
		keyrings[d] = kr
		keep(d)
	}
	for _, d := range devs {
		ownKeys(d, app.DefaultKeyring)
	}
	annID := ids[1]
	var receipts []receipt
	var story []string
	say := func(format string, args ...any) { story = append(story, fmt.Sprintf(format, args...)) }
	done := map[string]int{} // what the history did, for the log
	defer func() {
		if t.Failed() {
			for _, s := range story {
				t.Log(s)
			}
		}
	}()
	// refused is a command the device refused: fine, unless it is a bug.
	refused := func(d *device, what string, err error) bool {
		t.Helper()
		if err == nil {
			return false
		}
		if app.ErrorCode(err) == app.CodeInternal {
			t.Fatalf("%s: %s: %v", d.name, what, err)
		}
		say("%s: %s refused: %s", d.name, what, app.ErrorMessage(err))
		return true
	}
	pick := func(d *device, launched bool) (app.Election, bool) {
		es, err := d.svc.Elections(d.ctx, "olga")
		d.must(err)
		var ok []app.Election
		for _, e := range es {
			if (!launched || e.Status == app.StatusLaunched) && e.Name != "Council" {
				ok = append(ok, e)
			}
		}
		if len(ok) == 0 {
			return app.Election{}, false
		}
		return ok[rng.IntN(len(ok))], true
	}
	// act runs an official's command on election e, held to it by id.
	act := func(d *device, e app.Election, what string, cmd func(ctx context.Context, actor, name string) error) {
		if !refused(d, what+" "+e.Name, cmd(app.ForElection(d.ctx, e.Name, e.ID), "olga", e.Name)) {
			say("%s: %s %s (%s)", d.name, what, e.Name, e.ID)
			done[what]++
		}
	}
	// pollBook is election e's poll book on d, read as a screen that
	// shows e would, and the context that holds commands to e.
	pollBook := func(d *device, e app.Election) (context.Context, []app.Voter) {
		held := app.ForElection(d.ctx, e.Name, e.ID)
		voters, err := d.svc.Voters(held, "olga", e.Name)
		d.must(err)
		return held, voters
	}
	for step := 0; step < steps; step++ {
		d := devs[rng.IntN(len(devs))]
		switch op := rng.IntN(118); {
		case op < 40: // a voter at a kiosk, which holds its election by id
			e, ok := pick(d, true)
			if !ok {
				continue
			}
			held, voters := pollBook(d, e)
			cands, err := d.svc.Candidates(held, "olga", e.Name)
			d.must(err)
			if len(voters) == 0 || len(cands) == 0 {
				continue
			}
			voter := voters[rng.IntN(len(voters))].Name
			var r []app.Ranking
			for i, c := range rng.Perm(len(cands))[:1+rng.IntN(len(cands))] {
				r = append(r, app.Ranking{Candidate: cands[c].Name, Rank: i + 1})
			}
			rc, err := d.svc.CastBallot(held, "ann", app.Cast{Election: e.Name, Voter: voter, Rankings: r, Source: app.SourceKiosk})
			if refused(d, fmt.Sprintf("%s votes in %s", voter, e.Name), err) {
				continue
			}
			receipts = append(receipts, receipt{voter: voter, code: rc.Confirmation})
			say("%s: %s votes in %s (%s), receipt %s", d.name, voter, e.Name, e.ID, rc.Confirmation)
		case op < 59:
			d.sync()
			say("%s: synced", d.name)
		case op < 61: // the OWNER takes the kiosk official's role away, or gives it back
			role := []app.Role{app.RoleObserver, app.RoleUser}[rng.IntN(2)]
			err := d.svc.SetRole(d.ctx, "olga", "ann", role)
			if !refused(d, "ann becomes "+role.String(), err) {
				say("%s: ann is %s now", d.name, role)
				done["role"]++
			}
		case op < 62: // ann's password changes here; she signs in again on some other devices
			if refused(d, "change ann's password", d.svc.ChangePassword(d.ctx, "olga", "ann", fmt.Sprintf("clerk-password-%d", step))) {
				continue
			}
			key, _ := keyrings[d].Key(annID)
			var again []string
			for _, o := range devs {
				if o != d && rng.IntN(2) == 0 {
					keyrings[o].Add(annID, key)
					again = append(again, o.name)
				}
			}
			say("%s: ann's password changed; she signed in again on %v", d.name, again)
			done["password"]++
		case op < 72: // an official makes an election, maybe under a name another device used
			name := pollNames[rng.IntN(len(pollNames))]
			err := d.svc.CreateElection(d.ctx, "olga", name, "", false)
			if refused(d, "create "+name, err) {
				continue
			}
			d.must(d.svc.AddCandidates(d.ctx, "olga", name, "Yes", "No"))
			var vs []app.VoterEntry
			for i := 1; i <= 12; i++ {
				vs = append(vs, app.VoterEntry{Name: fmt.Sprintf("p%02d", i)})
			}
			d.must(d.svc.AddVoters(d.ctx, "olga", name, vs...))
			if rng.IntN(2) == 0 {
				yes := true
				d.must(d.svc.UpdateElection(d.ctx, "olga", name, 0, app.ElectionChanges{AllowRecast: &yes}))
				done["recast"]++
			}
			d.must(d.svc.LaunchElection(d.ctx, "olga", name))
			say("%s: made and launched %s", d.name, name)
			done["make"]++
		case op < 80: // an official renames an election
			e, ok := pick(d, false)
			if !ok || e.Name == "Mayor" || e.Name == "Levy" {
				continue
			}
			to := pollNames[rng.IntN(len(pollNames))] + " " + strconv.Itoa(rng.IntN(3))
			err := d.svc.RenameElection(app.ForElection(d.ctx, e.Name, e.ID), "olga", e.Name, to)
			if !refused(d, "rename "+e.Name+" to "+to, err) {
				say("%s: renamed %s (%s) to %s", d.name, e.Name, e.ID, to)
				done["rename"]++
			}
		case op < 90: // an official decides a conflict, either way
			cs, err := d.svc.Conflicts(d.ctx, "olga", "")
			d.must(err)
			var open []app.Conflict
			for _, c := range cs {
				if !c.Resolved && c.Election != "" {
					open = append(open, c)
				}
			}
			if len(open) == 0 {
				continue
			}
			c := open[rng.IntN(len(open))]
			accept := rng.IntN(3) > 0
			err = d.svc.ResolveConflict(d.ctx, "olga", c.Election, c.Seq, accept, "decided in a random history")
			if !refused(d, fmt.Sprintf("decide %s %d of %s", c.Kind, c.Seq, c.Election), err) {
				say("%s: decided %s %d of %s (accept %v)", d.name, c.Kind, c.Seq, c.Election, accept)
				done["decide"]++
			}
		case op < 97: // an official deletes an election that shows no ballots here
			e, ok := pick(d, false)
			if !ok || e.Name == "Mayor" || e.Ballots > 0 {
				continue
			}
			act(d, e, "delete", d.svc.DeleteElection)
		case op < 100: // an official closes the polls of an election
			e, ok := pick(d, true)
			if !ok || e.Name == "Mayor" {
				continue
			}
			act(d, e, "close", d.svc.CloseElection)
		case op < 103: // an official finalizes an election whose polls are closed
			e, ok := pick(d, false)
			if !ok || e.Status != app.StatusClosed {
				continue
			}
			act(d, e, "finalize", d.svc.FinalizeElection)
		case op < 109: // an official strikes a voter from a poll book
			e, ok := pick(d, false)
			if !ok {
				continue
			}
			held, voters := pollBook(d, e)
			if len(voters) == 0 {
				continue
			}
			v := voters[rng.IntN(len(voters))]
			if v.Voted {
				continue // a voter with a ballot stays in the poll book
			}
			yes := true
			if refused(d, "allow edits in "+e.Name, d.svc.UpdateElection(held, "olga", e.Name, 0, app.ElectionChanges{AllowEdit: &yes})) {
				continue
			}
			if !refused(d, "strike "+v.Name+" from "+e.Name, d.svc.RemoveVoters(held, "olga", e.Name, v.Name)) {
				say("%s: struck %s from %s (%s)", d.name, v.Name, e.Name, e.ID)
				done["strike"]++
			}
		case op < 112: // an official keys in a paper ballot of no poll-book voter
			e, ok := pick(d, true)
			if !ok {
				continue
			}
			held := app.ForElection(d.ctx, e.Name, e.ID)
			cands, err := d.svc.Candidates(held, "olga", e.Name)
			d.must(err)
			r := []app.Ranking{{Candidate: cands[rng.IntN(len(cands))].Name, Rank: 1}}
			rc, err := d.svc.CastBallot(held, "ann", app.Cast{Election: e.Name, Rankings: r, Source: app.SourcePaper, Transcribed: true})
			if refused(d, "paper ballot in "+e.Name, err) {
				continue
			}
			receipts = append(receipts, receipt{code: rc.Confirmation})
			say("%s: paper ballot in %s (%s), code %s", d.name, e.Name, e.ID, rc.Confirmation)
			done["paper"]++
		case op < 115 && len(devs) < 5: // the file is copied to a new kiosk, as officials do
			k := copyToKiosk(t, d, len(devs), prefix)
			keep(d)
			ownKeys(k, keyrings[d])
			devs = append(devs, k)
			say("%s: copied to %s", d.name, k.name)
			done["copy"]++
		case op >= 115: // killed in the middle of a sync
			say("%s: %s", d.name, killSync(t, rng, d, prefix))
			keep(d)
			done["crash"]++
		}
	}
	for round := 0; round < 3; round++ {
		for _, d := range devs {
			d.sync()
		}
	}
	converged(t, connect(t, prefix, nil), devs...)
	for _, d := range devs {
		everyReceiptSomewhere(t, d, receipts)
		// What the rules made as the events came is what they make of
		// the whole log at once.
		if r, err := d.store.Verify(d.ctx); err != nil || !r.OK() {
			t.Errorf("%s: verify: %+v %v", d.name, r, err)
		}
	}
	t.Logf("%d receipts on %d devices, all accounted for (%v)", len(receipts), len(devs), done)
}

// everyReceiptSomewhere checks on a device that every receipt is a counted
// ballot of its voter in some election or a conflict officials can decide,
// and that no confirmation code is counted twice.
func everyReceiptSomewhere(t *testing.T, d *device, receipts []receipt) {
	t.Helper()
	es, err := d.svc.Elections(d.ctx, "olga")
	d.must(err)
	counted := map[string]string{}
	where := map[string]string{}
	for _, e := range es {
		bs, err := d.svc.Ballots(d.ctx, "olga", e.Name)
		d.must(err)
		for _, b := range bs {
			if b.Confirmation == "" {
				continue
			}
			if other, twice := where[b.Confirmation]; twice {
				t.Errorf("%s: confirmation %s counted in %s and in %s", d.name, b.Confirmation, other, e.Name)
			}
			counted[b.Confirmation], where[b.Confirmation] = b.Voter, e.Name
		}
	}
	cs, err := d.svc.Conflicts(d.ctx, "olga", "")
	d.must(err)
	listed := map[string]bool{}
	for _, c := range cs {
		listed[c.Confirmation] = true
		if c.SetAside != "" {
			listed[c.SetAside] = true
		}
	}
	for _, r := range receipts {
		voter, ok := counted[r.code]
		switch {
		case ok && voter == r.voter:
		case listed[r.code]:
		case ok:
			t.Errorf("%s: the receipt %s of %s counts as %s's ballot", d.name, r.code, r.voter, voter)
		default:
			var names []string
			for _, e := range es {
				names = append(names, e.Name)
			}
			t.Errorf("%s: the receipt %s of %s is neither counted nor listed for officials (elections: %s)", d.name, r.code, r.voter, strings.Join(names, ", "))
		}
	}
}
