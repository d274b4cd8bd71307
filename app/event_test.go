package app_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
