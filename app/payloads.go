package app

import (
	"encoding/json"
	"strconv"
)

// The data of each event type, as stored in the log.

// Events about a user name the account by id (UserID) as well as by its
// name at the time; format-1 events have the name only.

type userRegistered struct {
	Name         string `json:"name"`
	Email        string `json:"email"`
	PasswordHash string `json:"password_hash,omitempty"`
	UserID       string `json:"user_id,omitempty"`
	PublicKey    string `json:"public_key,omitempty"`
	Commit       string `json:"commit,omitempty"`
}

type userRoleChanged struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	UserID string `json:"user_id,omitempty"`
}

type userNamed struct {
	Name   string `json:"name"`
	UserID string `json:"user_id,omitempty"`
}

type userPasswordChanged struct {
	Name         string `json:"name"`
	PasswordHash string `json:"password_hash,omitempty"`
	UserID       string `json:"user_id,omitempty"`
	PublicKey    string `json:"public_key,omitempty"`
	Commit       string `json:"commit,omitempty"`
}

type userKeySet struct {
	UserID       string `json:"user_id"`
	PasswordHash string `json:"password_hash,omitempty"`
	PublicKey    string `json:"public_key"`
	Commit       string `json:"commit,omitempty"`
}

type userNameChanged struct {
	Name    string `json:"name"`
	NewName string `json:"new_name"`
	UserID  string `json:"user_id,omitempty"`
}

type userEmailChanged struct {
	Name   string `json:"name"`
	Email  string `json:"email"`
	UserID string `json:"user_id,omitempty"`
}

type ownershipTransferred struct {
	To     string `json:"to"`
	UserID string `json:"user_id,omitempty"`
}

type electionCreated struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Secret      bool   `json:"secret_ballot"`
	ElectionID  string `json:"election_id,omitempty"`
}

// ElectionChanges are the settings an update may change; nil fields stay as
// they are. A window time of "" clears that bound.
type ElectionChanges struct {
	Description    *string            `json:"description,omitempty"`
	Secret         *bool              `json:"secret_ballot,omitempty"`
	NoVotingBefore *string            `json:"no_voting_before,omitempty"`
	NoVotingAfter  *string            `json:"no_voting_after,omitempty"`
	AllowEdit      *bool              `json:"allow_edit,omitempty"`
	AllowRecast    *bool              `json:"allow_recast,omitempty"`
	Method         *string            `json:"tally_method,omitempty"`
	Rules          *map[string]string `json:"tally_rules,omitempty"`
	RetainMonths   *int               `json:"retain_months,omitempty"`
}

// Events about an election name it by its id (ElectionID) as well as by
// its name at the time; format-1 events have the name only.

type electionUpdated struct {
	Name        string           `json:"name"`
	ElectionID  string           `json:"election_id,omitempty"`
	BaseVersion int64            `json:"base_version"`
	Base        *ElectionChanges `json:"base,omitempty"`
	Changes     ElectionChanges  `json:"changes"`
}

type electionNamed struct {
	Name       string `json:"name"`
	ElectionID string `json:"election_id,omitempty"`
}

type electionRenamed struct {
	Name       string `json:"name"`
	ElectionID string `json:"election_id"`
	NewName    string `json:"new_name"`
}

type candidatesChanged struct {
	Election   string   `json:"election"`
	ElectionID string   `json:"election_id,omitempty"`
	Names      []string `json:"names"`
}

// VoterEntry is one poll-book line: a name and an optional email.
type VoterEntry struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
}

type votersAdded struct {
	Election   string       `json:"election"`
	ElectionID string       `json:"election_id,omitempty"`
	Voters     []VoterEntry `json:"voters"`
}

type votersRemoved struct {
	Election   string   `json:"election"`
	ElectionID string   `json:"election_id,omitempty"`
	Names      []string `json:"names"`
}

// voterLinked links a poll-book entry to the account that may cast its
// ballot as a VOTER (UserID empty: unlinks it).
type voterLinked struct {
	Election   string `json:"election"`
	ElectionID string `json:"election_id"`
	Voter      string `json:"voter"`
	UserID     string `json:"user_id,omitempty"`
	UserName   string `json:"user_name,omitempty"`
}

// The ballot events. In the signed format their secret fields (rankings,
// confirmation codes, imported ballots) travel sealed (seal.go): Data holds
// the other fields and Commit, and Secret says whether the election was
// secret when the ballot was recorded.

type ballotCast struct {
	Election     string   `json:"election"`
	ElectionID   string   `json:"election_id,omitempty"`
	Voter        string   `json:"voter,omitempty"`
	Confirmation string   `json:"confirmation,omitempty"`
	Rankings     rankList `json:"rankings,omitempty"`
	Source       string   `json:"source"`
	Transcribed  bool     `json:"transcribed,omitempty"`
	Secret       bool     `json:"secret_ballot,omitempty"`
	Commit       string   `json:"commit,omitempty"`
}

