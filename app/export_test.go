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
