package app

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// viaJSON reads an import's sealed part the general way.
func viaJSON(b []byte) ([]ImportedBallot, error) {
	var d ballotsImported
	err := json.Unmarshal(b, &d)
	return d.Ballots, err
}

// agreeImported fails the test when readImported accepts b but reads other
// ballots than encoding/json, or encoding/json refuses what it accepts.
func agreeImported(t *testing.T, b []byte) bool {
	t.Helper()
	fast, ok := readImported(b)
	if !ok {
		return false
	}
	slow, err := viaJSON(b)
	if err != nil {
		t.Fatalf("readImported accepts %.200q, which encoding/json refuses: %v", b, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%.200q:\nreadImported %+v\nencoding/json %+v", b, fast, slow)
	}
	return true
}

var fastNames = []string{"Ada", "Alan Turing", "Grace \"Amazing\" Hopper", "<b>&", "Émile Zola", "名字", "", "tab\there",
	"back\\slash", "bad \xff utf8", "Write-in", "overvote", "x/y", "\u2028", "DEL\x7f"}

func randomImported(rng *rand.Rand) []ImportedBallot {
	out := make([]ImportedBallot, rng.IntN(6))
	for i := range out {
		ib := &out[i]
		ib.SourceID = fastNames[rng.IntN(len(fastNames))] + strings.Repeat("7", rng.IntN(3))
		rank := 0
		for range rng.IntN(6) {
			rank += 1 + rng.IntN(2) // a skipped rank now and then
			for range 1 + rng.IntN(2) {
				ib.Rankings = append(ib.Rankings, Ranking{Candidate: fastNames[rng.IntN(len(fastNames))], Rank: rank})
			}
		}
		switch rng.IntN(4) {
		case 3:
			ib.Tabulator = fastNames[rng.IntN(len(fastNames))]
			fallthrough
		case 2:
			ib.Batch = fastNames[rng.IntN(len(fastNames))]
			fallthrough
		case 1:
			ib.Precinct = fastNames[rng.IntN(len(fastNames))]
		}
	}
	return out
}

// What VoteDesk writes, readImported reads as encoding/json does, and it
// takes the fast way whenever no text needs an escape.
func TestReadImportedAgreesWithJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	fast := 0
	for range 3000 {
		ballots := randomImported(rng)
		b, err := importedSecret(ballots).appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b) {
			t.Fatalf("appendJSON wrote invalid JSON: %.200q", b)
		}
		plain := !bytes.Contains(b, []byte{'\\'}) && utf8.Valid(b) // no escape, no byte json would replace
		if agreeImported(t, b) {
			fast++
		} else if plain {
			t.Errorf("readImported refused %.200q, which needs no escape", b)
		}
	}
	if fast < 300 {
		t.Errorf("only %d of 3000 imports took the fast way", fast)
	}
}

// mutate changes one to three bytes of b at random: one replaced, removed
// or inserted, taken from alphabet.
func mutate(rng *rand.Rand, b []byte, alphabet string) []byte {
	for range 1 + rng.IntN(3) {
		if len(b) == 0 {
			break
		}
		i := rng.IntN(len(b))
		c := alphabet[rng.IntN(len(alphabet))]
		switch rng.IntN(3) {
		case 0:
			b[i] = c
		case 1:
			b = append(b[:i], b[i+1:]...)
		default:
			b = append(b[:i], append([]byte{c}, b[i:]...)...)
		}
	}
	return b
}

// Mutated input: whatever readImported accepts, encoding/json reads the same.
func TestReadImportedMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	const alphabet = "[]{},:\" \\abn0\x00\xc3\xa9"
	for range 20000 {
		b, err := importedSecret(randomImported(rng)).appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		agreeImported(t, mutate(rng, b, alphabet))
	}
	for _, b := range []string{`{"ballots":[]}`, `{"ballots":[["a",[]]]}`, `{"ballots":[["a",[[]]]]}`, `{"ballots":[["a",[["x"],[],["y","z"]],"p","b","t"]]}`} {
		if !agreeImported(t, []byte(b)) {
			t.Errorf("readImported refused %s", b)
		}
	}
	for _, b := range []string{`{"ballots":[["a",[]],]}`, `{"ballots":[["a",[["x",]]]]}`, `{"ballots":[["a",[]]]} `, `{"ballots":[["a"]]}`,
		`{"ballots":[["a",[],"p","b","t","u"]]}`, `{"ballots":null}`, `{"ballots":[["a",[["x"]]],["b",[["\u0041"]]]]}`} {
		if _, ok := readImported([]byte(b)); ok {
			t.Errorf("readImported accepted %s", b)
		}
	}
}

func FuzzReadImported(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range 20 {
		b, _ := importedSecret(randomImported(rng)).appendJSON(nil)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { agreeImported(t, b) })
}

// eventFields is what an event says, without the memos DecodeEvent keeps.
func eventFields(e Event) Event {
	return Event{Seq: e.Seq, V: e.V, ID: e.ID, When: e.When, Actor: e.Actor, ActorID: e.ActorID, Type: e.Type,
		Data: e.Data, Sealed: e.Sealed, UserKey: e.UserKey, UserSig: e.UserSig, DevKey: e.DevKey, DevSig: e.DevSig,
		PrevHash: e.PrevHash, Hash: e.Hash}
}

