package app

import (
	"context"
	"encoding/json"
)

// Conflict is something sync found that officials must look at: a second
// ballot from a voter who had already voted (duplicate_ballot), or an edit
// made against an election version that had changed (stale_edit).
type Conflict struct {
	Election     string
	Seq          uint64
	Kind         string
	EventID      string
	Actor        string
	Voter        string
	Confirmation string
	Rankings     []Ranking
	Detail       string
	Resolved     bool
	Resolution   string
	ResolvedBy   string
}

// Rejection is an event from the log that the rules refused at its place in
// the log (for example a ballot for a candidate removed meanwhile): kept in
// the log, applied as nothing, and shown.
type Rejection struct {
	Seq     uint64
	EventID string
	Type    EventType
	Actor   string
	Code    Code
	Reason  string
}

// Conflicts lists the conflicts of one election, or of all elections when
// election is "". Rankings of secret elections are hidden below AUDITOR.
func (s *Service) Conflicts(ctx context.Context, actor, election string) ([]Conflict, error) {
	var out []Conflict
	err := s.view(ctx, "list conflicts", actor, PermViewApplication, func(tx Tx, u User) error {
		var elections []Election
		if election != "" {
			e, err := mustElection(tx, election)
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
		}
		for _, e := range elections {
			hide := e.Secret && !u.Role.Has(PermViewSecrets)
			err := tx.Query(electionPK(e.Name), prefixConflict, func(it Item) (bool, error) {
				c := Conflict{Election: e.Name, Seq: uint64(it.Int("seq")), Kind: it.Str("kind"), EventID: it.Str("event_id"),
					Actor: it.Str("actor"), Voter: it.Str("voter_name"), Detail: it.Str("detail"), Resolved: it.Flag("resolved"),
					Resolution: it.Str("resolution"), ResolvedBy: it.Str("resolved_by")}
				if !hide {
					c.Confirmation = it.Str("confirmation")
					c.Rankings, _ = DecodeRankings(it.Str("rankings"))
				}
				out = append(out, c)
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

// Rejections lists the events the rules refused, in log order.
func (s *Service) Rejections(ctx context.Context, actor string) ([]Rejection, error) {
	var out []Rejection
	err := s.view(ctx, "list rejected events", actor, PermViewApplication, func(tx Tx, _ User) error {
		return tx.Query(pkRejected, "", func(it Item) (bool, error) {
			out = append(out, Rejection{Seq: uint64(it.Int("seq")), EventID: it.Str("event_id"), Type: EventType(it.Str("event_type")),
				Actor: it.Str("actor"), Code: Code(it.Str("code")), Reason: it.Str("reason")})
			return true, nil
		})
	})
	return out, err
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
// the actor may see it: password hashes are always hidden, and the rankings
// and confirmation codes of ballots in secret (or deleted) elections are
// hidden from anyone below AUDITOR.
func (s *Service) Log(ctx context.Context, actor string, since uint64, fn func(*Event) error) error {
	return s.view(ctx, "read log", actor, PermViewApplication, func(tx Tx, u User) error {
		secret := map[string]bool{}
		return tx.Events(since, func(ev *Event) (bool, error) {
			shown, err := redact(tx, ev, u.Role.Has(PermViewSecrets), secret)
			if err != nil {
				return false, err
			}
			return true, fn(shown)
		})
	})
}

// redact returns the event as a viewer may see it.
func redact(tx Tx, ev *Event, seesSecrets bool, secret map[string]bool) (*Event, error) {
	var d map[string]any
	switch ev.Type {
	case EvUserRegistered, EvUserPasswordChanged:
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return ev, nil
		}
		d["password_hash"] = "(hidden)"
	case EvBallotCast, EvBallotRankingsChanged:
		if seesSecrets {
			return ev, nil
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return ev, nil
		}
		name, _ := d["election"].(string)
		hidden, known := secret[name]
		if !known {
			e, ok, err := getElection(tx, name)
			if err != nil {
				return nil, err
			}
			hidden = !ok || e.Secret
			secret[name] = hidden
		}
		if !hidden {
			return ev, nil
		}
		delete(d, "rankings")
		delete(d, "confirmation")
		d["redacted"] = "secret ballot"
	default:
		return ev, nil
	}
	out := *ev
	out.Data, _ = json.Marshal(d)
	return &out, nil
}
