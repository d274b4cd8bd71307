package tally

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// ErrTieNeedsDecision is returned when a tie must be decided by a person
// (tiebreakMode stopCountingAndAsk or previousRoundCountsThenAsk) and no
// Decider was given, as in a command-line count.
var ErrTieNeedsDecision = errors.New("tie needs a decision")

// Tie is a tie that a person must decide.
type Tie struct {
	Pass, Round int
	// SelectingWinner is true when the decision picks a winner, false a loser.
	SelectingWinner bool
	// Tied are the candidates still tied, sorted by name.
	Tied  []int
	Votes Decimal
}

// Decider decides ties that the rules leave to a person. The UI answers with
// the operator's choice; DecideTie returns one of t.Tied, or an error to
// stop the count.
type Decider interface {
	DecideTie(t Tie) (int, error)
}

// tieBreaker resolves ties with RCTab's Tiebreak rules.
type tieBreaker struct {
	names       []string
	mode        TiebreakMode
	permutation []int // candidates in tie-break order (permutation modes)
	random      *JavaRandom
	decider     Decider
	pass        int
}

// breakTie picks one of tied (a winner when selectingWinner, else a loser)
// in the given round, looking back at earlier rounds' tallies when the mode
// says so. It returns the choice and a sentence explaining it.
func (t *tieBreaker) breakTie(selectingWinner bool, tied []int, votes Decimal, round int, history []Round) (int, string, error) {
	sorted := append([]int(nil), tied...)
	sort.SliceStable(sorted, func(i, j int) bool { return JavaLess(t.names[sorted[i]], t.names[sorted[j]]) })
	switch t.mode {
	case StopCountingAndAsk:
		return t.ask(selectingWinner, sorted, votes, round)
	case Random:
		c := t.draw(sorted)
		return c, "The candidate was randomly selected.", nil
	case UseCandidateOrder, UsePermutationInConfig, GeneratePermutation:
		return t.byPermutation(selectingWinner, sorted), fmt.Sprintf("The selected candidate appeared %s in the tie-breaking permutation list.",
			map[bool]string{true: "earliest", false: "latest"}[selectingWinner]), nil
	}
	return t.byPreviousRounds(selectingWinner, sorted, votes, round, history)
}

func (t *tieBreaker) draw(list []int) int {
	i := int(math.Floor(t.random.NextDouble() * float64(len(list))))
	return list[i]
}

func (t *tieBreaker) ask(selectingWinner bool, tied []int, votes Decimal, round int) (int, string, error) {
	tie := Tie{Pass: t.pass, Round: round, SelectingWinner: selectingWinner, Tied: tied, Votes: votes}
	if t.decider == nil {
		return 0, "", errorf("round %d: %w: %s are tied with %s votes each (tiebreakMode %s); choose the candidate who should %s",
			round, ErrTieNeedsDecision, t.list(tied), votes, t.mode, map[bool]string{true: "win", false: "lose"}[selectingWinner])
	}
	c, err := t.decider.DecideTie(tie)
	if err != nil {
		return 0, "", errorf("round %d tie: %w", round, err)
	}
	if !oneOf(c, tied) {
		return 0, "", errorf("round %d tie: decision %d is not one of the tied candidates %s", round, c, t.list(tied))
	}
	return c, "The selected candidate was supplied by the operator.", nil
}

func (t *tieBreaker) byPermutation(selectingWinner bool, tied []int) int {
	order := t.permutation
	if !selectingWinner {
		order = make([]int, len(t.permutation))
		for i, c := range t.permutation {
			order[len(order)-1-i] = c
		}
	}
	for _, c := range order {
		if oneOf(c, tied) {
			return c
		}
	}
	return tied[0]
}

// byPreviousRounds looks back one round at a time for the candidate with the
// most (or fewest) votes, falling back to a random draw or a person. Like
// RCTab it narrows the tie through a Java HashSet each round, and a final
// random draw indexes the list in that set's iteration order.
func (t *tieBreaker) byPreviousRounds(selectingWinner bool, tied []int, votes Decimal, round int, history []Round) (int, string, error) {
	contenders := tied
	for r := round - 1; r > 0; r-- {
		contenders = t.javaSetOrder(contenders)
		best, next := Decimal{}, []int(nil)
		for _, c := range contenders {
			v := tallyOf(history[r-1], c)
			cmp := 0
			if next != nil {
				cmp = v.Cmp(best)
				if !selectingWinner {
					cmp = -cmp
				}
			}
			switch {
			case next == nil || cmp > 0:
				best, next = v, []int{c}
			case cmp == 0:
				next = append(next, c)
			}
		}
		contenders = next
		if len(contenders) == 1 {
			return contenders[0], fmt.Sprintf("%s had the %s votes (%s) in round %d.", t.names[contenders[0]],
				map[bool]string{true: "most", false: "fewest"}[selectingWinner], best, r), nil
		}
	}
	prefix := fmt.Sprintf("Comparing previous round counts still resulted in a tie %s %s, so we fell back to %s.",
		map[bool]string{true: "among", false: "between"}[len(contenders) > 2], t.list(contenders),
		map[bool]TiebreakMode{true: Random, false: StopCountingAndAsk}[t.mode == PreviousRoundCountsThenRandom])
	if t.mode == PreviousRoundCountsThenRandom {
		return t.draw(contenders), prefix + " The candidate was randomly selected.", nil
	}
	c, why, err := t.ask(selectingWinner, contenders, votes, round)
	return c, prefix + " " + why, err
}

// javaSetOrder returns list in the iteration order of new HashSet<>(list).
func (t *tieBreaker) javaSetOrder(list []int) []int {
	keys := make([]string, len(list))
	for i, c := range list {
		keys[i] = t.names[c]
	}
	out := make([]int, len(list))
	for i, j := range JavaHashOrder(keys, JavaCopyCapacity(len(list))) {
		out[i] = list[j]
	}
	return out
}

// list quotes candidate names as RCTab's listToSentenceWithQuotes does.
func (t *tieBreaker) list(cands []int) string {
	q := make([]string, len(cands))
	for i, c := range cands {
		q[i] = fmt.Sprintf("%q", t.names[c])
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	case 2:
		return q[0] + " and " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}

// tallyOf returns candidate c's votes in round r (zero if absent).
func tallyOf(r Round, c int) Decimal {
	i := sort.Search(len(r.Tally), func(i int) bool { return r.Tally[i].Candidate >= c })
	if i < len(r.Tally) && r.Tally[i].Candidate == c {
		return r.Tally[i].Votes
	}
	return Decimal{}
}
