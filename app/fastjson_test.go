package app

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
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
		plain := !strings.ContainsAny(string(b), "\\\xff") // no escape, no byte json would replace
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

// Mutated input: whatever readImported accepts, encoding/json reads the same.
func TestReadImportedMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	const alphabet = "[]{},:\" \\abn0\x00\xc3\xa9"
	for range 20000 {
		b, err := importedSecret(randomImported(rng)).appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + rng.IntN(3) {
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
			if len(b) == 0 {
				break
			}
		}
		agreeImported(t, b)
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
