package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Conflicts are what the rules found for officials to decide: a voter's
// second ballot (duplicate_ballot), an edit against settings that had
// changed (stale_edit), a receipted ballot the log refused where it landed
// (refused_ballot) or a voter's change of their ballot it refused
// (refused_recast), an election made under a name another device had used
// (name_collision), and, outside any election, a device that found a copy
// of itself (device_collision, device_rewound). ConflictResolved decides
// one, accepting or dismissing it with a reason; accepting a duplicate makes
// it the voter's ballot, accepting a refused ballot records it, accepting a
// refused change makes it, accepting a name collision merges the election
// into the one of that name. What a decision replaces stays on the
// conflict, set aside, so every receipt can still be found.

func applyConflictResolved(a *applier) error {
	var d conflictResolved
	if err := a.decode(&d); err != nil {
		return err
	}
	if d.Election == "" && d.ElectionID == "" {
		return a.resolveSystemConflict(d)
	}
	e, _, err := a.manager(d.electionRef())
	if err != nil {
		return err
	}
	c, ok, err := findConflict(a.tx, electionPK(e.Name), d)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "election %q has no conflict %d", e.Name, d.Conflict)
	}
	if c.Flag("resolved") {
		return Errorf(CodeConflict, "conflict %d of %q is already resolved", d.Conflict, e.Name)
	}
	if d.Accept {
		switch c.Str("kind") {
		case "duplicate_ballot":
			if err := a.replaceBallot(e, &c); err != nil {
				return err
			}
		case "refused_ballot":
			if err := a.acceptRefused(&e, &c); err != nil {
				return err
			}
		case "refused_recast":
			if err := a.acceptRecast(e, &c); err != nil {
				return err
			}
		case "name_collision":
			return a.merge(e, c, d)
		}
	}
	markResolved(&c, d, a.ev)
	if err := a.tx.Put(c); err != nil {
		return err
	}
	e.Conflicts--
	e.LastChanged = a.ev.When
	return putElection(a.tx, e)
}

// findConflict returns the conflict item in partition pk that a decision
// names. A conflict is keyed by the number of the event that made it, and
// a pending event's number changes when a pull lays other devices' events
// under it, so a decision taken between a rebase and the push would, by
// number, land on whichever conflict took that number. It names the
// conflict by the making event's id and voter instead, which stay the
// same; the number is tried first, since it still holds when nothing
// moved.
func findConflict(tx Tx, pk string, d conflictResolved) (Item, bool, error) {
	it, ok, err := tx.Get(pk, conflictSK(d.Conflict))
	if err != nil || d.ConflictEvent == "" || ok && d.names(it) {
		return it, ok, err
	}
	var found Item
	ok = false
	err = tx.Query(pk, prefixConflict, func(c Item) (bool, error) {
		if d.names(c) {
			found, ok = c, true
		}
		return !ok, nil
	})
	return found, ok, err
}

// names reports whether the decision names conflict c by what made it.
func (d conflictResolved) names(c Item) bool {
	return c.Str("event_id") == d.ConflictEvent && c.Str("voter_name") == d.ConflictVoter
}

// markResolved records a decision on a conflict item.
func markResolved(c *Item, d conflictResolved, ev *Event) {
	c.Set("resolved", Bool(true))
	c.Set("resolution", S(map[bool]string{true: "accepted", false: "dismissed"}[d.Accept]))
	c.Set("resolved_by", S(ev.Actor))
	c.Set("resolved_when", Time(ev.When))
	if d.Reason != "" {
		c.Set("resolution_reason", S(d.Reason))
	}
}

// resolveSystemConflict decides a conflict outside any election: ADMIN and
// up acknowledge it.
func (a *applier) resolveSystemConflict(d conflictResolved) error {
	if _, err := a.actor(PermManageUsers); err != nil {
		return err
	}
	c, ok, err := findConflict(a.tx, pkMetadata, d)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "there is no conflict %d outside the elections", d.Conflict)
	}
	if c.Flag("resolved") {
		return Errorf(CodeConflict, "conflict %d is already resolved", d.Conflict)
	}
	markResolved(&c, d, a.ev)
	return a.tx.Put(c)
}

// replaceBallot makes a duplicate ballot the one that counts for its voter,
// and keeps the ballot it replaces on the conflict, set aside: a decided
// duplicate holds the voter's ballot that does not count, as an undecided
// one does, so every receipt handed out stays a counted ballot or a
// conflict officials can look up.
func (a *applier) replaceBallot(e Election, c *Item) error {
	b, r, err := a.setAside(e, c, "%q no longer has a ballot in %q",
		"%q cast two ballots; an official made the later one in the log count, and the one counted until then is kept here, set aside")
	if err != nil {
		return err
	}
	b.Rankings, b.Confirmation, b.WhenCast, b.Source, b.Transcribed = r, c.Str("confirmation"), c.TimeAttr("when"), c.Str("source"), c.Flag("transcribed")
	return a.tx.Put(b.item())
}

