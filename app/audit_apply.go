package app

import (
	"math"
	"strings"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// The audit's events (EvAuditStarted, EvAuditRoundStarted,
// EvAuditBallotRead). An audit's state is a set, not a sequence: rounds are
// kept by their size, and each reading by ballot and pass with the latest
// (by time, then event id) winning, so audit boards on several laptops that
// sync in any order reach the same state.

type auditStarted struct {
	Election   string            `json:"election"`
	ElectionID string            `json:"election_id,omitempty"`
	Audit      string            `json:"audit"`
	Kind       string            `json:"kind"`
	RiskLimit  float64           `json:"risk_limit"`
	Seed       string            `json:"seed"`
	Manifest   []auditBatch      `json:"manifest"`
	Candidates []string          `json:"candidates"`
	Rules      map[string]string `json:"rules,omitempty"`
	Winner     int               `json:"winner"`
	Assertions []auditAssertion  `json:"assertions"`
	Ballots    int               `json:"ballots"`
	Digest     string            `json:"digest"`
	FirstRound int               `json:"first_round"`
}

type auditRound struct {
	Election   string `json:"election"`
	ElectionID string `json:"election_id,omitempty"`
	Audit      string `json:"audit"`
	Draws      int    `json:"draws"`
}

// auditBallotRead is an audit board's reading of one sampled paper ballot:
// Pass 1 or 2 are the two members' independent entries, Pass 0 settles
// them. Ballot is the ballot's 0-based place in the manifest.
type auditBallotRead struct {
	Election   string   `json:"election"`
	ElectionID string   `json:"election_id,omitempty"`
	Audit      string   `json:"audit"`
	Ballot     int      `json:"ballot"`
	Pass       int      `json:"pass"`
	Rankings   rankList `json:"rankings,omitempty"`
	NotFound   bool     `json:"not_found,omitempty"`
}

func (d auditStarted) electionRef() (string, string)    { return d.Election, d.ElectionID }
func (d auditRound) electionRef() (string, string)      { return d.Election, d.ElectionID }
func (d auditBallotRead) electionRef() (string, string) { return d.Election, d.ElectionID }

// auditable checks that an election's polls are closed: audits run on
// the count, after voting.
func auditable(e Election) error {
	if !e.PollsClosed() {
		return Errorf(CodeConflict, "election %q is %s; an audit starts once its polls are closed", e.Name, e.Status)
	}
	return nil
}

// applyAuditStarted records an audit. The election's manager starts it,
// after the polls close; the setup must be whole (the command computed the
// assertions from the ballots; AuditState and verify check them against the
// ballots).
func applyAuditStarted(a *applier) error {
	d, e, err := managedData[auditStarted](a)
	if err != nil {
		return err
	}
	if err := auditable(e); err != nil {
		return err
	}
	if err := checkAuditSetup(a.tx, e, d); err != nil {
		return err
	}
	if _, ok, err := a.tx.Get(electionPK(e.Name), auditSK(d.Audit)); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "election %q already has audit %q", e.Name, d.Audit)
	}
	it, err := auditItem(e.Name, d, a.ev.When, a.ev.Actor)
	if err != nil {
		return err
	}
	if err := a.tx.Put(it); err != nil {
		return err
	}
	return a.tx.Put(auditRoundItem(e.Name, d.Audit, d.FirstRound))
}

// checkAuditSetup checks an audit's setup for what the events must hold.
func checkAuditSetup(tx Tx, e Election, d auditStarted) error {
	bad := func(format string, args ...any) error {
		return Errorf(CodeInvalid, "audit of %q: "+format, append([]any{e.Name}, args...)...)
	}
	if d.Audit == "" || strings.ContainsAny(d.Audit, "#") || len(d.Audit) > 64 {
		return bad("the audit id %q is not an id", d.Audit)
	}
	if d.Kind != string(rla.Comparison) && d.Kind != string(rla.Polling) {
		return bad("kind %q is not %s or %s", d.Kind, rla.Comparison, rla.Polling)
	}
	if !(d.RiskLimit > 0 && d.RiskLimit < 1) || math.IsNaN(d.RiskLimit) {
		return bad("the risk limit %v is not between 0 and 1", d.RiskLimit)
	}
	if err := rla.CheckSeed(d.Seed); err != nil {
		return bad("%v", rlaMessage(err))
	}
	m, err := fromAuditBatches(d.Manifest)
	if err != nil {
		return err
	}
	if m.Total() < d.Ballots {
		return bad("the manifest lists %d ballots for %d cast vote records", m.Total(), d.Ballots)
	}
	cands, err := candidatesOf(tx, e.Name)
	if err != nil {
		return err
	}
	if len(cands) != len(d.Candidates) {
		return bad("it names %d candidates; the election has %d", len(d.Candidates), len(cands))
	}
	for i, c := range cands {
		if c.Name != d.Candidates[i] {
			return bad("candidate %d is %q; the election's is %q", i+1, d.Candidates[i], c.Name)
		}
	}
	n := len(cands)
	if d.Winner < 0 || d.Winner >= n || len(d.Assertions) == 0 {
		return bad("it has no winner or no assertions")
	}
	for _, x := range d.Assertions {
		ok := (x.Type == string(raire.NEB) && len(x.Continuing) == 0 || x.Type == string(raire.NEN) && len(x.Continuing) >= 2) &&
			x.Winner >= 0 && x.Winner < n && x.Loser >= 0 && x.Loser < n && x.Winner != x.Loser
		for _, c := range x.Continuing {
			ok = ok && c >= 0 && c < n
		}
		if !ok {
			return bad("assertion %s %d/%d is malformed", x.Type, x.Winner, x.Loser)
		}
	}
	if d.FirstRound < 1 {
		return bad("the first round draws %d ballots", d.FirstRound)
	}
	return nil
}

