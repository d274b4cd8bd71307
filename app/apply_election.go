package app

import (
	"fmt"
	"time"
)

func applyElectionCreated(a *applier) error {
	var d electionCreated
	if err := a.decode(&d); err != nil {
		return err
	}
	u, err := a.actor(PermUseApplication)
	if err != nil {
		return err
	}
	if _, err := CleanName("election name", d.Name); err != nil {
		return err
	}
	if _, ok, err := getElection(a.tx, d.Name); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "an election named %q already exists", d.Name)
	}
	e := Election{
		Name: d.Name, Description: d.Description, Owner: u.Name, Secret: d.Secret,
		AllowEdit: true, Status: StatusDraft, Version: 1, Created: a.ev.When, LastChanged: a.ev.When,
	}
	if err := a.tx.Put(e.item()); err != nil {
		return err
	}
	return addCounts(a.tx, a.ev.When, 0, 1)
}

// editable checks that an election's poll book or candidates may change.
func editable(e Election) error {
	switch {
	case e.Status == StatusFinalized:
		return Errorf(CodeConflict, "election %q is finalized; nothing in it can change", e.Name)
	case !e.AllowEdit:
		return Errorf(CodeConflict, "election %q does not allow edits now (launched elections are locked; an owner can allow edits with `election set --allow-edit=true`)", e.Name)
	}
	return nil
}

func applyElectionUpdated(a *applier) error {
	d, e, err := managedData[electionUpdated](a)
	if err != nil {
		return err
	}
	c := d.Changes
	switch e.Status {
	case StatusFinalized:
		return Errorf(CodeConflict, "election %q is finalized; its settings cannot change", e.Name)
	case StatusLaunched:
		if c.Description != nil || c.Secret != nil || c.NoVotingBefore != nil || c.NoVotingAfter != nil ||
			c.AllowRecast != nil || c.Method != nil || c.Rules != nil {
			return Errorf(CodeConflict, "election %q is launched: its settings froze at launch (only allow-edit may change)", e.Name)
		}
	}
	next := e
	if err := c.applyTo(&next); err != nil {
		return err
	}
	stale := d.BaseVersion != 0 && d.BaseVersion != e.Version
	next.touch(a.ev.When)
	if err := a.tx.Put(next.item()); err != nil {
		return err
	}
	if !stale {
		return nil
	}
	return a.flagConflict(&next, "stale_edit", fmt.Sprintf("edit by %s was made against version %d of %q, but it had changed to version %d; the later edit in log order took effect",
		a.ev.Actor, d.BaseVersion, e.Name, e.Version), nil)
}

// applyTo writes the changes into e, checking each.
func (c ElectionChanges) applyTo(e *Election) error {
	if c.Description != nil {
		e.Description = *c.Description
	}
	if c.Secret != nil {
		e.Secret = *c.Secret
	}
	if c.AllowEdit != nil {
		e.AllowEdit = *c.AllowEdit
	}
	if c.AllowRecast != nil {
		e.AllowRecast = *c.AllowRecast
	}
	var err error
	if c.NoVotingBefore != nil {
		if e.NoVotingBefore, err = parseWindow("no-voting-before", *c.NoVotingBefore); err != nil {
			return err
		}
	}
	if c.NoVotingAfter != nil {
		if e.NoVotingAfter, err = parseWindow("no-voting-after", *c.NoVotingAfter); err != nil {
			return err
		}
	}
	if !e.NoVotingBefore.IsZero() && !e.NoVotingAfter.IsZero() && !e.NoVotingBefore.Before(e.NoVotingAfter) {
		return Errorf(CodeInvalid, "the voting window must open (%s) before it closes (%s)", FormatTime(e.NoVotingBefore), FormatTime(e.NoVotingAfter))
	}
	if c.Method != nil {
		if err := CheckMethod(*c.Method); err != nil {
			return err
		}
		e.Method = *c.Method
	}
	if c.Rules != nil {
		if err := CheckRules(*c.Rules); err != nil {
			return err
		}
		e.Rules = nil
		if len(*c.Rules) > 0 {
			e.Rules = make(map[string]string, len(*c.Rules))
			for k, v := range *c.Rules {
				e.Rules[k] = v
			}
		}
	}
	return nil
}

func parseWindow(field, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, Errorf(CodeInvalid, "%s %q is not an RFC 3339 time like 2026-11-03T07:00:00-05:00", field, s)
	}
	return t.UTC(), nil
}

func applyElectionLaunched(a *applier) error {
	_, e, err := managedData[electionNamed](a)
	if err != nil {
		return err
	}
	if e.Status != StatusDraft {
		return Errorf(CodeConflict, "election %q is already %s; only a draft can be launched", e.Name, e.Status)
	}
	if e.Candidates < 2 {
		return Errorf(CodeConflict, "election %q has %d candidate(s); launching needs at least 2", e.Name, e.Candidates)
	}
	e.Status, e.AllowVote, e.AllowEdit = StatusLaunched, true, false
	e.touch(a.ev.When)
	return a.tx.Put(e.item())
}

func applyElectionFinalized(a *applier) error {
	_, e, err := managedData[electionNamed](a)
	if err != nil {
		return err
	}
	if e.Status != StatusLaunched {
		return Errorf(CodeConflict, "election %q is %s; only a launched election can be finalized", e.Name, e.Status)
	}
	e.Status, e.AllowVote, e.AllowEdit = StatusFinalized, false, false
	e.touch(a.ev.When)
	return a.tx.Put(e.item())
}

func applyElectionDeleted(a *applier) error {
	_, e, err := managedData[electionNamed](a)
	if err != nil {
		return err
	}
	var keys []string
	err = a.tx.Query(electionPK(e.Name), "", func(it Item) (bool, error) {
		keys = append(keys, it.SK())
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, sk := range keys {
		if err := a.tx.Delete(electionPK(e.Name), sk); err != nil {
			return err
		}
	}
	return addCounts(a.tx, a.ev.When, 0, -1)
}

// flagConflict records something officials must look at in the election's
// CONFLICT partition, keyed by the event's sequence number.
func (a *applier) flagConflict(e *Election, kind, detail string, extra Item) error {
	it := newItem(electionPK(e.Name), conflictSK(a.ev.Seq), "CONFLICT")
	for _, a := range extra {
		it.Set(a.Name, a.Value)
	}
	it.Set("election_name", S(e.Name))
	it.Set("kind", S(kind))
	it.Set("seq", N(int64(a.ev.Seq)))
	it.Set("event_id", S(a.ev.ID))
	it.Set("actor", S(a.ev.Actor))
	it.Set("when", Time(a.ev.When))
	it.Set("detail", S(detail))
	it.Set("resolved", Bool(false))
	if err := a.tx.Put(it); err != nil {
		return err
	}
	e.Conflicts++
	return a.tx.Put(e.item())
}
