package app_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"votedesk/app"
)

// TestOneReadFindsNothing replays the one-read attack on a secret election
// whose polls have closed, for every role below AUDITOR: the log that role
// may read and the ballot list (confirmation codes with rankings) are all
// it has, and it tries to tie ballots to voters by testing guesses against
// what the events commit to, and to recover a re-cast ranking by trying
// every possible ranking. The commitments are keyed by a nonce that only
// the sealed part holds, and the sealed part never reaches these roles, so
// no guess can be tested: the test checks that no nonce, no code and no
// ranking reaches them in any event, that the chain they hold still
// verifies, and that an AUDITOR, who holds the sealed parts, detects a
// ballot changed after it was cast.
func TestOneReadFindsNothing(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.CreateElection(e.ctx, "user", "R", "", true))
	e.must(e.svc.AddCandidates(e.ctx, "user", "R", "A", "B", "C"))
	e.must(e.svc.AddVoters(e.ctx, "user", "R", app.VoterEntry{Name: "v1"}, app.VoterEntry{Name: "v2"}, app.VoterEntry{Name: "v3"}, app.VoterEntry{Name: "v4"}))
	yes := true
	e.must(e.svc.UpdateElection(e.ctx, "user", "R", 0, app.ElectionChanges{AllowRecast: &yes}))
	// Cast vote records imported before the polls open, with a record id
	// and a precinct.
	_, err := e.svc.ImportBallots(e.ctx, "user", "R", "mail.csv", []app.ImportedBallot{
		{SourceID: "mail-1", Rankings: rank("B", "A"), Precinct: "North"},
		{SourceID: "mail-2", Rankings: rank("C"), Precinct: "North"},
	}, nil)
	e.must(err)
	e.must(e.svc.LaunchElection(e.ctx, "user", "R"))
	for _, c := range []struct {
		voter, source string
		names         []string
	}{{"v1", "", []string{"A", "B"}}, {"v2", app.SourceKiosk, []string{"B", "C"}}, {"v3", "", []string{"C", "B"}}, {"v3", "", []string{"A"}}, {"v4", app.SourcePaper, []string{"C", "A", "B"}}} {
		_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "R", Voter: c.voter, Rankings: rank(c.names...), Source: c.source})
		e.must(err)
	}
	e.must(e.svc.CloseElection(e.ctx, "owner", "R"))

	// What the AUDITOR holds: every sealed part, with its nonce.
	var nonces []string
	var sealedEvents []*app.Event
	e.must(e.svc.Log(e.ctx, "auditor", 0, func(ev *app.Event) error {
		if len(ev.Sealed) == 0 {
			return nil
		}
		var part struct{ Nonce string }
		if err := json.Unmarshal(ev.Sealed, &part); err != nil || part.Nonce == "" {
			t.Fatalf("event %d: sealed part without a nonce: %s", ev.Seq, ev.Sealed)
		}
		nonces = append(nonces, part.Nonce)
		sealedEvents = append(sealedEvents, ev)
		return nil
	}))
	if len(sealedEvents) < 4 {
		t.Fatalf("the AUDITOR sees %d sealed events, want the ballots and the re-cast", len(sealedEvents))
	}

	for _, role := range []app.Role{app.RoleObserver, app.RoleVoter, app.RoleUser, app.RoleAdmin} {
		actor := roleUsers[role]
		ballots, err := e.svc.Ballots(e.ctx, actor, "R")
		e.must(err)
		listedAsWhole(t, e, actor, "R", ballots, err)
		if len(ballots) < 3 {
			t.Fatalf("%s: the polls are closed, the ballot list shows %d ballots", role, len(ballots))
		}
		var events []*app.Event
		e.must(e.svc.Log(e.ctx, actor, 0, func(ev *app.Event) error {
			events = append(events, ev)
			return nil
		}))
		seen, err := json.Marshal(struct {
			Events  []*app.Event
			Ballots []app.Ballot
		}{events, ballots})
		e.must(err)
		for _, n := range nonces {
			if strings.Contains(string(seen), n) {
				t.Errorf("%s can read a sealing nonce: every guess can be tested against its commitment", role)
			}
		}
		kinds := map[app.EventType]int{}
		for _, ev := range events {
			kinds[ev.Type]++
		}
		if kinds[app.EvBallotsImported] != 1 || kinds[app.EvBallotCast] != 4 || kinds[app.EvBallotRankingsChanged] != 1 {
			t.Errorf("%s reads events %v, want the import, 4 casts (direct, kiosk, paper) and the re-cast", role, kinds)
		}
		for _, ev := range events {
			if len(ev.Sealed) > 0 {
				t.Errorf("%s reads the sealed part of event %d (%s)", role, ev.Seq, ev.Type)
			}
			data := string(ev.Data)
			for _, b := range ballots {
				if strings.Contains(data, b.Confirmation) {
					t.Errorf("%s: event %d names confirmation code %s", role, ev.Seq, b.Confirmation)
				}
			}
			if ev.Type == app.EvBallotCast || ev.Type == app.EvBallotRankingsChanged || ev.Type == app.EvBallotsImported {
				if strings.Contains(data, "rankings") || strings.Contains(string(ev.Display()), `"A"`) || strings.Contains(data, "mail-1") || strings.Contains(data, "North") {
					t.Errorf("%s: event %d carries a ranking: %s", role, ev.Seq, ev.Display())
				}
			}
		}
		// The chain still verifies on what the role holds.
		if err := app.CheckRun("", 1, events); err != nil {
			t.Errorf("%s cannot verify the chain it reads: %v", role, err)
		}
		// Without the sealed part there is nothing to open.
		for _, ev := range events {
			if raw, err := ev.OpenSealed(); err != nil || raw != nil {
				t.Errorf("%s opens event %d: %s %v", role, ev.Seq, raw, err)
			}
		}
	}

	// The AUDITOR detects a ballot changed after it was cast.
	ev := sealedEvents[len(sealedEvents)-1]
	if _, err := ev.OpenSealed(); err != nil {
		t.Fatalf("the AUDITOR cannot open event %d: %v", ev.Seq, err)
	}
	changed := *ev
	changed.Sealed = json.RawMessage(strings.Replace(string(ev.Sealed), `"A"`, `"B"`, 1))
	if string(changed.Sealed) == string(ev.Sealed) {
		changed.Sealed = json.RawMessage(strings.Replace(string(ev.Sealed), `"C"`, `"A"`, 1))
	}
	if _, err := changed.OpenSealed(); err == nil || !strings.Contains(app.ErrorMessage(err), "does not match its commitment") {
		t.Errorf("a changed sealed ranking opened without complaint: %v", err)
	}
}