// setAside keeps the ballot that counts for conflict c's voter on c, set
// aside, for a decision that replaces it, and returns it with the rankings
// c holds. missing (voter, election) says that the voter has no ballot;
// detail (voter) becomes the conflict's detail.
func (a *applier) setAside(e Election, c *Item, missing, detail string) (Ballot, []Ranking, error) {
	voter := c.Str("voter_name")
	it, ok, err := a.tx.Get(electionPK(e.Name), ballotSK(voter))
	if err != nil {
		return Ballot{}, nil, err
	}
	if !ok {
		return Ballot{}, nil, Errorf(CodeNotFound, missing, voter, e.Name)
	}
	b, err := ballotFromItem(it)
	if err != nil {
		return Ballot{}, nil, err
	}
	r, err := DecodeRankings(c.Str("rankings"))
	if err != nil {
		return Ballot{}, nil, err
	}
	c.Set("set_aside_confirmation", S(b.Confirmation))
	c.Set("set_aside_rankings", S(EncodeRankings(b.Rankings)))
	c.Set("set_aside_source", S(b.Source))
	c.Set("set_aside_when", Time(b.WhenCast))
	if b.Transcribed {
		c.Set("set_aside_transcribed", Bool(true))
	}
	c.Set("detail", S(fmt.Sprintf(detail, voter)))
	return b, r, nil
}

// acceptRefused records a receipted ballot officials decided to count. If
// its voter has a ballot counted since (they voted again after this one was
// refused), this one takes its place, and the conflict keeps that one, set
// aside, as for a duplicate.
func (a *applier) acceptRefused(e *Election, c *Item) error {
	r, err := DecodeRankings(c.Str("rankings"))
	if err != nil {
		return err
	}
	b := Ballot{Election: e.Name, Voter: c.Str("voter_name"), Confirmation: c.Str("confirmation"), WhenCast: c.TimeAttr("when"),
		Rankings: r, Source: c.Str("source"), Transcribed: c.Flag("transcribed")}
	_, counted, err := a.tx.Get(electionPK(e.Name), b.key())
	switch {
	case err != nil:
		return err
	case counted && b.Voter == "":
		return Errorf(CodeConflict, "a ballot with code %s is already counted in %q", b.Confirmation, e.Name)
	case counted:
		if _, _, err := a.setAside(*e, c, "%q no longer has a ballot in %q",
			"%q voted again after this ballot was refused; an official made this one count, and the one counted until then is kept here, set aside"); err != nil {
			return err
		}
		return a.tx.Put(b.item())
	}
	if err := a.tx.Put(b.item()); err != nil {
		return err
	}
	e.Ballots++
	sealIfSecret(e)
	return nil
}

// keepRefusedBallot records, for officials, a receipted ballot the rules
// refused where it landed in the log (refusal marks it adjudicable, or says
// its election is gone): its voter, confirmation code and rankings, which
// only AUDITOR and up see in a secret election. A ballot whose election was
// deleted before it reached the log (an official deleted an election that
// showed no ballots while a kiosk held some offline) is kept outside any
// election, where ADMIN and up acknowledge it: it can no longer be counted,
// but its receipt is still accounted for.
func keepRefusedBallot(tx Tx, ev *Event, refusal *Error) error {
	if ev.Type == EvBallotRankingsChanged && ev.Signed() && errors.Is(refusal, errAdjudicable) {
		return keepRefusedRecast(tx, ev, refusal)
	}
	if ev.Type != EvBallotCast || !ev.Signed() || !errors.Is(refusal, errAdjudicable) && !errors.Is(refusal, ErrElectionGone) {
		return nil
	}
	a := &applier{tx: tx, ev: ev}
	var d ballotCast
	if err := a.decode(&d); err != nil {
		return nil
	}
	extra := Item{{"confirmation", S(d.Confirmation)}, {"rankings", S(EncodeRankings(d.Rankings))}, {"source", S(d.Source)}}
	if d.Voter != "" {
		extra = append(extra, Attr{"voter_name", S(d.Voter)})
	}
	if d.Transcribed {
		extra = append(extra, Attr{"transcribed", Bool(true)})
	}
	whose := "a ballot cast with a receipt"
	if d.Voter != "" {
		whose = fmt.Sprintf("the ballot of %q, cast with a receipt", d.Voter)
	}
	e, err := a.election(d.electionRef())
	if err == nil {
		return a.flagConflict(&e, "refused_ballot", fmt.Sprintf("%s, was refused where it reached the log: %s", whose, refusal.Message), extra)
	}
	if !errors.Is(err, ErrElectionGone) {
		return nil
	}
	name, id := d.electionRef()
	secret := true // an election this device holds no record of: withheld
	if r, ok, err := getElectionRecord(tx, id); err != nil {
		return err
	} else if ok {
		secret = r.Secret || r.SealedBallots
	}
	extra = append(extra, Attr{"election_name", S(name)}, Attr{"election_id", S(id)}, Attr{"secret", Bool(secret)})
	return a.flagSystemConflict("refused_ballot", fmt.Sprintf("%s in election %q, was refused where it reached the log: %s; it is kept here, outside any election", whose, name, refusal.Message), ev.When, extra...)
}

