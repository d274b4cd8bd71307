package localstore

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// steppedStore builds a database whose log holds events of many kinds:
// users and roles, elections in several states, a poll book, ballots cast
// and changed, an import of cast vote records, a rename.
func steppedStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "stepped.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	svc := app.NewService(s, nil, nil)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(svc.RegisterUser(ctx, "", "owner", "owner@example.org", "owner-password"))
	must(svc.RegisterUser(ctx, "owner", "clerk", "clerk@example.org", "clerk-password"))
	must(svc.CreateElection(ctx, "clerk", "Draft", "", false))
	must(svc.AddCandidates(ctx, "clerk", "Draft", "A", "B"))
	must(svc.CreateElection(ctx, "clerk", "Open", "", true))
	must(svc.AddCandidates(ctx, "clerk", "Open", "A", "B", "C"))
	var voters []app.VoterEntry
	for i := range 30 {
		voters = append(voters, app.VoterEntry{Name: fmt.Sprintf("v%02d", i)})
	}
	must(svc.AddVoters(ctx, "clerk", "Open", voters...))
	must(svc.LaunchElection(ctx, "clerk", "Open"))
	for i := range 20 {
		_, err := svc.CastBallot(ctx, "clerk", app.Cast{Election: "Open", Voter: fmt.Sprintf("v%02d", i),
			Rankings: []app.Ranking{{Candidate: string(rune('A' + i%3)), Rank: 1}, {Candidate: string(rune('A' + (i+1)%3)), Rank: 2}}})
		must(err)
	}
	var imported []app.ImportedBallot
	for i := range 500 {
		imported = append(imported, app.ImportedBallot{SourceID: fmt.Sprintf("cvr-%d", i),
			Rankings: []app.Ranking{{Candidate: string(rune('A' + i%3)), Rank: 1}}, Precinct: fmt.Sprintf("P%d", i%4)})
	}
	_, err = svc.ImportBallots(ctx, "clerk", "Open", app.SourceCVR, imported, nil)
	must(err)
	must(svc.SetRole(ctx, "owner", "clerk", app.RoleObserver))
	must(svc.RenameElection(ctx, "owner", "Draft", "Later"))
	must(svc.CloseElection(ctx, "owner", "Open"))
	return s
}

// TestRebuildInStepsSameAsOne: the verify's rebuild, a transaction for
// each event, makes the projection that one transaction for the whole log
// makes, which is the live one; and verify, in steps of an event, still
// passes a healthy database and names an item changed behind its back.
func TestRebuildInStepsSameAsOne(t *testing.T) {
	s := steppedStore(t)
	ctx := context.Background()
	var live map[string]string
	var events int
	if err := s.db.View(func(btx *bolt.Tx) error {
		live = dump(btx.Bucket(bucketData), btx.Bucket(bucketNames))
		events = btx.Bucket(bucketLog).Stats().KeyN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rebuilt := func(step int) map[string]string {
		scratch, err := Open(filepath.Join(t.TempDir(), fmt.Sprintf("scratch-%d.db", step)))
		if err != nil {
			t.Fatal(err)
		}
		defer scratch.Close()
		steps := 0
		err = s.db.View(func(btx *bolt.Tx) (err error) {
			if err := copyLog(ctx, btx.Bucket(bucketLog), scratch.db, step); err != nil {
				return err
			}
			steps, err = replayInSteps(ctx, scratch.db, step)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: events, false: 1}[step == 1]; steps != want {
			t.Errorf("a rebuild in steps of %d bytes took %d transactions for %d events, want %d", step, steps, events, want)
		}
		var out map[string]string
		scratch.db.View(func(btx *bolt.Tx) error {
			out = dump(btx.Bucket(bucketData), btx.Bucket(bucketNames))
			return nil
		})
		return out
	}
	if events < 30 {
		t.Fatalf("the log holds %d events; the test wants many", events)
	}
	one, stepped := rebuilt(1<<30), rebuilt(1)
	if !maps.Equal(one, live) {
		t.Errorf("a rebuild in one transaction differs from the live projection (%d items against %d)", len(one), len(live))
	}
	if !maps.Equal(stepped, one) {
		for k, v := range one {
			if stepped[k] != v {
				t.Errorf("item %q differs between the rebuild in steps and the one in one transaction", strings.ReplaceAll(k, "\x00", " / "))
				break
			}
		}
		t.Errorf("a rebuild in steps: %d items, in one transaction %d", len(stepped), len(one))
	}

	old := rebuildStep
	rebuildStep = 1
	t.Cleanup(func() { rebuildStep = old })
	if r, err := s.Verify(ctx); err != nil || !r.OK() {
		t.Fatalf("verify in steps of an event: %+v, %v", r, err)
	}
	if err := s.db.Update(func(btx *bolt.Tx) error {
		return btx.Bucket(bucketData).Put([]byte("ELECTION#Open\x00CANDIDATE#Z"), encodeItem(nil, app.Item{{Name: "name", Value: app.S("Z")}}))
	}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Verify(ctx)
	if err != nil || r.OK() || !strings.Contains(strings.Join(r.Problems, " "), "CANDIDATE#Z (not in the rebuild)") {
		t.Errorf("verify in steps of an event, an item added behind its back: %+v, %v", r, err)
	}
}

// TestVerifyWithoutRoomForItsRebuild: a temporary folder verify cannot
// write its rebuild in is named as such, not as a damaged database, and
// nothing changes.
func TestVerifyWithoutRoomForItsRebuild(t *testing.T) {
	s := steppedStore(t)
	before, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "gone")
	t.Setenv("TMPDIR", missing)
	_, err = s.Verify(context.Background())
	msg := app.ErrorMessage(err)
	if err == nil || !strings.Contains(msg, "temporary folder "+missing) || !strings.Contains(msg, s.Path()) || strings.Contains(msg, "damaged") {
		t.Errorf("verify with TMPDIR missing: %v", err)
	}
	if after, _ := os.ReadFile(s.Path()); !bytes.Equal(after, before) {
		t.Error("the database changed")
	}
}

// TestVerifyTellsItsProgress: verify tells the progress it carries in its
// context how far each step is, in order (the chain, the rebuild, the
// comparison), each step's counts rising to the log's last event.
func TestVerifyTellsItsProgress(t *testing.T) {
	s := steppedStore(t)
	old := rebuildStep
	rebuildStep = 1
	t.Cleanup(func() { rebuildStep = old })
	type report struct {
		step        string
		done, total uint64
	}
	var got []report
	ctx := app.WithVerifyProgress(context.Background(), func(step string, done, total uint64) {
		got = append(got, report{step, done, total})
	})
	r, err := s.Verify(ctx)
	if err != nil || !r.OK() {
		t.Fatalf("verify: %+v, %v", r, err)
	}
	order := map[string]int{"chain": 0, "rebuild": 1, "compare": 2}
	last := map[string]report{}
	for i, g := range got {
		if i > 0 && (order[g.step] < order[got[i-1].step] || g.step == got[i-1].step && g.done < got[i-1].done) {
			t.Fatalf("report %d, %+v, after %+v", i, g, got[i-1])
		}
		last[g.step] = g
	}
	for _, step := range []string{"chain", "rebuild"} {
		if l := last[step]; l.done != r.Events || l.total != r.Events {
			t.Errorf("the last report of %s: %+v, want %d of %d", step, l, r.Events, r.Events)
		}
	}
	if _, ok := last["compare"]; !ok || len(got) < int(r.Events)+2 {
		t.Errorf("%d reports for %d events (a rebuild a step an event): %+v", len(got), r.Events, got)
	}
}
