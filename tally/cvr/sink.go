package cvr

import (
	"errors"
	"fmt"
	"math"

	"votedesk/tally"
)

// sink builds the fresh BallotSet of one Read. Ballot ids are gathered in one
// text column, and precincts are interned, so a big file costs no
// allocation per ballot.
type sink struct {
	set     tally.BallotSet
	maxRank int

	ids *tally.Texts // nil until a ballot has an id; the set's IDs once finished

	precinctOf map[string]string
	precincts  []string // nil until a ballot has a precinct

	batches    []string // nil until a ballot has a batch (interned through precinctOf)
	tabulators []string // nil until a ballot has a tabulator (likewise)
}

// add appends one ballot. id and precinct may be empty.
func (s *sink) add(marks []tally.Mark, id []byte, count uint32, precinct []byte) error {
	if count == 0 {
		return errors.New("ballot count is 0")
	}
	for _, m := range marks {
		if m.Rank == 0 {
			return errors.New("rank 0: ranks count from 1")
		}
		if s.maxRank > 0 && int(m.Rank) > s.maxRank {
			return fmt.Errorf("rank %d is beyond the contest's %d allowed rankings", m.Rank, s.maxRank)
		}
	}
	n := s.set.Len()
	// Grown here by doubling: append grows a big slice by a quarter at a
	// time, copying it over and over.
	if n == cap(s.set.Ends) {
		s.set.Ends = growTo(s.set.Ends, max(n, 1024))
	}
	if m := len(s.set.Marks); cap(s.set.Marks)-m < len(marks) {
		s.set.Marks = growTo(s.set.Marks, max(m, len(marks), 4096))
	}
	if err := s.set.Add("", count, marks); err != nil {
		return err
	}
	if len(id) > 0 && s.ids == nil {
		s.ids = tally.NewTexts()
		s.ids.AppendEmpty(n)
	}
	if s.ids != nil {
		if err := s.ids.AppendBytes(id); err != nil {
			return fmt.Errorf("ballot ids: %w", err)
		}
	}
	if len(precinct) > 0 && s.precincts == nil {
		s.precincts = make([]string, n, max(n, 1024))
		s.precinctOf = make(map[string]string)
	}
	if s.precincts != nil {
		p, ok := s.precinctOf[string(precinct)]
		if !ok {
			p = string(precinct)
			s.precinctOf[p] = p
		}
		s.precincts = append(s.precincts, p)
	}
	return nil
}

// setBatch records the batch of the ballot added last; once one ballot has
// a batch, every ballot has an entry ("" for none).
func (s *sink) setBatch(batch []byte) { s.batches = s.setColumn(s.batches, batch) }

// setTabulator records the tabulator of the ballot added last, as setBatch
// does the batch.
func (s *sink) setTabulator(tab []byte) { s.tabulators = s.setColumn(s.tabulators, tab) }

// setColumn sets the last ballot's entry of an optional text column (nil
// until a ballot has a value), interning the value through precinctOf.
func (s *sink) setColumn(col []string, v []byte) []string {
	n := s.set.Len()
	if n == 0 || len(v) == 0 && col == nil {
		return col
	}
	if col == nil {
		col = make([]string, 0, max(n, 1024))
	}
	for len(col) < n-1 {
		col = append(col, "")
	}
	if s.precinctOf == nil {
		s.precinctOf = make(map[string]string)
	}
	x, ok := s.precinctOf[string(v)]
	if !ok {
		x = string(v)
		s.precinctOf[x] = x
	}
	return append(col, x)
}

// reserve grows the set's storage for about n more ballots of k marks each,
// so a big file is not copied again and again as it grows.
func (s *sink) reserve(n, k int) {
	s.set.Ends = growTo(s.set.Ends, n)
	s.set.Marks = growTo(s.set.Marks, n*k)
	if s.ids != nil && s.ids.Len() > 0 {
		s.ids.Grow(n, n*(s.ids.Size()/s.ids.Len()+1))
	}
	if s.precincts != nil {
		s.precincts = growTo(s.precincts, n)
	}
}

// growTo makes room for n more elements.
func growTo[T any](v []T, n int) []T {
	if n <= cap(v)-len(v) {
		return v
	}
	w := make([]T, len(v), len(v)+n)
	copy(w, v)
	return w
}

