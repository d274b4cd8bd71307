package app

import (
	"encoding/json"
	"testing"
)

// FuzzReadSealed: the fast read of a sealed part gives what json.Unmarshal
// gives, on every input both accept, and accepts what seal writes.
func FuzzReadSealed(f *testing.F) {
	_, sealed, err := seal([]byte(`{"ballots":[["1",[["A"]]]]}`))
	if err != nil {
		f.Fatal(err)
	}
	if s, ok := readSealed(sealed); !ok || len(s.Nonce) != 64 {
		f.Errorf("what seal writes is not read: %q", sealed)
	}
	f.Add(string(sealed))
	f.Add(`{"nonce":"` + string(make([]byte, 64)) + `","data":1 }`)
	f.Add(`{"nonce":"00","data":{}}`)
	f.Add(`{"data":[1],"nonce":"0000000000000000000000000000000000000000000000000000000000000000"}`)
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := readSealed([]byte(in))
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
