package localstore

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// duplicateAccepted is two devices where voter v1 voted on both offline,
// A's ballot (Kiss, at a kiosk) reached the log first, and an official on
// B accepted B's (Wright, keyed in from paper) as the one that counts. It
// returns B, its service, and the two receipts.
func duplicateAccepted(t *testing.T) (b *Store, sb *app.Service, first, second string) {
	t.Helper()
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	ra, err := sa.CastBallot(ctx, "olga", app.Cast{Election: "Mayor", Voter: "v1", Rankings: []app.Ranking{{Candidate: "Kiss", Rank: 1}}, Source: app.SourceKiosk})
	must(t, err)
	rb, err := sb.CastBallot(ctx, "olga", app.Cast{Election: "Mayor", Voter: "v1", Rankings: []app.Ranking{{Candidate: "Wright", Rank: 1}},
		Source: app.SourcePaper, Transcribed: true})
	must(t, err)
	deliver(t, a, b)
	ks, err := sb.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	if len(ks) != 1 || ks[0].Kind != "duplicate_ballot" || ks[0].Confirmation != rb.Confirmation {
		t.Fatalf("conflicts = %+v, want B's ballot as the duplicate", ks)
	}
	must(t, sb.ResolveConflict(ctx, "olga", "Mayor", ks[0].Seq, true, "the paper ballot is the voter's"))
	return b, sb, ra.Confirmation, rb.Confirmation
}

// TestAcceptedDuplicateKeepsTheBallotItReplaced: accepting a voter's
// second ballot makes it count, as it was cast (its code, ranking, source,
// transcription), and the conflict keeps the ballot it replaced, set
// aside: both receipts can still be found, one counted and one on the
// decided conflict. A rebuild from the log makes the same.
func TestAcceptedDuplicateKeepsTheBallotItReplaced(t *testing.T) {
	ctx := context.Background()
	b, sb, first, second := duplicateAccepted(t)
	bs, err := sb.Ballots(ctx, "olga", "Mayor")
	must(t, err)
	var counted app.Ballot
	for _, x := range bs {
		if x.Voter == "v1" {
			counted = x
		}
	}
	if counted.Confirmation != second || counted.Rankings[0].Candidate != "Wright" || counted.Source != app.SourcePaper || !counted.Transcribed {
		t.Errorf("v1's counted ballot = %+v, want the accepted paper ballot %s", counted, second)
	}
	ks, err := sb.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	k := ks[0]
	if !k.Resolved || k.SetAside != first || len(k.SetAsideRankings) != 1 || k.SetAsideRankings[0].Candidate != "Kiss" || !strings.Contains(k.Detail, "set aside") {
		t.Errorf("the decided conflict = %+v, want the replaced ballot %s (Kiss) set aside on it", k, first)
	}
	rebuildsAlike(t, b)
}

// TestOpensADatabaseOfLayoutVersion3: a database of layout version 3 holds
// a projection made by the rules before two corrections (migrate). Here its
// accepted duplicate lost the ballot it replaced, as those rules did.
// Opening it keeps a copy, rebuilds the projection from the unchanged log,
// and the replaced ballot is back on its conflict; the database verifies.
func TestOpensADatabaseOfLayoutVersion3(t *testing.T) {
	ctx := context.Background()
	b, _, first, _ := duplicateAccepted(t)
	path := b.Path()
	must(t, b.Close())
	db, err := bolt.Open(path, 0o600, nil)
	must(t, err)
	err = db.Update(func(btx *bolt.Tx) error {
		data := btx.Bucket(bucketData)
		prefix := []byte("ELECTION#Mayor\x00CONFLICT#")
		c := data.Cursor()
		k, v := c.Seek(prefix)
		if !bytes.HasPrefix(k, prefix) {
			t.Fatalf("no conflict item")
		}
		it, err := decodeItem(k, v)
		if err != nil {
			return err
		}
		var old app.Item
		for _, a := range it {
			if !strings.HasPrefix(a.Name, "set_aside_") {
				old = append(old, a)
			}
		}
		if err := data.Put(bytes.Clone(k), encodeItem(nil, old)); err != nil {
			return err
		}
		return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatRules3))
	})
	must(t, err)
	must(t, db.Close())
	before, err := os.ReadFile(path)
	must(t, err)

	st, err := Open(path)
	must(t, err)
	defer st.Close()
	kept := st.Upgraded()
	if raw, err := os.ReadFile(kept); !strings.HasPrefix(kept, path+".before-format-4-") || err != nil || !bytes.Equal(raw, before) {
		t.Fatalf("the upgrade kept the old file as %q, not byte for byte (%v)", kept, err)
	}
	sb := app.NewService(st, &stepClock{}, nil)
	ks, err := sb.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	if len(ks) != 1 || ks[0].SetAside != first {
		t.Errorf("after the upgrade the conflict = %+v, want %s set aside on it", ks, first)
	}
	if r, err := st.Verify(ctx); err != nil || !r.OK() {
		t.Errorf("the upgraded database does not verify: %+v %v", r, err)
	}
}

