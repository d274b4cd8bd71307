package cloudsync_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"votedesk/app"
)

// TestRandomDeploymentsKeepEveryReceipt plays random histories of a polling
// place: kiosks made by copying a database file (as officials do), backups
// taken and restored in place, devices that cast ballots offline, sync in any
// order, and are killed in the middle of a sync. After healing, on every
// device and in the cloud, every receipt a voter was handed is a counted
// ballot of that voter or a conflict officials can decide, the devices and
// the cloud projection agree, and the log holds every event once.
//
// Every append is a claim on a proposal (claim.go), however small, so the
// kills also stop syncs between a proposal and its claim, and the lost
// races are claims'.
//
// VOTEDESK_PROPERTY_SEED replays one history; VOTEDESK_PROPERTY_RUNS sets how
// many random ones run (default 3).
func TestRandomDeploymentsKeepEveryReceipt(t *testing.T) {
	withClaims(t)
	runHistories(t, 18, func(t *testing.T, rng *rand.Rand) { playHistory(t, rng, 70, nil) })
}

// TestRandomDeploymentsInShards plays such histories with every run of
// ballots in the election's shard, so that the kills also stop syncs
// between a run's append and its cut, and runs are left uncut by devices
// restored from a backup or killed for good (the sweep orders them).
func TestRandomDeploymentsInShards(t *testing.T) {
	inShards(t)
	// Histories that once failed, every run: 1795826352289860648 copied a
	// laptop to a kiosk that was killed right after appending the copied
	// ballots to the election's shard, before its cut; the laptop then
	// appended them again after them, and both went into the log.
	for _, seed := range []uint64{1795826352289860648} {
		t.Run(fmt.Sprint("regression-", seed), func(t *testing.T) { playHistory(t, rand.New(rand.NewPCG(seed, 19)), 70, nil) })
	}
	runHistories(t, 19, func(t *testing.T, rng *rand.Rand) { playHistory(t, rng, 70, nil) })
}

// TestRandomDeploymentsWithImports plays such histories in which officials
// also import small files of cast vote records on any device, whose
// ballots are stored in chunks: an import pending in a file copied to a
// kiosk, backed up and restored, or whose sync was killed must end up in
// the election once, every record with its source id, on every device.
// Every run goes to the election's shard, as a real import's does.
func TestRandomDeploymentsWithImports(t *testing.T) {
	inShards(t)
	runHistories(t, 23, func(t *testing.T, rng *rand.Rand) {
		playHistory(t, rng, 60, rand.New(rand.NewPCG(rng.Uint64(), 5)))
	})
}

// runHistories plays random histories: VOTEDESK_PROPERTY_RUNS of them
// (default 3), or the one VOTEDESK_PROPERTY_SEED names, each from its seed
// and salt.
func runHistories(t *testing.T, salt uint64, play func(t *testing.T, rng *rand.Rand)) {
	runs := 3
	if s := os.Getenv("VOTEDESK_PROPERTY_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	seeds := make([]uint64, runs)
	for i := range seeds {
		seeds[i] = uint64(time.Now().UnixNano()) + uint64(i)
	}
	if s := os.Getenv("VOTEDESK_PROPERTY_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("VOTEDESK_PROPERTY_SEED: %v", err)
		}
		seeds = []uint64{v}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Logf("replay with VOTEDESK_PROPERTY_SEED=%d", seed)
			play(t, rand.New(rand.NewPCG(seed, salt)))
		})
	}
}

// crashSteps are where a random kill stops a sync ("appended": between a
// run's append to its election's shard and the cut that orders it, reached
// when a history's device pushes a run heavy enough for a shard). The
// projection steps that leave a claim behind are covered by
// TestCrashBetweenSteps; here they would only add the takeover wait.
var crashSteps = []string{"page", "appended", "pushed", "confirmed", "projection-done"}

