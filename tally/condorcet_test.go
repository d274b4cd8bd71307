package tally

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// vector is one block of ballots from the shared Condorcet test vectors.
type vector struct {
	candidates []string
	implicit   bool
	ballots    []string // "COUNT A>B=C"
}

var (
	ballotLine = regexp.MustCompile(`^(\d+) (\S+)$`)
	candsIn    = regexp.MustCompile(`candidates: ([^(]+?)\s*$`)
)

// readVectors parses a Condorcet vector file into blocks keyed by their
// "## " heading (up to two spaces or a parenthesis), "" for a file
// without headings. Ballots after a "# then add" comment are left out.
func readVectors(t *testing.T, file string) map[string]*vector {
	t.Helper()
	f, err := os.Open(filepath.Join(testdata(t), "condorcet", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*vector{}
	cur := &vector{implicit: true}
	out[""] = cur
	stopped := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "## "):
			head := strings.TrimPrefix(line, "## ")
			name := head
			if i := strings.IndexAny(head, "("); i >= 0 {
				name = head[:i]
			}
			if i := strings.Index(name, "  "); i >= 0 {
				name = name[:i]
			}
			cur = &vector{implicit: !strings.Contains(head, "implicit_ranking: FALSE")}
			out[strings.TrimSpace(name)] = cur
			stopped = false
			if m := candsIn.FindStringSubmatch(head); m != nil {
				cur.candidates = strings.Fields(m[1])
			}
		case strings.HasPrefix(line, "# then add"):
			stopped = true
		case strings.HasPrefix(line, "candidates:"):
			cur.candidates = strings.Fields(strings.TrimPrefix(line, "candidates:"))
		case strings.HasPrefix(line, "implicit_ranking:"):
			cur.implicit = strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(line, "implicit_ranking:")), "true")
		case ballotLine.MatchString(line) && !stopped:
			cur.ballots = append(cur.ballots, line)
		}
	}
	return out
}