func TestSmallGroupThresholdRule(t *testing.T) {
	if err := app.CheckRules(map[string]string{app.RuleSmallGroup: "25"}); err != nil {
		t.Errorf("smallGroupThreshold=25 refused: %v", err)
	}
	for _, bad := range []string{"0", "-3", "ten", ""} {
		if err := app.CheckRules(map[string]string{app.RuleSmallGroup: bad}); err == nil || !strings.Contains(app.ErrorMessage(err), app.RuleSmallGroup) {
			t.Errorf("smallGroupThreshold=%q: %v, want a refusal naming the rule", bad, err)
		}
	}
	e := app.Election{Secret: true, Rules: map[string]string{app.RuleSmallGroup: "25"}}
	if hide, _ := app.SmallGroup(e, 24); !hide {
		t.Error("a group of 24 shown under a threshold of 25")
	}
	if hide, _ := app.SmallGroup(e, 25); hide {
		t.Error("a group of 25 hidden under a threshold of 25")
	}
}

// TestMergeSmallGroups: a secret election's precincts of fewer ballots than
// the threshold are never shown alone; an open election's are.
func TestMergeSmallGroups(t *testing.T) {
	col := func(groups ...any) []string { // "P1", 3, "P2", 12, ...
		var out []string
		for i := 0; i < len(groups); i += 2 {
			for range groups[i+1].(int) {
				out = append(out, groups[i].(string))
			}
		}
		return out
	}
	sizes := func(values []string) map[string]int {
		m := map[string]int{}
		for _, v := range values {
			m[v]++
		}
		return m
	}
	secret := app.Election{Name: "S", Secret: true}
	for _, c := range []struct {
		name   string
		e      app.Election
		values []string
		want   map[string]int
		note   string
	}{
		{"OpenElectionUnchanged", app.Election{Name: "O"}, col("P1", 2, "P2", 30), map[string]int{"P1": 2, "P2": 30}, ""},
		{"AllLargeUnchanged", secret, col("P1", 10, "P2", 30), map[string]int{"P1": 10, "P2": 30}, ""},
		{"OneGroupUnchanged", secret, col("P1", 3), map[string]int{"P1": 3}, ""},
		{"SmallOnesTogether", secret, col("P1", 4, "P2", 6, "P3", 30),
			map[string]int{"Combined precincts (fewer than 10 ballots each)": 10, "P3": 30}, "precincts P1, P2 had fewer than 10 ballots each"},
		{"TooFewTogetherJoinTheSmallestLarge", secret, col("P1", 2, "P2", 3, "P3", 30, "P4", 12),
			map[string]int{"P4 with precincts of fewer than 10 ballots": 17, "P3": 30}, "precincts P1, P2 had fewer than 10 ballots each"},
		{"OneSmallJoinsALarge", secret, col("", 1, "P3", 30),
			map[string]int{"P3 with precincts of fewer than 10 ballots": 31}, "precinct (none) had fewer than 10 ballots and is"},
		{"AllSmall", secret, col("P1", 2, "P2", 3),
			map[string]int{"All precincts (each fewer than 10 ballots)": 5}, "precincts P1, P2"},
		{"ThresholdSetting", app.Election{Name: "S", Secret: true, Rules: map[string]string{app.RuleSmallGroup: "3"}}, col("P1", 2, "P2", 3, "P3", 1),
			map[string]int{"Combined precincts (fewer than 3 ballots each)": 3, "P2": 3}, "fewer than 3 ballots each"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, note := app.MergeSmallGroups(c.e, "precinct", c.values)
			if len(got) != len(c.values) {
				t.Fatalf("%d values for %d ballots", len(got), len(c.values))
			}
			if !maps.Equal(sizes(got), c.want) {
				t.Errorf("groups %v, want %v", sizes(got), c.want)
			}
			if c.note == "" && note != "" || !strings.Contains(note, c.note) {
				t.Errorf("note %q, want one with %q", note, c.note)
			}
			for v, n := range sizes(got) {
				if hide, _ := app.SmallGroup(c.e, int64(n)); hide && len(sizes(got)) > 1 {
					t.Errorf("group %q of %d ballots shown", v, n)
				}
			}
			again, _ := app.MergeSmallGroups(c.e, "precinct", got)
			if !slices.Equal(again, got) {
				t.Errorf("merging twice changed the groups: %v", sizes(again))
			}
		})
	}
}

