package app

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
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

// agreePayload fails the test when readCompact accepts b over start but
// reads other values than encoding/json over the same start, or
// encoding/json refuses what it accepts; on false it must leave start as
// it was.
func agreePayload[T any, P interface {
	*T
	compactReader
}](t *testing.T, start T, b []byte) bool {
	t.Helper()
	fast := start
	if !P(&fast).readCompact(b) {
		if !reflect.DeepEqual(fast, start) {
			t.Fatalf("readCompact refused %.200q but changed its payload: %+v", b, fast)
		}
		return false
	}
	slow := start
	if err := json.Unmarshal(b, &slow); err != nil {
		t.Fatalf("readCompact accepts %.200q, which encoding/json refuses: %v", b, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%.200q:\nreadCompact   %+v\nencoding/json %+v", b, fast, slow)
	}
	return true
}

func randomRankings(rng *rand.Rand) rankList {
	var r rankList
	rank := 0
	for range rng.IntN(5) {
		rank += 1 + rng.IntN(2)
		for range 1 + rng.IntN(2) {
			r = append(r, Ranking{Candidate: fastNames[rng.IntN(len(fastNames))], Rank: rank})
		}
	}
	return r
}

func randomText(rng *rand.Rand) string {
	if rng.IntN(4) == 0 {
		return ""
	}
	return fastNames[rng.IntN(len(fastNames))]
}

func randomBallotCast(rng *rand.Rand) ballotCast {
	return ballotCast{Election: randomText(rng), ElectionID: randomText(rng), Voter: randomText(rng),
		Confirmation: randomText(rng), Rankings: randomRankings(rng), Source: randomText(rng),
		Transcribed: rng.IntN(2) == 0, Secret: rng.IntN(2) == 0, Commit: randomText(rng)}
}

// payloadForms are the ways a payload reaches a device: its open data and
// its secret as VoteDesk writes them, and the same fields as a map would
// write them (sorted keys).
func payloadForms(t *testing.T, v any) [][]byte {
	t.Helper()
	whole, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(whole, &m); err != nil {
		t.Fatal(err)
	}
	sorted, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	forms := [][]byte{whole, sorted}
	if d, ok := v.(ballotCast); ok {
		secret, err := json.Marshal(ballotCastSecret{Confirmation: d.Confirmation, Rankings: d.Rankings})
		if err != nil {
			t.Fatal(err)
		}
		forms = append(forms, secret)
	}
	return forms
}

// What VoteDesk writes, the ballot payloads read as encoding/json does, in
// either key order and over a payload already read (a secret over its open
// data), and they take the fast way whenever no text needs an escape.
func TestPayloadsAgreeWithJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 34))
	fast, plain := 0, 0
	for range 3000 {
		d := randomBallotCast(rng)
		over := []ballotCast{{}, randomBallotCast(rng)}
		for _, b := range payloadForms(t, d) {
			noEscape := !bytes.Contains(b, []byte{'\\'}) && utf8.Valid(b)
			for _, start := range over {
				if agreePayload(t, start, b) {
					fast++
				} else if noEscape {
					t.Errorf("ballotCast refused %.200q, which needs no escape", b)
				}
				if noEscape {
					plain++
				}
			}
			// Keys it does not have (source, confirmation, ...) are
			// encoding/json's to read.
			agreePayload(t, ballotRankingsChanged{}, b)
		}
		rc := ballotRankingsChanged{Election: d.Election, ElectionID: d.ElectionID, Voter: d.Voter, Rankings: d.Rankings, Secret: d.Secret, Commit: d.Commit}
		b, err := json.Marshal(rc)
		if err != nil {
			t.Fatal(err)
		}
		if !agreePayload(t, ballotRankingsChanged{}, b) && !bytes.Contains(b, []byte{'\\'}) && utf8.Valid(b) {
			t.Errorf("ballotRankingsChanged refused %.200q, which needs no escape", b)
		}
	}
	if fast < plain || fast < 1000 {
		t.Errorf("%d of %d payloads without escapes took the fast way", fast, plain)
	}
}

