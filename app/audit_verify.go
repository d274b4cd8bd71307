package app

import (
	"fmt"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// CheckAudits checks every audit in the projection against the ballots, as
// an observer who distrusts the device that started it would: that its
// assertions hold on the cast vote records and together rule out every
// other winner (raire.Check, independent of the search that found them),
// and that its first round is the size they call for. Problems are what a
// forged or corrupted audit shows; notes what makes an audit moot (the
// records changed after it started).
func CheckAudits(tx Tx) (problems, notes []string, err error) {
	var audits []Audit
	err = tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
		as, err := auditsOf(tx, electionNameOf(it.PK()))
		audits = append(audits, as...)
		return err == nil, err
	})
	if err != nil {
		return nil, nil, err
	}
	for _, au := range audits {
		where := fmt.Sprintf("audit %s of %s", au.ID, au.Election)
		laid, err := layOutBallots(tx, au.Election, au.Manifest)
		if err != nil || laid.Digest != au.Digest {
			notes = append(notes, where+": the cast vote records changed after it started, so its measurements no longer apply")
			continue
		}
		reader, err := newAuditReader(au.Candidates, au.Rules)
		if err != nil {
			problems = append(problems, where+": "+ErrorMessage(err))
			continue
		}
		votes, err := reader.votes(laid)
		if err != nil {
			return nil, nil, err
		}
		ra, err := au.check(votes)
		if err != nil {
			problems = append(problems, where+": "+ErrorMessage(err))
			continue
		}
		if want := max(1, ra.InitialSampleSize(rla.Expect{})); au.FirstRound != want {
			problems = append(problems, fmt.Sprintf("%s: its first round draws %d ballots; its assertions call for %d", where, au.FirstRound, want))
		}
	}
	return problems, notes, nil
}

// check checks the audit's assertions on the records' votes, independently
// of the search that found them (raire.Check: each holds, and together they
// rule out every other winner), and sets up its risk measurement.
func (au Audit) check(votes []raire.Vote) (*rla.Audit, error) {
	sol := &raire.Solution{Winner: au.Winner, NumCandidates: len(au.Candidates)}
	for _, a := range au.Assertions {
		sol.Assertions = append(sol.Assertions, raire.Scored{Assertion: a})
	}
	c := raire.Contest{Candidates: au.Candidates, NumCandidates: len(au.Candidates), Votes: votes,
		Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: uint64(au.Manifest.Total())}}
	if err := raire.Check(c, sol); err != nil {
		return nil, Errorf(CodeInvalid, "its assertions do not prove the reported winner: %s", raire.Message(err))
	}
	ra, err := rla.NewAudit(au.Kind, au.RiskLimit, au.Assertions, votes, au.Manifest.Total())
	if err != nil {
		return nil, Errorf(CodeInvalid, "%s", rlaMessage(err))
	}
	return ra, nil
}
