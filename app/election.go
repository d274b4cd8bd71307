package app

import (
	"sort"
	"time"
)

// Status is where an election is in its lifecycle.
type Status string

// The lifecycle: draft (editable, no voting) -> launched (voting; settings
// frozen) -> closed (the polls are closed: no voting; counting, review and
// audit go on) -> finalized (certified: nothing changes any more).
const (
	StatusDraft     Status = "draft"
	StatusLaunched  Status = "launched"
	StatusClosed    Status = "closed"
	StatusFinalized Status = "finalized"
)

// Election is one contest: its settings, lifecycle state and totals. ID is
// its identity, which never changes (events of the signed format name the
// election by it, so two elections made with one name on two offline
// devices never merge); Name is how it is shown and keyed. OwnerID is the
// owning account; Owner its name. SealedBallots is set once a ballot is
// recorded while the election is secret: from then on its ballots are
// treated as secret (BallotsSecret) whatever the setting says later.
// Archived hides a finalized election from lists; its records stay.
type Election struct {
	ID             string
	Name           string
	Description    string
	Owner          string
	OwnerID        string
	Secret         bool
	SealedBallots  bool
	Grouped        bool // some ballots name a precinct or batch (imported cast vote records)
	Archived       bool
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
	Finalized      time.Time
	RetainMonths   int
}

// Phase is what the list of elections shows: draft, open, closed (the polls
// were closed, or the election is launched but outside its voting window)
// or finalized, at the given time.
func (e Election) Phase(now time.Time) string {
	switch e.Status {
	case StatusDraft:
		return "draft"
	case StatusFinalized:
		return "finalized"
	case StatusClosed:
		return "closed"
	}
	if e.WindowOpen(now) {
		return "open"
	}
	return "closed"
}

// Standing is how final a count of an election is, stated the same way
// wherever a count is shown (the app's Results tab, the command line's
// tally, the reports): Label is PRELIMINARY, UNOFFICIAL or FINAL, Detail
// says why in a sentence.
type Standing struct {
	Final         bool
	Label, Detail string
}

// String is the standing as one line: "PRELIMINARY: voting is still open;
// these results are not final."
func (s Standing) String() string { return s.Label + ": " + s.Detail }

// ResultsStanding says how final a count of the election is at time now:
// a draft's or an open election's results are preliminary, a closed one's
// unofficial until it is finalized (certified), a finalized one's final.
func (e Election) ResultsStanding(now time.Time) Standing {
	switch e.Phase(now) {
	case "finalized":
		return Standing{Final: true, Label: "FINAL", Detail: "the election was finalized (certified) on " + e.Finalized.UTC().Format("2 January 2006") + "."}
	case "draft":
		return Standing{Label: "PRELIMINARY", Detail: "the election is a draft; these results are not final."}
	case "open":
		return Standing{Label: "PRELIMINARY", Detail: "voting is still open; these results are not final."}
	}
	return Standing{Label: "UNOFFICIAL", Detail: "the election is not finalized yet; these results may still change."}
}

// PollsClosed reports whether the officials have closed the polls (closed or
// finalized): the point from which a secret election's ballot contents may
// be shown.
func (e Election) PollsClosed() bool { return e.Status == StatusClosed || e.Status == StatusFinalized }

// BallotsSecret reports whether the election's ballots are secret: it is a
// secret election, or a ballot was recorded while it was one.
func (e Election) BallotsSecret() bool { return e.Secret || e.SealedBallots }

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
	// Set keeps the attributes sorted by name; set in name order, each
	// one is an append (every ballot cast writes this item).
	it := make(Item, 0, 32)
	it.Set(AttrPK, S(electionPK(e.Name)))
	it.Set(AttrSK, S(skMetadata))
	it.Set("allow_edit", Bool(e.AllowEdit))
	it.Set("allow_recast", Bool(e.AllowRecast))
	it.Set("allow_vote", Bool(e.AllowVote))
	if e.Archived {
		it.Set("archived", Bool(true))
	}
	it.Set("ballot_count", N(e.Ballots))
	it.Set("candidate_count", N(e.Candidates))
	it.Set("conflict_count", N(e.Conflicts))
	it.setTime("created", e.Created)
	it.Set("description", S(e.Description))
	it.Set("election_id", S(e.ID))
	it.Set("entity_type", S("ELECTION"))
	it.setTime("finalized_when", e.Finalized)
	if e.Grouped {
		it.Set("grouped_ballots", Bool(true))
	}
	it.setTime("last_changed", e.LastChanged)
	it.Set("name", S(e.Name))
	it.Set("next_candidate_order", N(e.NextOrder))
	it.setTime("no_voting_after", e.NoVotingAfter)
	it.setTime("no_voting_before", e.NoVotingBefore)
	if e.OwnerID != "" {
		it.Set("owner_id", S(e.OwnerID))
	}
	it.Set("owner_name", S(e.Owner))
	if e.RetainMonths != 0 {
		it.Set("retain_months", N(int64(e.RetainMonths)))
	}
	if e.SealedBallots {
		it.Set("sealed_ballots", Bool(true))
	}
	it.Set("secret_ballot", Bool(e.Secret))
	it.Set("status", S(string(e.Status)))
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
	it.Set("version", N(e.Version))
	it.Set("voter_count", N(e.Voters))
	return it
}