// keepRefusedRecast records, for officials, a voter's change of their
// ballot, made with a receipt (the same code as the ballot it changes),
// that the rules refused where it landed in the log (refused_recast): the
// voter's new rankings and the code of the ballot that still counts.
// Accepting it makes the change (acceptRecast).
func keepRefusedRecast(tx Tx, ev *Event, refusal *Error) error {
	a := &applier{tx: tx, ev: ev}
	var d ballotRankingsChanged
	if err := a.decode(&d); err != nil || d.Voter == "" {
		return nil
	}
	e, err := a.election(d.electionRef())
	if err != nil {
		return nil
	}
	it, _, err := tx.Get(electionPK(e.Name), ballotSK(d.Voter))
	if err != nil {
		return err
	}
	extra := Item{{"confirmation", S(it.Str("confirmation"))}, {"rankings", S(EncodeRankings(d.Rankings))}, {"voter_name", S(d.Voter)}}
	return a.flagConflict(&e, "refused_recast", fmt.Sprintf("%q changed their ballot, with a receipt, and the change was refused where it reached the log: %s; the ballot before the change counts until an official decides", d.Voter, refusal.Message), extra)
}

// acceptRecast makes a refused change of a voter's ballot: the ballot takes
// the changed rankings, keeping its code, and the conflict keeps the
// rankings it had, set aside.
func (a *applier) acceptRecast(e Election, c *Item) error {
	b, r, err := a.setAside(e, c, "%q has no ballot in %q to change; decide the refused ballot first",
		"%q changed their ballot, and an official made the change count; the rankings before it are kept here, set aside")
	if err != nil {
		return err
	}
	cands, err := candidatesOf(a.tx, e.Name)
	if err != nil {
		return err
	}
	if b.Rankings, err = normalizeRankings(r, orderOf(cands)); err != nil {
		return err
	}
	b.WhenCast = c.TimeAttr("when")
	return a.tx.Put(b.item())
}

// rejectionDetail adds to a REJECTED item the election an event named, so
// lists of refusals can be shown by the same disclosure rule as the
// election's ballots.
func rejectionDetail(ev *Event, it *Item) {
	var ref struct {
		Election   string `json:"election"`
		Name       string `json:"name"`
		ElectionID string `json:"election_id"`
	}
	if json.Unmarshal(ev.Data, &ref) != nil {
		return
	}
	if ref.Election == "" && ev.Type != EvUserRegistered && ev.Type != EvUserRemoved && ev.Type != EvUserRoleChanged {
		ref.Election = ref.Name
	}
	if ref.Election != "" {
		it.Set("election_name", S(ref.Election))
	}
	if ref.ElectionID != "" {
		it.Set("election_id", S(ref.ElectionID))
	}
}