// TestBallotListCombinesSmallGroups: the precinct, batch and tabulator of
// a secret election's cast vote records are groups, so one that holds a
// single ballot is not shown beside that ballot (which would say how its
// voter voted); an open election shows it. Each group is tried alone, the
// others shared by every ballot.
func TestBallotListCombinesSmallGroups(t *testing.T) {
	lone := map[string]func(b *app.ImportedBallot) *string{
		"precinct":  func(b *app.ImportedBallot) *string { return &b.Precinct },
		"batch":     func(b *app.ImportedBallot) *string { return &b.Batch },
		"tabulator": func(b *app.ImportedBallot) *string { return &b.Tabulator },
	}
	shown := map[string]func(b app.Ballot) string{
		"precinct":  func(b app.Ballot) string { return b.Precinct },
		"batch":     func(b app.Ballot) string { return b.Batch },
		"tabulator": func(b app.Ballot) string { return b.Tabulator },
	}
	for what, field := range lone {
		for _, secret := range []bool{true, false} {
			e := newEnv(t)
			name := fmt.Sprint(what, " ", secret)
			var in []app.ImportedBallot
			for i := range 31 {
				b := app.ImportedBallot{SourceID: fmt.Sprint(i + 1), Rankings: rank("A"), Precinct: "P1", Batch: "1", Tabulator: "T1"}
				if i == 30 {
					b.Rankings = rank("B")
					*field(&b) = "X9"
				}
				in = append(in, b)
			}
			closedImport(e, name, secret, in)
			bs, err := e.svc.Ballots(e.ctx, "user", name)
			e.must(err)
			alone := false
			for _, b := range bs {
				alone = alone || shown[what](b) == "X9"
			}
			if alone == secret {
				t.Errorf("%s, secret %v: the one ballot of %s X9 shown with it: %v", what, secret, what, alone)
			}
		}
	}
}

