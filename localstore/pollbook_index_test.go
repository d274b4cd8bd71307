package localstore

import (
	"context"
	"strings"
	"testing"

	"votedesk/app"
)

// verified fails the test unless s verifies: verify checks each poll
// book's name index against the poll book, and the projection against a
// rebuild from the log.
func verified(t *testing.T, s *Store, when string) {
	t.Helper()
	if r, err := s.Verify(context.Background()); err != nil || !r.OK() {
		t.Fatalf("%s: %v %v", when, r.Problems, err)
	}
}

// TestPollBookIndexFollowsThePollBook: the name index changes with every
// change of a poll book: a voter removed may be added again in other
// letters; an election offline under a name another device used, merged
// into it, brings its voters (and a voter named in other letters in each
// stays twice, as the merge keeps both entries), after which either
// spelling is refused; a deleted election leaves nothing listed; a
// pending addition that a pull sets aside takes its entry back.
func TestPollBookIndexFollowsThePollBook(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	voters := func(names ...string) []app.VoterEntry {
		var vs []app.VoterEntry
		for _, n := range names {
			vs = append(vs, app.VoterEntry{Name: n})
		}
		return vs
	}

	must(t, sa.CreateElection(ctx, "olga", "Levy", "", false))
	must(t, sa.AddCandidates(ctx, "olga", "Levy", "Yes", "No"))
	must(t, sa.AddVoters(ctx, "olga", "Levy", voters("Ann Lee", "Bob Roe")...))
	must(t, sa.RemoveVoters(ctx, "olga", "Levy", "Bob Roe"))
	must(t, sa.AddVoters(ctx, "olga", "Levy", voters("BOB ROE")...))
	verified(t, a, "A, a voter removed and added again in capitals")

	// B makes the same levy offline, with a poll book of its own.
	must(t, sb.CreateElection(ctx, "olga", "Levy", "", false))
	must(t, sb.AddCandidates(ctx, "olga", "Levy", "Yes", "No"))
	must(t, sb.AddVoters(ctx, "olga", "Levy", voters("ann lee", "Cy Day")...))
	fromA := pending(t, a)
	must(t, a.ConfirmPushed(ctx, fromA))
	_, err := b.Integrate(ctx, fromA)
	must(t, err)
	es, err := sb.Elections(ctx, "olga")
	must(t, err)
	twin := ""
	for _, e := range es {
		if strings.HasPrefix(e.Name, "Levy (") {
			twin = e.Name
		}
	}
	cs, err := sb.Conflicts(ctx, "olga", twin)
	must(t, err)
	if twin == "" || len(cs) != 1 || cs[0].Kind != "name_collision" {
		t.Fatalf("B's levy %q, conflicts %+v: want a name collision", twin, cs)
	}
	must(t, sb.ResolveConflict(ctx, "olga", twin, cs[0].Seq, true, "the same levy, made on two laptops"))
	verified(t, b, "B, after the merge")
	if got := pollBook(t, sb, "Levy"); got != "Ann Lee,BOB ROE,Cy Day,ann lee" {
		t.Fatalf("the merged poll book: %q", got)
	}
	for _, n := range []string{"cy day", "ANN LEE", "Bob Roe"} {
		err := sb.AddVoters(ctx, "olga", "Levy", voters(n)...)
		if !app.IsCode(err, app.CodeConflict) || !strings.Contains(err.Error(), "already in the poll book") {
			t.Errorf("adding %q to the merged poll book: %v", n, err)
		}
	}
	// The clash a reading of the poll book in order meets first is named:
	// "Ann Lee" before "ann lee" and "Cy Day".
	err = sb.AddVoters(ctx, "olga", "Levy", voters("CY DAY", "ANN  LEE")...)
	if err == nil || !strings.Contains(err.Error(), `"ANN LEE" is already in the poll book of "Levy" (as "Ann Lee")`) {
		t.Errorf("two clashes: %v", err)
	}

	must(t, sb.CreateElection(ctx, "olga", "Straw poll", "", false))
	must(t, sb.AddVoters(ctx, "olga", "Straw poll", voters("Dee Fox")...))
	must(t, sb.DeleteElection(ctx, "olga", "Straw poll"))
	verified(t, b, "B, after a deletion")
	must(t, sb.CreateElection(ctx, "olga", "Straw poll", "", false))
	must(t, sb.AddVoters(ctx, "olga", "Straw poll", voters("dee fox")...))
	verified(t, b, "B, the name used again")

	// A pull sets B's pending addition aside (A's voter of that name came
	// first): the undo record takes its index entry back with it.
	must(t, sb.AddVoters(ctx, "olga", "Levy", voters("Eli Gray")...))
	must(t, sa.AddVoters(ctx, "olga", "Levy", voters("eli gray")...))
	fromA = pending(t, a)
	must(t, a.ConfirmPushed(ctx, fromA))
	_, err = b.Integrate(ctx, fromA)
	must(t, err)
	verified(t, b, "B, its addition set aside by a pull")
	if got := pollBook(t, sb, "Levy"); got != "Ann Lee,BOB ROE,Cy Day,ann lee,eli gray" {
		t.Errorf("the poll book after the pull: %q", got)
	}

	// At a kiosk, a name typed in other letters finds its one entry; one
	// that matches two (the merge kept both) is asked for as registered.
	must(t, sb.LaunchElection(ctx, "olga", "Levy"))
	if in, err := sb.CheckInVoter(ctx, "olga", "Levy", "ELI  GRAY"); err != nil || in.Voter != "eli gray" {
		t.Errorf("check-in of ELI  GRAY: %+v %v", in, err)
	}
	if _, err := sb.CheckInVoter(ctx, "olga", "Levy", "ANN LEE"); !app.IsCode(err, app.CodeConflict) || !strings.Contains(err.Error(), "Several entries") {
		t.Errorf("check-in of ANN LEE, listed as Ann Lee and ann lee: %v", err)
	}
}

// pollBook lists an election's poll book, names joined by commas.
func pollBook(t *testing.T, svc *app.Service, election string) string {
	t.Helper()
	vs, err := svc.Voters(context.Background(), "olga", election)
	must(t, err)
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ",")
}
