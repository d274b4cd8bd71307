package tally

import "math/bits"

// Mark is one candidate marked at one rank on a ballot. Rank counts from 1.
// Two marks with the same rank are an overvote (or, for pairwise methods, a
// tie); a rank with no mark is a skipped ranking.
type Mark struct {
	Rank      uint16
	Candidate uint16
}

// Overvote is the Candidate of a Mark that records an explicit overvote label
// from a cast vote record (RCTab's overvoteLabel), where the record says "this
// rank was overvoted" without naming the candidates.
const Overvote uint16 = 0xFFFF

// MaxCandidates is the largest number of candidates a contest may have.
const MaxCandidates = 0xFFFE

// BallotSet is a compact, column-oriented set of ballots: ballot i holds the
// marks Marks[start(i):Ends[i]], where start(0) = 0 and start(i) = Ends[i-1].
// Within one ballot the marks are sorted by rank. Counts, IDs and Precincts are
// either nil (every ballot counts once, has no id, no precinct) or have one
// entry per ballot; so do Batches, the batch (scan or tabulator batch)
// a cast vote record came in, and Tabulators, the tabulator that scanned
// it where its file says (Dominion's batch ids repeat across tabulators, so
// a batch is known by the pair).
type BallotSet struct {
	Marks      []Mark
	Ends       []uint32
	Counts     []uint32
	IDs        *Texts
	Precincts  []string
	Batches    []string
	Tabulators []string
}

// Len returns the number of distinct ballot records (not weighted by Counts).
func (s *BallotSet) Len() int { return len(s.Ends) }

// Ballot returns the marks and count of ballot i. The marks slice aliases the
// set's storage and must not be modified.
func (s *BallotSet) Ballot(i int) ([]Mark, uint32) {
	start := uint32(0)
	if i > 0 {
		start = s.Ends[i-1]
	}
	count := uint32(1)
	if s.Counts != nil {
		count = s.Counts[i]
	}
	return s.Marks[start:s.Ends[i]], count
}

// ID returns the id of ballot i, or "" when the set carries no ids.
func (s *BallotSet) ID(i int) string {
	if s.IDs == nil {
		return ""
	}
	return s.IDs.At(i)
}

// Add appends one ballot. The marks are copied and sorted by rank (stable, so
// marks at the same rank keep their order). A count of 0 is refused; counts
// other than 1, ids and precincts switch on the matching optional columns.
func (s *BallotSet) Add(id string, count uint32, marks []Mark) error {
	if count == 0 {
		return errorf("ballot %q has count 0", id)
	}
	if s.IDs != nil && !s.IDs.fits(len(id)) {
		return errorf("ballot %q: the ids add up to more than 4 GiB", id)
	}
	n := len(s.Ends)
	start := len(s.Marks)
	s.Marks = append(s.Marks, marks...)
	sortMarks(s.Marks[start:])
	s.Ends = append(s.Ends, uint32(len(s.Marks)))
	if count != 1 && s.Counts == nil {
		s.Counts = make([]uint32, n, cap(s.Ends))
		for i := range s.Counts {
			s.Counts[i] = 1
		}
	}
	if s.Counts != nil {
		s.Counts = append(s.Counts, count)
	}
	if id != "" && s.IDs == nil {
		s.IDs = &Texts{ends: make([]uint32, 0, cap(s.Ends))}
		s.IDs.AppendEmpty(n)
	}
	if s.IDs != nil {
		push(s.IDs, id)
	}
	return nil
}

// SetPrecinct records the precinct of the ballot added last.
func (s *BallotSet) SetPrecinct(p string) {
	n := len(s.Ends)
	if n == 0 {
		return
	}
	if s.Precincts == nil {
		s.Precincts = make([]string, n-1, cap(s.Ends))
	}
	s.Precincts = append(s.Precincts[:n-1], p)
}

// Positions returns the highest rank any ballot marks (0 for none): the
// ranking positions the ballots show, where nothing else says how many
// the ballot had. Each ballot's marks are in rank order.
func (s *BallotSet) Positions() int {
	top, start := 0, uint32(0)
	for _, end := range s.Ends {
		if end > start {
			top = max(top, int(s.Marks[end-1].Rank))
		}
		start = end
	}
	return top
}

// Total returns the number of ballots, weighted by Counts.
func (s *BallotSet) Total() uint64 {
	if s.Counts == nil {
		return uint64(len(s.Ends))
	}
	var t uint64
	for _, c := range s.Counts {
		t += uint64(c)
	}
	return t
}

// sortMarks sorts a ballot's marks by rank, stably. The usual ballot, each
// rank marked once and ranks under 32, is placed by rank through a bit set,
// without a comparison that could go either way; others take insertionSort.
// (Three times faster than insertionSort alone on ten-candidate ballots
// whose marks come in column order, as a generic CSV's do.)
func sortMarks(m []Mark) {
	if len(m) < 2 {
		return
	}
	var byRank [32]Mark
	var ranks uint32
	for _, a := range m {
		if a.Rank >= 32 || ranks&(1<<a.Rank) != 0 {
			insertionSort(m)
			return
		}
		ranks |= 1 << a.Rank
		byRank[a.Rank] = a
	}
	for i := range m {
		r := bits.TrailingZeros32(ranks)
		m[i] = byRank[r]
		ranks &= ranks - 1
	}
}

// insertionSort sorts a ballot's few marks by rank: stable, allocation-free,
// and fast for the handful of marks a ballot holds.
func insertionSort(m []Mark) {
	for i := 1; i < len(m); i++ {
		for j := i; j > 0 && m[j-1].Rank > m[j].Rank; j-- {
			m[j-1], m[j] = m[j], m[j-1]
		}
	}
}
