package rla

import "votedesk/tally/raire"

// Observation is one sampled ballot as the audit board read it.
type Observation struct {
	// CVR is the ballot's cast vote record (comparison audits): its
	// preferences, most preferred first. Polling audits ignore it.
	CVR []int
	// Phantom says the ballot has no cast vote record: the manifest lists
	// more ballots than there are records.
	Phantom bool
	// Paper is the audit board's reading of the paper ballot.
	Paper []int
	// NotFound says the paper ballot could not be found; it counts as the
	// worst case for every assertion.
	NotFound bool
}

// AssertionStatus is one assertion's state after the observations so far.
type AssertionStatus struct {
	Assertion raire.Assertion
	// Margin is the reported diluted margin: 2 × (the assorter's mean over
	// the reported ballots, phantoms at 1/2) - 1.
	Margin float64
	// Risk is the measured risk (the P-value), in [0, 1].
	Risk float64
	// Confirmed says Risk is at most the risk limit.
	Confirmed bool
	// O1, O2, U1 and U2 count the sampled ballots (comparison) with one-
	// and two-vote overstatements and understatements.
	O1, O2, U1, U2 int
	// For, Against and Neither count the sampled ballots (polling) whose
	// assorter value was 1, 0 and 1/2.
	For, Against, Neither int
}

// Status is the audit's state after the observations so far.
type Status struct {
	Assertions []AssertionStatus
	// Sampled is the number of observations.
	Sampled int
	// Risk is the largest assertion risk.
	Risk float64
	// Confirmed says every assertion is confirmed: the audit can stop and
	// the reported outcome stands.
	Confirmed bool
	// FullHandCount says the audit has escalated: the next round would
	// take the sample to the manifest's size or beyond, or the discrepancies
	// found leave no smaller round likely to confirm.
	FullHandCount bool
	// NextRound is the suggested number of further draws (0 when Confirmed
	// or FullHandCount).
	NextRound int
	// Continue is, when the audit has escalated but a round of at least
	// half the sample so far still fits within the manifest, that round's
	// size: officials who doubt what escalated it (a misread ballot, say)
	// may draw it instead of counting every ballot by hand, as SHANGRLA and
	// Arlo leave them free to. 0 otherwise.
	Continue int
}

// Measure measures the risk of each assertion after the observations, in
// draw order (a ballot drawn twice appears twice), and suggests the next
// round (see the package documentation).
func (au *Audit) Measure(obs []Observation) Status {
	st := Status{Sampled: len(obs), Confirmed: true}
	for _, as := range au.assertions {
		t := as.run(au.kind, obs)
		s := AssertionStatus{Assertion: as.a, Margin: as.margin, Risk: t.risk()}
		s.Confirmed = s.Risk <= au.alpha
		if au.kind == Comparison {
			s.O1, s.O2, s.U1, s.U2 = int(t.count[over1]), int(t.count[over2]), int(t.count[under1]), int(t.count[under2])
		} else {
			s.For, s.Against, s.Neither = int(t.count[forWinner]), int(t.count[forLoser]), int(t.count[neither])
		}
		st.Assertions = append(st.Assertions, s)
		st.Risk = max(st.Risk, s.Risk)
		st.Confirmed = st.Confirmed && s.Confirmed
		if !s.Confirmed && !st.FullHandCount {
			more := au.drawsToConfirm(t, t.rule.shares(t), au.ballots-len(obs))
			if more < 0 {
				st.FullHandCount = true
			}
			st.NextRound = max(st.NextRound, more)
		}
	}
	if st.Confirmed {
		return st
	}
	// Each round grows the sample by at least half.
	half := max((len(obs)+1)/2, 1)
	st.NextRound = max(st.NextRound, half)
	if st.FullHandCount || len(obs)+st.NextRound >= au.ballots {
		st.FullHandCount, st.NextRound = true, 0
		if len(obs)+half < au.ballots {
			st.Continue = half
		}
	}
	return st
}

// run returns the assertion's test after the observations.
func (as *assertionAudit) run(kind Kind, obs []Observation) *test {
	t := &test{x: as.x, rule: as.rule}
	for _, o := range obs {
		t.add(as.outcome(kind, o))
	}
	return t
}

// outcome classifies an observation for the assertion. A ballot not found
// reads as 0 (a vote for the loser); in a comparison a phantom's record
// reads as 1/2 (no vote) and its paper as 0, whatever the board found.
func (as *assertionAudit) outcome(kind Kind, o Observation) int {
	paper := 0.0
	if !o.NotFound && !(kind == Comparison && o.Phantom) {
		paper = Assort(as.a, o.Paper)
	}
	if kind == Polling {
		switch paper {
		case 1:
			return forWinner
		case 0:
			return forLoser
		}
		return neither
	}
	cvr := 0.5
	if !o.Phantom {
		cvr = Assort(as.a, o.CVR)
	}
	switch cvr - paper {
	case 0.5:
		return over1
	case 1:
		return over2
	case -0.5:
		return under1
	case -1:
		return under2
	}
	return clean
}
