package app

import (
	"context"
	"encoding/json"
	"fmt"
)

// Conflict is something sync found that officials must look at (see
// apply_conflict.go for the kinds).
type Conflict struct {
	Election     string
	Seq          uint64
	Kind         string
	EventID      string
	Actor        string
	Voter        string
	Confirmation string
	Rankings     []Ranking
	// SetAside and SetAsideRankings are, once a duplicate ballot was
	// accepted, the confirmation code and rankings of the ballot it
	// replaced, which the conflict keeps.
	SetAside         string
	SetAsideRankings []Ranking
	Detail           string
	Resolved         bool
	Resolution       string
	ResolvedBy       string
	ResolutionReason string
}

// Rejection is an event from the log that the rules refused at its place in
// the log (for example a ballot for a candidate removed meanwhile): kept in
// the log, applied as nothing, and shown.
type Rejection struct {
	Seq      uint64
	EventID  string
	Type     EventType
	Actor    string
	Election string
	Code     Code
	Reason   string
}

// Conflicts lists the conflicts of one election, or of all elections and
// those outside any election when election is "". Confirmation codes and
// rankings of secret ballots are hidden below AUDITOR (the disclosure rule's
// links: with the list of ballots, a code names a voter's ranking).
func (s *Service) Conflicts(ctx context.Context, actor, election string) ([]Conflict, error) {
	var out []Conflict
	err := s.view(ctx, "list conflicts", actor, PermViewApplication, func(tx Tx, u User) error {
		var elections []Election
		if election != "" {
			e, err := electionFor(ctx, tx, election)
			if err != nil {
				return err
			}
			elections = []Election{e}
		} else {
			err := tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
				elections = append(elections, electionFromItem(it))
				return true, nil
			})
			if err != nil {
				return err
			}
			if err := tx.Query(pkMetadata, prefixConflict, func(it Item) (bool, error) {
				// A receipted ballot whose election was deleted is shown
				// as that election's ballots would be (its secrecy kept
				// on the conflict): links below AUDITOR only if open.
				out = append(out, conflictFromItem("", it, !it.Flag("secret") || u.Role.Has(PermViewSecrets)))
				return true, nil
			}); err != nil {
				return err
			}
		}
		for _, e := range elections {
			links := Disclose(e, u.Role).Links
			err := tx.Query(electionPK(e.Name), prefixConflict, func(it Item) (bool, error) {
				out = append(out, conflictFromItem(e.Name, it, links))
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

func conflictFromItem(election string, it Item, links bool) Conflict {
	c := Conflict{Election: election, Seq: uint64(it.Int("seq")), Kind: it.Str("kind"), EventID: it.Str("event_id"),
		Actor: it.Str("actor"), Voter: it.Str("voter_name"), Detail: it.Str("detail"), Resolved: it.Flag("resolved"),
		Resolution: it.Str("resolution"), ResolvedBy: it.Str("resolved_by"), ResolutionReason: it.Str("resolution_reason")}
	if links {
		c.Confirmation = it.Str("confirmation")
		c.Rankings, _ = DecodeRankings(it.Str("rankings"))
		c.SetAside = it.Str("set_aside_confirmation")
		c.SetAsideRankings, _ = DecodeRankings(it.Str("set_aside_rankings"))
	} else if _, decided := it.Get("set_aside_confirmation"); c.Kind == "duplicate_ballot" && !decided {
		// Conflicts recorded before codes were kept out of the detail
		// named the code there (an accepted one's says what was set
		// aside, without codes).
		c.Detail = fmt.Sprintf("%q cast a second ballot after one already in the log; the first counts until an official decides", c.Voter)
	}
	return c
}

// Rejections lists the events the rules refused, in log order. Below
// AUDITOR the reasons for refused ballots of secret elections are withheld
// (a reason such as "X is not a candidate" would tell a ranking).
func (s *Service) Rejections(ctx context.Context, actor string) ([]Rejection, error) {
	var out []Rejection
	err := s.view(ctx, "list rejected events", actor, PermViewApplication, func(tx Tx, u User) error {
		return tx.Query(pkRejected, "", func(it Item) (bool, error) {
			r := Rejection{Seq: uint64(it.Int("seq")), EventID: it.Str("event_id"), Type: EventType(it.Str("event_type")),
				Actor: it.Str("actor"), Election: it.Str("election_name"), Code: Code(it.Str("code")), Reason: it.Str("reason")}
			if carriesBallots(r.Type) && !u.Role.Has(PermViewSecrets) {
				secret, err := ballotEventSecret(tx, it.Str("election_id"), r.Election, r.Seq)
				if err != nil {
					return false, err
				}
				if secret {
					r.Reason = "a ballot of a secret election was refused (the reason is shown to AUDITOR and up)"
				}
			}
			out = append(out, r)
			return true, nil
		})
	})
	return out, err
}

// carriesBallots reports whether events of a type carry ballot contents.
func carriesBallots(t EventType) bool {
	return t == EvBallotCast || t == EvBallotRankingsChanged || t == EvBallotsImported
}

// ballotEventSecret says whether a ballot event at seq, naming an election
// by id (signed events) or by name, belongs to an election whose ballots
// are secret: decided by the election it was made in (its history item),
// never by another election that has the name now. An election that
// cannot be found counts as secret.
func ballotEventSecret(tx Tx, id, name string, seq uint64) (bool, error) {
	if id == "" {
		var err error
		if id, err = electionAt(tx, name, seq); err != nil || id == "" {
			return true, err
		}
	}
	r, ok, err := getElectionRecord(tx, id)
	for hops := 0; err == nil && ok && r.MergedInto != "" && !r.Secret && !r.SealedBallots && hops < 64; hops++ {
		r, ok, err = getElectionRecord(tx, r.MergedInto)
	}
	if err != nil || !ok {
		return true, err
	}
	return r.Secret || r.SealedBallots, nil
}

// electionAt finds the id of the election that had name at log position
// seq: the last one created under that name at or before seq.
func electionAt(tx Tx, name string, seq uint64) (string, error) {
	var id string
	at := seqKey(seq)
	err := tx.Query(electionNamePK(name), "", func(it Item) (bool, error) {
		if it.SK() > at {
			return false, nil
		}
		id = it.Str("election_id")
		return true, nil
	})
	return id, err
}

// LogHead returns the sequence number and hash of the last event in the
// log: the position a report or an export read the database at.
func (s *Service) LogHead(ctx context.Context, actor string) (seq uint64, hash string, err error) {
	err = s.view(ctx, "read log head", actor, PermViewApplication, func(tx Tx, _ User) error {
		seq, hash, err = tx.Head()
		return err
	})
	return seq, hash, err
}

// Log calls fn with each event from sequence number since on, in order, as
// the actor may see it (see redactor).
func (s *Service) Log(ctx context.Context, actor string, since uint64, fn func(*Event) error) error {
	return s.view(ctx, "read log", actor, PermViewApplication, func(tx Tx, u User) error {
		r := &redactor{tx: tx, seesSecrets: u.Role.Has(PermViewSecrets), secret: map[string]bool{}}
		return tx.Events(since, func(ev *Event) (bool, error) {
			shown, err := r.show(ev)
			if err != nil {
				return false, err
			}
			return true, fn(shown)
		})
	})
}

// Withheld marks a hash the log does not show a viewer (see redactor).
const Withheld = "(withheld)"

// redactor shows events as a viewer may see them. Password hashes are never
// shown. Below AUDITOR, ballot events of elections whose ballots are secret
// lose their contents: a signed event its sealed part (its hash and
// signatures still check: they cover only the commitment); a format-1 event
// its rankings and confirmation code, and, since its hash covers them and
// would confirm a guess, its hash and the next event's prev_hash are
// withheld too (an observer checks the chain of such a log from its first
// signed event on).
type redactor struct {
	tx          Tx
	seesSecrets bool
	secret      map[string]bool
	lastHidden  bool
}

func (r *redactor) show(ev *Event) (*Event, error) {
	hidePrev := r.lastHidden
	r.lastHidden = false
	out, err := r.redact(ev)
	if err != nil {
		return nil, err
	}
	if hidePrev {
		if out == ev {
			cp := *ev
			out = &cp
		}
		out.PrevHash = Withheld
	}
	return out, nil
}

func (r *redactor) redact(ev *Event) (*Event, error) {
	switch ev.Type {
	case EvUserRegistered, EvUserPasswordChanged, EvUserKeySet:
		if ev.Signed() {
			return ev.Redacted(), nil
		}
		return r.rewrite(ev, func(d map[string]any) { d["password_hash"] = "(hidden)" }, false)
	case EvBallotCast, EvBallotRankingsChanged, EvBallotsImported:
		if r.seesSecrets {
			return ev, nil
		}
		var ref struct {
			Election   string `json:"election"`
			ElectionID string `json:"election_id"`
			Secret     bool   `json:"secret_ballot"`
		}
		_ = json.Unmarshal(ev.Data, &ref)
		key := ref.ElectionID + "\x00" + ref.Election
		hidden, known := r.secret[key]
		if !known || ref.ElectionID == "" {
			var err error
			if hidden, err = ballotEventSecret(r.tx, ref.ElectionID, ref.Election, ev.Seq); err != nil {
				return nil, err
			}
			if ref.ElectionID != "" {
				r.secret[key] = hidden
			}
		}
		if !hidden && !ref.Secret {
			return ev, nil
		}
		if ev.Signed() {
			return ev.Redacted(), nil
		}
		return r.rewrite(ev, func(d map[string]any) {
			delete(d, "rankings")
			delete(d, "confirmation")
			delete(d, "ballots")
			d["redacted"] = "secret ballot"
		}, true)
	}
	return ev, nil
}

// rewrite shows a format-1 event with its data changed; withhold hides its
// hash (and, through show, the next event's prev_hash).
func (r *redactor) rewrite(ev *Event, change func(map[string]any), withhold bool) (*Event, error) {
	var d map[string]any
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		return ev, nil
	}
	change(d)
	out := *ev
	out.Data, _ = json.Marshal(d)
	if withhold {
		out.Hash = Withheld
		r.lastHidden = true
	}
	return &out, nil
}