// TestSealedPartCheckedFromElsewhere: the device that sealed an import's
// ballots does not open their sealed part again to apply the event (a scan
// and a hash of 100 MB for a million ballots), but the same event as
// another device gets it, read back from the log with one ranking changed
// in its sealed part, is refused for not matching its commitment.
func TestSealedPartCheckedFromElsewhere(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.CreateElection(e.ctx, "user", "Imported", "", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Imported", "A", "B"))
	if _, err := e.svc.ImportBallots(e.ctx, "user", "Imported", app.SourceCVR, []app.ImportedBallot{{SourceID: "1", Rankings: rank("A", "B")}}, nil); err != nil {
		t.Fatal(err)
	}
	var last *app.Event
	e.must(e.store.View(e.ctx, func(tx app.Tx) error {
		return tx.Events(1, func(ev *app.Event) (bool, error) {
			last = ev
			return true, nil
		})
	}))
	if len(last.Sealed) == 0 || !strings.Contains(string(last.Sealed), `"A"`) {
		t.Fatalf("the import's event has no sealed ranking: %s", last.Sealed)
	}
	changed := *last
	changed.Sealed = json.RawMessage(strings.Replace(string(last.Sealed), `"A"`, `"B"`, 1))
	undo := errors.New("undo") // the changed event is not kept
	err := e.store.Update(e.ctx, func(tx app.Tx) error {
		refusal, err := app.Replay(tx, &changed)
		if err != nil {
			return err
		}
		if refusal == nil || !strings.Contains(app.ErrorMessage(refusal), "does not match its commitment") {
			t.Errorf("a changed sealed ranking from the log was applied: %v", refusal)
		}
		return undo
	})
	if !errors.Is(err, undo) {
		t.Fatal(err)
	}
}

// TestSecretBallotsInCodeOrder: below AUDITOR, a closed secret election's
// ballots are listed in confirmation-code order, however they are read
// (whole, a page at a time, exported): in the order of their keys, a
// voter's ballot would stand where their name does in the poll book.
func TestSecretBallotsInCodeOrder(t *testing.T) {
	e := newEnv(t)
	voters := e.launched("S", true, []string{"A", "B", "C"}, "voter %02d", 12)
	for i, v := range voters {
		e.must(cast(e, "user", "S", v.Name, []string{"A", "B", "C"}[i%3]))
	}
	e.must(e.svc.CloseElection(e.ctx, "user", "S"))
	byCode := func(a, b app.Ballot) int { return strings.Compare(a.Confirmation, b.Confirmation) }
	seen, err := e.svc.Ballots(e.ctx, "auditor", "S") // in voter order
	e.must(err)
	if slices.IsSortedFunc(seen, byCode) {
		t.Fatal("the voters' codes are in their names' order: this test cannot tell the two orders apart")
	}
	for _, actor := range []string{"observer", "voter", "user", "admin"} {
		ballots, err := e.svc.Ballots(e.ctx, actor, "S")
		e.must(err)
		listedAsWhole(t, e, actor, "S", ballots, err)
		if len(ballots) != len(voters) || !slices.IsSortedFunc(ballots, byCode) {
			t.Errorf("%s: %d ballots, in code order %v", actor, len(ballots), slices.IsSortedFunc(ballots, byCode))
		}
	}
}
