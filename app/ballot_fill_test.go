package app

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fill appends a ballot's attributes in name order; it must build exactly
// the item that setting them one by one builds.
func TestBallotFillIsSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	pick := func(s string) string {
		if rng.IntN(2) == 0 {
			return ""
		}
		return s
	}
	for range 2000 {
		b := Ballot{Election: "E", Voter: pick("v"), Confirmation: pick("c"), Rankings: []Ranking{{Candidate: "A", Rank: 1}},
			Source: pick("cvr"), SourceID: pick("id"), Transcribed: rng.IntN(2) == 0,
			Precinct: pick("p"), Batch: pick("b"), Tabulator: pick("t")}
		if rng.IntN(2) == 0 {
			b.WhenCast = time.Date(2026, 11, 26, 1, 2, 3, 4, time.UTC)
		}
		want := Item{}
		want.Set(AttrPK, S("ELECTION#E"))
		want.Set(AttrSK, S("BALLOT#x"))
		want.Set("entity_type", S("BALLOT"))
		want.Set("election_name", S(b.Election))
		if b.Voter != "" {
			want.Set("voter_name", S(b.Voter))
		}
		want.Set("confirmation", S(b.Confirmation))
		if !b.WhenCast.IsZero() {
			want.Set("when_cast", S(FormatTime(b.WhenCast)))
		}
		want.Set("rankings", S(EncodeRankings(b.Rankings)))
		want.Set("source", S(b.Source))
		for _, a := range []struct{ name, v string }{{"source_id", b.SourceID}, {"precinct", b.Precinct}, {"batch", b.Batch}, {"tabulator", b.Tabulator}} {
			if a.v != "" {
				want.Set(a.name, S(a.v))
			}
		}
		if b.Transcribed {
			want.Set("transcribed", Bool(true))
		}
		got := b.fill(nil, "ELECTION#E", "BALLOT#x", FormatTime(b.WhenCast))
		if !got.Sorted() || !reflect.DeepEqual(got, want) {
			t.Fatalf("fill(%+v)\n= %v\nwant %v", b, got, want)
		}
	}
}

// rankingsSize leaves room for the whole compact form of rankings whose
// names need no escape, so EncodeRankings allocates once.
func TestRankingsSizeIsEnough(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	for range 5000 {
		var r []Ranking
		rank := 0
		for range rng.IntN(8) {
			rank += 1 + rng.IntN(3)
			for range 1 + rng.IntN(3) {
				r = append(r, Ranking{Candidate: strings.Repeat("a", rng.IntN(20)) + "x", Rank: rank})
			}
		}
		if got := len(appendRankings(nil, r)); got > rankingsSize(r) {
			t.Fatalf("%v takes %d bytes; rankingsSize says %d", r, got, rankingsSize(r))
		}
	}
}
