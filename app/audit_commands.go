package app

import (
	"context"
	"slices"
	"strings"

	"votedesk/tally"
	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// StartAudit starts a risk-limiting audit of a closed single-winner
// instant-runoff election: it lays the cast vote records out as the
// manifest lays out the paper, finds RAIRE's assertions for the reported
// winner (for a comparison audit, the set easiest to confirm ballot by
// ballot; for polling, by BRAVO's expected sample), and sizes the first
// round. The election's manager starts it. It returns the audit.
func (s *Service) StartAudit(ctx context.Context, actor, election string, setup AuditSetup) (Audit, error) {
	var d auditStarted
	_, err := s.run(ctx, "start an audit of "+election, actor, func(tx Tx) (decision, error) {
		gate := &applier{tx: tx, ev: &Event{Actor: actor, Type: EvAuditStarted}}
		e, _, err := gate.manager(election, "")
		if err != nil {
			return decision{}, err
		}
		if err := checkShown(ctx, tx, election, e); err != nil {
			return decision{}, err
		}
		if err := auditable(e); err != nil {
			return decision{}, err
		}
		if d, err = s.planAudit(tx, e, setup); err != nil {
			return decision{}, err
		}
		return decision{typ: EvAuditStarted, data: d}, nil
	})
	if err != nil {
		return Audit{}, err
	}
	return d.audit(s.clock.Now().UTC(), actor)
}

// planAudit works out an audit's setup from the election and its ballots.
func (s *Service) planAudit(tx Tx, e Election, setup AuditSetup) (auditStarted, error) {
	if setup.Kind != rla.Comparison && setup.Kind != rla.Polling {
		return auditStarted{}, Errorf(CodeInvalid, "an audit is %s or %s, not %q", rla.Comparison, rla.Polling, setup.Kind)
	}
	if !(setup.RiskLimit > 0 && setup.RiskLimit < 1) {
		return auditStarted{}, Errorf(CodeInvalid, "the risk limit is a fraction between 0 and 1 (0.05 for 5%%), not %v", setup.RiskLimit)
	}
	seed := strings.TrimSpace(setup.Seed)
	if err := rla.CheckSeed(seed); err != nil {
		return auditStarted{}, Errorf(CodeInvalid, "%s", rlaMessage(err))
	}
	method := e.Method
	if method == "" {
		method = string(DefaultMethod)
	}
	if m, err := tally.ParseMethod(method); err != nil || m != tally.IRV {
		return auditStarted{}, Errorf(CodeInvalid, "election %q is counted by %s; RAIRE audits instant-runoff (irv) counts", e.Name, method)
	}
	rules, err := buildRules(e.Rules)
	if err != nil {
		return auditStarted{}, err
	}
	if rules.NumberOfWinners != 1 {
		return auditStarted{}, Errorf(CodeInvalid, "election %q elects %d; RAIRE audits single-winner contests", e.Name, rules.NumberOfWinners)
	}
	cands, err := candidatesOf(tx, e.Name)
	if err != nil {
		return auditStarted{}, err
	}
	if len(cands) > raire.MaxCandidates {
		return auditStarted{}, Errorf(CodeInvalid, "election %q has %d candidates; RAIRE audits at most %d", e.Name, len(cands), raire.MaxCandidates)
	}
	names := candidateNames(cands)
	reader, err := newAuditReader(names, e.Rules)
	if err != nil {
		return auditStarted{}, err
	}
	laid, err := layOutBallots(tx, e.Name, setup.Manifest)
	if err != nil {
		return auditStarted{}, err
	}
	votes, err := reader.votes(laid)
	if err != nil {
		return auditStarted{}, err
	}
	total := uint64(setup.Manifest.Total())
	ra := raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: total}
	if setup.Kind == rla.Polling {
		ra = raire.Audit{Type: raire.BRAVO, TotalAuditableBallots: total, Confidence: setup.RiskLimit}
	}
	sol, err := raire.Assertions(raire.Contest{Candidates: names, NumCandidates: len(names), Votes: votes, Audit: ra}, raire.Options{})
	if err != nil {
		return auditStarted{}, Errorf(CodeInvalid, "no set of assertions can audit election %q: %s", e.Name, raire.Message(err))
	}
	as := make([]raire.Assertion, len(sol.Assertions))
	for i, x := range sol.Assertions {
		as[i] = x.Assertion
	}
	au, err := rla.NewAudit(setup.Kind, setup.RiskLimit, as, votes, int(total))
	if err != nil {
		return auditStarted{}, Errorf(CodeInvalid, "%s", rlaMessage(err))
	}
	first := max(1, au.InitialSampleSize(rla.Expect{}))
	return auditStarted{Election: e.Name, ElectionID: e.ID, Audit: s.ids.NewID(), Kind: string(setup.Kind),
		RiskLimit: setup.RiskLimit, Seed: seed, Manifest: toAuditBatches(setup.Manifest), Candidates: names,
		Rules: e.Rules, Winner: sol.Winner, Assertions: toAuditAssertions(as), Ballots: laid.Total,
		Digest: laid.Digest, FirstRound: first}, nil
}