// Mutated input: whatever the payloads accept, encoding/json reads the
// same; openKeys agrees with a map.
func TestPayloadMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 89))
	const alphabet = "[]{},:\" \\aenrt0123456789.-\x00\xc3\xa9"
	for range 20000 {
		forms := payloadForms(t, randomBallotCast(rng))
		b := mutate(rng, forms[rng.IntN(len(forms))], alphabet)
		agreePayload(t, ballotCast{}, b)
		agreePayload(t, randomBallotCast(rng), b)
		agreePayload(t, ballotRankingsChanged{}, b)
		agreeOpenKeys(t, b)
	}
	for _, b := range []string{`{}`, `{"rankings":[]}`, `{"rankings":[[]]}`, `{"rankings":[["a"],[],["b","c"]]}`,
		`{"transcribed":true,"secret_ballot":false}`, `{"election":"x","election":"y"}`} {
		if !agreePayload(t, ballotCast{}, []byte(b)) {
			t.Errorf("ballotCast refused %s", b)
		}
	}
	for _, b := range []string{`{"Election":"x"}`, `{"voter":null}`, `{"rankings":null}`, `{"transcribed":1}`,
		`{"election":"\u0041"}`, `{"other":"x"}`, `{"election":"x"} `, `{"election":"x",}`, `[]`, `{"rankings":[["a",]]}`} {
		if agreePayload(t, ballotCast{}, []byte(b)) {
			t.Errorf("ballotCast accepted %s", b)
		}
	}
}

// agreeOpenKeys fails the test when openKeys accepts b but finds other keys
// than a map does, or encoding/json refuses what it accepts.
func agreeOpenKeys(t *testing.T, b []byte) {
	t.Helper()
	names := []string{"confirmation", "rankings"}
	found, commit, ok := openKeys(b, names)
	if !ok {
		return
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("openKeys accepts %.200q, which encoding/json refuses: %v", b, err)
	}
	want := ""
	for _, n := range names {
		if _, ok := m[n]; ok {
			want = n
			break
		}
	}
	if _, c := m["commit"]; found != want || commit != c {
		t.Fatalf("%.200q: openKeys %q %v, a map %q %v", b, found, commit, want, c)
	}
}

// openKeys skips values of every kind, nested, and gives up past its depth.
func TestOpenKeys(t *testing.T) {
	for _, c := range []struct {
		in     string
		found  string
		commit bool
		ok     bool
	}{
		{`{"a":{"b":[1,true,null,"x",{}],"c":[]},"rankings":[["x"]],"confirmation":"c","commit":"z"}`, "confirmation", true, true},
		{`{"rankings":false}`, "rankings", false, true},
		{`{"commit":0}`, "", true, true},
		{`{"a":-1}`, "", false, false},
		{`{"a":1.5}`, "", false, false},
		{`{"a":` + strings.Repeat("[", maxSkipDepth+2) + strings.Repeat("]", maxSkipDepth+2) + `}`, "", false, false},
		{`{"a":` + strings.Repeat("[", maxSkipDepth) + strings.Repeat("]", maxSkipDepth) + `}`, "", false, true},
	} {
		found, commit, ok := openKeys([]byte(c.in), []string{"confirmation", "rankings"})
		if found != c.found || commit != c.commit || ok != c.ok {
			t.Errorf("openKeys(%s) = %q %v %v, want %q %v %v", c.in, found, commit, ok, c.found, c.commit, c.ok)
		}
		agreeOpenKeys(t, []byte(c.in))
	}
}

func FuzzPayloads(f *testing.F) {
	rng := rand.New(rand.NewPCG(2, 3))
	for range 10 {
		for _, b := range payloadForms(&testing.T{}, randomBallotCast(rng)) {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		agreePayload(t, ballotCast{}, b)
		agreePayload(t, ballotRankingsChanged{Voter: "v", Rankings: rankList{{Candidate: "a", Rank: 1}}}, b)
		agreeOpenKeys(t, b)
	})
}

// FuzzDecodeRankings: whatever the one-pass reading of rankings accepts,
// encoding/json reads to the same rankings, and what it refuses,
// DecodeRankings answers as encoding/json does.
func FuzzDecodeRankings(f *testing.F) {
	for _, s := range []string{`[["A"],["B","C"],[]]`, `[]`, `[[]]`, `[["A"]]`, `[["Ann Lee"],["#overvote"],[],["Bob"]]`,
		`null`, `[["A"] ,["B"]]`, `[["\u00e9"]]`, `[["é"]]`, "[[\"\xff\"]]", `[["A"],]`, `[["A"]`, `[[1]]`, `[["A"]]x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		got, err := DecodeRankings(s)
		want, werr := decodeRankingsJSON(s)
		if (err == nil) != (werr == nil) || !slices.Equal(got, want) {
			t.Errorf("%q: %v, %v; through encoding/json %v, %v", s, got, err, want, werr)
		}
	})
}
