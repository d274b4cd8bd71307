package app

import (
	"encoding/json"
	"fmt"
	"time"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// Audit is a risk-limiting audit of an election's instant-runoff count, as
// it was started: the assertions RAIRE found on the cast vote records, the
// audit's kind and risk limit, the public seed and the ballot manifest (where
// the paper ballots are). Everything after it (rounds, the audit boards'
// readings) is derived from these, the ballots and later events; see
// AuditState.
type Audit struct {
	ID        string
	Election  string
	Kind      rla.Kind
	RiskLimit float64
	Seed      string
	Manifest  rla.Manifest
	// Candidates are the election's candidates in ballot order when the
	// audit started; the assertions number them from 0.
	Candidates []string
	// Rules are the counting rules the ballots are read under (the
	// election's, by RCTab name).
	Rules      map[string]string
	Winner     int
	Assertions []raire.Assertion
	// Ballots is how many cast vote records the audit covers; Digest
	// fingerprints them in audit order (auditBallots), so a later change to
	// the ballots is noticed.
	Ballots int
	Digest  string
	// FirstRound is the first round's number of draws.
	FirstRound int
	Started    time.Time
	StartedBy  string
}

// AuditSetup is what an official chooses when starting an audit.
type AuditSetup struct {
	Kind      rla.Kind
	RiskLimit float64
	Seed      string
	Manifest  rla.Manifest
}

// The audit's items in its election's partition:
//
//	AUDIT#{id}                         the audit as started
//	AUDIT#{id}#ROUND#{draws}           a round, by its total number of draws
//	AUDIT#{id}#READ#{ballot}#{pass}    a reading of a sampled ballot (pass 1
//	                                   and 2 by the board, 0 settled), ballot
//	                                   its 0-based place in the manifest
const prefixAudit = "AUDIT#"

func auditSK(id string) string          { return prefixAudit + id }
func auditRoundPrefix(id string) string { return prefixAudit + id + "#ROUND#" }
func auditRoundSK(id string, draws int) string {
	return fmt.Sprintf("%s%010d", auditRoundPrefix(id), draws)
}
func auditReadPrefix(id string) string { return prefixAudit + id + "#READ#" }
func auditReadSK(id string, ballot, pass int) string {
	return fmt.Sprintf("%s%010d#%d", auditReadPrefix(id), ballot, pass)
}

// auditAssertion is an assertion as events carry it.
type auditAssertion struct {
	Type       string `json:"type"`
	Winner     int    `json:"winner"`
	Loser      int    `json:"loser"`
	Continuing []int  `json:"continuing,omitempty"`
}

// auditBatch is a manifest line as events carry it.
type auditBatch struct {
	Container string `json:"container,omitempty"`
	Tabulator string `json:"tabulator,omitempty"`
	Name      string `json:"name"`
	Ballots   int    `json:"ballots"`
}

func toAuditAssertions(as []raire.Assertion) []auditAssertion {
	out := make([]auditAssertion, len(as))
	for i, a := range as {
		out[i] = auditAssertion{Type: string(a.Type), Winner: a.Winner, Loser: a.Loser, Continuing: a.Continuing}
	}
	return out
}

func fromAuditAssertions(as []auditAssertion) []raire.Assertion {
	out := make([]raire.Assertion, len(as))
	for i, a := range as {
		out[i] = raire.Assertion{Type: raire.AssertionType(a.Type), Winner: a.Winner, Loser: a.Loser, Continuing: a.Continuing}
	}
	return out
}

func toAuditBatches(m rla.Manifest) []auditBatch {
	out := make([]auditBatch, len(m.Batches))
	for i, b := range m.Batches {
		out[i] = auditBatch{Container: b.Container, Tabulator: b.Tabulator, Name: b.Name, Ballots: b.Ballots}
	}
	return out
}

// fromAuditBatches checks and indexes the manifest an event carries.
func fromAuditBatches(bs []auditBatch) (rla.Manifest, error) {
	batches := make([]rla.Batch, len(bs))
	for i, b := range bs {
		batches[i] = rla.Batch{Container: b.Container, Tabulator: b.Tabulator, Name: b.Name, Ballots: b.Ballots}
	}
	m, err := rla.NewManifest(batches)
	if err != nil {
		return m, Errorf(CodeInvalid, "the audit's manifest: %s", rlaMessage(err))
	}
	return m, nil
}

// audit is the Audit an AuditStarted event describes.
func (d auditStarted) audit(when time.Time, by string) (Audit, error) {
	m, err := fromAuditBatches(d.Manifest)
	return Audit{ID: d.Audit, Election: d.Election, Kind: rla.Kind(d.Kind), RiskLimit: d.RiskLimit, Seed: d.Seed,
		Manifest: m, Candidates: d.Candidates, Rules: d.Rules, Winner: d.Winner,
		Assertions: fromAuditAssertions(d.Assertions), Ballots: d.Ballots, Digest: d.Digest, FirstRound: d.FirstRound,
		Started: when, StartedBy: by}, err
}

// auditItem stores the audit's start: its event's data as it was, with
// who started it and when.
func auditItem(election string, d auditStarted, when time.Time, by string) (Item, error) {
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	it := newItem(electionPK(election), auditSK(d.Audit), "AUDIT")
	it.Set("setup", S(string(raw)))
	it.Set("started", Time(when))
	it.Set("started_by", S(by))
	return it, nil
}

func auditFromItem(it Item) (Audit, error) {
	var d auditStarted
	if err := json.Unmarshal([]byte(it.Str("setup")), &d); err != nil {
		return Audit{}, Errorf(CodeInternal, "stored audit %s is malformed: %v", it.SK(), err)
	}
	a, err := d.audit(it.TimeAttr("started"), it.Str("started_by"))
	a.Election = electionNameOf(it.PK())
	return a, err
}

// electionNameOf is the election name in an election partition key.
func electionNameOf(pk string) string { return pk[len(prefixElection):] }

// getAudit loads an election's audit by id.
func getAudit(tx Tx, election, id string) (Audit, error) {
	it, ok, err := tx.Get(electionPK(election), auditSK(id))
	if err != nil {
		return Audit{}, err
	}
	if !ok {
		return Audit{}, Errorf(CodeNotFound, "election %q has no audit %q", election, id)
	}
	return auditFromItem(it)
}