// NextAuditRound starts the audit's next round of draws further draws, or
// with draws 0 of the size its risk measurement suggests (AuditState's
// Status.NextRound). It returns the new total of draws. A confirmed audit
// has no next round. An audit that has escalated to a full hand count
// takes one only when a round still fits within the manifest
// (Status.Continue) and its size is named: officials who doubt what
// escalated it may sample on instead of counting every ballot.
func (s *Service) NextAuditRound(ctx context.Context, actor, election, audit string, draws int) (int, error) {
	var total int
	_, err := s.run(ctx, "start the next audit round of "+election, actor, func(tx Tx) (decision, error) {
		gate := &applier{tx: tx, ev: &Event{Actor: actor, Type: EvAuditRoundStarted}}
		e, u, err := gate.manager(election, "")
		if err != nil {
			return decision{}, err
		}
		if err := checkShown(ctx, tx, election, e); err != nil {
			return decision{}, err
		}
		st, err := auditState(tx, e, u, audit)
		if err != nil {
			return decision{}, err
		}
		most := st.Audit.Manifest.Total()
		switch {
		case draws < 0 || draws > most:
			return decision{}, Errorf(CodeInvalid, "a round draws 1 to %d ballots (the manifest's), not %d", most, draws)
		case st.Problem != "":
			return decision{}, Errorf(CodeConflict, "%s", st.Problem)
		case st.Status.Confirmed:
			return decision{}, Errorf(CodeConflict, "audit %s is done: every assertion is confirmed at the risk limit", st.Audit.ID)
		case st.Unread > 0:
			return decision{}, Errorf(CodeConflict, "%d ballots of this round are not read yet; read them before the next round", st.Unread)
		case st.Status.FullHandCount && st.Status.Continue == 0:
			return decision{}, Errorf(CodeConflict, "audit %s has escalated to a full hand count: another round would draw as many ballots as the manifest holds", st.Audit.ID)
		case st.Status.FullHandCount && draws == 0:
			return decision{}, Errorf(CodeConflict, "audit %s has escalated to a full hand count; to sample on instead, name the round's size (%d suggested)", st.Audit.ID, st.Status.Continue)
		case draws == 0:
			draws = st.Status.NextRound
		}
		total = len(st.Draws) + draws
		return decision{typ: EvAuditRoundStarted, data: auditRound{Election: e.Name, ElectionID: e.ID, Audit: st.Audit.ID, Draws: total}}, nil
	})
	return total, err
}

// RecordAuditReading records an audit board's reading of a sampled ballot
// (its 0-based place in the manifest): pass 1 or 2 for the board members'
// independent entries, 0 to settle a difference between them. notFound
// says the paper ballot could not be found (it then counts as the worst
// case for the reported winner).
func (s *Service) RecordAuditReading(ctx context.Context, actor, election, audit string, ballot, pass int, rankings []Ranking, notFound bool) error {
	rankings = slices.Clone(rankings)
	slices.SortStableFunc(rankings, func(a, b Ranking) int { return a.Rank - b.Rank })
	_, err := s.run(ctx, "record an audit reading in "+election, actor, func(tx Tx) (decision, error) {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return decision{}, err
		}
		id, err := resolveAudit(tx, e.Name, audit)
		if err != nil {
			return decision{}, err
		}
		return decision{typ: EvAuditBallotRead, data: auditBallotRead{Election: e.Name, ElectionID: e.ID, Audit: id,
			Ballot: ballot, Pass: pass, Rankings: rankList(rankings), NotFound: notFound}}, nil
	})
	return err
}

// rlaMessage words an audit failure for a person.
func rlaMessage(err error) string { return tally.Message(err) }