func electionFromItem(it Item) Election {
	e := Election{
		ID:             it.Str("election_id"),
		Name:           it.Str("name"),
		Description:    it.Str("description"),
		Owner:          it.Str("owner_name"),
		OwnerID:        it.Str("owner_id"),
		Secret:         it.Flag("secret_ballot"),
		SealedBallots:  it.Flag("sealed_ballots"),
		Archived:       it.Flag("archived"),
		Grouped:        it.Flag("grouped_ballots"),
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
		Finalized:      it.TimeAttr("finalized_when"),
		RetainMonths:   int(it.Int("retain_months")),
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

// The identity of elections. ELECTIONID#{id}/METADATA says which name an
// election has now (or had, once deleted) and what its ballots were:
// name, created_seq, deleted_seq, secret_ballot, sealed_ballots. It stays
// after the election is deleted, so the log is redacted by the facts of the
// election its events were made in, never by another election that took
// the name later. ELECTIONNAME#{name}/{created seq} names, for each
// election ever created under a name, its id: events of the unsigned
// format name their election only by name, and are placed by sequence.
const (
	prefixElectionID   = "ELECTIONID#"
	prefixElectionName = "ELECTIONNAME#"
)

func electionIDPK(id string) string          { return prefixElectionID + id }
func electionNamePK(name string) string      { return prefixElectionName + name }
func legacyElectionID(eventID string) string { return "legacy:" + eventID }

// electionRecord is the history item of an election.
type electionRecord struct {
	ID            string
	Name          string
	CreatedSeq    uint64
	DeletedSeq    uint64
	MergedInto    string
	Secret        bool
	SealedBallots bool
}

func (r electionRecord) item() Item {
	it := newItem(electionIDPK(r.ID), skMetadata, "ELECTIONID")
	it.Set("election_id", S(r.ID))
	it.Set("name", S(r.Name))
	it.Set("created_seq", N(int64(r.CreatedSeq)))
	if r.DeletedSeq != 0 {
		it.Set("deleted_seq", N(int64(r.DeletedSeq)))
	}
	if r.MergedInto != "" {
		it.Set("merged_into", S(r.MergedInto))
	}
	it.Set("secret_ballot", Bool(r.Secret))
	it.Set("sealed_ballots", Bool(r.SealedBallots))
	return it
}

func electionRecordFromItem(it Item) electionRecord {
	return electionRecord{ID: it.Str("election_id"), Name: it.Str("name"), CreatedSeq: uint64(it.Int("created_seq")),
		DeletedSeq: uint64(it.Int("deleted_seq")), MergedInto: it.Str("merged_into"), Secret: it.Flag("secret_ballot"), SealedBallots: it.Flag("sealed_ballots")}
}

func getElectionRecord(tx Tx, id string) (electionRecord, bool, error) {
	it, ok, err := tx.Get(electionIDPK(id), skMetadata)
	if err != nil || !ok {
		return electionRecord{}, ok, err
	}
	return electionRecordFromItem(it), true, nil
}

// putElection writes an election and keeps its history item current.
func putElection(tx Tx, e Election) error {
	if err := tx.Put(e.item()); err != nil {
		return err
	}
	if e.ID == "" {
		return nil
	}
	r, _, err := getElectionRecord(tx, e.ID)
	if err != nil {
		return err
	}
	if r.ID == e.ID && r.Name == e.Name && r.Secret == e.Secret && r.SealedBallots == e.SealedBallots {
		return nil
	}
	r.ID, r.Name, r.Secret, r.SealedBallots = e.ID, e.Name, e.Secret, e.SealedBallots
	return tx.Put(r.item())
}

// electionByID loads the election an id names now (the election it was
// merged into, for a merged one).
func electionByID(tx Tx, id string) (Election, bool, error) {
	r, ok, err := getElectionRecord(tx, id)
	for hops := 0; err == nil && ok && r.MergedInto != "" && hops < 64; hops++ {
		r, ok, err = getElectionRecord(tx, r.MergedInto)
	}
	if err != nil || !ok || r.DeletedSeq != 0 {
		return Election{}, false, err
	}
	e, ok, err := getElection(tx, r.Name)
	if err != nil || !ok || e.ID != r.ID {
		return Election{}, false, err
	}
	return e, true, nil
}
