package tally

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// letters builds a contest of candidates named A, B, C, ...
func letters(n int) Contest {
	c := Contest{Name: "test"}
	for i := range n {
		c.Candidates = append(c.Candidates, Candidate{Name: string(rune('A' + i))})
	}
	return c
}

// ballots builds a set from specs like "3*A B=C _ D !": an optional count,
// then one rank per field; "=" joins candidates at one rank, "_" skips a
// rank, "!" is an explicit overvote.
func ballots(specs ...string) *BallotSet {
	b := &BallotSet{}
	for _, s := range specs {
		count := 1
		if n, rest, ok := strings.Cut(s, "*"); ok {
			count, _ = strconv.Atoi(n)
			s = rest
		}
		var marks []Mark
		for r, field := range strings.Fields(s) {
			for _, name := range strings.Split(field, "=") {
				switch name {
				case "_":
				case "!":
					marks = append(marks, Mark{Rank: uint16(r + 1), Candidate: Overvote})
				default:
					marks = append(marks, Mark{Rank: uint16(r + 1), Candidate: uint16(name[0] - 'A')})
				}
			}
		}
		b.Add("", uint32(count), marks)
	}
	return b
}

// run counts and fails the test on error.
func run(t *testing.T, c Contest, b *BallotSet, m Method, r Rules, opts ...Option) Result {
	t.Helper()
	res, err := Tabulate(c, b, m, r, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// names renders candidate numbers as letters.
func names(cands []int) string {
	var s []string
	for _, c := range cands {
		s = append(s, string(rune('A'+c)))
	}
	return strings.Join(s, " ")
}

// votesIn returns a candidate's votes in a round as a string.
func votesIn(rd Round, c int) string { return tallyOf(rd, c).String() }

// TestBallotRules checks how one ballot is read under each rule.
func TestBallotRules(t *testing.T) {
	cases := []struct {
		name   string
		rules  func(*Rules)
		ballot string
		// want is the candidate the ballot counts for in round 2, after
		// A is eliminated, or the inactive reason.
		want string
	}{
		{"OvervoteExhaustsImmediately", func(r *Rules) { r.OvervoteRule = ExhaustImmediately }, "A B=C D", "overvote"},
		{"OvervoteSkippedToNextRank", func(r *Rules) { r.OvervoteRule = AlwaysSkipToNextRank }, "A B=C D", "D"},
		{"OvervoteAtLastRankExhaustsChoices", func(r *Rules) { r.OvervoteRule = AlwaysSkipToNextRank }, "A B=C", "exhausted"},
		{"ExplicitOvervoteSkipped", func(r *Rules) { r.OvervoteRule = AlwaysSkipToNextRank }, "A ! D", "D"},
		{"ExplicitOvervoteExhausts", func(r *Rules) { r.OvervoteRule = ExhaustImmediately }, "A ! D", "overvote"},
		{"OvervoteWithOneContinuingCounts", func(r *Rules) { r.OvervoteRule = ExhaustIfMultipleContinuing }, "A A=E D", "E"},
		{"OvervoteWithTwoContinuingExhausts", func(r *Rules) { r.OvervoteRule = ExhaustIfMultipleContinuing }, "A B=C D", "overvote"},
		{"SkippedRankExhausts", func(r *Rules) { r.MaxSkippedRanksAllowed = 0 }, "A _ B", "skipped"},
		{"SkippedRankAllowed", func(r *Rules) { r.MaxSkippedRanksAllowed = 1 }, "A _ B", "B"},
		{"TwoSkippedRanksExhaust", func(r *Rules) { r.MaxSkippedRanksAllowed = 1 }, "A _ _ B", "skipped"},
		{"UnlimitedSkippedRanks", func(r *Rules) { r.MaxSkippedRanksAllowed = Unlimited }, "A _ _ _ B", "B"},
		{"DuplicateExhausts", func(r *Rules) { r.ExhaustOnDuplicateCandidate = true }, "A A B", "repeated"},
		{"DuplicatePassedOver", func(r *Rules) { r.ExhaustOnDuplicateCandidate = false }, "A A B", "B"},
		{"LastChoiceGoneExhausts", nil, "A", "exhausted"},
		{"ExcludedCandidatePassedOver", nil, "A F B", "B"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := letters(6)
			c.Candidates[5].Excluded = true
			r := DefaultRules()
			r.MaxSkippedRanksAllowed = Unlimited
			if tc.rules != nil {
				tc.rules(&r)
			}
			// A has the fewest first choices and goes first; B..E hold on.
			b := ballots(tc.ballot, "3*B", "3*C", "3*D", "3*E")
			res := run(t, c, b, IRV, r, WithAudit())
			var got string
			for _, e := range res.Passes[0].Audit {
				if e.Ballot == 0 && e.Round == 2 {
					got = map[Status]string{Active: string(rune('A' + max(e.Candidate, 0))), Overvoted: "overvote",
						SkippedRankings: "skipped", RepeatedRanking: "repeated", ExhaustedChoices: "exhausted"}[e.Status]
				}
			}
			if got != tc.want {
				t.Errorf("ballot %q in round 2: %s, want %s", tc.ballot, got, tc.want)
			}
		})
	}
}

// TestEliminationRules checks who goes first under each elimination rule.
func TestEliminationRules(t *testing.T) {
	cases := []struct {
		name    string
		contest func(*Contest)
		rules   func(*Rules)
		ballots []string
		want    string // round 1 eliminated
	}{
		{"UndeclaredWriteInsFirst", func(c *Contest) { c.Candidates[3].UndeclaredWriteIn = true },
			nil, []string{"5*A", "4*B", "3*C", "6*D"}, "D"},
		{"FewestVotes", nil, nil, []string{"5*A", "4*B", "3*C", "6*D"}, "C"},
		{"BatchOfHopeless", nil, func(r *Rules) { r.BatchElimination = true }, []string{"9*A", "8*B", "3*C", "2*D"}, "D C"},
		{"BelowMinimumThreshold", nil, func(r *Rules) { r.MinimumVoteThreshold = 5 }, []string{"9*A", "8*B", "3*C", "4*D"}, "C D"},
		{"TieByCandidateOrderDropsLast", nil, nil, []string{"9*A", "8*B", "3*C", "3*D"}, "D"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := letters(4)
			if tc.contest != nil {
				tc.contest(&c)
			}
			r := DefaultRules()
			if tc.rules != nil {
				tc.rules(&r)
			}
			res := run(t, c, ballots(tc.ballots...), IRV, r)
			if got := names(res.Passes[0].Rounds[0].Eliminated); got != tc.want {
				t.Errorf("round 1 eliminated %q, want %q", got, tc.want)
			}
		})
	}
}