// merge accepts a name collision: the election (made offline under a name
// another device had used) joins the election of that name, when they are
// the same election: the same candidates and the same secrecy. Its poll
// book joins the other's, its ballots move (a voter with a ballot in both
// becomes a duplicate to decide), and it is gone; events that name it by
// id from then on act on the election it joined.
func (a *applier) merge(from Election, c Item, d conflictResolved) error {
	into, ok, err := electionByID(a.tx, c.Str("other_id"))
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "the election %q that %q collided with no longer exists; rename %q instead", c.Str("other_election"), from.Name, from.Name)
	}
	if _, _, err := a.manager(into.Name, into.ID); err != nil {
		return err
	}
	if err := mergeable(a.tx, from, into); err != nil {
		return err
	}
	markResolved(&c, d, a.ev)
	c.Set("resolution", S("merged into "+into.Name))
	from.Conflicts--
	var items []Item
	err = a.tx.Query(electionPK(from.Name), "", func(it Item) (bool, error) {
		if it.SK() != skMetadata && it.SK() != c.SK() {
			items = append(items, it)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	items = append(items, c)
	for _, it := range items {
		if err := a.moveInto(&into, it); err != nil {
			return err
		}
		if err := a.tx.Delete(electionPK(from.Name), it.SK()); err != nil {
			return err
		}
	}
	if err := a.tx.Delete(electionPK(from.Name), skMetadata); err != nil {
		return err
	}
	if err := dropVoterNames(a.tx, from.ID); err != nil {
		return err
	}
	r, _, err := getElectionRecord(a.tx, from.ID)
	if err != nil {
		return err
	}
	r.DeletedSeq, r.MergedInto = a.ev.Seq, into.ID
	if err := a.tx.Put(r.item()); err != nil {
		return err
	}
	into.touch(a.ev.When)
	if from.SealedBallots {
		into.SealedBallots = true
	}
	if err := putElection(a.tx, into); err != nil {
		return err
	}
	return addCounts(a.tx, a.ev.When, 0, -1)
}

// mergeable checks that two elections are the same election.
func mergeable(tx Tx, from, into Election) error {
	if from.Secret != into.Secret {
		return Errorf(CodeConflict, "%q and %q differ in secrecy; a secret election is never merged with an open one (rename one instead)", from.Name, into.Name)
	}
	if into.Status == StatusFinalized {
		return Errorf(CodeConflict, "%q is finalized; nothing can join it (rename %q instead)", into.Name, from.Name)
	}
	a, err := candidatesOf(tx, from.Name)
	if err != nil {
		return err
	}
	b, err := candidatesOf(tx, into.Name)
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for _, x := range b {
		names[x.Name] = true
	}
	same := len(a) == len(b)
	for _, x := range a {
		same = same && names[x.Name]
	}
	if !same {
		return Errorf(CodeConflict, "%q and %q have different candidates; they are different elections (rename %q instead)", from.Name, into.Name, from.Name)
	}
	return nil
}

// moveInto moves one item of a merged election into the election it joins.
func (a *applier) moveInto(into *Election, it Item) error {
	pk := electionPK(into.Name)
	sk := it.SK()
	switch {
	case strings.HasPrefix(sk, prefixCand):
		return nil
	case strings.HasPrefix(sk, prefixVoter):
		if _, ok, err := a.tx.Get(pk, sk); err != nil || ok {
			return err
		}
		if err := listVoterName(a.tx, into.ID, it.Str("voter_name")); err != nil {
			return err
		}
		into.Voters++
	case isChunk(it):
		// Its ballots' keys and codes come from its import's event id,
		// which no ballot of the other election can share.
		if _, taken, err := a.tx.Get(pk, sk); err != nil || taken {
			if err != nil {
				return err
			}
			return Errorf(CodeInternal, "%q already holds the imported ballots %s", into.Name, sk)
		}
		into.Ballots += it.Int("ballot_count")
	case strings.HasPrefix(sk, prefixUnlisted):
		free, err := a.freeUnlistedSK(pk, sk)
		if err != nil {
			return err
		}
		it.Set(AttrSK, S(free))
		into.Ballots++
	case strings.HasPrefix(sk, prefixBallot):
		if _, ok, err := a.tx.Get(pk, sk); err != nil || ok {
			if err != nil {
				return err
			}
			// A merge may find many voters who voted in both; each conflict
			// gets its own number after the merge's sequence number.
			a.mergeDups++
			num := a.ev.Seq<<20 | uint64(a.mergeDups)
			dup := newItem(pk, conflictSK(num), "CONFLICT")
			copied := Item{{"confirmation", S(it.Str("confirmation"))}, {"rankings", S(it.Str("rankings"))},
				{"source", S(it.Str("source"))}, {"voter_name", S(it.Str("voter_name"))}, {"when", S(it.Str("when_cast"))}}
			for _, at := range copied {
				dup.Set(at.Name, at.Value)
			}
			dup.Set("election_name", S(into.Name))
			dup.Set("kind", S("duplicate_ballot"))
			dup.Set("seq", N(int64(num)))
			dup.Set("event_id", S(a.ev.ID))
			dup.Set("actor", S(a.ev.Actor))
			dup.Set("detail", S(fmt.Sprintf("%q voted in both elections merged into %q; the ballot already there counts until an official decides", it.Str("voter_name"), into.Name)))
			dup.Set("resolved", Bool(false))
			into.Conflicts++
			return a.tx.Put(dup)
		}
		into.Ballots++
	case strings.HasPrefix(sk, prefixConflict):
		if !it.Flag("resolved") {
			into.Conflicts++
		}
	}
	it.Set(AttrPK, S(pk))
	if _, has := it.Get("election_name"); has {
		it.Set("election_name", S(into.Name))
	}
	return a.tx.Put(it)
}
