package app

import "hash/maphash"

// IDSet finds an id met twice among many (the source ids of an import, a
// million of them on a state's election night). It keeps each id as a
// 64-bit hash with where it was met (P), not the id's text: a map of
// integers is a fraction of the size of a map of strings, and each lookup
// touches one slot instead of the slot and the string it points to. When
// two ids share a hash, the text of the one met first (text) decides; the
// rare id whose hash an other id already holds is kept whole (more).
type IDSet[P any] struct {
	seed  maphash.Seed
	mask  uint64 // the bits of a hash kept: all (a test keeps a few, to make ids collide)
	first map[uint64]P
	more  map[string]P
	text  func(P) string
}

// NewIDSet returns an empty set sized for about n ids; text returns the id
// met at a place the set holds.
func NewIDSet[P any](n int, text func(P) string) *IDSet[P] {
	return &IDSet[P]{seed: maphash.MakeSeed(), mask: ^uint64(0), first: make(map[uint64]P, n), text: text}
}

// Add records id as met at p, unless it was met before: then it returns
// where, and true.
func (s *IDSet[P]) Add(id string, p P) (P, bool) {
	h := maphash.String(s.seed, id) & s.mask
	if q, ok := s.first[h]; ok {
		return s.other(id, p, q)
	}
	s.first[h] = p
	return p, false
}

// other is Add for an id whose hash the set holds at q.
func (s *IDSet[P]) other(id string, p, q P) (P, bool) {
	if s.text(q) == id {
		return q, true
	}
	if r, ok := s.more[id]; ok {
		return r, true
	}
	if s.more == nil {
		s.more = map[string]P{}
	}
	s.more[id] = p
	return p, false
}

// Find returns where id was met, if it was.
func (s *IDSet[P]) Find(id []byte) (P, bool) {
	q, ok := s.first[maphash.Bytes(s.seed, id)&s.mask]
	if !ok {
		return q, false
	}
	if s.text(q) == string(id) {
		return q, true
	}
	r, ok := s.more[string(id)]
	return r, ok
}

// Len is how many different ids the set holds.
func (s *IDSet[P]) Len() int { return len(s.first) + len(s.more) }