func auditRoundItem(election, id string, draws int) Item {
	it := newItem(electionPK(election), auditRoundSK(id, draws), "AUDIT_ROUND")
	it.Set("draws", N(int64(draws)))
	return it
}

// applyAuditRound records a further round: its total number of draws. The
// election's manager decides it; a round no larger than one recorded adds
// nothing (two laptops that both started round two agree on it).
func applyAuditRound(a *applier) error {
	d, e, err := managedData[auditRound](a)
	if err != nil {
		return err
	}
	if err := auditable(e); err != nil {
		return err
	}
	if _, err := getAudit(a.tx, e.Name, d.Audit); err != nil {
		return err
	}
	if d.Draws < 1 || d.Draws > maxAuditDraws {
		return Errorf(CodeInvalid, "an audit round draws 1 to %d ballots, not %d", maxAuditDraws, d.Draws)
	}
	return a.tx.Put(auditRoundItem(e.Name, d.Audit, d.Draws))
}

// maxAuditDraws bounds an audit's draws; past the manifest's size an audit
// is a full hand count anyway.
const maxAuditDraws = 10_000_000

// applyAuditBallotRead records an audit board's reading of a sampled
// ballot: anyone who runs elections (USE_APPLICATION) may sit on a board.
// The ballot must be one the audit has drawn, the marks those a paper
// ballot of the election can carry.
func applyAuditBallotRead(a *applier) error {
	var d auditBallotRead
	if err := a.decode(&d); err != nil {
		return err
	}
	if _, err := a.actor(PermUseApplication); err != nil {
		return err
	}
	e, err := a.election(d.electionRef())
	if err != nil {
		return err
	}
	if err := auditable(e); err != nil {
		return err
	}
	au, err := getAudit(a.tx, e.Name, d.Audit)
	if err != nil {
		return err
	}
	if d.Pass < 0 || d.Pass > 2 {
		return Errorf(CodeInvalid, "an audit reading is pass 1 or 2, or 0 to settle them, not %d", d.Pass)
	}
	draws, err := auditDraws(a.tx, au)
	if err != nil {
		return err
	}
	if !drawn(draws, d.Ballot) {
		return Errorf(CodeInvalid, "ballot %d of the manifest is not in audit %s's sample", d.Ballot+1, au.ID)
	}
	if d.NotFound && len(d.Rankings) > 0 {
		return Errorf(CodeInvalid, "a ballot that was not found has no marks")
	}
	order := make(candidateOrder, len(au.Candidates))
	for i, n := range au.Candidates {
		order[n] = int64(i)
	}
	r, err := normalizeCast(d.Rankings, order, MaxRank)
	if err != nil {
		return err
	}
	sk := auditReadSK(au.ID, d.Ballot, d.Pass)
	if old, ok, err := a.tx.Get(electionPK(e.Name), sk); err != nil || ok && later(old, a.ev) {
		return err
	}
	it := newItem(electionPK(e.Name), sk, "AUDIT_READ")
	it.Set("ballot", N(int64(d.Ballot)))
	it.Set("pass", N(int64(d.Pass)))
	it.Set("rankings", S(EncodeRankings(r)))
	if d.NotFound {
		it.Set("not_found", Bool(true))
	}
	it.Set("when", Time(a.ev.When))
	it.Set("event_id", S(a.ev.ID))
	it.Set("actor", S(a.ev.Actor))
	return a.tx.Put(it)
}

// later reports whether a stored reading was made after ev (by time, then
// event id), so ev does not replace it.
func later(old Item, ev *Event) bool {
	w := old.TimeAttr("when")
	return w.After(ev.When) || w.Equal(ev.When) && old.Str("event_id") > ev.ID
}
