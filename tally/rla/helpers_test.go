package rla_test

import (
	"fmt"
	"slices"
	"testing"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// contest is an audited IRV contest: each ballot's cast vote record and
// its paper, in manifest order, with RAIRE's assertions from the records.
type contest struct {
	cvr, paper [][]int
	assertions []raire.Assertion
	manifest   rla.Manifest
}

// newContest makes a contest from groups of identical ballots (n ballots
// ranking prefs), its paper the same as its records, and finds RAIRE's
// assertions for the reported winner among candidates candidates. The
// manifest holds the ballots in batches of 100, and phantoms more.
func newContest(t testing.TB, candidates, phantoms int, groups ...raire.Vote) *contest {
	t.Helper()
	c := &contest{}
	for _, g := range groups {
		for range g.N {
			c.cvr = append(c.cvr, g.Prefs)
		}
	}
	c.paper = slices.Clone(c.cvr)
	sol, err := raire.Assertions(raire.Contest{NumCandidates: candidates, Votes: groups,
		Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: uint64(len(c.cvr) + phantoms)}}, raire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range sol.Assertions {
		c.assertions = append(c.assertions, a.Assertion)
	}
	var batches []rla.Batch
	for left, i := len(c.cvr)+phantoms, 1; left > 0; i++ {
		batches = append(batches, rla.Batch{Name: fmt.Sprint("B", i), Ballots: min(left, 100)})
		left -= 100
	}
	if c.manifest, err = rla.NewManifest(batches); err != nil {
		t.Fatal(err)
	}
	return c
}

// votes returns the cast vote records aggregated, one Vote per ballot.
func (c *contest) votes() []raire.Vote {
	votes := make([]raire.Vote, len(c.cvr))
	for i, p := range c.cvr {
		votes[i] = raire.Vote{N: 1, Prefs: p}
	}
	return votes
}

// audit sets up the contest's audit.
func (c *contest) audit(t testing.TB, kind rla.Kind, alpha float64) *rla.Audit {
	t.Helper()
	au, err := rla.NewAudit(kind, alpha, c.assertions, c.votes(), c.manifest.Total())
	if err != nil {
		t.Fatal(err)
	}
	return au
}

// observe reads the drawn ballots: indexes past the records are phantoms.
func (c *contest) observe(draws []rla.Draw) []rla.Observation {
	obs := make([]rla.Observation, len(draws))
	for i, d := range draws {
		if d.Index >= len(c.cvr) {
			obs[i] = rla.Observation{Phantom: true}
			continue
		}
		obs[i] = rla.Observation{CVR: c.cvr[d.Index], Paper: c.paper[d.Index]}
	}
	return obs
}

// run audits the contest with the seed, round by round as the audit
// suggests, until it confirms or escalates to a full hand count, and
// returns the last status.
func (c *contest) run(au *rla.Audit, seed string) rla.Status {
	n := max(1, au.InitialSampleSize(rla.Expect{}))
	for {
		st := au.Measure(c.observe(rla.Sample(seed, c.manifest, n)))
		if st.Confirmed || st.FullHandCount {
			return st
		}
		n += st.NextRound
	}
}

// seedFor is a 20-digit seed for trial i.
func seedFor(i int) string { return fmt.Sprintf("%020d", 7919*i+104729) }
