package tally

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTexts: entries read back as appended, including empty ones; a text
// handed out stays as it was while the column grows past its capacity; Map
// changes only the entries from its start and returns the column itself
// when nothing changes.
func TestTexts(t *testing.T) {
	col := NewTexts("a", "", "ccc")
	first := col.At(0)
	var want []string
	want = append(want, "a", "", "ccc")
	for i := range 5000 {
		s := strings.Repeat(fmt.Sprint(i%10), i%7)
		if err := col.Append(s); err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
	}
	col.AppendEmpty(2)
	want = append(want, "", "")
	if got := col.Strings(); !slices.Equal(got, want) {
		t.Fatalf("column reads back %d entries, differing from the %d appended", len(got), len(want))
	}
	if first != "a" {
		t.Fatalf("an entry handed out before the column grew reads %q", first)
	}
	same, err := col.Map(0, func(s string) string { return s })
	if err != nil || same != col {
		t.Fatalf("an identity Map made a new column (%v)", err)
	}
	upper, err := col.Map(2, strings.ToUpper)
	if err != nil {
		t.Fatal(err)
	}
	if upper.At(0) != "a" || upper.At(2) != "CCC" || col.At(2) != "ccc" || upper.Len() != col.Len() {
		t.Fatalf("Map from 2: %q %q, original %q", upper.At(0), upper.At(2), col.At(2))
	}
}

// TestTextsAppendAll: a column appended to another, and text from bytes,
// read back entry for entry; the bytes appended may change afterwards.
func TestTextsAppendAll(t *testing.T) {
	a := NewTexts("x", "")
	b := []byte("yy")
	if err := a.AppendBytes(b); err != nil {
		t.Fatal(err)
	}
	b[0] = 'z'
	if err := a.AppendAll(NewTexts("", "w", "vvv")); err != nil {
		t.Fatal(err)
	}
	a.AppendEmpty(1)
	if got, want := a.Strings(), []string{"x", "", "yy", "", "w", "vvv", ""}; !slices.Equal(got, want) {
		t.Fatalf("column %q, want %q", got, want)
	}
}

// TestAddIDs: a set gains its id column at the first ballot with an id,
// the earlier ballots reading as having none.
func TestAddIDs(t *testing.T) {
	var s BallotSet
	for i, id := range []string{"", "", "b3", "", "b5"} {
		if err := s.Add(id, 1, []Mark{{Rank: 1, Candidate: uint16(i % 2)}}); err != nil {
			t.Fatal(err)
		}
		if i < 2 && s.IDs != nil {
			t.Fatalf("ids column before any ballot had an id")
		}
	}
	if got := s.IDs.Strings(); !slices.Equal(got, []string{"", "", "b3", "", "b5"}) {
		t.Fatalf("ids %q", got)
	}
}