// With imports set, an official also imports a few records now and then,
// decided by imports (rng's own decisions are then the same as without).
func playHistory(t *testing.T, rng *rand.Rand, steps int, imports *rand.Rand) {
	prefix := newPrefix(t)
	const voters = 120
	laptop := newDevice(t, "laptop", prefix, 0, nil)
	seed(laptop, voters)
	laptop.sync()
	devs := []*device{laptop}
	backups := map[*device][]string{}
	var receipts []receipt
	var story []string
	say := func(format string, args ...any) { story = append(story, fmt.Sprintf(format, args...)) }
	defer func() {
		if t.Failed() {
			for _, s := range story {
				t.Log(s)
			}
		}
	}()
	imported := map[string]bool{} // source ids
	for step := 0; step < steps; step++ {
		d := devs[rng.IntN(len(devs))]
		if imports != nil && imports.IntN(6) == 0 {
			ballots := make([]app.ImportedBallot, 1+imports.IntN(12))
			for k := range ballots {
				names := mayorOrder[imports.IntN(len(mayorOrder))]
				r := make([]app.Ranking, len(names))
				for j, n := range names {
					r[j] = app.Ranking{Candidate: n, Rank: j + 1}
				}
				ballots[k] = app.ImportedBallot{SourceID: fmt.Sprintf("%s-%d-%d", d.name, step, k), Rankings: r}
			}
			if _, err := d.svc.ImportBallots(d.ctx, "ann", "Mayor", app.SourceCVR, ballots, nil); err != nil {
				t.Fatalf("%s: import: %v", d.name, err)
			}
			for _, b := range ballots {
				imported[b.SourceID] = true
			}
			say("%s: imported %d records", d.name, len(ballots))
			continue
		}
		switch op := rng.IntN(100); {
		case op < 45: // a voter at this device; sometimes one who voted elsewhere
			voter := fmt.Sprintf("v%04d", 1+rng.IntN(voters))
			names := mayorOrder[rng.IntN(len(mayorOrder))]
			r := make([]app.Ranking, len(names))
			for j, n := range names {
				r[j] = app.Ranking{Candidate: n, Rank: j + 1}
			}
			rc, err := d.svc.CastBallot(d.ctx, "ann", app.Cast{Election: "Mayor", Voter: voter, Rankings: r, Source: app.SourceKiosk})
			if err != nil {
				// Refused at the device: no receipt was printed.
				if app.ErrorCode(err) == app.CodeInternal {
					t.Fatalf("%s: cast %s: %v", d.name, voter, err)
				}
				say("%s: %s refused: %s", d.name, voter, app.ErrorMessage(err))
				continue
			}
			receipts = append(receipts, receipt{voter: voter, code: rc.Confirmation})
			say("%s: %s cast, receipt %s", d.name, voter, rc.Confirmation)
		case op < 70:
			d.sync()
			say("%s: synced", d.name)
		case op < 78 && len(devs) < 6: // copy the file to a new kiosk
			k := copyToKiosk(t, d, len(devs), prefix)
			devs = append(devs, k)
			say("%s: copied to %s", d.name, k.name)
		case op < 86: // an official takes a backup
			path := filepath.Join(t.TempDir(), fmt.Sprintf("%s-backup%d.db", d.name, len(backups[d])))
			if _, err := d.store.Backup(d.ctx, path); err != nil {
				t.Fatal(err)
			}
			backups[d] = append(backups[d], path)
			say("%s: backup %s", d.name, filepath.Base(path))
		case op < 92 && len(backups[d]) > 0: // restore an older backup in place
			// What the device made since its last sync would be lost with
			// the file; officials sync first, and so does this history.
			d.sync()
			b := backups[d][rng.IntN(len(backups[d]))]
			d.close()
			copyFile(t, b, d.path)
			d.reopen(prefix)
			say("%s: synced, then restored %s in place", d.name, filepath.Base(b))
		default: // killed in the middle of a sync
			say("%s: %s", d.name, killSync(t, rng, d, prefix))
		}
	}
	// Heal: everyone syncs until nothing moves.
	for round := 0; round < 3; round++ {
		for _, d := range devs {
			d.sync()
		}
	}
	converged(t, connect(t, prefix, nil), devs...)
	for _, d := range devs {
		accounted(t, d, "Mayor", receipts)
		bs, err := d.svc.Ballots(d.ctx, "ann", "Mayor")
		d.must(err)
		seen := map[string]int{}
		for _, b := range bs {
			if b.Source == app.SourceCVR {
				seen[b.SourceID]++
			}
		}
		for id := range imported {
			if seen[id] != 1 {
				t.Errorf("%s: imported record %s is in the election %d times", d.name, id, seen[id])
			}
		}
		if len(seen) != len(imported) {
			t.Errorf("%s: %d imported records in the election, %d were imported", d.name, len(seen), len(imported))
		}
	}
	say("%d receipts, %d imported records, %d devices", len(receipts), len(imported), len(devs))
	t.Logf("%d receipts and %d imported records on %d devices, all accounted for", len(receipts), len(imported), len(devs))
}

// copyToKiosk copies d's database file to a new kiosk, number n, as
// officials do, and opens it.
func copyToKiosk(t *testing.T, d *device, n int, prefix string) *device {
	t.Helper()
	d.close()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("kiosk%d.db", n))
	copyFile(t, d.path, path)
	d.reopen(prefix)
	return openDevice(t, fmt.Sprintf("kiosk%d", n), path, prefix)
}

// killSync kills a sync of d at a random step (in a child process) and
// says where.
func killSync(t *testing.T, rng *rand.Rand, d *device, prefix string) string {
	t.Helper()
	step := crashSteps[rng.IntN(len(crashSteps))]
	d.close()
	crashed := crashSync(t, d.path, prefix, step, 1)
	d.reopen(prefix)
	return fmt.Sprintf("killed at %s (reached: %v)", step, crashed)
}

// copyFile copies a database file byte for byte, as cp does.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}
