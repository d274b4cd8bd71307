package app

import (
	"context"

	"votedesk/tally"
)

// Count is a finished count of an election: what was counted and the result.
type Count struct {
	Election Election
	Contest  tally.Contest
	Ballots  *tally.BallotSet
	Method   tally.Method
	Rules    tally.Rules
	Result   tally.Result
	// HeadSeq and HeadHash identify the log position counted: reports state
	// the head hash they were computed from.
	HeadSeq  uint64
	HeadHash string
	// Standing is how final the count is (Election.ResultsStanding when it
	// was counted), for every surface that shows it.
	Standing Standing
}

// Count counts an election's ballots with a method and, for IRV and STV,
// RCTab's rules (tally.Tabulate). Like CountInput it shows no voter, so
// VIEW_APPLICATION suffices. A count the rules or the method refuse (rules
// that contradict each other, a tie that needs a person) is a CodeInvalid
// error whose message says why.
func (s *Service) Count(ctx context.Context, actor, election string, method tally.Method, rules tally.Rules, opts ...tally.Option) (Count, error) {
	c, keep, err := s.CountFirst(ctx, actor, election, method, rules, opts...)
	if keep != nil {
		keep()
	}
	return c, err
}

// CountFirst is Count with the count cache's write left to the caller,
// for a screen that shows the count before it: the first count of a
// closed election keeps what it read of the ballots for later counts,
// which takes as long as the count (39 MB for a million ballots, made
// durable). keep, when not nil, writes it; run it once, after the count
// is shown, whether or not the count succeeded (a tie asked of an
// official, for one, is counted again).
func (s *Service) CountFirst(ctx context.Context, actor, election string, method tally.Method, rules tally.Rules, opts ...tally.Option) (Count, func(), error) {
	in, keep, err := s.readCountInput(ctx, actor, election, false)
	if err != nil {
		return Count{}, nil, err
	}
	c := Count{Election: in.Election, Contest: in.Contest(), Ballots: in.Ballots, Method: method, Rules: rules,
		HeadSeq: in.HeadSeq, HeadHash: in.HeadHash, Standing: in.Election.ResultsStanding(s.Now())}
	c.Result, err = tally.Tabulate(c.Contest, c.Ballots, method, rules, opts...)
	if err != nil {
		msg := tally.Message(err)
		return Count{}, keep, &Error{Code: CodeInvalid, Message: "cannot count " + election + ": " + msg, Err: err}
	}
	return c, keep, nil
}

// Contest is the election as tally counts it: its candidates in ballot
// order (candidate i of Candidates is tally candidate i).
func (in CountInput) Contest() tally.Contest {
	c := tally.Contest{Name: in.Election.Name, Candidates: make([]tally.Candidate, len(in.Candidates))}
	for i, cand := range in.Candidates {
		c.Candidates[i] = tally.Candidate{Name: cand.Name}
	}
	return c
}