// TestUndeclaredWriteInsCannotWin: a write-in majority still loses.
func TestUndeclaredWriteInsCannotWin(t *testing.T) {
	c := letters(3)
	c.Candidates[2].UndeclaredWriteIn = true
	res := run(t, c, ballots("9*C A", "3*A", "2*B"), IRV, DefaultRules())
	if names(res.Winners) != "A" {
		t.Errorf("winner %s, want A", names(res.Winners))
	}
}

// TestTiebreakModes checks each way a tie for last place is broken. Round
// 1 drops D; in round 2 B and C tie at 4 after B had 3 to C's 4 in round 1.
func TestTiebreakModes(t *testing.T) {
	b := ballots("5*A", "3*B", "4*C", "1*D B")
	draw := func(seed int64) string { // the loser a seeded draw picks from [B C]
		return []string{"B", "C"}[int(NewJavaRandom(seed).NextDouble()*2)]
	}
	shuffled := func(seed int64) string { // the later of B and C in the shuffled names
		p := []string{"A", "B", "C", "D"}
		NewJavaRandom(seed).Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] == "B" || p[i] == "C" {
				return p[i]
			}
		}
		return ""
	}
	cases := []struct {
		name    string
		mode    TiebreakMode
		seed    int64
		decider Decider
		want    string // eliminated by the tie-break, or "error"
	}{
		{"CandidateOrderDropsLast", UseCandidateOrder, 0, nil, "C"},
		{"OldNameSameAsCandidateOrder", UsePermutationInConfig, 0, nil, "C"},
		{"PreviousRoundCountsDropFewer", PreviousRoundCountsThenRandom, 1, nil, "B"},
		{"PreviousRoundCountsThenAskDropFewer", PreviousRoundCountsThenAsk, 0, nil, "B"},
		{"RandomSeed1", Random, 1, nil, draw(1)},
		{"RandomSeed7", Random, 7, nil, draw(7)},
		{"PermutationSeed1", GeneratePermutation, 1, nil, shuffled(1)},
		{"PermutationSeed2", GeneratePermutation, 2, nil, shuffled(2)},
		{"AskWithoutDeciderStops", StopCountingAndAsk, 0, nil, "error"},
		{"AskDecider", StopCountingAndAsk, 0, pick(1), "B"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultRules()
			r.TiebreakMode, r.RandomSeed = tc.mode, tc.seed
			res, err := Tabulate(letters(4), b, IRV, r, WithDecider(tc.decider))
			if tc.want == "error" {
				if !errors.Is(err, ErrTieNeedsDecision) {
					t.Fatalf("err = %v, want ErrTieNeedsDecision", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rd := res.Passes[0].Rounds[1]
			if got := names(rd.Eliminated); got != tc.want || names(rd.TieBroken) != tc.want {
				t.Errorf("round 2 eliminated %q (tie-broken %q), want %q", got, names(rd.TieBroken), tc.want)
			}
			again, _ := Tabulate(letters(4), b, IRV, r, WithDecider(tc.decider))
			if !reflect.DeepEqual(res, again) {
				t.Error("the same count gave a different result")
			}
		})
	}
}

type pick int

func (p pick) DecideTie(t Tie) (int, error) { return int(p), nil }

// TestMultiSeat checks STV surplus transfer against a hand count.
func TestMultiSeat(t *testing.T) {
	r := DefaultRules()
	r.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
	r.NumberOfWinners = 2
	// 12 ballots, threshold floor(12/3)+1 = 5. A has 8: surplus 3, fraction
	// 3/8 = 0.375, so each A ballot moves on worth 0.3750.
	res := run(t, letters(3), ballots("8*A B", "3*C", "1*B"), STV, r)
	rounds := res.Passes[0].Rounds
	if got := rounds[0].Threshold.String(); got != "5" {
		t.Errorf("threshold %s, want 5", got)
	}
	if got := votesIn(rounds[1], 1); got != "4.0000" {
		t.Errorf("B after A's surplus: %s, want 4.0000", got)
	}
	if got := names(res.Winners); got != "A B" {
		t.Errorf("winners %s, want A B", got)
	}
}

// TestContinueUntilTwo keeps counting after a majority winner.
func TestContinueUntilTwo(t *testing.T) {
	r := DefaultRules()
	r.ContinueUntilTwoCandidatesRemain = true
	res := run(t, letters(4), ballots("7*A", "3*B", "2*C", "1*D"), IRV, r)
	rounds := res.Passes[0].Rounds
	if len(rounds) != 4 || names(rounds[0].Elected) != "A" || len(rounds[len(rounds)-1].Tally) != 2 {
		t.Errorf("%d rounds, elected %v, last tally %v", len(rounds), rounds[0].Elected, rounds[len(rounds)-1].Tally)
	}
}

// TestMultiPassIRV elects one distinct winner per pass.
func TestMultiPassIRV(t *testing.T) {
	r := DefaultRules()
	r.WinnerElectionMode = MultiPassIRV
	r.NumberOfWinners = 2
	res := run(t, letters(3), ballots("5*A B", "4*B", "3*C A"), IRV, r)
	if len(res.Passes) != 2 || names(res.Winners) != "A B" {
		t.Errorf("%d passes, winners %s; want 2 passes, A B", len(res.Passes), names(res.Winners))
	}
}

// TestStopEarly stops after the given round.
func TestStopEarly(t *testing.T) {
	r := DefaultRules()
	r.StopTabulationEarlyAfterRound = 1
	res := run(t, letters(3), ballots("4*A", "3*B", "2*C"), IRV, r)
	if n := len(res.Passes[0].Rounds); n != 1 || len(res.Winners) != 0 {
		t.Errorf("%d rounds, winners %v; want 1 round, none", n, res.Winners)
	}
}

// TestThresholds checks the quota variants.
func TestThresholds(t *testing.T) {
	cases := []struct {
		name  string
		rules func(*Rules)
		want  string
	}{
		{"Droop", nil, "5"},
		{"Hare", func(r *Rules) { r.HareQuota = true }, "7"},
		{"NonInteger", func(r *Rules) { r.NonIntegerWinningThreshold = true }, "4.3334"},
		{"MinimumRaises", func(r *Rules) { r.MinimumVoteThreshold, r.StopTabulationEarlyAfterRound = 6, 1 }, "6"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultRules()
			r.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
			r.NumberOfWinners = 2
			if tc.rules != nil {
				tc.rules(&r)
			}
			res := run(t, letters(3), ballots("7*A", "3*B", "3*C"), STV, r)
			if got := res.Passes[0].Rounds[0].Threshold.String(); got != tc.want {
				t.Errorf("threshold %s, want %s", got, tc.want)
			}
		})
	}
}

