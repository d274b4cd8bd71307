package app

import (
	"fmt"
	"time"
)

// votingOpen checks that election e takes ballots at time t.
func votingOpen(e Election, t time.Time) error {
	switch {
	case e.Status == StatusDraft:
		return Errorf(CodeConflict, "election %q is not launched yet; voting opens at launch", e.Name)
	case e.Status == StatusFinalized:
		return Errorf(CodeConflict, "election %q is finalized; voting is over", e.Name)
	case !e.AllowVote:
		return Errorf(CodeConflict, "election %q does not take ballots now", e.Name)
	case !e.NoVotingBefore.IsZero() && t.Before(e.NoVotingBefore):
		return Errorf(CodeConflict, "voting in %q opens at %s", e.Name, FormatTime(e.NoVotingBefore))
	case !e.NoVotingAfter.IsZero() && t.After(e.NoVotingAfter):
		return Errorf(CodeConflict, "voting in %q closed at %s", e.Name, FormatTime(e.NoVotingAfter))
	}
	return nil
}

// voterFor checks that the actor may cast for voter in election e: the voter
// is in the poll book, and a VOTER casts only their own ballot. An empty voter
// is a ballot of no poll-book voter (a transcribed paper ballot), which only
// officials (USE_APPLICATION) may enter.
func (a *applier) voterFor(e Election, voter string) error {
	u, err := a.actor(PermVote)
	if err != nil {
		return err
	}
	if voter == "" {
		if !u.Role.Has(PermUseApplication) {
			return Errorf(CodeForbidden, "entering a ballot without a voter needs %s; %s has role %s", PermUseApplication, u.Name, u.Role)
		}
		return nil
	}
	if !u.Role.Has(PermUseApplication) && voter != u.Name {
		return Errorf(CodeForbidden, "%s (%s) may only cast their own ballot", u.Name, u.Role)
	}
	if _, ok, err := a.tx.Get(electionPK(e.Name), voterSK(voter)); err != nil || !ok {
		if err != nil {
			return err
		}
		return Errorf(CodeForbidden, "%q is not in the poll book of %q", voter, e.Name)
	}
	return nil
}

func applyBallotCast(a *applier) error {
	d, e, err := electionData[ballotCast](a)
	if err != nil {
		return err
	}
	if err := a.voterFor(e, d.Voter); err != nil {
		return err
	}
	if err := votingOpen(e, a.ev.When); err != nil {
		return err
	}
	if d.Confirmation == "" {
		return Errorf(CodeInvalid, "ballot has no confirmation code")
	}
	cands, err := candidatesOf(a.tx, e.Name)
	if err != nil {
		return err
	}
	rankings, err := normalizeRankings(d.Rankings, orderOf(cands))
	if err != nil {
		return err
	}
	b := Ballot{Election: e.Name, Voter: d.Voter, Confirmation: d.Confirmation, WhenCast: a.ev.When,
		Rankings: rankings, Source: d.Source, Transcribed: d.Transcribed}
	if _, ok, err := a.tx.Get(electionPK(e.Name), b.key()); err != nil || ok {
		if err != nil {
			return err
		}
		if d.Voter == "" {
			return Errorf(CodeConflict, "a ballot with confirmation %s already exists", d.Confirmation)
		}
		return a.flagConflict(&e, "duplicate_ballot",
			fmt.Sprintf("%q cast a second ballot (confirmation %s) after one already in the log; the first counts until an official decides", d.Voter, d.Confirmation),
			Item{{"confirmation", S(d.Confirmation)}, {"rankings", S(EncodeRankings(rankings))}, {"source", S(d.Source)}, {"voter_name", S(d.Voter)}})
	}
	if err := a.tx.Put(b.item()); err != nil {
		return err
	}
	e.Ballots++
	e.LastChanged = a.ev.When
	return a.tx.Put(e.item())
}

func applyBallotRankingsChanged(a *applier) error {
	d, e, err := electionData[ballotRankingsChanged](a)
	if err != nil {
		return err
	}
	if d.Voter == "" {
		return Errorf(CodeInvalid, "re-casting needs a voter")
	}
	if err := a.voterFor(e, d.Voter); err != nil {
		return err
	}
	if err := votingOpen(e, a.ev.When); err != nil {
		return err
	}
	if !e.AllowRecast {
		return Errorf(CodeConflict, "%q has already voted in %q, which does not allow re-casting", d.Voter, e.Name)
	}
	it, ok, err := a.tx.Get(electionPK(e.Name), ballotSK(d.Voter))
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "%q has no ballot in %q to change", d.Voter, e.Name)
	}
	cands, err := candidatesOf(a.tx, e.Name)
	if err != nil {
		return err
	}
	rankings, err := normalizeRankings(d.Rankings, orderOf(cands))
	if err != nil {
		return err
	}
	b, err := ballotFromItem(it)
	if err != nil {
		return err
	}
	b.Rankings, b.WhenCast = rankings, a.ev.When
	if err := a.tx.Put(b.item()); err != nil {
		return err
	}
	e.LastChanged = a.ev.When
	return a.tx.Put(e.item())
}