type ballotCastSecret struct {
	Confirmation string   `json:"confirmation"`
	Rankings     rankList `json:"rankings"`
}

type ballotRankingsChanged struct {
	Election   string   `json:"election"`
	ElectionID string   `json:"election_id,omitempty"`
	Voter      string   `json:"voter"`
	Rankings   rankList `json:"rankings,omitempty"`
	Secret     bool     `json:"secret_ballot,omitempty"`
	Commit     string   `json:"commit,omitempty"`
}

type rankingsSecret struct {
	Rankings rankList `json:"rankings"`
}

// ImportedBallot is one ballot to import: the id it had in its source file
// (a cast vote record's id), its rankings as cast, and the precinct and
// batch the record names, if any (for counts by precinct or batch), and the
// tabulator that scanned it where the file says (an audit finds the paper
// by tabulator and batch).
type ImportedBallot struct {
	SourceID  string
	Rankings  []Ranking
	Precinct  string
	Batch     string
	Tabulator string
}

// MarshalJSON writes an imported ballot compactly: [source id, rankings],
// then the precinct, the batch and the tabulator, as far as it has them.
func (b ImportedBallot) MarshalJSON() ([]byte, error) { return b.appendJSON(nil) }

func (b ImportedBallot) appendJSON(out []byte) ([]byte, error) {
	if err := checkRankOrder(b.Rankings); err != nil {
		return nil, err
	}
	out = append(out, '[')
	out = appendJSONString(out, b.SourceID)
	out = append(out, ',')
	out = appendRankings(out, b.Rankings)
	if b.Precinct != "" || b.Batch != "" || b.Tabulator != "" {
		out = appendJSONString(append(out, ','), b.Precinct)
	}
	if b.Batch != "" || b.Tabulator != "" {
		out = appendJSONString(append(out, ','), b.Batch)
	}
	if b.Tabulator != "" {
		out = appendJSONString(append(out, ','), b.Tabulator)
	}
	return append(out, ']'), nil
}

// UnmarshalJSON reads [source id, rankings], then as far as written the
// precinct, the batch and the tabulator.
func (b *ImportedBallot) UnmarshalJSON(data []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(data, &pair); err != nil || len(pair) < 2 || len(pair) > 5 {
		return Errorf(CodeInvalid, "imported ballot %.40q is not [source id, rankings, precinct, batch, tabulator]", data)
	}
	if err := json.Unmarshal(pair[0], &b.SourceID); err != nil {
		return Errorf(CodeInvalid, "imported ballot source id %.40q is not a string", pair[0])
	}
	for i, to := range []*string{&b.Precinct, &b.Batch, &b.Tabulator} {
		if len(pair) > 2+i {
			if err := json.Unmarshal(pair[2+i], to); err != nil {
				return Errorf(CodeInvalid, "imported ballot %s %.40q is not a string", []string{"precinct", "batch", "tabulator"}[i], pair[2+i])
			}
		}
	}
	var r rankList
	if err := r.UnmarshalJSON(pair[1]); err != nil {
		return err
	}
	b.Rankings = r
	return nil
}

// ballotsImported carries a batch of ballots of no poll-book voter. Ballot i
// of the batch gets the id "{event id}.{i, six digits}", so ids are unique,
// ordered, and the same on every device that applies the event.
type ballotsImported struct {
	Election   string           `json:"election"`
	ElectionID string           `json:"election_id,omitempty"`
	Source     string           `json:"source"`
	Count      int              `json:"count,omitempty"`
	Secret     bool             `json:"secret_ballot,omitempty"`
	Commit     string           `json:"commit,omitempty"`
	Ballots    []ImportedBallot `json:"ballots,omitempty"`
	// normalized says the ballots' rankings are what normalizeCast made
	// of them: set by the command that just did so, whose decision is
	// applied as it made it (applier.pre); never carried in the event, so
	// every other application of the event checks them.
	normalized bool
}

