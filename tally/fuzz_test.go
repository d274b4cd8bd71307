package tally

import (
	"errors"
	"reflect"
	"testing"
)

// fuzzCount decodes fuzz bytes into a contest, ballots and rules: the first
// bytes choose the candidate count, the rules and the method, the rest are
// marks (rank step and candidate), with 0xFF ending a ballot.
func fuzzCount(data []byte) (Contest, *BallotSet, Rules, Method) {
	at := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	n := 2 + int(at(0)%6)
	c := letters(n)
	if at(1)&1 != 0 {
		c.Candidates[n-1].UndeclaredWriteIn = true
	}
	if at(1)&2 != 0 && n > 2 {
		c.Candidates[0].Excluded = true
	}
	r := DefaultRules()
	r.OvervoteRule = OvervoteRules[int(at(2))%len(OvervoteRules)]
	r.MaxSkippedRanksAllowed = int(at(3)%4) - 1
	r.ExhaustOnDuplicateCandidate = at(4)&1 != 0
	r.BatchElimination = at(4)&2 != 0
	r.ContinueUntilTwoCandidatesRemain = at(4)&4 != 0
	r.TiebreakMode = []TiebreakMode{UseCandidateOrder, Random, PreviousRoundCountsThenRandom, GeneratePermutation}[at(5)%4]
	r.RandomSeed = int64(at(6))
	r.MaxRankingsAllowed = MaxRankingsAll
	m := IRV
	if seats := int(at(7) % 4); seats > 1 && seats < n {
		m = STV
		r.NumberOfWinners = seats
		r.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
		if at(7)&4 != 0 {
			r.WinnerElectionMode = MultiWinnerAllowOnlyOneWinnerPerRound
		}
		r.NonIntegerWinningThreshold = at(7)&8 != 0
		r.BatchElimination, r.ContinueUntilTwoCandidatesRemain = false, false
	}
	if r.OvervoteRule == ExhaustIfMultipleContinuing {
		r.OvervoteRule = ExhaustImmediately // the overvote label needs another rule
	}
	b := &BallotSet{}
	var marks []Mark
	rank := uint16(0)
	for i := 8; i < len(data); i += 2 {
		if data[i] == 0xFF {
			b.Add("", 1+uint32(at(i+1)%3), marks)
			marks, rank = marks[:0], 0
			continue
		}
		rank += uint16(data[i] % 3) // 0 repeats the rank (an overvote), 2 skips one
		if rank == 0 {
			rank = 1
		}
		if int(rank) > c.DeclaredCount() {
			continue
		}
		cand := uint16(at(i+1)) % uint16(n+1)
		if int(cand) == n {
			cand = Overvote
		}
		marks = append(marks, Mark{Rank: rank, Candidate: cand})
	}
	b.Add("", 1, marks)
	return c, b, r, m
}

// FuzzTabulate checks the count's invariants on any ballots and rules: no
// panic; every round accounts for every ballot (candidates' tallies,
// inactive ballots, final-round surplus and residual surplus add up to the
// ballots cast); winners reach the threshold unless they win by being the
// last candidates standing; a count repeated gives the same result; and
// the count with cursors gives what the count from the marks gives, audit
// trail and all.
func FuzzTabulate(f *testing.F) {
	f.Add([]byte{3, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0xFF, 0, 1, 2, 1, 0, 0xFF, 1, 1, 0, 1, 2, 1, 2})
	f.Add([]byte{4, 1, 2, 3, 7, 1, 9, 2, 1, 0, 0, 0, 1, 3, 0xFF, 2, 1, 4, 1, 1, 0xFF, 0, 1, 2, 0, 3, 1, 5})
	f.Add([]byte{5, 2, 1, 0, 2, 2, 3, 11, 1, 2, 1, 3, 0xFF, 1, 1, 2, 0, 0xFF, 0, 1, 4, 1, 0, 0xFF, 1, 3, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, b, r, m := fuzzCount(data)
		res, err := Tabulate(c, b, m, r)
		if err != nil {
			return // refused input or an abandoned count is fine; a panic is not
		}
		total := DecimalInt(int64(b.Total()))
		for _, p := range res.Passes {
			for _, rd := range p.Rounds {
				sum := rd.Inactive.Total().Add(rd.Inactive.FinalRoundSurplus).Add(rd.ResidualSurplus)
				for _, v := range rd.Tally {
					sum = sum.Add(v.Votes)
				}
				if sum.Cmp(total) != 0 {
					t.Fatalf("round %d accounts for %s of %s ballots", rd.Number, sum, total)
				}
				for _, w := range rd.Elected {
					lastStanding := len(rd.Tally) <= r.NumberOfWinners || (r.NumberOfWinners == 1 && len(rd.Tally) == 2)
					if tallyOf(rd, w).Cmp(rd.Threshold) < 0 && !lastStanding {
						t.Fatalf("round %d: %d elected with %s, under the threshold %s", rd.Number, w, tallyOf(rd, w), rd.Threshold)
					}
				}
			}
		}
		if len(res.Winners) > max(r.NumberOfWinners, 1) {
			t.Fatalf("%d winners for %d seats", len(res.Winners), r.NumberOfWinners)
		}
		again, err := Tabulate(c, b, m, r)
		if err != nil || !reflect.DeepEqual(res, again) {
			t.Fatal("a second count of the same ballots differs")
		}
		with, err := Tabulate(c, b, m, r, WithAudit())
		if err != nil {
			t.Fatal(err)
		}
		without, err := Tabulate(c, b, m, r, WithAudit(), withoutCursors())
		if err != nil || !reflect.DeepEqual(with, without) {
			t.Fatalf("the count with cursors differs from the count from the marks (%v)", err)
		}
	})
}

// FuzzPairwise checks that every pairwise method runs on any ballots and
// that no pair is preferred by more ballots than were cast; ballots that
// give nobody a vote get ErrNoVotes (a plain answer, not a coin flip), and
// only those.
func FuzzPairwise(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0xFF, 0, 1, 2, 1, 0, 0xFF, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, b, _, _ := fuzzCount(data)
		for _, m := range []Method{Schulze, RankedPairs, RankedPairsMargin, Copeland, Minimax, MinimaxMargin,
			MinimaxOpposition, Kemeny, Borda, Dowdall, Plurality} {
			res, err := Tabulate(c, b, m, Rules{})
			if errors.Is(err, ErrNoVotes) && !marksCandidate(c, b) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			placed := 0
			for _, p := range res.Places {
				placed += len(p.Candidates)
			}
			if placed != len(c.Candidates)-excludedCount(c) {
				t.Fatalf("%s placed %d candidates", m, placed)
			}
			if p := res.Pairwise; p != nil {
				for i := range p.Preferences {
					for j := range p.Preferences {
						if p.Preferences[i][j]+p.Preferences[j][i] > int64(b.Total()) || p.Preferences[i][j] < 0 {
							t.Fatalf("%s: P[%d][%d]=%d, P[%d][%d]=%d of %d ballots", m, i, j, p.Preferences[i][j], j, i, p.Preferences[j][i], b.Total())
						}
					}
				}
			}
		}
	})
}

func excludedCount(c Contest) int {
	n := 0
	for _, cand := range c.Candidates {
		if cand.Excluded {
			n++
		}
	}
	return n
}
