package app

import (
	"fmt"
	"time"

	"votedesk/tally"
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
	if err := a.checkName("election name", d.Name); err != nil {
		return err
	}
	id, name := d.ElectionID, d.Name
	if !a.ev.Signed() {
		id = legacyElectionID(a.ev.ID)
	} else if id == "" {
		return Errorf(CodeInvalid, "election %q has no id", d.Name)
	} else if _, ok, err := getElectionRecord(a.tx, id); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "an election with id %s already exists", id)
	}
	existing, taken, err := a.nameTaken(name)
	if err != nil {
		return err
	}
	var otherID string
	if taken {
		if o, ok, err := getElection(a.tx, existing); err != nil {
			return err
		} else if ok {
			otherID = o.ID
		}
	}
	collided := false
	if taken {
		if !a.ev.Signed() {
			return Errorf(CodeConflict, "an election named %q already exists", existing)
		}
		// Two devices made an election of this name offline: neither is
		// merged into the other. This one takes a name of its own until an
		// official renames or merges it.
		name, collided = provisionalName(d.Name, id), true
		if _, again, err := a.nameTaken(name); err != nil || again {
			if err != nil {
				return err
			}
			return Errorf(CodeConflict, "an election named %q already exists", name)
		}
	}
	e := Election{
		ID: id, Name: name, Description: d.Description, Owner: u.Name, OwnerID: u.ID, Secret: d.Secret,
		AllowEdit: true, Status: StatusDraft, Version: 1, Created: a.ev.When, LastChanged: a.ev.When,
	}
	if err := a.tx.Put(electionRecord{ID: id, Name: name, CreatedSeq: a.ev.Seq, Secret: d.Secret}.item()); err != nil {
		return err
	}
	idx := newItem(electionNamePK(name), seqKey(a.ev.Seq), "ELECTIONNAME")
	idx.Set("election_id", S(id))
	if err := a.tx.Put(idx); err != nil {
		return err
	}
	if err := putElection(a.tx, e); err != nil {
		return err
	}
	if collided {
		detail := fmt.Sprintf("%s created an election named %q on a device that had not yet seen the election of that name by %s; it is kept apart as %q until an official renames one of them (or merges them, if they are the same election)",
			u.Name, d.Name, existing, name)
		if err := a.flagConflict(&e, "name_collision", detail, Item{{"other_election", S(existing)}, {"other_id", S(otherID)}}); err != nil {
			return err
		}
	}
	return addCounts(a.tx, a.ev.When, 0, 1)
}

// nameTaken reports whether an election name is in use: exactly, or, for a
// signed event, as the domain compares names. It returns the name in use.
func (a *applier) nameTaken(name string) (string, bool, error) {
	if _, ok, err := getElection(a.tx, name); err != nil || ok {
		return name, ok, err
	}
	if !a.ev.Signed() {
		return "", false, nil
	}
	key, found := NameKey(name), ""
	err := a.tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
		if n := it.Str("name"); NameKey(n) == key {
			found = n
			return false, nil
		}
		return true, nil
	})
	return found, found != "", err
}

// provisionalName is the name an election made under a name already taken
// gets until it is renamed: the name and the start of its id.
func provisionalName(name, id string) string {
	short := id
	if len(short) > 8 {
		short = short[:8]
	}
	return fmt.Sprintf("%s (%s)", name, short)
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
	case StatusLaunched, StatusClosed:
		if c.Description != nil || c.Secret != nil || c.NoVotingBefore != nil || c.NoVotingAfter != nil ||
			c.AllowRecast != nil || c.Method != nil || c.Rules != nil {
			return Errorf(CodeConflict, "election %q is %s: its settings froze at launch (only allow-edit and the retention period may change)", e.Name, e.Status)
		}
	}
	if c.Secret != nil && !*c.Secret && e.SealedBallots {
		return Errorf(CodeConflict, "election %q holds ballots recorded as secret; it stays a secret election", e.Name)
	}
	next := e
	if err := c.applyTo(&next); err != nil {
		return err
	}
	stale := a.staleFields(d, e)
	next.touch(a.ev.When)
	if err := putElection(a.tx, next); err != nil {
		return err
	}
	if stale == "" {
		return nil
	}
	return a.flagConflict(&next, "stale_edit", fmt.Sprintf("edit by %s changed %s of %q, which another edit earlier in the log had changed too; the later edit in log order took effect",
		a.ev.Actor, stale, e.Name), nil)
}