// TestRefusedReceiptKeepsItsElection: v1 votes on A while B closes the
// polls, and B's close reaches the log first, so A's ballot is refused
// where it lands and kept on a conflict. The election now counts no
// ballots, but it holds a receipt: deleting it is refused, and nothing
// changes.
func TestRefusedReceiptKeepsItsElection(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	rc, err := sa.CastBallot(ctx, "olga", app.Cast{Election: "Mayor", Voter: "v1", Rankings: []app.Ranking{{Candidate: "Kiss", Rank: 1}}})
	must(t, err)
	must(t, sb.CloseElection(ctx, "olga", "Mayor"))
	deliver(t, b, a)
	e, err := sa.Election(ctx, "olga", "Mayor")
	must(t, err)
	ks, err := sa.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	if e.Ballots != 0 || len(ks) != 1 || ks[0].Kind != "refused_ballot" || ks[0].Confirmation != rc.Confirmation {
		t.Fatalf("Mayor: %d ballots, conflicts %+v; want none counted and the refused receipt", e.Ballots, ks)
	}
	before := hash(t, a)
	err = sa.DeleteElection(ctx, "olga", "Mayor")
	if !app.IsCode(err, app.CodeConflict) || !strings.Contains(app.ErrorMessage(err), "1 receipted ballot") {
		t.Errorf("deleting an election that holds a refused receipt: %v", err)
	}
	if hash(t, a) != before {
		t.Error("the refused delete changed the database")
	}
}

// TestRefusedRecastIsKept: in an election that lets voters re-cast, v1
// changes their ballot on B (the receipt keeps its code) while A closes
// the polls, and A's close reaches the log first. The change is refused
// where it lands, but kept for officials with the voter's new ranking;
// accepting it makes the change and keeps the ranking before it, set
// aside.
func TestRefusedRecastIsKept(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	yes := true
	must(t, sa.CreateElection(ctx, "olga", "Poll", "", false))
	must(t, sa.AddCandidates(ctx, "olga", "Poll", "Yes", "No"))
	must(t, sa.AddVoters(ctx, "olga", "Poll", app.VoterEntry{Name: "v1"}))
	must(t, sa.UpdateElection(ctx, "olga", "Poll", 0, app.ElectionChanges{AllowRecast: &yes}))
	must(t, sa.LaunchElection(ctx, "olga", "Poll"))
	first, err := sa.CastBallot(ctx, "olga", app.Cast{Election: "Poll", Voter: "v1", Rankings: []app.Ranking{{Candidate: "Yes", Rank: 1}}})
	must(t, err)
	deliver(t, a, b)

	again, err := sb.CastBallot(ctx, "olga", app.Cast{Election: "Poll", Voter: "v1", Rankings: []app.Ranking{{Candidate: "No", Rank: 1}}})
	must(t, err)
	if !again.Recast || again.Confirmation != first.Confirmation {
		t.Fatalf("the change: %+v, want a re-cast under %s", again, first.Confirmation)
	}
	must(t, sa.CloseElection(ctx, "olga", "Poll"))
	deliver(t, a, b)

	ks, err := sb.Conflicts(ctx, "olga", "Poll")
	must(t, err)
	if len(ks) != 1 || ks[0].Kind != "refused_recast" || ks[0].Confirmation != first.Confirmation || len(ks[0].Rankings) != 1 || ks[0].Rankings[0].Candidate != "No" {
		t.Fatalf("conflicts = %+v, want v1's refused change to No under %s", ks, first.Confirmation)
	}
	must(t, sb.ResolveConflict(ctx, "olga", "Poll", ks[0].Seq, true, "the change was made before the close"))
	bs, err := sb.Ballots(ctx, "olga", "Poll")
	must(t, err)
	if len(bs) != 1 || bs[0].Rankings[0].Candidate != "No" || bs[0].Confirmation != first.Confirmation {
		t.Errorf("v1's ballot after accepting the change: %+v", bs)
	}
	ks, err = sb.Conflicts(ctx, "olga", "Poll")
	must(t, err)
	if ks[0].SetAside != first.Confirmation || len(ks[0].SetAsideRankings) != 1 || ks[0].SetAsideRankings[0].Candidate != "Yes" {
		t.Errorf("the decided change keeps %q %+v, want the ranking before it (Yes)", ks[0].SetAside, ks[0].SetAsideRankings)
	}
	rebuildsAlike(t, b)
}

