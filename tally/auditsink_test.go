package tally

import (
	"fmt"
	"testing"
)

// TestAuditSinkMatchesTrail counts ballots enough for two workers per round
// and for round 1 to be placed in blocks, with the audit trail streamed to
// a sink and kept in the result, and wants the same entries and values and
// the same rounds, each call in ballot-record order and each round's calls
// one after another.
func TestAuditSinkMatchesTrail(t *testing.T) {
	set := benchBallots(2*auditBlock+parallelFrom+7, 6)
	c := benchContest(6)
	stv := DefaultRules()
	stv.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
	stv.NumberOfWinners = 2
	for _, tc := range []struct {
		method Method
		rules  Rules
	}{{IRV, DefaultRules()}, {STV, stv}} {
		t.Run(string(tc.method), func(t *testing.T) {
			kept, err := Tabulate(c, set, tc.method, tc.rules, WithAudit())
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range kept.Passes {
				for _, e := range p.Audit {
					want = append(want, auditLine(e, p.AuditValue(e)))
				}
			}
			var got []string
			calls := 0
			lastRound, lastBallot := int32(0), int32(-1)
			sink := func(pass int, entries []AuditEntry, values []Decimal) error {
				calls++
				p := Pass{AuditValues: values}
				for _, e := range entries {
					if e.Round == lastRound && e.Ballot <= lastBallot {
						return fmt.Errorf("round %d: ballot %d after ballot %d", e.Round, e.Ballot, lastBallot)
					}
					lastRound, lastBallot = e.Round, e.Ballot
					got = append(got, auditLine(e, p.AuditValue(e)))
				}
				return nil
			}
			streamed, err := Tabulate(c, set, tc.method, tc.rules, WithAuditSink(sink))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmt.Sprint(streamed.Passes[0].Rounds), fmt.Sprint(kept.Passes[0].Rounds); g != w {
				t.Fatalf("streamed count's rounds %s, kept count's %s", g, w)
			}
			if calls < len(kept.Passes[0].Rounds)+5 {
				t.Fatalf("%d sink calls for %d rounds: round 1 was not handed over by block and worker", calls, len(kept.Passes[0].Rounds))
			}
			if len(got) != len(want) {
				t.Fatalf("%d entries streamed, %d kept", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("entry %d streamed as %s, kept as %s", i, got[i], want[i])
				}
			}
		})
	}
}

func auditLine(e AuditEntry, v Decimal) string {
	return fmt.Sprintf("r%d b%d c%d s%d v%s", e.Round, e.Ballot, e.Candidate, e.Status, v)
}
