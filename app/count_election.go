package app

import (
	"context"
	"errors"
	"maps"

	"votedesk/tally"
)

// CountStored counts an election the way it is set up: with its stored
// method and rules, overridden by method and rules when given ("" and nil
// keep the stored ones); rules are RCTab field names and values. A tie the
// rules leave to a person is put to d; with no d the count stops and says so.
// It also returns the rules used, by name.
func (s *Service) CountStored(ctx context.Context, actor, election, method string, rules map[string]string, d tally.Decider) (Count, map[string]string, error) {
	// The rules are the election's, and so are the ballots counted.
	ctx, e, err := s.HoldElection(ctx, actor, election)
	if err != nil {
		return Count{}, nil, err
	}
	named := map[string]string{}
	maps.Copy(named, e.Rules)
	maps.Copy(named, rules)
	if method == "" {
		method = e.Method
	}
	if method == "" {
		method = string(DefaultMethod)
	}
	m, err := tally.ParseMethod(method)
	if err != nil {
		return Count{}, nil, Errorf(CodeInvalid, "unknown counting method %q (methods: %s)", method, methodList())
	}
	r, err := buildRules(named)
	if err != nil {
		return Count{}, nil, err
	}
	var opts []tally.Option
	if d != nil {
		opts = append(opts, tally.WithDecider(d))
	}
	c, err := s.Count(ctx, actor, election, m, r, opts...)
	if errors.Is(err, tally.ErrTieNeedsDecision) {
		return Count{}, nil, &Error{Code: CodeConflict, Message: "the count reached a tie the rules leave to an official; count it in the desktop app, or choose another tiebreakMode", Err: err}
	}
	return c, named, err
}