// TestBadInput refuses ballots the count cannot use, naming the ballot.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name    string
		ballots *BallotSet
		rules   func(*Rules)
		want    string
	}{
		{"ErrUnknownCandidate", &BallotSet{Marks: []Mark{{1, 9}}, Ends: []uint32{1}}, nil, "candidate 9 does not exist"},
		{"ErrRankZero", &BallotSet{Marks: []Mark{{0, 1}}, Ends: []uint32{1}}, nil, "rank 0"},
		{"ErrUnsorted", &BallotSet{Marks: []Mark{{2, 1}, {1, 0}}, Ends: []uint32{2}}, nil, "not sorted"},
		{"ErrBadEnds", &BallotSet{Marks: []Mark{{1, 1}}, Ends: []uint32{5}}, nil, "outside"},
		{"ErrBeyondMaxRankings", ballots("A B C"), func(r *Rules) { r.MaxRankingsAllowed = 2 }, "beyond maxRankingsAllowed"},
		{"ErrOvervoteLabelRule", ballots("!"), func(r *Rules) { r.OvervoteRule = ExhaustIfMultipleContinuing }, "explicit overvote"},
		{"ErrOvervoteLabelWithCandidate", ballots("!=A"), nil, "explicit overvote label and candidates"},
		{"ErrRules", ballots("A"), func(r *Rules) { r.NumberOfWinners = 0 }, "numberOfWinners"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultRules()
			if tc.rules != nil {
				tc.rules(&r)
			}
			_, err := Tabulate(letters(3), tc.ballots, IRV, r)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestGroupsAddUp: the groups' tallies sum to the whole count's.
func TestGroupsAddUp(t *testing.T) {
	b := ballots("3*A B", "2*B C", "2*C A", "1*C B", "1*B")
	g := Grouping{Name: "Precinct", Names: []string{"p1", "p2"}, Of: []uint32{0, 1, 0, 1, 1}}
	res := run(t, letters(3), b, IRV, DefaultRules(), WithGroups(g))
	p := res.Passes[0]
	for i, rd := range p.Rounds {
		for _, v := range rd.Tally {
			sum := tallyOf(p.Groups[0].Rounds[i], v.Candidate).Add(tallyOf(p.Groups[1].Rounds[i], v.Candidate))
			if sum.Cmp(v.Votes) != 0 {
				t.Errorf("round %d candidate %d: groups sum %s, count %s", i+1, v.Candidate, sum, v.Votes)
			}
		}
	}
}

// TestParallelSameAsSequential counts a set big enough to be split between
// goroutines and checks it against the same ballots counted in pieces
// small enough not to be, merged by weight.
func TestParallelSameAsSequential(t *testing.T) {
	big := benchBallots(parallelFrom*3, 6)
	c := benchContest(6)
	r := DefaultRules()
	whole := run(t, c, big, IRV, r)
	again := run(t, c, big, IRV, r)
	if !reflect.DeepEqual(whole, again) {
		t.Fatal("two counts of the same ballots differ")
	}
	// The same ballots aggregated by ranking: far fewer records, counted
	// without splitting.
	agg := &BallotSet{}
	index := map[string]int{}
	for i := range big.Len() {
		marks, _ := big.Ballot(i)
		key := ""
		for _, m := range marks {
			key += strconv.Itoa(int(m.Rank)) + ":" + strconv.Itoa(int(m.Candidate)) + " "
		}
		if j, ok := index[key]; ok {
			agg.Counts[j]++
			continue
		}
		index[key] = agg.Len()
		agg.Add("", 2, marks)
		agg.Counts[agg.Len()-1] = 1
	}
	small := run(t, c, agg, IRV, r)
	for i, rd := range whole.Passes[0].Rounds {
		other := small.Passes[0].Rounds[i]
		if !reflect.DeepEqual(rd.Tally, other.Tally) || !reflect.DeepEqual(rd.Inactive, other.Inactive) {
			t.Errorf("round %d differs between split and aggregated counts", i+1)
		}
	}
}

// TestRuleOptionsHaveWords: every option of every choice rule is said in
// words of its own (a new option without them would show its config name
// twice).
func TestRuleOptionsHaveWords(t *testing.T) {
	seen := map[string]string{}
	check := func(name, words string) {
		t.Helper()
		if words == name || words == "" {
			t.Errorf("%s has no words", name)
		}
		if other, ok := seen[words]; ok {
			t.Errorf("%s and %s are said alike: %q", name, other, words)
		}
		seen[words] = name
	}
	for _, m := range WinnerElectionModes {
		check(string(m), m.Words())
	}
	for _, r := range OvervoteRules {
		check(string(r), r.Words())
	}
	for _, m := range TiebreakModes {
		check(string(m), m.Words())
	}
}
