package app

import (
	"cmp"
	"slices"
)

// sortStrings sorts any string-like slice in place.
func sortStrings[T ~string](s []T) { slices.SortFunc(s, func(a, b T) int { return cmp.Compare(a, b) }) }
