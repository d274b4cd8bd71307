package app

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// FuzzReadSealed: the fast read of a sealed part gives what json.Unmarshal
// gives, on every input both accept, and accepts what seal writes.
func FuzzReadSealed(f *testing.F) {
	_, sealed, err := seal([]byte(`{"ballots":[["1",[["A"]]]]}`))
	if err != nil {
		f.Fatal(err)
	}
	if s, ok := readSealed(sealed, false); !ok || len(s.Nonce) != 64 {
		f.Errorf("what seal writes is not read: %q", sealed)
	}
	f.Add(string(sealed))
	f.Add(`{"nonce":"` + string(make([]byte, 64)) + `","data":1 }`)
	f.Add(`{"nonce":"00","data":{}}`)
	f.Add(`{"data":[1],"nonce":"0000000000000000000000000000000000000000000000000000000000000000"}`)
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := readSealed([]byte(in), false)
		var want sealedPart
		err := json.Unmarshal([]byte(in), &want)
		if ok != (err == nil) {
			t.Fatalf("%q: fast read %v, json.Unmarshal %v", in, ok, err)
		}
		if ok && (got.Nonce != want.Nonce || string(got.Data) != string(want.Data)) {
			t.Fatalf("%q: fast read %q %q, json.Unmarshal %q %q", in, got.Nonce, got.Data, want.Nonce, want.Data)
		}
	})
}

// Check and OpenSealed remember what they found for the bytes a decoded
// event holds; bytes put in their place are checked again.
func TestRememberedChecksFollowTheBytes(t *testing.T) {
	commit, sealed, err := seal([]byte(`{"ballots":[["1",[["A"]]]]}`))
	if err != nil {
		t.Fatal(err)
	}
	ev := &Event{V: FormatSigned, ID: "d-1", When: time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC), Type: EvBallotsImported,
		Actor: "a", ActorID: "x", UserKey: "k", UserSig: "s", DevKey: "k", DevSig: "s",
		Data: json.RawMessage(`{"election":"E","source":"cvr","count":1,"commit":"` + commit + `"}`), Sealed: sealed}
	b, err := EncodeEvent(ev)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := DecodeEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dec.OpenSealed(); err != nil {
		t.Fatal(err)
	}
	tampered := append([]byte(nil), dec.Sealed...)
	tampered[bytes.Index(tampered, []byte(`"A"`))+1] = 'B'
	dec.Sealed = tampered
	if _, err := dec.OpenSealed(); err == nil {
		t.Error("a sealed part changed after it was opened is still opened")
	}
	for _, bad := range []struct{ data, sealed string }{{`{"election":`, ""}, {"", `{"nonce":`}} {
		dec, err := DecodeEvent(b)
		if err != nil {
			t.Fatal(err)
		}
		if bad.data != "" {
			dec.Data = json.RawMessage(bad.data)
		}
		if bad.sealed != "" {
			dec.Sealed = json.RawMessage(bad.sealed)
		}
		if err := dec.Check(); err == nil {
			t.Errorf("Check accepts data %q, sealed %q put in after decoding", bad.data, bad.sealed)
		}
	}
}
