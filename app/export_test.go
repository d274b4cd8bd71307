package app

import (
	"encoding/json"

	"votedesk/tally"
)

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

// ChunkRows is every row of a chunk's list, as eachChunkRow reads it
// (tests only).
func ChunkRows(list []byte) ([]ImportedBallot, error) {
	var out []ImportedBallot
	err := eachChunkRow(list, func(_ int, r *chunkRow) (bool, error) {
		rk, err := DecodeRankings(string(r.rankings))
		out = append(out, ImportedBallot{SourceID: string(r.id), Rankings: rk, Precinct: string(r.precinct), Batch: string(r.batch), Tabulator: string(r.tabulator)})
		return err == nil, err
	})
	return out, err
}

// ChunkList is the list a chunk of ballots stores (tests only).
func ChunkList(ballots []ImportedBallot) ([]byte, error) {
	if len(ballots) == 0 {
		return []byte("[]"), nil
	}
	rows, ends, err := importedRows(ballots)
	if err != nil {
		return nil, err
	}
	return []byte(chunkItem("P", "S", Election{}, "", "", rows, ends, 0, len(ballots)).Str("ballots")), nil
}

// ChunkRowsJSON reads a chunk's list through encoding/json (tests only).
func ChunkRowsJSON(list []byte) ([]ImportedBallot, error) {
	var out []ImportedBallot
	err := json.Unmarshal(list, &out)
	return out, err
}
