package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// FuzzValidJSON holds validJSON to encoding/json.Valid.
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{
		``, ` `, `0`, `-0`, `01`, `-`, `1.`, `1.5e`, `1.5e+3`, `1E-0`, `.5`, `-.5`, `1e5.5`,
		`"a"`, `"\u00e9\n\/"`, `"\u00g0"`, `"\x"`, "\"\x01\"", "\"\xff\xfe\"", `"`, `"\"`,
		`true`, `tru`, `nul`, `null `, ` false`, `[]`, `[1,]`, `[,1]`, `{}`, `{"a":1,}`, `{"a" : [1, {"b":null}] }`,
		`{1:2}`, `{"a"}`, `[1 2]`, "[\t1\r\n]", "\ufeff1", `[[[[]]]]`, `{"a":1}{}`,
		`{"election":"Big","election_id":"e","source":"cvr","ballots":[["1",[["A"],["B","C"]]],["2",[]]]}`,
		strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth),
		strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1),
		strings.Repeat(`{"a":`, maxJSONDepth) + "1" + strings.Repeat("}", maxJSONDepth),
		strings.Repeat(`{"a":`, maxJSONDepth+1) + "1" + strings.Repeat("}", maxJSONDepth+1),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Errorf("validJSON(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}

// BenchmarkValidJSON checks the data of an import's event of 100,000
// ballots (what a log holds for each such batch) with json.Valid and with
// validJSON.
func BenchmarkValidJSON(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"election":"Big","election_id":"0d6f0b7e-3c1e-4d54-9a57-5b0f1f3b8d11","source":"cvr","ballots":[`)
	for i := range 100_000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `["%d",[["Candidate %02d"],["Candidate %02d"],["Candidate %02d"]]]`, i, i%10, (i+3)%10, (i+7)%10)
	}
	sb.WriteString(`]}`)
	data := []byte(sb.String())
	for _, c := range []struct {
		name  string
		valid func([]byte) bool
	}{{"json.Valid", json.Valid}, {"validJSON", validJSON}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !c.valid(data) {
					b.Fatal("not valid")
				}
			}
		})
	}
}
