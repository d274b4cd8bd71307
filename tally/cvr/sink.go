package cvr

import (
	"errors"
	"fmt"
	"math"

	"votedesk/tally"
)

// sink builds the fresh BallotSet of one Read. Ballot ids are gathered in one
// byte buffer and become strings at the end, and precincts are interned, so a
// big file costs no allocation per ballot.
type sink struct {
	set     tally.BallotSet
	maxRank int

	idBytes []byte
	idEnds  []uint32 // end of ballot i's id in idBytes; nil until a ballot has an id

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
	if len(id) > 0 && s.idEnds == nil {
		s.idEnds = make([]uint32, n, max(n, 1024))
	}
	if s.idEnds != nil {
		if len(s.idEnds) == cap(s.idEnds) {
			s.idEnds = growTo(s.idEnds, len(s.idEnds))
		}
		if m := len(s.idBytes); cap(s.idBytes)-m < len(id) {
			s.idBytes = growTo(s.idBytes, max(m, len(id), 4096))
		}
		if len(s.idBytes)+len(id) > math.MaxUint32 {
			return errors.New("the ballot ids add up to more than 4 GiB")
		}
		s.idBytes = append(s.idBytes, id...)
		s.idEnds = append(s.idEnds, uint32(len(s.idBytes)))
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
	if len(s.idEnds) > 0 {
		s.idEnds = growTo(s.idEnds, n)
		s.idBytes = growTo(s.idBytes, n*(len(s.idBytes)/len(s.idEnds)+1))
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
	if s.idEnds != nil {
		s.set.IDs = tally.TextsOf(s.idBytes, s.idEnds)
		s.idBytes, s.idEnds = nil, nil
	}
	s.set.Precincts = s.precincts
	s.set.Batches = s.padded(s.batches)
	s.set.Tabulators = s.padded(s.tabulators)
	return nil
}

// padded fills an optional column to one entry per ballot ("" for the
// ballots after the last that set it); nil stays nil.
func (s *sink) padded(col []string) []string {
	for col != nil && len(col) < s.set.Len() {
		col = append(col, "")
	}
	return col
}

// appendSink appends the ballots o gathered (not yet finished) to s's. It
// refuses, changing nothing, when their ids would add up to more than 4
// GiB (the sequential read then says so).
func (s *sink) appendSink(o *sink) bool {
	if len(s.idBytes)+len(o.idBytes) > math.MaxUint32 {
		return false
	}
	n0, n1 := s.set.Len(), o.set.Len()
	base := uint32(len(s.set.Marks))
	s.set.Marks = append(s.set.Marks, o.set.Marks...)
	for _, e := range o.set.Ends {
		s.set.Ends = append(s.set.Ends, base+e)
	}
	s.set.Counts = mergeColumn(s.set.Counts, o.set.Counts, n0, n1, 1)
	if s.idEnds != nil || o.idEnds != nil {
		if s.idEnds == nil {
			s.idEnds = make([]uint32, n0, n0+n1)
		}
		if o.idEnds == nil {
			o.idEnds = make([]uint32, n1)
		}
		idBase := uint32(len(s.idBytes))
		s.idBytes = append(s.idBytes, o.idBytes...)
		for _, e := range o.idEnds {
			s.idEnds = append(s.idEnds, idBase+e)
		}
	}
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
	if dst.IDs != nil && src.IDs != nil && dst.IDs.Size()+src.IDs.Size() > math.MaxUint32 {
		return errors.New("the ballot ids add up to more than 4 GiB")
	}
	n0, n1 := dst.Len(), src.Len()
	dst.Marks = append(dst.Marks, src.Marks...)
	for _, e := range src.Ends {
		dst.Ends = append(dst.Ends, uint32(base)+e)
	}
	dst.Counts = mergeColumn(dst.Counts, src.Counts, n0, n1, 1)
	if dst.IDs != nil || src.IDs != nil {
		ids := dst.IDs
		if ids == nil {
			ids = tally.NewTexts()
			ids.AppendEmpty(n0)
		}
		for i := range n1 {
			ids.Append(src.ID(i)) // fits: checked above
		}
		dst.IDs = ids
	}
	dst.Precincts = mergeColumn(dst.Precincts, src.Precincts, n0, n1, "")
	dst.Batches = mergeColumn(dst.Batches, src.Batches, n0, n1, "")
	dst.Tabulators = mergeColumn(dst.Tabulators, src.Tabulators, n0, n1, "")
	return nil
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
