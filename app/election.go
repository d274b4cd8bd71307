package app

import (
	"sort"
	"time"
)

// Status is where an election is in its lifecycle.
type Status string

// The lifecycle: draft (editable, no voting) -> launched (voting; settings
// frozen) -> finalized (nothing changes any more).
const (
	StatusDraft     Status = "draft"
	StatusLaunched  Status = "launched"
	StatusFinalized Status = "finalized"
)

// Election is one contest: its settings, lifecycle state and totals.
type Election struct {
	Name           string
	Description    string
	Owner          string
	Secret         bool
	NoVotingBefore time.Time
	NoVotingAfter  time.Time
	AllowEdit      bool
	AllowVote      bool
	AllowRecast    bool
	Status         Status
	Version        int64
	Created        time.Time
	LastChanged    time.Time
	Candidates     int64
	Voters         int64
	Ballots        int64
	Conflicts      int64
	NextOrder      int64
	Method         string
	Rules          map[string]string
}

// Phase is what the list of elections shows: draft, open, closed (launched but
// outside its voting window) or finalized, at the given time.
func (e Election) Phase(now time.Time) string {
	switch e.Status {
	case StatusDraft:
		return "draft"
	case StatusFinalized:
		return "finalized"
	}
	if e.WindowOpen(now) {
		return "open"
	}
	return "closed"
}

// WindowOpen reports whether t lies inside the voting window.
func (e Election) WindowOpen(t time.Time) bool {
	if !e.NoVotingBefore.IsZero() && t.Before(e.NoVotingBefore) {
		return false
	}
	if !e.NoVotingAfter.IsZero() && t.After(e.NoVotingAfter) {
		return false
	}
	return true
}

func (e Election) item() Item {
	it := newItem(electionPK(e.Name), skMetadata, "ELECTION")
	it.Set("name", S(e.Name))
	it.Set("description", S(e.Description))
	it.Set("owner_name", S(e.Owner))
	it.Set("secret_ballot", Bool(e.Secret))
	it.setTime("no_voting_before", e.NoVotingBefore)
	it.setTime("no_voting_after", e.NoVotingAfter)
	it.Set("allow_edit", Bool(e.AllowEdit))
	it.Set("allow_vote", Bool(e.AllowVote))
	it.Set("allow_recast", Bool(e.AllowRecast))
	it.Set("status", S(string(e.Status)))
	it.Set("version", N(e.Version))
	it.setTime("created", e.Created)
	it.setTime("last_changed", e.LastChanged)
	it.Set("candidate_count", N(e.Candidates))
	it.Set("voter_count", N(e.Voters))
	it.Set("ballot_count", N(e.Ballots))
	it.Set("conflict_count", N(e.Conflicts))
	it.Set("next_candidate_order", N(e.NextOrder))
	if e.Method != "" {
		it.Set("tally_method", S(e.Method))
	}
	if len(e.Rules) > 0 {
		m := make(map[string]Value, len(e.Rules))
		for k, v := range e.Rules {
			m[k] = S(v)
		}
		it.Set("tally_rules", Value{Kind: KindM, M: m})
	}
	return it
}

func electionFromItem(it Item) Election {
	e := Election{
		Name:           it.Str("name"),
		Description:    it.Str("description"),
		Owner:          it.Str("owner_name"),
		Secret:         it.Flag("secret_ballot"),
		NoVotingBefore: it.TimeAttr("no_voting_before"),
		NoVotingAfter:  it.TimeAttr("no_voting_after"),
		AllowEdit:      it.Flag("allow_edit"),
		AllowVote:      it.Flag("allow_vote"),
		AllowRecast:    it.Flag("allow_recast"),
		Status:         Status(it.Str("status")),
		Version:        it.Int("version"),
		Created:        it.TimeAttr("created"),
		LastChanged:    it.TimeAttr("last_changed"),
		Candidates:     it.Int("candidate_count"),
		Voters:         it.Int("voter_count"),
		Ballots:        it.Int("ballot_count"),
		Conflicts:      it.Int("conflict_count"),
		NextOrder:      it.Int("next_candidate_order"),
		Method:         it.Str("tally_method"),
	}
	if r, ok := it.Get("tally_rules"); ok && r.Kind == KindM {
		e.Rules = make(map[string]string, len(r.M))
		for k, v := range r.M {
			e.Rules[k] = v.S
		}
	}
	return e
}

// RuleList returns the election's tally rules as sorted NAME=VALUE pairs.
func (e Election) RuleList() []string {
	out := make([]string, 0, len(e.Rules))
	for k, v := range e.Rules {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func getElection(tx Tx, name string) (Election, bool, error) {
	it, ok, err := tx.Get(electionPK(name), skMetadata)
	if err != nil || !ok {
		return Election{}, ok, err
	}
	return electionFromItem(it), true, nil
}

func mustElection(tx Tx, name string) (Election, error) {
	e, ok, err := getElection(tx, name)
	if err != nil {
		return Election{}, err
	}
	if !ok {
		return Election{}, Errorf(CodeNotFound, "no election named %q", name)
	}
	return e, nil
}

// touch records a change to the election at time t.
func (e *Election) touch(t time.Time) {
	e.Version++
	e.LastChanged = t
}