// rebuildsAlike checks that a rebuild of s's projection from its log makes
// the projection it holds.
func rebuildsAlike(t *testing.T, s *Store) {
	t.Helper()
	live := hash(t, s)
	if _, err := s.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if hash(t, s) != live {
		t.Error("a rebuild from the log differs from the projection")
	}
}

// deliver puts from's pending events in the log first, as a push would,
// and to pulls them: to's own pending events move after them.
func deliver(t *testing.T, from, to *Store) {
	t.Helper()
	evs := pending(t, from)
	must(t, from.ConfirmPushed(context.Background(), evs))
	_, err := to.Integrate(context.Background(), evs)
	must(t, err)
}

// TestAcceptedRefusedBallotTakesThePlaceOfALaterOne: ann's kiosk takes v1's
// ballot (Kiss) offline while A takes ann's role away, and A's change
// reaches the log first: the ballot is refused and kept on a conflict. v1
// then votes again at a station that may take ballots (Wright), which
// counts. An official accepts the first ballot: it takes the place of the
// second, which the conflict keeps, set aside; both receipts stay
// accounted for, and nothing is counted twice.
func TestAcceptedRefusedBallotTakesThePlaceOfALaterOne(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	must(t, sa.RegisterUser(ctx, "olga", "ann", "ann@example.org", "clerk-password"))
	deliver(t, a, b)
	first, err := sb.CastBallot(ctx, "ann", app.Cast{Election: "Mayor", Voter: "v1", Rankings: []app.Ranking{{Candidate: "Kiss", Rank: 1}}, Source: app.SourceKiosk})
	must(t, err)
	must(t, sa.SetRole(ctx, "olga", "ann", app.RoleObserver))
	deliver(t, a, b)
	second, err := sb.CastBallot(ctx, "olga", app.Cast{Election: "Mayor", Voter: "v1", Rankings: []app.Ranking{{Candidate: "Wright", Rank: 1}}, Source: app.SourceKiosk})
	must(t, err)
	ks, err := sb.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	if len(ks) != 1 || ks[0].Kind != "refused_ballot" || ks[0].Confirmation != first.Confirmation {
		t.Fatalf("conflicts = %+v, want ann's refused ballot", ks)
	}
	must(t, sb.ResolveConflict(ctx, "olga", "Mayor", ks[0].Seq, true, "the kiosk was offline when ann's role changed"))
	bs, err := sb.Ballots(ctx, "olga", "Mayor")
	must(t, err)
	if len(bs) != 1 || bs[0].Confirmation != first.Confirmation || bs[0].Rankings[0].Candidate != "Kiss" {
		t.Errorf("Mayor's ballots after the decision: %+v, want v1's first ballot alone", bs)
	}
	ks, err = sb.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	if ks[0].SetAside != second.Confirmation {
		t.Errorf("the decided conflict sets aside %q, want the ballot it replaced (%s)", ks[0].SetAside, second.Confirmation)
	}
	if e, err := sb.Election(ctx, "olga", "Mayor"); err != nil || e.Ballots != 1 {
		t.Errorf("Mayor counts %d ballots (%v), want 1", e.Ballots, err)
	}
	rebuildsAlike(t, b)
}
