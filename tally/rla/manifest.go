package rla

import (
	"encoding/csv"
	"io"
	"sort"
	"strconv"
)

// MaxBallots is the most ballots a manifest may list: more than any single
// contest's paper trail, and few enough that every count fits comfortably.
const MaxBallots = 100_000_000

// Batch is one group of paper ballots in the ballot manifest: a batch as
// the tabulator scanned it, stored in a container.
type Batch struct {
	// Container is where the batch is stored (Arlo's "Container", Colorado's
	// "Storage Location"); may be empty.
	Container string
	// Tabulator is the scanner that counted the batch (Arlo's "Tabulator",
	// Colorado's "Scanner ID"); may be empty.
	Tabulator string
	// Name names the batch, uniquely within its container and tabulator.
	Name string
	// Ballots is the number of ballots in the batch.
	Ballots int
}

// Manifest is the ballot manifest: where every paper ballot is. Ballots are
// numbered in manifest order: the batches in file order, each batch's
// ballots by their position in it.
type Manifest struct {
	Batches []Batch

	// starts[i] is the index of batch i's first ballot, and
	// starts[len(Batches)] the total: set by ReadManifest and NewManifest so
	// Locate takes a binary search. A Manifest built otherwise, or whose
	// batch counts changed since, has none that fits and is scanned.
	starts []int
}

// NewManifest returns the manifest of the batches, checked as ReadManifest
// checks a file's (names present and unique, counts not negative, at least
// one ballot, at most MaxBallots in all) and indexed for Locate. The
// batches must not change afterwards.
func NewManifest(batches []Batch) (Manifest, error) {
	seen := map[batchKey]int{}
	total := 0
	for i, b := range batches {
		if field, msg := checkBatch(b, seen, i+1, total, "batch"); msg != "" {
			return Manifest{}, errorf("batch %d, %s: %s", i+1, manifestColumns[field].header, msg)
		}
		total += b.Ballots
	}
	return newManifest(batches, total)
}

// newManifest indexes checked batches with total ballots, refusing an
// empty manifest.
func newManifest(batches []Batch, total int) (Manifest, error) {
	if len(batches) == 0 {
		return Manifest{}, errorf("the manifest lists no batches")
	}
	if total == 0 {
		return Manifest{}, errorf("the manifest's %d batches hold no ballots", len(batches))
	}
	return Manifest{Batches: batches, starts: prefixSums(batches)}, nil
}

// Total returns the number of ballots in the manifest.
func (m Manifest) Total() int {
	if len(m.starts) == len(m.Batches)+1 {
		return m.starts[len(m.Batches)]
	}
	total := 0
	for _, b := range m.Batches {
		total += max(b.Ballots, 0)
	}
	return total
}

// Locate returns where the ballot with 0-based index (in manifest order)
// is: the index of its batch in Batches, and its 1-based position in the
// batch. It takes a binary search on a manifest from ReadManifest or
// NewManifest, a scan of the batches otherwise. An index outside the
// manifest gives (-1, 0).
func (m Manifest) Locate(index int) (batch, position int) {
	starts := m.starts
	if len(starts) != len(m.Batches)+1 {
		starts = prefixSums(m.Batches)
	}
	return locate(starts, index)
}

// locate finds index among the batches starting at starts (the last entry
// being the total).
func locate(starts []int, index int) (batch, position int) {
	if index < 0 || index >= starts[len(starts)-1] {
		return -1, 0
	}
	// The last batch starting at or before index (empty batches share a
	// start with the next, and are passed over).
	b := sort.Search(len(starts), func(i int) bool { return starts[i] > index }) - 1
	return b, index - starts[b] + 1
}

// prefixSums returns each batch's first index and, last, the total
// (negative counts taken as zero).
func prefixSums(batches []Batch) []int {
	starts := make([]int, len(batches)+1)
	for i, b := range batches {
		starts[i+1] = starts[i] + max(b.Ballots, 0)
	}
	return starts
}

// WriteCSV writes the manifest as Arlo reads it: the header
// Container,Tabulator,Batch Name,Number of Ballots and a row per batch.
func (m Manifest) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"Container", "Tabulator", "Batch Name", "Number of Ballots"}); err != nil {
		return errorf("write the manifest: %w", err)
	}
	for _, b := range m.Batches {
		if err := cw.Write([]string{b.Container, b.Tabulator, b.Name, strconv.Itoa(b.Ballots)}); err != nil {
			return errorf("write the manifest: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return errorf("write the manifest: %w", err)
	}
	return nil
}
