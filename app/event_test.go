package app_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"votedesk/app"
)

// The log's encoding and hash are shared by every device and the cloud, so
// their bytes must not drift: an event encodes exactly as json.Marshal
// writes it, and its hash covers prev, a newline and the content fields as
// json.Marshal writes them, with the time in app.TimeLayout.
func TestEventBytes(t *testing.T) {
	when := time.Date(2026, 11, 3, 7, 0, 0, 120000000, time.FixedZone("EST", -5*3600))
	events := map[string]*app.Event{
		"Plain": {Seq: 7, ID: "dev-1/7", When: when, Actor: "olga", Type: app.EvBallotCast,
			Data: json.RawMessage(`{"election":"Mayor","voter":"vera"}`)},
		"Escapes": {Seq: 1 << 40, ID: "dev\"2\\", When: when.Add(time.Nanosecond), Actor: "<b>&\u00e9\u2028\x01",
			Type: app.EvUserRegistered, Data: json.RawMessage(`{"name":"x"}`)},
	}
	for name, ev := range events {
		t.Run(name, func(t *testing.T) {
			prev := "ab12"
			ev.Chain(prev)

			type content struct {
				ID    string          `json:"id"`
				When  string          `json:"when"`
				Actor string          `json:"actor"`
				Type  app.EventType   `json:"type"`
				Data  json.RawMessage `json:"data"`
			}
			c, err := json.Marshal(content{ev.ID, ev.When.UTC().Format(app.TimeLayout), ev.Actor, ev.Type, ev.Data})
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(append([]byte(prev+"\n"), c...))
			if want := hex.EncodeToString(sum[:]); ev.Hash != want {
				t.Errorf("hash %s, want %s over %s", ev.Hash, want, c)
			}

			got, err := app.EncodeEvent(ev)
			if err != nil {
				t.Fatal(err)
			}
			utc := *ev
			utc.When = ev.When.UTC()
			want, err := json.Marshal(&utc)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("EncodeEvent:\n%s\nwant json.Marshal's\n%s", got, want)
			}
			back, err := app.DecodeEvent(got)
			if err != nil {
				t.Fatal(err)
			}
			if back.Hash != ev.Hash || back.ComputeHash(prev) != ev.Hash {
				t.Errorf("decoded event hashes to %s, want %s", back.ComputeHash(prev), ev.Hash)
			}
		})
	}

	// One hash pinned, so a change to the layout both sides share shows too.
	ev := events["Plain"]
	ev.Chain("")
	if want := "93b3afbcf13e0fca4ea1a519d066f1b2fe81a6e574ba6846cd306c31421ea99c"; ev.Hash != want {
		t.Errorf("hash of the plain event after the empty hash is %s, want %s", ev.Hash, want)
	}
}

// TestComputeHashFollowsChanges: ComputeHash keeps its last answer, and a
// change to anything the hash covers (or to prev) gives the hash of the
// event as it now is, never the kept one.
func TestComputeHashFollowsChanges(t *testing.T) {
	base := func() *app.Event {
		return &app.Event{Seq: 3, V: app.FormatSigned, ID: "dev-1/3", When: time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC),
			Actor: "olga", ActorID: "acct-1", Type: app.EvBallotCast, Data: json.RawMessage(`{"election":"Mayor"}`),
			UserKey: "uk", UserSig: "us", DevKey: "dk", DevSig: "ds"}
	}
	// fresh is the hash of an event with e's fields that has kept nothing.
	fresh := func(e *app.Event, prev string) string {
		return (&app.Event{Seq: e.Seq, V: e.V, ID: e.ID, When: e.When, Actor: e.Actor, ActorID: e.ActorID, Type: e.Type,
			Data: append(json.RawMessage(nil), e.Data...), UserKey: e.UserKey, UserSig: e.UserSig, DevKey: e.DevKey, DevSig: e.DevSig}).ComputeHash(prev)
	}
	changes := map[string]func(e *app.Event){
		"id":       func(e *app.Event) { e.ID = "dev-2/3" },
		"when":     func(e *app.Event) { e.When = e.When.Add(time.Second) },
		"actor":    func(e *app.Event) { e.Actor = "oleg" },
		"actor id": func(e *app.Event) { e.ActorID = "acct-2" },
		"type":     func(e *app.Event) { e.Type = app.EvBallotRankingsChanged },
		"data":     func(e *app.Event) { e.Data = json.RawMessage(`{"election":"Levy"}`) },
		"format":   func(e *app.Event) { e.V = 0; e.ActorID, e.UserKey, e.UserSig, e.DevKey, e.DevSig = "", "", "", "", "" },
		"user key": func(e *app.Event) { e.UserKey = "uk2" },
		"user sig": func(e *app.Event) { e.UserSig = "us2" },
		"dev key":  func(e *app.Event) { e.DevKey = "dk2" },
		"dev sig":  func(e *app.Event) { e.DevSig = "ds2" },
	}
	for name, change := range changes {
		e := base()
		before := e.ComputeHash("p")
		if again := e.ComputeHash("p"); again != before || again != fresh(e, "p") {
			t.Fatalf("%s: the kept hash %s, computed again %s", name, before, again)
		}
		change(e)
		if got, want := e.ComputeHash("p"), fresh(e, "p"); got != want || got == before {
			t.Errorf("after a change of %s: ComputeHash = %s, want %s (before the change %s)", name, got, want, before)
		}
	}
	e := base()
	if a, b := e.ComputeHash("p"), e.ComputeHash("q"); a == b || b != fresh(e, "q") {
		t.Errorf("another prev gave %s, want %s", b, fresh(e, "q"))
	}
}

// TestEventFormats: a new import is of format 3 (its ballots stored in
// chunks), every other new event of format 2; a VoteDesk reads format 3
// for imports only, and refuses later formats with a message saying a
// newer VoteDesk wrote them.
func TestEventFormats(t *testing.T) {
	_, dev, _ := ed25519.GenerateKey(nil)
	_, actor, _ := ed25519.GenerateKey(nil)
	newEvent := func(typ app.EventType, data map[string]any) *app.Event {
		ev, err := app.MakeEvent(app.EventSpec{Type: typ, Data: data, When: time.Date(2026, 11, 29, 7, 0, 0, 0, time.UTC),
			Actor: app.User{Name: "olga", ID: "acct-1"}, ActorKey: actor, Device: dev, DeviceSeq: 1})
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	imp := newEvent(app.EvBallotsImported, map[string]any{"election": "E", "source": "cvr", "ballots": []any{[]any{"r1", [][]string{{"A"}}}}})
	cast := newEvent(app.EvBallotCast, map[string]any{"election": "E", "voter": "v", "confirmation": "C", "rankings": [][]string{{"A"}}})
	if imp.V != app.FormatChunked || cast.V != app.FormatSigned {
		t.Fatalf("new events of formats %d (import) and %d (ballot), want 3 and 2", imp.V, cast.V)
	}
	if err := imp.Check(); err != nil {
		t.Errorf("an import of format 3: %v", err)
	}
	cast.V = app.FormatChunked
	if err := cast.Check(); err == nil || !strings.Contains(err.Error(), "has format 3") {
		t.Errorf("a ballot of format 3: %v", err)
	}
	imp.V = 4
	if err := imp.Check(); err == nil || !strings.Contains(err.Error(), "a newer VoteDesk wrote it?") {
		t.Errorf("an import of format 4: %v", err)
	}
}