func applyBallotsImported(a *applier) error {
	d, e, err := managedData[ballotsImported](a)
	if err != nil {
		return err
	}
	if e.Status == StatusFinalized {
		return Errorf(CodeConflict, "election %q is finalized; no ballots can be added", e.Name)
	}
	cands, err := candidatesOf(a.tx, e.Name)
	if err != nil {
		return err
	}
	if len(cands) == 0 {
		return Errorf(CodeConflict, "election %q has no candidates to import ballots for", e.Name)
	}
	if len(d.Ballots) == 0 || len(d.Ballots) > maxImportBatch {
		return Errorf(CodeInvalid, "an import batch holds 1 to %d ballots, not %d", maxImportBatch, len(d.Ballots))
	}
	order := orderOf(cands)
	ballots := make([]Ballot, len(d.Ballots))
	keys := make([]string, len(d.Ballots))
	for i, ib := range d.Ballots {
		r, err := normalizeRankings(ib.Rankings, order)
		if err != nil {
			return Errorf(CodeInvalid, "imported ballot %d (%s): %s", i+1, ib.SourceID, ErrorMessage(err))
		}
		keys[i] = importedSK(a.ev.ID, i)
		ballots[i] = Ballot{Election: e.Name, Confirmation: keys[i][len(prefixUnlisted):], WhenCast: a.ev.When, Rankings: r, Source: d.Source, SourceID: ib.SourceID}
	}
	pk := electionPK(e.Name)
	// The ids come from the event id, so one lookup tells whether this
	// event's ballots are already there.
	if _, ok, err := a.tx.Get(pk, keys[0]); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "the ballots of import %s are already in %q", a.ev.ID, e.Name)
	}
	when := FormatTime(a.ev.When)
	var it Item
	for i, b := range ballots {
		it = b.fill(it, pk, keys[i], when)
		if err := a.tx.Put(it); err != nil {
			return err
		}
	}
	e.Ballots += int64(len(ballots))
	e.LastChanged = a.ev.When
	return a.tx.Put(e.item())
}

// maxImportBatch is the most ballots one BallotsImported event may carry.
const maxImportBatch = 100_000

// importedSK is the sort key of ballot i of the import event with id
// eventID: BALLOT## and the ballot's id, "{event id}.{i, six digits}".
func importedSK(eventID string, i int) string {
	b := make([]byte, 0, len(prefixUnlisted)+len(eventID)+7)
	b = append(append(append(b, prefixUnlisted...), eventID...), '.')
	var d [6]byte
	for j := 5; j >= 0; j-- {
		d[j] = byte('0' + i%10)
		i /= 10
	}
	return string(append(b, d[:]...))
}

func applyConflictResolved(a *applier) error {
	d, e, err := managedData[conflictResolved](a)
	if err != nil {
		return err
	}
	c, ok, err := a.tx.Get(electionPK(e.Name), conflictSK(d.Conflict))
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "election %q has no conflict %d", e.Name, d.Conflict)
	}
	if c.Flag("resolved") {
		return Errorf(CodeConflict, "conflict %d of %q is already resolved", d.Conflict, e.Name)
	}
	if d.Accept && c.Str("kind") == "duplicate_ballot" {
		if err := a.replaceBallot(e, c); err != nil {
			return err
		}
	}
	c.Set("resolved", Bool(true))
	c.Set("resolution", S(map[bool]string{true: "accepted", false: "dismissed"}[d.Accept]))
	c.Set("resolved_by", S(a.ev.Actor))
	c.Set("resolved_when", Time(a.ev.When))
	if err := a.tx.Put(c); err != nil {
		return err
	}
	e.Conflicts--
	e.LastChanged = a.ev.When
	return a.tx.Put(e.item())
}

// replaceBallot makes a duplicate ballot the one that counts for its voter.
func (a *applier) replaceBallot(e Election, c Item) error {
	voter := c.Str("voter_name")
	it, ok, err := a.tx.Get(electionPK(e.Name), ballotSK(voter))
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "%q no longer has a ballot in %q", voter, e.Name)
	}
	b, err := ballotFromItem(it)
	if err != nil {
		return err
	}
	r, err := DecodeRankings(c.Str("rankings"))
	if err != nil {
		return err
	}
	b.Rankings, b.Confirmation, b.WhenCast, b.Source = r, c.Str("confirmation"), c.TimeAttr("when"), c.Str("source")
	return a.tx.Put(b.item())
}