// agreeEvent fails the test when readEvent accepts b but reads another
// event than encoding/json, or encoding/json refuses what it accepts.
func agreeEvent(t *testing.T, b []byte) bool {
	t.Helper()
	fast, ok := readEvent(b)
	if !ok {
		return false
	}
	var slow Event
	if err := json.Unmarshal(b, &slow); err != nil {
		t.Fatalf("readEvent accepts %.300q, which encoding/json refuses: %v", b, err)
	}
	f, s := eventFields(fast), eventFields(slow)
	if !f.When.Equal(s.When) || f.When.Location().String() != s.When.Location().String() {
		t.Fatalf("%.300q: when %v, encoding/json %v", b, f.When, s.When)
	}
	f.When, s.When = time.Time{}, time.Time{}
	if !reflect.DeepEqual(f, s) {
		t.Fatalf("%.300q:\nreadEvent     %+v\nencoding/json %+v", b, f, s)
	}
	return true
}

func randomEvent(rng *rand.Rand) *Event {
	pick := func() string { return fastNames[rng.IntN(len(fastNames))] }
	e := &Event{Seq: rng.Uint64N(1 << 40), ID: pick() + "-0001", When: time.Date(2026, 11, 26, 1, 2, 3, rng.IntN(1e9), time.UTC),
		Actor: pick(), Type: EvBallotsImported, PrevHash: "ab12", Hash: "cd34"}
	if rng.IntN(2) == 0 {
		e.V, e.ActorID = FormatSigned, pick()
		e.UserKey, e.UserSig, e.DevKey, e.DevSig = "uk", "us+/=", "dk", "ds"
	}
	if rng.IntN(5) == 0 {
		e.DevSig = ""
	}
	data, _ := json.Marshal(map[string]any{"election": pick(), "secret_ballot": rng.IntN(3) == 0, "n": rng.IntN(9)})
	e.Data = data
	if rng.IntN(2) == 0 {
		b, _ := importedSecret(randomImported(rng)).appendJSON(nil)
		_, sealed, _ := seal(b)
		e.Sealed = sealed
	}
	if rng.IntN(4) == 0 {
		e.Data, _ = json.Marshal(map[string]any{"a": map[string]int{"b": 1, "sealed": 1}, "sealed": pick()})
	}
	return e
}

// What EncodeEvent writes, readEvent reads as encoding/json does, and it
// takes the fast way when no text needs an escape.
func TestReadEventAgreesWithJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 3))
	fast := 0
	for range 3000 {
		b, err := EncodeEvent(randomEvent(rng))
		if err != nil {
			t.Fatal(err)
		}
		if agreeEvent(t, b) {
			fast++
		}
	}
	if fast < 300 {
		t.Errorf("only %d of 3000 events took the fast way", fast)
	}
	// The pattern that ends Data, inside Data or Sealed, must not split
	// them wrongly.
	for _, tc := range []struct{ data, sealed string }{
		{`{"a":1,"sealed":2}`, ""},
		{`{"a":1,"sealed":2}`, `{"b":1,"sealed":{"c":1}}`},
		{`{"a":1}`, `{"b":1,"sealed":3}`},
		{`{"a":",\"sealed\":"}`, `[1,2]`},
	} {
		e := &Event{Seq: 1, ID: "d-1", When: time.Unix(0, 0).UTC(), Actor: "a", Type: EvBallotCast, Data: json.RawMessage(tc.data), PrevHash: "p", Hash: "h"}
		if tc.sealed != "" {
			e.Sealed = json.RawMessage(tc.sealed)
		}
		b, err := EncodeEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		agreeEvent(t, b)
	}
}

// Mutated events: whatever readEvent accepts, encoding/json reads the same.
func TestReadEventMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 7))
	const alphabet = "[]{},:\" \\ahsv0\x00\xc3\xa9"
	for range 30000 {
		b, err := EncodeEvent(randomEvent(rng))
		if err != nil {
			t.Fatal(err)
		}
		agreeEvent(t, mutate(rng, b, alphabet))
	}
}

func FuzzReadEvent(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 20 {
		b, _ := EncodeEvent(randomEvent(rng))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { agreeEvent(t, b) })
}

// EventIDHash gives the id and hash DecodeEvent gives, for every event in
// EncodeEvent's layout, and nothing for a mutated one it cannot place.
func TestEventIDHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	fast := 0
	for range 3000 {
		b, err := EncodeEvent(randomEvent(rng))
		if err != nil {
			t.Fatal(err)
		}
		if rng.IntN(3) == 0 {
			i := rng.IntN(len(b))
			b = append(b[:i], b[i+1:]...)
		}
		id, hash, ok := EventIDHash(b)
		var e Event
		if json.Unmarshal(b, &e) != nil {
			continue // a cut event: whatever EventIDHash says, DecodeEvent refuses it
		}
		if ok {
			fast++
			if id != e.ID || hash != e.Hash {
				t.Fatalf("%.200q: EventIDHash %q %q, encoding/json %q %q", b, id, hash, e.ID, e.Hash)
			}
		}
	}
	if fast < 1000 {
		t.Errorf("only %d events read the fast way", fast)
	}
}
