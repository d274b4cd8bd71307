package app

import "votedesk/tally"

// CountCacheKey is the cache key of an election's count (tests only).
func CountCacheKey(id string) string { return countCacheKey(id) }

// RewriteCountCache decodes a cached count, lets f change its marks, and
// lays it out again, stamp and all (tests only: a cache tampered with).
func RewriteCountCache(b []byte, f func(marks []tally.Mark)) ([]byte, error) {
	st, c, err := decodeCountCache(b, true)
	if err != nil {
		return nil, err
	}
	f(c.marks)
	return encodeCountCache(st, c), nil
}

// StoreImportsAs makes new imports of the given event format (FormatSigned:
// an item a ballot, as earlier versions stored them; FormatChunked: chunks
// of at most chunk bytes) until the test ends (tests only).
func StoreImportsAs(t interface{ Cleanup(func()) }, format, chunk int) {
	f, c := importFormat, chunkBytes
	importFormat, chunkBytes = format, chunk
	t.Cleanup(func() { importFormat, chunkBytes = f, c })
}

// ChunkOf is the chunk of the given ballots (tests only).
func ChunkOf(ballots []ImportedBallot) (Item, error) {
	c, err := columnsOf(ballots)
	if err != nil {
		return nil, err
	}
	return c.item("ELECTION#E", importedSK("dev-0000000001", 0), Election{Name: "E"}, SourceCVR, "", 0, len(ballots)), nil
}

// ChunkBallots reads a chunk's ballots as the stored election does
// (tests only).
func ChunkBallots(it Item) ([]Ballot, error) { return chunkBallots(it) }