// appendJSON writes the batch as encoding/json would, without reflection.
func (d ballotsImported) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"election":`...)
	b = appendJSONString(b, d.Election)
	if d.ElectionID != "" {
		b = append(b, `,"election_id":`...)
		b = appendJSONString(b, d.ElectionID)
	}
	b = append(b, `,"source":`...)
	b = appendJSONString(b, d.Source)
	if d.Count != 0 {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(d.Count), 10)
	}
	if d.Secret {
		b = append(b, `,"secret_ballot":true`...)
	}
	if d.Commit != "" {
		b = append(b, `,"commit":`...)
		b = appendJSONString(b, d.Commit)
	}
	if len(d.Ballots) == 0 {
		return append(b, '}'), nil
	}
	b = append(b, `,"ballots":`...)
	b, err := appendBallots(b, d.Ballots)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// ballotsSize is the room imported ballots take as a JSON list when no
// text needs an escape.
func ballotsSize(ballots []ImportedBallot) int {
	n := 2
	for _, x := range ballots {
		n += len(x.SourceID) + len(x.Precinct) + len(x.Batch) + len(x.Tabulator) + 16 + rankingsSize(x.Rankings)
	}
	return n
}

// appendBallots writes imported ballots as a JSON list.
func appendBallots(b []byte, ballots []ImportedBallot) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i, x := range ballots {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = x.appendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// importedSecret is the sealed part of an import: its ballots.
type importedSecret []ImportedBallot

func (s importedSecret) appendJSON(b []byte) ([]byte, error) {
	if b == nil {
		b = make([]byte, 0, ballotsSize(s)+16)
	}
	b = append(b, `{"ballots":`...)
	b, err := appendBallots(b, s)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

type conflictResolved struct {
	Election   string `json:"election"`
	ElectionID string `json:"election_id,omitempty"`
	// Conflict is the conflict's number where the official saw it: the
	// place in the log of the event that made it, which a rebase moves.
	Conflict uint64 `json:"conflict"`
	// ConflictEvent and ConflictVoter name the conflict by what made it,
	// the same wherever that event lands: the event's id and the voter it
	// is about (a merge makes one conflict per voter). Decisions recorded
	// before they were written name the conflict by number alone.
	ConflictEvent string `json:"conflict_event,omitempty"`
	ConflictVoter string `json:"conflict_voter,omitempty"`
	Accept        bool   `json:"accept"`
	Reason        string `json:"reason,omitempty"`
}

// electionEvent is event data that names the election it changes: by name,
// and in the signed format by id.
type electionEvent interface{ electionRef() (name, id string) }

func (d electionUpdated) electionRef() (string, string)       { return d.Name, d.ElectionID }
func (d electionNamed) electionRef() (string, string)         { return d.Name, d.ElectionID }
func (d electionRenamed) electionRef() (string, string)       { return d.Name, d.ElectionID }
func (d candidatesChanged) electionRef() (string, string)     { return d.Election, d.ElectionID }
func (d votersAdded) electionRef() (string, string)           { return d.Election, d.ElectionID }
func (d votersRemoved) electionRef() (string, string)         { return d.Election, d.ElectionID }
func (d voterLinked) electionRef() (string, string)           { return d.Election, d.ElectionID }
func (d ballotsImported) electionRef() (string, string)       { return d.Election, d.ElectionID }
func (d conflictResolved) electionRef() (string, string)      { return d.Election, d.ElectionID }
func (d ballotCast) electionRef() (string, string)            { return d.Election, d.ElectionID }
func (d ballotRankingsChanged) electionRef() (string, string) { return d.Election, d.ElectionID }

// sealParts splits the data of a ballot event of the signed format into
// its public part (with the secret fields left out) and its secret part;
// ok is false for data with nothing to seal.
func sealParts(data any) (public any, secret any, ok bool) {
	switch d := data.(type) {
	case ballotCast:
		sec := ballotCastSecret{Confirmation: d.Confirmation, Rankings: d.Rankings}
		d.Confirmation, d.Rankings = "", nil
		return d, sec, true
	case ballotRankingsChanged:
		sec := rankingsSecret{Rankings: d.Rankings}
		d.Rankings = nil
		return d, sec, true
	case ballotsImported:
		sec := importedSecret(d.Ballots)
		d.Ballots, d.Count = nil, len(sec)
		return d, sec, true
	case userRegistered:
		sec := passwordSecret{PasswordHash: d.PasswordHash}
		d.PasswordHash = ""
		return d, sec, true
	case userPasswordChanged:
		sec := passwordSecret{PasswordHash: d.PasswordHash}
		d.PasswordHash = ""
		return d, sec, true
	case userKeySet:
		sec := passwordSecret{PasswordHash: d.PasswordHash}
		d.PasswordHash = ""
		return d, sec, true
	}
	return data, nil, false
}

// passwordSecret is the sealed part of an event that sets a password: the
// hash, which nobody is shown.
type passwordSecret struct {
	PasswordHash string `json:"password_hash"`
}

// withCommit returns public data with its commitment set.
func withCommit(public any, commit string) any {
	switch d := public.(type) {
	case userRegistered:
		d.Commit = commit
		return d
	case userPasswordChanged:
		d.Commit = commit
		return d
	case userKeySet:
		d.Commit = commit
		return d
	case ballotCast:
		d.Commit = commit
		return d
	case ballotRankingsChanged:
		d.Commit = commit
		return d
	case ballotsImported:
		d.Commit = commit
		return d
	}
	return public
}

func (d ballotCast) commitment() string            { return d.Commit }
func (d userRegistered) commitment() string        { return d.Commit }
func (d userPasswordChanged) commitment() string   { return d.Commit }
func (d userKeySet) commitment() string            { return d.Commit }
func (d ballotRankingsChanged) commitment() string { return d.Commit }
func (d ballotsImported) commitment() string       { return d.Commit }
