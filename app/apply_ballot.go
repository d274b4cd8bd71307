package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// errAdjudicable marks a ballot's refusal that officials may overturn: the
// ballot was cast with a receipt, and only where it landed in the log (after
// the polls closed, outside the window, after its voter left the poll book)
// refused it. Replay keeps such a ballot for officials to accept or dismiss.
var errAdjudicable = errors.New("a receipted ballot officials may adjudicate")

// adjudicable wraps a refusal of a receipted ballot.
func adjudicable(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: errAdjudicable}
}

// votingOpen checks that election e takes ballots at time t.
func votingOpen(e Election, t time.Time) error {
	switch {
	case e.Status == StatusDraft:
		return adjudicable(CodeConflict, "election %q is not launched yet; voting opens at launch", e.Name)
	case e.Status == StatusFinalized:
		return adjudicable(CodeConflict, "election %q is finalized; voting is over", e.Name)
	case e.Status == StatusClosed:
		return adjudicable(CodeConflict, "the polls of %q are closed", e.Name)
	case !e.AllowVote:
		return adjudicable(CodeConflict, "election %q does not take ballots now", e.Name)
	case !e.NoVotingBefore.IsZero() && t.Before(e.NoVotingBefore):
		return adjudicable(CodeConflict, "voting in %q opens at %s", e.Name, FormatTime(e.NoVotingBefore))
	case !e.NoVotingAfter.IsZero() && t.After(e.NoVotingAfter):
		return adjudicable(CodeConflict, "voting in %q closed at %s", e.Name, FormatTime(e.NoVotingAfter))
	}
	return nil
}

// voterFor checks that the actor may cast for voter in election e: the voter
// is in the poll book, and a VOTER casts only the ballot of the entry linked
// to their account (format-1 events: of the entry with their name). An empty
// voter is a ballot of no poll-book voter (a transcribed paper ballot), which
// only officials (USE_APPLICATION) may enter.
//
// A signed ballot refused for its actor's standing (ErrAuthority) is
// adjudicable: a kiosk official's role may have been taken away, their
// password changed (a new signing key) or their account removed on
// another device while this one took the ballot offline and handed its
// voter a receipt, so officials decide, not the rules.
func (a *applier) voterFor(e Election, voter string) error {
	u, err := a.actor(PermVote)
	if errors.Is(err, ErrAuthority) {
		return a.roleRefusal("%s", ErrorMessage(err))
	}
	if err != nil {
		return err
	}
	if voter == "" {
		if !u.Role.Has(PermUseApplication) {
			return a.roleRefusal("entering a ballot without a voter needs %s; %s has role %s", PermUseApplication, u.Name, u.Role)
		}
		return nil
	}
	if !a.ev.Signed() && !u.Role.Has(PermUseApplication) && voter != u.Name {
		return Errorf(CodeForbidden, "%s (%s) may only cast their own ballot", u.Name, u.Role)
	}
	it, ok, err := a.tx.Get(electionPK(e.Name), voterSK(voter))
	if err != nil {
		return err
	}
	if a.ev.Signed() && !u.Role.Has(PermUseApplication) && (!ok || it.Str("account_id") != u.ID) {
		return a.roleRefusal("%s (%s) may only cast the ballot of the poll-book entry linked to their account", u.Name, u.Role)
	}
	if !ok {
		return adjudicable(CodeForbidden, "%q is not in the poll book of %q", voter, e.Name)
	}
	return nil
}

// roleRefusal refuses a ballot for its actor's role: adjudicable when the
// event is signed (voterFor).
func (a *applier) roleRefusal(format string, args ...any) error {
	if a.ev.Signed() {
		return &Error{Code: CodeForbidden, Message: fmt.Sprintf(format+" where the ballot reached the log", args...), Err: errors.Join(errAdjudicable, ErrAuthority)}
	}
	return authority(Errorf(CodeForbidden, format, args...))
}

// secretMatches checks that a signed ballot event says what the election's
// secrecy was when it was recorded: its redaction in the log follows it.
func (a *applier) secretMatches(e Election, secret bool) error {
	if a.ev.Signed() && secret != e.Secret {
		return Errorf(CodeConflict, "the ballot was recorded for a %s election, but %q is now %s; record it again",
			secrecy(secret), e.Name, secrecy(e.Secret))
	}
	return nil
}