// finish turns the gathered ids and precincts into the set's columns.
func (s *sink) finish() error {
	if len(s.set.Marks) > math.MaxUint32 {
		return errors.New("too many marks for one ballot set")
	}
	s.set.IDs, s.ids = s.ids, nil
	s.set.Precincts = s.precincts
	s.set.Batches = s.padded(s.batches)
	s.set.Tabulators = s.padded(s.tabulators)
	return nil
}

// padded fills an optional column to one entry per ballot ("" for the
// ballots after the last that set it); nil stays nil.
func (s *sink) padded(col []string) []string {
	if col == nil {
		return nil
	}
	return padTo(col, s.set.Len())
}

// appendSink appends the ballots o gathered (not yet finished) to s's. It
// refuses, changing nothing, when their ids would add up to more than 4
// GiB (the sequential read then says so).
func (s *sink) appendSink(o *sink) bool {
	n0, n1 := s.set.Len(), o.set.Len()
	ids, err := mergeTexts(s.ids, o.ids, n0, n1)
	if err != nil {
		return false
	}
	s.ids = ids
	base := uint32(len(s.set.Marks))
	s.set.Marks = append(s.set.Marks, o.set.Marks...)
	for _, e := range o.set.Ends {
		s.set.Ends = append(s.set.Ends, base+e)
	}
	s.set.Counts = mergeColumn(s.set.Counts, o.set.Counts, n0, n1, 1)
	s.precincts = mergeColumn(s.precincts, o.precincts, n0, n1, "")
	if s.batches != nil || o.batches != nil {
		s.batches = append(padTo(s.batches, n0), padTo(o.batches, n1)...)
	}
	if s.tabulators != nil || o.tabulators != nil {
		s.tabulators = append(padTo(s.tabulators, n0), padTo(o.tabulators, n1)...)
	}
	return true
}

// padTo fills an optional text column to n entries ("" for the ballots
// after the last that set it).
func padTo(col []string, n int) []string {
	for len(col) < n {
		col = append(col, "")
	}
	return col
}

// appendSet appends the ballots of src to dst, keeping dst's optional
// columns (Counts, IDs, Precincts, Batches, Tabulators) either nil or one entry per
// ballot.
func appendSet(dst, src *tally.BallotSet) error {
	if dst.Len() == 0 {
		*dst = *src
		return nil
	}
	base := len(dst.Marks)
	if base+len(src.Marks) > math.MaxUint32 {
		return errors.New("too many marks for one ballot set")
	}
	n0, n1 := dst.Len(), src.Len()
	ids, err := mergeTexts(dst.IDs, src.IDs, n0, n1)
	if err != nil {
		return fmt.Errorf("ballot ids: %w", err)
	}
	dst.IDs = ids
	dst.Marks = append(dst.Marks, src.Marks...)
	for _, e := range src.Ends {
		dst.Ends = append(dst.Ends, uint32(base)+e)
	}
	dst.Counts = mergeColumn(dst.Counts, src.Counts, n0, n1, 1)
	dst.Precincts = mergeColumn(dst.Precincts, src.Precincts, n0, n1, "")
	dst.Batches = mergeColumn(dst.Batches, src.Batches, n0, n1, "")
	dst.Tabulators = mergeColumn(dst.Tabulators, src.Tabulators, n0, n1, "")
	return nil
}

// mergeTexts appends text column b (n1 entries) to column a (n0 entries),
// where a nil column means every entry is empty. It fails, changing
// nothing, when the text would pass 4 GiB.
func mergeTexts(a, b *tally.Texts, n0, n1 int) (*tally.Texts, error) {
	if a == nil && b == nil {
		return nil, nil
	}
	if a == nil {
		a = tally.NewTexts()
		a.AppendEmpty(n0)
	}
	if b == nil {
		a.AppendEmpty(n1)
		return a, nil
	}
	return a, a.AppendAll(b)
}

// mergeColumn appends column b (n1 ballots) to column a (n0 ballots), where
// a nil column means every ballot has the zero value z.
func mergeColumn[T any](a, b []T, n0, n1 int, z T) []T {
	if a == nil && b == nil {
		return nil
	}
	if a == nil {
		a = make([]T, n0, n0+n1)
		for i := range a {
			a[i] = z
		}
	}
	if b != nil {
		return append(a, b...)
	}
	for range n1 {
		a = append(a, z)
	}
	return a
}