// count builds the contest and ballots of a vector, plus extra ballots.
func (v *vector) count(t *testing.T, m Method, extra ...string) (Contest, Result) {
	t.Helper()
	var c Contest
	index := map[string]uint16{}
	for _, n := range v.candidates {
		index[n] = uint16(len(c.Candidates))
		c.Candidates = append(c.Candidates, Candidate{Name: n})
	}
	b := &BallotSet{}
	for _, line := range append(append([]string(nil), v.ballots...), extra...) {
		parts := ballotLine.FindStringSubmatch(line)
		n, _ := strconv.Atoi(parts[1])
		var marks []Mark
		for r, group := range strings.Split(parts[2], ">") {
			for _, name := range strings.Split(group, "=") {
				x, ok := index[name]
				if !ok {
					t.Fatalf("ballot %q names unknown candidate %q", line, name)
				}
				marks = append(marks, Mark{Rank: uint16(r + 1), Candidate: x})
			}
		}
		if err := b.Add("", uint32(n), marks); err != nil {
			t.Fatal(err)
		}
	}
	var opts []Option
	if !v.implicit {
		opts = append(opts, WithExplicitRanking())
	}
	res, err := Tabulate(c, b, m, DefaultRules(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c, res
}

// ranking renders places as "A > B = C > D".
func ranking(c Contest, places []Place) string {
	var parts []string
	for _, p := range places {
		var names []string
		for _, x := range p.Candidates {
			names = append(names, c.Candidates[x].Name)
		}
		parts = append(parts, strings.Join(names, " = "))
	}
	return strings.Join(parts, " > ")
}

// TestCondorcetVectors checks every method against the rankings and
// winners the Condorcet library asserts for the shared vectors.
func TestCondorcetVectors(t *testing.T) {
	cases := []struct {
		name, file, block string
		method            Method
		extra             []string
		// want is the full ranking, or "winner: X" for the winner(s) only,
		// or "not winner: X".
		want string
	}{
		{"WikipediaSchulze", "01_schulze_wikipedia_45_voters.txt", "", Schulze, nil, "E > A > C > B > D"},
		{"WikipediaRankedPairsWinning", "01_schulze_wikipedia_45_voters.txt", "", RankedPairs, nil, "A > C > E > B > D"},
		{"WikipediaRankedPairsMargin", "01_schulze_wikipedia_45_voters.txt", "", RankedPairsMargin, nil, "A > C > E > B > D"},
		{"TennesseeKemeny", "02_tennessee_capital.txt", "", Kemeny, nil, "Nashville > Chattanooga > Knoxville > Memphis"},
		{"TennesseeCopeland", "02_tennessee_capital.txt", "", Copeland, nil, "Nashville > Chattanooga > Knoxville > Memphis"},
		{"TennesseeRankedPairsWinning", "02_tennessee_capital.txt", "", RankedPairs, nil, "Nashville > Chattanooga > Knoxville > Memphis"},
		{"TennesseeRankedPairsMargin", "02_tennessee_capital.txt", "", RankedPairsMargin, nil, "Nashville > Chattanooga > Knoxville > Memphis"},
		{"TennesseeMinimaxWinning", "02_tennessee_capital.txt", "", Minimax, nil, "Nashville > Memphis > Chattanooga > Knoxville"},
		{"TennesseeMinimaxMargin", "02_tennessee_capital.txt", "", MinimaxMargin, nil, "Nashville > Memphis > Chattanooga > Knoxville"},
		{"TennesseeMinimaxOpposition", "02_tennessee_capital.txt", "", MinimaxOpposition, nil, "Nashville > Memphis > Chattanooga > Knoxville"},
		{"TennesseeSchulze", "02_tennessee_capital.txt", "", Schulze, nil, "winner: Nashville"},
		{"LeGrandSchulze", "03_legrand_rbvote_921.txt", "", Schulze, nil, "Abby > Brad > Erin > Dave > Cora"},
		{"LeGrandRankedPairsWinning", "03_legrand_rbvote_921.txt", "", RankedPairs, nil, "Brad > Abby > Erin > Dave > Cora"},
		{"LeGrandRankedPairsMargin", "03_legrand_rbvote_921.txt", "", RankedPairsMargin, nil, "Brad > Abby > Erin > Dave > Cora"},
		{"LeGrandCopeland", "03_legrand_rbvote_921.txt", "", Copeland, nil, "Abby = Brad > Dave = Erin > Cora"},
		{"LeGrandMinimax", "03_legrand_rbvote_921.txt", "", Minimax, nil, "winner: Cora"},
		{"SchulzeExample1", "04_schulze_paper_examples.txt", "example 1", Schulze, nil, "winner: D"},
		{"SchulzeExample2", "04_schulze_paper_examples.txt", "example 2", Schulze, nil, "winner: C"},
		{"SchulzeExample4Tie", "04_schulze_paper_examples.txt", "example 4", Schulze, nil, "B = D > A = C"},
		{"SchulzeExample5", "04_schulze_paper_examples.txt", "example 5", Schulze, nil, "winner: D"},
		{"SchulzeExample6Tie", "04_schulze_paper_examples.txt", "example 6", Schulze, nil, "winner: A = C"},
		{"SchulzeExample7", "04_schulze_paper_examples.txt", "example 7", Schulze, nil, "winner: A"},
		{"SchulzeExample7Added", "04_schulze_paper_examples.txt", "example 7", Schulze, []string{"2 A>E>F>C>B"}, "winner: D"},
		{"SchulzeExample8Situation1", "04_schulze_paper_examples.txt", "example 8 situation 1", Schulze, nil, "winner: A"},
		{"SchulzeExample8Situation2", "04_schulze_paper_examples.txt", "example 8 situation 2", Schulze, nil, "winner: B"},
		{"SchulzeExample9Situation1", "04_schulze_paper_examples.txt", "example 9 situation 1", Schulze, nil, "winner: A"},
		{"SchulzeExample9Situation2", "04_schulze_paper_examples.txt", "example 9 situation 2", Schulze, nil, "winner: B"},
		{"SchulzeExample10Winning", "04_schulze_paper_examples.txt", "example 10", Schulze, nil, "winner: D"},
		{"SchulzeExample11", "04_schulze_paper_examples.txt", "example 11", Schulze, nil, "winner: B"},
		{"SchulzeExample12", "04_schulze_paper_examples.txt", "example 12", Schulze, nil, "winner: E"},
		{"SchulzeExample13Tie", "04_schulze_paper_examples.txt", "example 13", Schulze, nil, "A = B > C"},
		{"RankedPairsImplicitNotA", "05_ranked_pairs_examples.txt", "result 4", RankedPairs, nil, "not winner: A"},
		{"RankedPairs5Winning", "05_ranked_pairs_examples.txt", "result 5", RankedPairs, nil, "A > B > C"},
		{"RankedPairs5Margin", "05_ranked_pairs_examples.txt", "result 5", RankedPairsMargin, nil, "A > B > C"},
		{"RankedPairs6Winning", "05_ranked_pairs_examples.txt", "result 6", RankedPairs, nil, "A > B > C"},
		{"RankedPairs6Margin", "05_ranked_pairs_examples.txt", "result 6", RankedPairsMargin, nil, "A > B > C"},
		{"RankedPairs7TieWinning", "05_ranked_pairs_examples.txt", "result 7", RankedPairs, nil, "A = B > C"},
		{"RankedPairs7TieMargin", "05_ranked_pairs_examples.txt", "result 7", RankedPairsMargin, nil, "A = B > C"},
		{"RankedPairs8Winning", "05_ranked_pairs_examples.txt", "result 8", RankedPairs, nil, "B > A > D > C"},
		{"RankedPairs8Margin", "05_ranked_pairs_examples.txt", "result 8", RankedPairsMargin, nil, "B > A > D > C"},
		{"RankedPairsClonesWinning", "05_ranked_pairs_examples.txt", "result 10", RankedPairs, nil, "v > w > x > y > z"},
		{"RankedPairsClonesMargin", "05_ranked_pairs_examples.txt", "result 10", RankedPairsMargin, nil, "v > w > x > y > z"},
		{"MinimaxWinning", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 2", Minimax, nil, "A > C > B"},
		{"MinimaxMargin", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 2", MinimaxMargin, nil, "A > C > B"},
		{"MinimaxOpposition", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 2", MinimaxOpposition, nil, "C > A > B"},
		{"MinimaxCondorcetLoser", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 4", Minimax, nil, "winner: L"},
		{"MinimaxExplicitWinning", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 5", Minimax, nil, "winner: A"},
		{"MinimaxExplicitMargin", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 5", MinimaxMargin, nil, "winner: B"},
		{"MinimaxExplicitOpposition", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 5", MinimaxOpposition, nil, "winner: D"},
		{"KemenyPairwiseBallots", "06_minimax_kemeny_copeland_irv.txt", "Kemeny-Young result2", Kemeny, nil, "Elliot > Roland > Meredith > Selden"},
		{"KemenyConflictTies", "06_minimax_kemeny_copeland_irv.txt", "Kemeny-Young conflicts", Kemeny, nil, "A = B = C"},
		{"KemenyConflictResolved", "06_minimax_kemeny_copeland_irv.txt", "Kemeny-Young conflicts", Kemeny, []string{"1 A>B>C"}, "winner: A"},
		{"CopelandNoCondorcetWinner", "06_minimax_kemeny_copeland_irv.txt", "Copeland result 2", Copeland, nil, "A > B = C = E > D"},
		{"IRVWikipedia", "06_minimax_kemeny_copeland_irv.txt", "IRV result 2", IRV, nil, "sue > bob > bill"},
		{"IRVThreeWayTieWinner", "06_minimax_kemeny_copeland_irv.txt", "IRV result 3", IRV, nil, "winner: bob"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := readVectors(t, tc.file)[tc.block]
			if v == nil || len(v.ballots) == 0 {
				t.Fatalf("block %q of %s not found", tc.block, tc.file)
			}
			c, res := v.count(t, tc.method, tc.extra...)
			got := ranking(c, res.Places)
			switch {
			case strings.HasPrefix(tc.want, "winner: "):
				if w := ranking(c, res.Places[:1]); w != strings.TrimPrefix(tc.want, "winner: ") {
					t.Errorf("winner %s, want %s (ranking %s)", w, strings.TrimPrefix(tc.want, "winner: "), got)
				}
			case strings.HasPrefix(tc.want, "not winner: "):
				if w := ranking(c, res.Places[:1]); w == strings.TrimPrefix(tc.want, "not winner: ") {
					t.Errorf("winner is %s (ranking %s)", w, got)
				}
			case got != tc.want:
				t.Errorf("ranking %s, want %s", got, tc.want)
			}
		})
	}
}

// TestCondorcetScores checks the scores the Condorcet library reports.
func TestCondorcetScores(t *testing.T) {
	cases := []struct {
		name, file, block string
		method            Method
		want              string // "Name score ..." in candidate order
	}{
		{"TennesseeCopeland", "02_tennessee_capital.txt", "", Copeland, "Memphis -3 Nashville 3 Knoxville -1 Chattanooga 1"},
		{"TennesseeMinimaxWinning", "02_tennessee_capital.txt", "", Minimax, "Memphis 58 Nashville 0 Knoxville 83 Chattanooga 68"},
		{"TennesseeMinimaxMargin", "02_tennessee_capital.txt", "", MinimaxMargin, "Memphis 16 Nashville -16 Knoxville 66 Chattanooga 36"},
		{"TennesseeMinimaxOpposition", "02_tennessee_capital.txt", "", MinimaxOpposition, "Memphis 58 Nashville 42 Knoxville 83 Chattanooga 68"},
		{"MinimaxWinning", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 2", Minimax, "A 0 B 94 C 47"},
		{"MinimaxMargin", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 2", MinimaxMargin, "A -2 B 88 C 4"},
		{"MinimaxOpposition", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 2", MinimaxOpposition, "A 49 B 94 C 47"},
		{"MinimaxExplicitWinning", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 5", Minimax, "A 35 B 50 C 45 D 36"},
		{"MinimaxExplicitMargin", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 5", MinimaxMargin, "A 5 B 1 C 2 D 3"},
		{"MinimaxExplicitOpposition", "06_minimax_kemeny_copeland_irv.txt", "Minimax result 5", MinimaxOpposition, "A 43 B 50 C 49 D 36"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, res := readVectors(t, tc.file)[tc.block].count(t, tc.method)
			var parts []string
			for i, cand := range c.Candidates {
				parts = append(parts, cand.Name+" "+res.Scores[i].String())
			}
			if got := strings.Join(parts, " "); got != tc.want {
				t.Errorf("scores %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("TennesseeKemenyBestScore", func(t *testing.T) {
		_, res := readVectors(t, "02_tennessee_capital.txt")[""].count(t, Kemeny)
		if res.Pairwise.BestScore != 393 {
			t.Errorf("best score %d, want 393", res.Pairwise.BestScore)
		}
	})
	t.Run("TennesseeIRVRounds", func(t *testing.T) {
		v := &vector{candidates: []string{"A", "B", "C", "D"}, implicit: true,
			ballots: []string{"42 A>B>C>D", "26 B>C>D>A", "15 C>D>B>A", "17 D>C>B>A"}}
		c, res := v.count(t, IRV)
		var rounds []string
		for _, rd := range res.Passes[0].Rounds {
			var s []string
			for _, x := range rd.Tally {
				s = append(s, c.Candidates[x.Candidate].Name+x.Votes.String())
			}
			rounds = append(rounds, strings.Join(s, " "))
		}
		if got := strings.Join(rounds, " | "); got != "A42 B26 C15 D17 | A42 B26 D32 | A42 D58" {
			t.Errorf("rounds %s", got)
		}
		if got := ranking(c, res.Places); got != "D > A > B > C" {
			t.Errorf("ranking %s, want D > A > B > C", got)
		}
	})
}