// staleFields says which fields an edit changed that had changed since the
// editor saw them: signed edits carry, for each field they change, the value
// it had (Base), so only a field both edits touched is a conflict; format-1
// edits carried the election's version, and any change since was one.
func (a *applier) staleFields(d electionUpdated, e Election) string {
	if !a.ev.Signed() || d.Base == nil {
		if d.BaseVersion != 0 && d.BaseVersion != e.Version {
			return fmt.Sprintf("version %d (it had changed to version %d)", d.BaseVersion, e.Version)
		}
		return ""
	}
	now := e.Settings()
	var names []string
	for _, f := range d.Changes.fields() {
		if !f.equal(*d.Base, now) {
			names = append(names, f.name)
		}
	}
	return tally.JoinNames(names)
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
	if c.RetainMonths != nil {
		if *c.RetainMonths < 1 || *c.RetainMonths > 1200 {
			return Errorf(CodeInvalid, "the retention period must be 1 to 1200 months, not %d", *c.RetainMonths)
		}
		e.RetainMonths = *c.RetainMonths
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
	return putElection(a.tx, e)
}

// applyElectionClosed closes the polls: no more ballots; counting, review,
// adjudication and audit go on until the election is finalized.
func applyElectionClosed(a *applier) error {
	_, e, err := managedData[electionNamed](a)
	if err != nil {
		return err
	}
	if e.Status != StatusLaunched {
		return Errorf(CodeConflict, "election %q is %s; only a launched election's polls can be closed", e.Name, e.Status)
	}
	e.Status, e.AllowVote, e.AllowEdit = StatusClosed, false, false
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}

// applyElectionFinalized certifies an election: nothing changes any more.
func applyElectionFinalized(a *applier) error {
	_, e, err := managedData[electionNamed](a)
	if err != nil {
		return err
	}
	if e.Status != StatusLaunched && e.Status != StatusClosed {
		return Errorf(CodeConflict, "election %q is %s; only a launched or closed election can be finalized", e.Name, e.Status)
	}
	e.Status, e.AllowVote, e.AllowEdit = StatusFinalized, false, false
	e.Finalized = a.ev.When
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}

// DefaultRetainMonths is how long a finalized election's records are kept
// before its OWNER may delete them, unless the election says otherwise: 22
// months, what US federal law requires for federal contests (52 U.S.C.
// 20701).
const DefaultRetainMonths = 22

// RetainUntil is when a finalized election's retention period ends.
func (e Election) RetainUntil() time.Time {
	if e.Finalized.IsZero() {
		return time.Time{}
	}
	m := e.RetainMonths
	if m == 0 {
		m = DefaultRetainMonths
	}
	return e.Finalized.AddDate(0, m, 0)
}

func applyElectionDeleted(a *applier) error {
	_, e, err := managedData[electionNamed](a)
	if err != nil {
		return err
	}
	if a.ev.Signed() {
		if err := a.mayDelete(e); err != nil {
			return err
		}
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
	if err := dropVoterNames(a.tx, e.ID); err != nil {
		return err
	}
	if err := a.markDeleted(e); err != nil {
		return err
	}
	return addCounts(a.tx, a.ev.When, 0, -1)
}

// mayDelete says whether the actor may delete an election's records now
// (Election.DeleteRefusal).
//
// A launched or closed election that counts no ballots may still hold
// receipts: ballots refused where they reached the log, or set aside by a
// decision on a duplicate, kept on its conflicts. Those are election
// records too, so it is kept as if it held ballots.
func (a *applier) mayDelete(e Election) error {
	u, err := a.actingUser()
	if err != nil {
		return err
	}
	if err := e.DeleteRefusal(u.Role, a.ev.When); err != nil || e.Status == StatusDraft || e.Status == StatusFinalized {
		return err
	}
	receipts := 0
	err = a.tx.Query(electionPK(e.Name), prefixConflict, func(c Item) (bool, error) {
		if c.Str("confirmation") != "" || c.Str("set_aside_confirmation") != "" {
			receipts++
		}
		return true, nil
	})
	if err != nil || receipts == 0 {
		return err
	}
	return Errorf(CodeConflict, "election %q holds %d receipted ballot(s) refused where they reached the log or set aside (see its conflicts); election records are kept (finalize it, then archive it)", e.Name, receipts)
}

// DeleteRefusal says why someone of role, who manages the election, may not
// delete its records at time now, or nil when they may: a draft, or an
// election that holds no ballots, may be deleted by its managers; one with
// ballots never while it is launched or closed; a finalized one only by the
// OWNER, after its retention period.
func (e Election) DeleteRefusal(role Role, now time.Time) error {
	switch e.Status {
	case StatusDraft:
		return nil
	case StatusLaunched, StatusClosed:
		if e.Ballots > 0 {
			return Errorf(CodeConflict, "election %q is %s and holds %d ballot(s); election records are kept (finalize it, then archive it)", e.Name, e.Status, e.Ballots)
		}
		return nil
	}
	if role != RoleOwner {
		return Errorf(CodeForbidden, "election %q is finalized; only the OWNER may delete its records, after its retention period (archive it instead)", e.Name)
	}
	if until := e.RetainUntil(); now.Before(until) {
		return Errorf(CodeConflict, "election %q is finalized and its records are kept until %s (%d months); archive it instead", e.Name, until.Format("2 January 2006"), e.RetentionMonths())
	}
	return nil
}

// DeleteKeepsCopy reports whether deleting the election must first keep a
// copy of the whole database beside it (app.KeptName "delete"): a
// finalized election's records are certified records.
func (e Election) DeleteKeepsCopy() bool { return e.Status == StatusFinalized }

// RetentionMonths is the election's retention period in months.
func (e Election) RetentionMonths() int {
	if e.RetainMonths == 0 {
		return DefaultRetainMonths
	}
	return e.RetainMonths
}

// markDeleted keeps the deleted election's history item, marked deleted.
func (a *applier) markDeleted(e Election) error {
	if e.ID == "" {
		return nil
	}
	r, ok, err := getElectionRecord(a.tx, e.ID)
	if err != nil || !ok {
		return err
	}
	r.DeletedSeq = a.ev.Seq
	return a.tx.Put(r.item())
}

// applyElectionArchived hides a finalized election from lists; its records
// stay, and restoring shows it again. Its owner or the OWNER may.
func applyElectionArchived(a *applier) error { return a.setArchived(true) }

func applyElectionRestored(a *applier) error { return a.setArchived(false) }

func (a *applier) setArchived(archived bool) error {
	_, e, err := managedData[electionNamed](a)
	if err != nil {
		return err
	}
	u, err := a.actingUser()
	if err != nil {
		return err
	}
	if !a.owns(u, e) && u.Role != RoleOwner {
		return Errorf(CodeForbidden, "only the election's owner (%s) or the OWNER may archive or restore %q", e.Owner, e.Name)
	}
	if e.Status != StatusFinalized {
		return Errorf(CodeConflict, "election %q is %s; only a finalized election is archived (a draft can be deleted)", e.Name, e.Status)
	}
	if e.Archived == archived {
		return Errorf(CodeConflict, "election %q is already %s", e.Name, map[bool]string{true: "archived", false: "not archived"}[archived])
	}
	e.Archived = archived
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}

// applyElectionRenamed renames an election: every item of its partition
// moves to the new name. Open name-collision conflicts of the election are
// resolved by it.
func applyElectionRenamed(a *applier) error {
	d, e, err := managedData[electionRenamed](a)
	if err != nil {
		return err
	}
	if err := a.checkName("election name", d.NewName); err != nil {
		return err
	}
	if existing, taken, err := a.nameTaken(d.NewName); err != nil || taken && NameKey(existing) != NameKey(e.Name) {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "an election named %q already exists", existing)
	}
	var items []Item
	err = a.tx.Query(electionPK(e.Name), "", func(it Item) (bool, error) {
		items = append(items, it)
		return true, nil
	})
	if err != nil {
		return err
	}
	old := e.Name
	for _, it := range items {
		if err := a.tx.Delete(electionPK(old), it.SK()); err != nil {
			return err
		}
	}
	e.Name = d.NewName
	e.touch(a.ev.When)
	for _, it := range items {
		it.Set(AttrPK, S(electionPK(e.Name)))
		if _, has := it.Get("election_name"); has {
			it.Set("election_name", S(e.Name))
		}
		if it.SK() == skMetadata {
			continue
		}
		if it.Str("kind") == "name_collision" && !it.Flag("resolved") {
			it.Set("resolved", Bool(true))
			it.Set("resolution", S("renamed"))
			it.Set("resolved_by", S(a.ev.Actor))
			it.Set("resolved_when", Time(a.ev.When))
			e.Conflicts--
		}
		if err := a.tx.Put(it); err != nil {
			return err
		}
	}
	idx := newItem(electionNamePK(e.Name), seqKey(a.ev.Seq), "ELECTIONNAME")
	idx.Set("election_id", S(e.ID))
	if err := a.tx.Put(idx); err != nil {
		return err
	}
	return putElection(a.tx, e)
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
	return putElection(a.tx, *e)
}