func secrecy(secret bool) string {
	if secret {
		return "secret-ballot"
	}
	return "open-ballot"
}

// sealIfSecret marks the election's ballots secret from now on when it is
// a secret election.
func sealIfSecret(e *Election) {
	if e.Secret {
		e.SealedBallots = true
	}
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
	if err := a.secretMatches(e, d.Secret); err != nil {
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
	pk, sk := electionPK(e.Name), b.key()
	if d.Voter == "" {
		// Two devices offline can draw the same code (sixty bits); the
		// later ballot in the log is kept beside the first, not refused.
		if sk, err = a.freeUnlistedSK(pk, sk); err != nil {
			return err
		}
	} else if _, ok, err := a.tx.Get(pk, sk); err != nil || ok {
		if err != nil {
			return err
		}
		extra := Item{{"confirmation", S(d.Confirmation)}, {"rankings", S(EncodeRankings(rankings))}, {"source", S(d.Source)}, {"voter_name", S(d.Voter)}}
		if d.Transcribed {
			extra = append(extra, Attr{"transcribed", Bool(true)})
		}
		return a.flagConflict(&e, "duplicate_ballot", a.duplicateDetail(d), extra)
	}
	if err := a.tx.Put(b.fill(nil, pk, sk, FormatTime(b.WhenCast))); err != nil {
		return err
	}
	e.Ballots++
	e.LastChanged = a.ev.When
	sealIfSecret(&e)
	return putElection(a.tx, e)
}

// duplicateDetail says what a second ballot of a voter is, without its
// confirmation code or rankings (the conflict keeps them for AUDITOR+).
func (a *applier) duplicateDetail(d ballotCast) string {
	if !a.ev.Signed() {
		return fmt.Sprintf("%q cast a second ballot (confirmation %s) after one already in the log; the first counts until an official decides", d.Voter, d.Confirmation)
	}
	return fmt.Sprintf("%q cast a second ballot after one already in the log; the first counts until an official decides", d.Voter)
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
	if err := a.secretMatches(e, d.Secret); err != nil {
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
	sealIfSecret(&e)
	return putElection(a.tx, e)
}

func applyBallotsImported(a *applier) error {
	d, e, err := managedData[ballotsImported](a)
	if err != nil {
		return err
	}
	if e.Status == StatusFinalized {
		return Errorf(CodeConflict, "election %q is finalized; no ballots can be added", e.Name)
	}
	if err := a.secretMatches(e, d.Secret); err != nil {
		return err
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
	if d.Count != 0 && d.Count != len(d.Ballots) {
		return Errorf(CodeInvalid, "import %s says it holds %d ballots but holds %d", a.ev.ID, d.Count, len(d.Ballots))
	}
	order := orderOf(cands)
	imported := d.Ballots
	if !d.normalized {
		imported = make([]ImportedBallot, len(d.Ballots))
	}
	for i, ib := range d.Ballots {
		if !d.normalized {
			if ib.Rankings, err = normalizeCast(ib.Rankings, order, MaxRank); err != nil {
				return Errorf(CodeInvalid, "imported ballot %d (%s): %s", i+1, ib.SourceID, ErrorMessage(err))
			}
			imported[i] = ib
		}
		if why := tooBig(ib); why != "" && a.ev.V >= FormatChunked {
			return Errorf(CodeInvalid, "imported ballot %d (%.40q): %s", i+1, ib.SourceID, why)
		}
		if err := checkGroupID("precinct", ib.Precinct); err != nil {
			return Errorf(CodeInvalid, "imported ballot %d (%s): %s", i+1, ib.SourceID, ErrorMessage(err))
		}
		if err := checkGroupID("batch", ib.Batch); err != nil {
			return Errorf(CodeInvalid, "imported ballot %d (%s): %s", i+1, ib.SourceID, ErrorMessage(err))
		}
		if err := checkGroupID("tabulator", ib.Tabulator); err != nil {
			return Errorf(CodeInvalid, "imported ballot %d (%s): %s", i+1, ib.SourceID, ErrorMessage(err))
		}
		e.Grouped = e.Grouped || ib.Precinct != "" || ib.Batch != "" || ib.Tabulator != ""
	}
	pk := electionPK(e.Name)
	// The ids come from the event id, so one lookup tells whether this
	// event's ballots are already there.
	if _, ok, err := a.tx.Get(pk, importedSK(a.ev.ID, 0)); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "the ballots of import %s are already in %q", a.ev.ID, e.Name)
	}
	when := FormatTime(a.ev.When)
	if a.ev.V >= FormatChunked {
		err = putChunks(a.tx, pk, a.ev.ID, e, d.Source, when, imported)
	} else {
		err = putBallotItems(a.tx, pk, a.ev, e, d.Source, when, imported)
	}
	if err != nil {
		return err
	}
	e.Ballots += int64(len(imported))
	e.LastChanged = a.ev.When
	sealIfSecret(&e)
	return putElection(a.tx, e)
}

// putChunks stores an import's ballots (format 3) as chunks.
func putChunks(tx Tx, pk, eventID string, e Election, source, when string, ballots []ImportedBallot) error {
	cols, err := columnsOf(ballots)
	if err != nil {
		return err
	}
	starts := cols.starts()
	keys := make([]string, len(starts))
	for i, lo := range starts {
		keys[i] = importedSK(eventID, lo)
	}
	return tx.PutNew(pk, keys, func(i int) Item {
		hi := len(ballots)
		if i+1 < len(starts) {
			hi = starts[i+1]
		}
		return cols.item(pk, keys[i], e, source, when, starts[i], hi)
	})
}

// putBallotItems stores an import's ballots (format 2) as an item each.
func putBallotItems(tx Tx, pk string, ev *Event, e Election, source, when string, ballots []ImportedBallot) error {
	keys := make([]string, len(ballots))
	for i := range ballots {
		keys[i] = importedSK(ev.ID, i)
	}
	var it Item
	return tx.PutNew(pk, keys, func(i int) Item {
		ib := ballots[i]
		b := Ballot{Election: e.Name, Confirmation: keys[i][len(prefixUnlisted):], WhenCast: ev.When, Rankings: ib.Rankings, Source: source, SourceID: ib.SourceID,
			Precinct: ib.Precinct, Batch: ib.Batch, Tabulator: ib.Tabulator}
		it = b.fill(it, pk, keys[i], when)
		return it
	})
}

// checkGroupID checks the precinct or batch id of an imported ballot: text
// of at most MaxNameLength characters without control characters.
func checkGroupID(kind, id string) error {
	if id == "" {
		return nil
	}
	if !utf8.ValidString(id) || utf8.RuneCountInString(id) > MaxNameLength || strings.ContainsFunc(id, unicode.IsControl) {
		return Errorf(CodeInvalid, "%s id %.40q is not text of at most %d characters without control characters", kind, id, MaxNameLength)
	}
	return nil
}

// maxImportBatch is the most ballots one BallotsImported event may carry.
const maxImportBatch = 100_000

// importedSK is the sort key of ballot i of the import event with id
// eventID: BALLOT## and the ballot's id, "{event id}.{i, six digits}".
func importedSK(eventID string, i int) string {
	return string(appendImportedKey(nil, prefixUnlisted+eventID+".", i))
}

// freeUnlistedSK returns sk, the sort key of a ballot of no poll-book
// voter, when the election holds no item there, and otherwise the first
// free of sk~2, sk~3, ...: a ballot whose confirmation code another ballot
// already has (two devices drew it offline, or two elections merged) is
// kept under a key of its own, the same on every device (log order decides
// which is first), and listed with its code like any other. The suffix is a
// count, not the event's id, which would tell which device cast it when.
func (a *applier) freeUnlistedSK(pk, sk string) (string, error) {
	try := sk
	for n := 2; ; n++ {
		taken, err := unlistedTaken(a.tx, pk, try)
		if err != nil || !taken {
			return try, err
		}
		try = sk + "~" + strconv.Itoa(n)
	}
}
