package app_test

import (
	"reflect"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/tally"
)

// cached returns the count cache's value for an election (nil when none).
func cached(e *env, election string) []byte {
	e.t.Helper()
	el, err := e.svc.Election(e.ctx, "owner", election)
	e.must(err)
	var out []byte
	e.must(e.store.View(e.ctx, func(tx app.Tx) error {
		b, err := tx.Cached(app.CountCacheKey(el.ID))
		out = append([]byte(nil), b...)
		if b == nil {
			out = nil
		}
		return err
	}))
	return out
}

// sameInput compares two count inputs but for where in the log they were
// read.
func sameInput(t *testing.T, what string, a, b app.CountInput) {
	t.Helper()
	a.HeadSeq, a.HeadHash, b.HeadSeq, b.HeadHash = 0, "", 0, ""
	names := func(cs []app.Candidate) (out []string) {
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	if !reflect.DeepEqual(a.Ballots, b.Ballots) || !reflect.DeepEqual(a.Notes, b.Notes) || !reflect.DeepEqual(names(a.Candidates), names(b.Candidates)) {
		t.Errorf("%s: the count inputs differ", what)
	}
}

// TestCountCache: the first count of a closed election keeps what it read;
// later counts read that, give the same input, and stop reading it as soon
// as the log moves; verify finds a cache that does not hold the ballots.
func TestCountCache(t *testing.T) {
	e := newEnv(t)
	ae := newAuditElection(t, e, 40) // closed, four batches, record ids
	if cached(e, "Open") != nil {
		t.Fatal("a cache before any count")
	}

	first, err := e.svc.CountInputWithIDs(e.ctx, "user", ae.name)
	e.must(err)
	if first.Ballots.Len() != 160 || first.Ballots.IDs == nil || first.Ballots.Batches == nil {
		t.Fatalf("read %d ballots, ids %v, batches %v", first.Ballots.Len(), first.Ballots.IDs != nil, first.Ballots.Batches != nil)
	}
	kept := cached(e, ae.name)
	if kept == nil {
		t.Fatal("the count of a closed election kept nothing")
	}
	again, err := e.svc.CountInputWithIDs(e.ctx, "user", ae.name)
	e.must(err)
	sameInput(t, "cached", first, again)
	if again.HeadSeq != first.HeadSeq || again.HeadHash != first.HeadHash {
		t.Errorf("the cached count says it was read at %d, the first at %d", again.HeadSeq, first.HeadSeq)
	}
	plain, err := e.svc.CountInput(e.ctx, "observer", ae.name)
	e.must(err)
	if plain.Ballots.IDs != nil {
		t.Error("CountInput returned record ids")
	}
	plain.Ballots.IDs = first.Ballots.IDs
	sameInput(t, "cached, without ids", first, plain)

	// An open election's count keeps nothing: its ballots still change.
	e.must(cast(e, "user", "Open", "v1", "A"))
	_, err = e.svc.CountInput(e.ctx, "user", "Open")
	e.must(err)
	if cached(e, "Open") != nil {
		t.Error("the count of an open election was kept")
	}

	// The later counts read the cache, not the ballots: change it (well
	// formed, the same stamp) and they count what it says.
	forged, err := app.RewriteCountCache(kept, func(marks []tally.Mark) {
		marks[0].Candidate = (marks[0].Candidate + 1) % 4
	})
	e.must(err)
	e.forged = true
	el, err := e.svc.Election(e.ctx, "user", ae.name)
	e.must(err)
	e.must(e.store.Update(e.ctx, func(tx app.Tx) error { return tx.Cache(app.CountCacheKey(el.ID), forged) }))
	// (The open election's cast moved the head: the cache is stale now,
	// so the forged value is never read; stamp it with the current head
	// by counting once more, then forge that.)
	_, err = e.svc.CountInputWithIDs(e.ctx, "user", ae.name)
	e.must(err)
	kept = cached(e, ae.name)
	forged, err = app.RewriteCountCache(kept, func(marks []tally.Mark) {
		marks[0].Candidate = (marks[0].Candidate + 1) % 4
	})
	e.must(err)
	e.must(e.store.Update(e.ctx, func(tx app.Tx) error { return tx.Cache(app.CountCacheKey(el.ID), forged) }))
	read, err := e.svc.CountInputWithIDs(e.ctx, "user", ae.name)
	e.must(err)
	if read.Ballots.Marks[0] == first.Ballots.Marks[0] {
		t.Fatal("the count did not read the cache")
	}
	r, err := e.store.Verify(e.ctx)
	e.must(err)
	if r.OK() || !strings.Contains(strings.Join(r.Problems, "\n"), "does not hold the ballots of") {
		t.Errorf("verify with a forged count cache: %v", r.Problems)
	}
	// Verify threw it away: the next count reads the ballots.
	if cached(e, ae.name) != nil {
		t.Error("verify left the forged count cache in place")
	}
	read, err = e.svc.CountInputWithIDs(e.ctx, "user", ae.name)
	e.must(err)
	sameInput(t, "after verify", first, read)
	if r, err = e.store.Verify(e.ctx); err != nil || !r.OK() {
		t.Errorf("verify after the cache was made again: %v %v", r.Problems, err)
	}

	// A value that cannot be read is not used: the ballots are read again.
	e.must(e.store.Update(e.ctx, func(tx app.Tx) error { return tx.Cache(app.CountCacheKey(el.ID), kept[:len(kept)/2]) }))
	read, err = e.svc.CountInputWithIDs(e.ctx, "user", ae.name)
	e.must(err)
	sameInput(t, "after a cut cache", first, read)
	if b := cached(e, ae.name); len(b) != len(kept) {
		t.Errorf("the cut cache was not replaced: %d bytes, want %d", len(b), len(kept))
	}
	r, err = e.store.Verify(e.ctx)
	e.must(err)
	if !r.OK() {
		t.Errorf("verify after the cache was made again: %v", r.Problems)
	}

	// Anything in the log moves the head: the next count reads the ballots.
	e.must(e.svc.RenameElection(e.ctx, "user", ae.name, "Renamed"))
	renamed, err := e.svc.CountInputWithIDs(e.ctx, "user", "Renamed")
	e.must(err)
	sameInput(t, "after a rename", first, renamed)
	if renamed.HeadSeq == first.HeadSeq {
		t.Error("the count after a rename was read at the old head")
	}

	// Replaying the log throws the cache away.
	if _, err := e.store.Rebuild(e.ctx); err != nil {
		t.Fatal(err)
	}
	if cached(e, "Renamed") != nil {
		t.Error("the cache outlived a rebuild")
	}
	e.forged = false
}

// TestCountCacheKeepsSecrets: a secret election's record ids are cached
// with its ballots, and shown, from the cache as from the ballots, only to
// those who may see them.
func TestCountCacheKeepsSecrets(t *testing.T) {
	e := newEnv(t)
	var in []app.ImportedBallot
	for i, r := range [][]string{{"A", "B"}, {"B"}, {"C", "A"}, {"A"}} {
		in = append(in, app.ImportedBallot{SourceID: "rec-" + string(rune('1'+i)), Rankings: rank(r...)})
	}
	_, err := e.svc.ImportBallots(e.ctx, "user", "Secret", app.SourceCVR, in, nil)
	e.must(err)
	if _, err := e.svc.CountInput(e.ctx, "observer", "Secret"); app.ErrorCode(err) != app.CodeForbidden {
		t.Fatalf("an observer counted a secret election before its polls closed: %v", err)
	}
	e.must(e.svc.CloseElection(e.ctx, "user", "Secret"))
	for pass := range 2 {
		obs, err := e.svc.CountInputWithIDs(e.ctx, "observer", "Secret")
		e.must(err)
		aud, err := e.svc.CountInputWithIDs(e.ctx, "auditor", "Secret")
		e.must(err)
		if obs.Ballots.IDs != nil {
			t.Errorf("pass %d: an observer was shown a secret election's record ids", pass)
		}
		if aud.Ballots.IDs == nil || aud.Ballots.IDs.Len() != 4 {
			t.Errorf("pass %d: the auditor was not shown the record ids", pass)
		}
		if cached(e, "Secret") == nil {
			t.Fatalf("pass %d: nothing cached", pass)
		}
	}
}

// TestCountFirstLeavesTheCacheToTheCaller: the Results screen counts with
// CountFirst, which shows the count before the cache is written; the
// write is the caller's, and until it runs nothing is kept. Count writes it
// itself.
func TestCountFirstLeavesTheCacheToTheCaller(t *testing.T) {
	e := newEnv(t)
	ae := newAuditElection(t, e, 40)
	c, keep, err := e.svc.CountFirst(e.ctx, "user", ae.name, tally.IRV, tally.DefaultRules())
	e.must(err)
	if keep == nil || len(c.Result.Winners) != 1 {
		t.Fatalf("the first count of a closed election: keep %v, winners %v", keep != nil, c.Result.Winners)
	}
	if cached(e, ae.name) != nil {
		t.Fatal("the cache was written before the caller asked")
	}
	keep()
	if cached(e, ae.name) == nil {
		t.Fatal("keep wrote nothing")
	}
	again, keep, err := e.svc.CountFirst(e.ctx, "user", ae.name, tally.IRV, tally.DefaultRules())
	e.must(err)
	if keep != nil || !reflect.DeepEqual(again.Result, c.Result) {
		t.Errorf("the count from the cache: keep %v, the same result %v", keep != nil, reflect.DeepEqual(again.Result, c.Result))
	}
	e.must(cast(e, "user", "Open", "v1", "A"))
	_, keep, err = e.svc.CountFirst(e.ctx, "user", "Open", tally.IRV, tally.DefaultRules())
	e.must(err)
	if keep != nil {
		t.Error("an open election's count has something to keep")
	}
}
