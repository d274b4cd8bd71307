package localstore_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/localstore"
)

// TestOpensADatabaseOfThePreviousVersion opens a database written by
// VoteDesk before the signed log (testdata/README.md): the file as it was
// is kept beside it byte for byte and still checks; the upgraded database
// verifies, keeps the old log's events and hashes, and holds the same
// users (who sign in with their passwords), elections, ballots, codes and
// results; a secret election stays secret; new work goes on.
func TestOpensADatabaseOfThePreviousVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "votes.db")
	original := localstore.Gunzip(t, "testdata/format1.db.gz")
	if err := os.WriteFile(path, original, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	kept := st.Upgraded()
	if !strings.HasPrefix(kept, path+".before-format-2-") {
		t.Fatalf("the upgrade kept the old file as %q", kept)
	}
	if raw, err := os.ReadFile(kept); err != nil || !bytes.Equal(raw, original) {
		t.Fatalf("the kept file is not the old file byte for byte (%v)", err)
	}
	if r, err := localstore.CheckFile(ctx, kept); err != nil || !r.OK() || r.Events != 23 {
		t.Errorf("the kept file: %+v %v", r, err)
	}
	if r, err := st.Verify(ctx); err != nil || !r.OK() {
		t.Fatalf("the upgraded database does not verify: %+v %v", r, err)
	}
	var head string
	st.View(ctx, func(tx app.Tx) error {
		return tx.Events(23, func(ev *app.Event) (bool, error) { head = ev.Hash; return false, nil })
	})
	if head != "8cc719b498be1cdccb4cbdf955fc6f21afcf702983d0da3d3d166889a853e261" {
		t.Errorf("event 23 hashes to %s after the upgrade", head)
	}

	svc := app.NewService(st, nil, nil)
	for login, pw := range map[string]string{"olga": "olga-password", "ursula2": "ursula-password", "otto@example.org": "otto-password"} {
		if _, err := svc.SignIn(ctx, login, pw); err != nil {
			t.Errorf("%s cannot sign in after the upgrade: %v", login, err)
		}
	}
	if u, err := svc.User(ctx, "olga", "otto"); err != nil || u.Role != app.RoleObserver || u.ID == "" {
		t.Errorf("otto after the upgrade: %+v %v", u, err)
	}
	want := map[string]struct {
		status  app.Status
		ballots int64
	}{"Mayor": {app.StatusFinalized, 3}, "Secret": {app.StatusLaunched, 2}, "Board": {app.StatusDraft, 4}, "Draft": {app.StatusDraft, 0}}
	es, err := svc.Elections(ctx, "olga")
	if err != nil || len(es) != len(want) {
		t.Fatalf("elections after the upgrade: %d %v", len(es), err)
	}
	for _, e := range es {
		if w, ok := want[e.Name]; !ok || e.Status != w.status || e.Ballots != w.ballots || e.ID == "" {
			t.Errorf("election %s: %s with %d ballots (id %q)", e.Name, e.Status, e.Ballots, e.ID)
		}
	}
	ballots, err := svc.Ballots(ctx, "olga", "Mayor")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range ballots {
		found = found || b.Confirmation == "d7b6a76c-cc89-4490-b0a7-62ad66473dcf" && b.Voter == "v1"
	}
	if !found {
		t.Errorf("v1's confirmation code is gone: %+v", ballots)
	}
	c, _, err := svc.CountStored(ctx, "olga", "Mayor", "", nil, nil)
	if err != nil || len(c.Result.Winners) != 1 || c.Contest.Candidates[c.Result.Winners[0]].Name != "Bob" {
		t.Errorf("Mayor counted after the upgrade: %v %v", c.Result.Winners, err)
	}
	// The secret election is still secret to the OBSERVER, in the old
	// events too.
	if _, err := svc.Ballots(ctx, "otto", "Secret"); app.ErrorCode(err) != app.CodeForbidden {
		t.Errorf("otto lists the open secret election's ballots: %v", err)
	}
	err = svc.Log(ctx, "otto", 1, func(ev *app.Event) error {
		if ev.Type == app.EvBallotCast && strings.Contains(string(ev.Data), "Secret") && (strings.Contains(string(ev.Data), "rankings") || len(ev.Sealed) > 0) {
			t.Errorf("otto reads a secret ballot in the old log: %s", ev.Data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// New work goes on, signed, and the database still verifies.
	if _, err := svc.CastBallot(ctx, "olga", app.Cast{Election: "Secret", Voter: "p3", Rankings: []app.Ranking{{Candidate: "Bob", Rank: 1}}}); err != nil {
		t.Fatal(err)
	}
	if r, err := st.Verify(ctx); err != nil || !r.OK() {
		t.Fatalf("after new work the database does not verify: %+v %v", r, err)
	}
	// Opening it again upgrades nothing.
	st.Close()
	st2, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if st2.Upgraded() != "" {
		t.Error("an upgraded database was upgraded again")
	}
}
