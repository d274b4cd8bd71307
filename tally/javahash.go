package tally

import (
	"sort"
	"unicode/utf16"
)

// RCTab keeps candidates in Java HashMaps and HashSets, and in two places
// their iteration order shows: which candidate a random tie-break draw lands
// on after previous-round counts narrow a tie, and the order RCTab lists
// candidates elected or eliminated in the same round. These helpers
// reproduce java.util.HashMap's iteration order so those match RCTab too.

// JavaStringHash returns Java's String.hashCode of s (over UTF-16 units).
func JavaStringHash(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// javaBucket is the bucket HashMap puts key hash h in, for a table of the
// given (power of two) capacity.
func javaBucket(h int32, capacity int) int {
	spread := uint32(h) ^ (uint32(h) >> 16)
	return int(spread & uint32(capacity-1))
}

// JavaHashOrder returns the order in which a java.util.HashMap of the given
// capacity iterates keys inserted in the order given: by bucket, and by
// insertion within a bucket. The result holds indexes into keys.
func JavaHashOrder(keys []string, capacity int) []int {
	idx := make([]int, len(keys))
	buckets := make([]int, len(keys))
	for i, k := range keys {
		idx[i] = i
		buckets[i] = javaBucket(JavaStringHash(k), capacity)
	}
	sort.SliceStable(idx, func(a, b int) bool { return buckets[idx[a]] < buckets[idx[b]] })
	return idx
}

// JavaGrownCapacity is the table size of a HashMap created empty with the
// default capacity and grown by puts to n entries.
func JavaGrownCapacity(n int) int {
	capacity := 16
	for n > capacity*3/4 {
		capacity *= 2
	}
	return capacity
}

// JavaCopyCapacity is the table size of a HashSet built from a collection of
// n elements (new HashSet<>(collection)).
func JavaCopyCapacity(n int) int {
	want := (max(n, 12)*4 + 2) / 3 // ceil(max(n, 12) / 0.75)
	capacity := 1
	for capacity < want {
		capacity *= 2
	}
	return capacity
}

// JavaLess orders strings as Java's String.compareTo does (by UTF-16 unit).
func JavaLess(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// JavaSortStrings sorts names as Java's Collections.sort does.
func JavaSortStrings(names []string) {
	sort.SliceStable(names, func(i, j int) bool { return JavaLess(names[i], names[j]) })
}
