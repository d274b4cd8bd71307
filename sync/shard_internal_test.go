package cloudsync

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"votedesk/app"
)

// TestShardRuns: pending events split into runs by shard, in order; runs of
// ballots too light for a cut of their own join the global shard's run.
func TestShardRuns(t *testing.T) {
	ballot := func(id string, size int) *app.Event {
		data, _ := json.Marshal(map[string]any{"election": "Mayor", "election_id": id, "pad": strings.Repeat("x", size)})
		return &app.Event{Type: app.EvBallotCast, Data: data}
	}
	other := &app.Event{Type: app.EvElectionLaunched, Data: []byte(`{"election":"Mayor"}`)}
	big := func(id string) []*app.Event {
		var out []*app.Event
		for range 40 {
			out = append(out, ballot(id, 600))
		}
		return out
	}
	shards := func(runs []run) string {
		var parts []string
		for _, r := range runs {
			parts = append(parts, r.shard+"x"+strings.Repeat("I", min(len(r.evs), 3)))
		}
		return strings.Join(parts, " ")
	}
	for _, tc := range []struct {
		name string
		evs  []*app.Event
		want string
	}{
		{"OneBallot", []*app.Event{ballot("e1", 600)}, "globalxI"},
		{"SmallRunsJoinTheGlobal", []*app.Event{other, ballot("e1", 600), other}, "globalxIII"},
		{"ALargeRun", big("e1"), "ELECTION#e1xIII"},
		{"InOrder", append(append([]*app.Event{other}, big("e1")...), append([]*app.Event{ballot("e2", 10)}, big("e2")...)...), "globalxI ELECTION#e1xIII ELECTION#e2xIII"},
		{"AnIdThatIsNotOne", []*app.Event{ballot("a b", 30000)}, "globalxI"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := shards(shardRuns(tc.evs, 16<<10)); got != tc.want {
				t.Errorf("runs %s, want %s", got, tc.want)
			}
		})
	}
}

// FuzzDecodeEntry: whatever a segment's line holds, reading it never
// panics, and a cut read back encodes to the same line.
func FuzzDecodeEntry(f *testing.F) {
	good := cut{Seq: 7, Cut: cutOf{Shard: "ELECTION#abc-1", To: 12, ToHash: strings.Repeat("a", 64)}}
	good.Hash = good.computeHash("")
	b, _ := json.Marshal(good)
	f.Add(b)
	f.Add([]byte(`{"seq":7,"cut":{"shard":"global","to":1,"to_hash":""},"prev_hash":"","hash":""}`))
	f.Add([]byte(`{"seq":7,"cut":{"shard":"ELECTION#x","to":0},"extra":1}`))
	f.Add([]byte(`{"seq":3,"id":"d-1","type":"BallotCast"}`))
	f.Add([]byte(`{"seq":99999999999999999999999,"cut":{`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := decodeEntry(line)
		if err != nil || e.cut == nil {
			return
		}
		if !validShard(e.cut.Cut.Shard) || e.cut.Cut.To == 0 || len(e.cut.Cut.ToHash) != 64 {
			t.Fatalf("accepted a cut of %q to %d (%q)", e.cut.Cut.Shard, e.cut.Cut.To, e.cut.Cut.ToHash)
		}
		again, err := e.encode()
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeEntry(again)
		if err != nil || back.cut == nil || *back.cut != *e.cut {
			t.Fatalf("a cut read from %q does not read back from %q: %v", line, again, err)
		}
		if !bytes.HasPrefix(again, []byte(`{"seq":`)) {
			t.Fatalf("a cut encodes as %q", again)
		}
	})
}

// TestDecodeEntryRefusesBadCuts: a cut of the global shard, of no end, or
// with fields no cut has is refused, naming what is wrong.
func TestDecodeEntryRefusesBadCuts(t *testing.T) {
	h := strings.Repeat("b", 64)
	for line, want := range map[string]string{
		`{"seq":1,"cut":{"shard":"global","to":3,"to_hash":"` + h + `"},"prev_hash":"","hash":""}`:       "not an election's shard",
		`{"seq":1,"cut":{"shard":"ELECTION#e","to":0,"to_hash":"` + h + `"},"prev_hash":"","hash":""}`:   "with no end",
		`{"seq":1,"cut":{"shard":"ELECTION#e","to":3,"to_hash":"` + h + `"},"evil":1}`:                   "cannot be read",
		`{"seq":1,"cut":{"shard":"ELECTION#e#f","to":3,"to_hash":"` + h + `"},"prev_hash":"","hash":""}`: "not an election's shard",
	} {
		if _, err := decodeEntry([]byte(line)); err == nil || !strings.Contains(app.ErrorMessage(err), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
}

// TestDecodeEntrySaysANewerVoteDesk: a line of a kind a later VoteDesk
// may write (a key no event or cut has), or an event of a type this one
// does not know, says to update VoteDesk rather than only "malformed"; a
// broken line still says what is wrong with it.
func TestDecodeEntrySaysANewerVoteDesk(t *testing.T) {
	h := strings.Repeat("b", 64)
	for line, want := range map[string]string{
		`{"seq":7,"merge":{"from":"ELECTION#a","into":"ELECTION#b"},"prev_hash":"` + h + `","hash":"` + h + `"}`:                                           `an entry with "merge", which this VoteDesk does not know (a newer VoteDesk wrote it? update VoteDesk on this device)`,
		`{"seq":7,"id":"d1-7","when":"2026-11-27T10:00:00Z","actor":"ann","type":"VOTER_TELEPORTED","data":{},"prev_hash":"` + h + `","hash":"` + h + `"}`: `unknown type "VOTER_TELEPORTED" (a newer VoteDesk wrote it? update VoteDesk on this device)`,
		`{"seq":7,"when":"2026-11-27T10:00:00Z","type":"USER_REGISTERED","data":{}}`:                                                                       "has no id",
		`{"seq":7,`: "",
	} {
		_, err := decodeEntry([]byte(line))
		if err == nil || !strings.Contains(app.ErrorMessage(err), want) || strings.Contains(line, "USER_REGISTERED") && strings.Contains(app.ErrorMessage(err), "newer") {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
}
