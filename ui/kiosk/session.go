package kiosk

import (
	"slices"

	"votedesk/app"
)

// session is one voter at the kiosk, from check-in to the cast: everything
// the kiosk knows about them. Kiosk.session is nil between voters; wipe
// empties it before it is dropped.
type session struct {
	voter  string
	recast bool
	// ranking holds candidate positions (indexes into Kiosk.candidates),
	// first choice first; a candidate appears at most once (kiosk ballots are
	// strict rankings).
	ranking []int
}

// rankNext makes candidate c the next choice; false if c is already ranked.
func (s *session) rankNext(c int) bool {
	if slices.Contains(s.ranking, c) {
		return false
	}
	s.ranking = append(s.ranking, c)
	return true
}

// rankOf returns the place (0 = first choice) of candidate c, or -1.
func (s *session) rankOf(c int) int { return slices.Index(s.ranking, c) }

// remove drops the choice at place p; later choices move up.
func (s *session) remove(p int) {
	if p >= 0 && p < len(s.ranking) {
		s.ranking = slices.Delete(s.ranking, p, p+1)
	}
}

// swap exchanges the choices at places p and q.
func (s *session) swap(p, q int) {
	if p >= 0 && q >= 0 && p < len(s.ranking) && q < len(s.ranking) {
		s.ranking[p], s.ranking[q] = s.ranking[q], s.ranking[p]
	}
}

// clear removes every choice.
func (s *session) clear() {
	clear(s.ranking)
	s.ranking = s.ranking[:0]
}

// rankings is the ballot to cast: one candidate per rank, from 1.
func (s *session) rankings(cands []app.Candidate) []app.Ranking {
	out := make([]app.Ranking, len(s.ranking))
	for i, c := range s.ranking {
		out[i] = app.Ranking{Candidate: cands[c].Name, Rank: i + 1}
	}
	return out
}

// wipe overwrites what the session holds, so nothing of the voter is left in
// it even while a stale reference to it might exist.
func (s *session) wipe() {
	s.clear()
	s.ranking = nil
	s.voter, s.recast = "", false
}
