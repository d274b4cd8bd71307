package app

import (
	"context"
	"errors"
	"maps"

	"votedesk/tally"
)

// Counted is the count of an election: what was counted, how, the result,
// and the log position it reflects (reports state the head hash).
type Counted struct {
	Election Election
	Contest  tally.Contest
	Method   tally.Method
	// Rules are the RCTab-named rules used (the election's, then the
	// overrides), and Tally the rules they give.
	Rules    map[string]string
	Tally    tally.Rules
	Ballots  *tally.BallotSet
	Result   tally.Result
	HeadSeq  uint64
	HeadHash string
}

// Count counts an election's ballots. method and rules override the
// election's stored method and rules ("" and nil keep them); rules are RCTab
// field names and values. A tie the rules leave to a person is put to d; with
// no d the count stops and says so.
func (s *Service) Count(ctx context.Context, actor, election, method string, rules map[string]string, d tally.Decider) (Counted, error) {
	in, err := s.CountInput(ctx, actor, election)
	if err != nil {
		return Counted{}, err
	}
	out := Counted{Election: in.Election, Ballots: in.Ballots, Rules: map[string]string{}, HeadSeq: in.HeadSeq, HeadHash: in.HeadHash}
	maps.Copy(out.Rules, in.Election.Rules)
	maps.Copy(out.Rules, rules)
	if method == "" {
		method = in.Election.Method
	}
	if method == "" {
		method = string(DefaultMethod)
	}
	if out.Method, err = tally.ParseMethod(method); err != nil {
		return Counted{}, Errorf(CodeInvalid, "unknown counting method %q (methods: %s)", method, methodList())
	}
	if out.Tally, err = buildRules(out.Rules); err != nil {
		return Counted{}, err
	}
	if len(in.Candidates) == 0 {
		return Counted{}, Errorf(CodeConflict, "election %q has no candidates to count", election)
	}
	out.Contest = tally.Contest{Name: in.Election.Name, Candidates: make([]tally.Candidate, len(in.Candidates))}
	for i, c := range in.Candidates {
		out.Contest.Candidates[i] = tally.Candidate{Name: c.Name}
	}
	var opts []tally.Option
	if d != nil {
		opts = append(opts, tally.WithDecider(d))
	}
	out.Result, err = tally.Tabulate(out.Contest, in.Ballots, out.Method, out.Tally, opts...)
	if errors.Is(err, tally.ErrTieNeedsDecision) {
		return Counted{}, &Error{Code: CodeConflict, Message: "the count reached a tie the rules leave to an official; count it in the desktop app, or choose another tiebreakMode", Err: err}
	}
	if err != nil {
		return Counted{}, &Error{Code: CodeInvalid, Message: "the count cannot run with these rules (" + describeRules(out.Rules) + ")", Err: err}
	}
	return out, nil
}
