package app

import "encoding/json"

// The data of each event type, as stored in the log.

type userRegistered struct {
	Name         string `json:"name"`
	Email        string `json:"email"`
	PasswordHash string `json:"password_hash"`
}

type userRoleChanged struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

type userNamed struct {
	Name string `json:"name"`
}

type userPasswordChanged struct {
	Name         string `json:"name"`
	PasswordHash string `json:"password_hash"`
}

type userNameChanged struct {
	Name    string `json:"name"`
	NewName string `json:"new_name"`
}

type userEmailChanged struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

type ownershipTransferred struct {
	To string `json:"to"`
}

type electionCreated struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Secret      bool   `json:"secret_ballot"`
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
}

type electionUpdated struct {
	Name        string          `json:"name"`
	BaseVersion int64           `json:"base_version"`
	Changes     ElectionChanges `json:"changes"`
}

type electionNamed struct {
	Name string `json:"name"`
}

type candidatesChanged struct {
	Election string   `json:"election"`
	Names    []string `json:"names"`
}

// VoterEntry is one poll-book line: a name and an optional email.
type VoterEntry struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
}

type votersAdded struct {
	Election string       `json:"election"`
	Voters   []VoterEntry `json:"voters"`
}

type votersRemoved struct {
	Election string   `json:"election"`
	Names    []string `json:"names"`
}

type ballotCast struct {
	Election     string   `json:"election"`
	Voter        string   `json:"voter,omitempty"`
	Confirmation string   `json:"confirmation"`
	Rankings     rankList `json:"rankings"`
	Source       string   `json:"source"`
	Transcribed  bool     `json:"transcribed,omitempty"`
}

type ballotRankingsChanged struct {
	Election string   `json:"election"`
	Voter    string   `json:"voter"`
	Rankings rankList `json:"rankings"`
}

// ImportedBallot is one ballot to import: the id it had in its source file
// (a cast vote record's id) and its rankings.
type ImportedBallot struct {
	SourceID string
	Rankings []Ranking
}

// MarshalJSON writes an imported ballot compactly: [source id, rankings].
func (b ImportedBallot) MarshalJSON() ([]byte, error) { return b.appendJSON(nil) }

func (b ImportedBallot) appendJSON(out []byte) ([]byte, error) {
	if err := checkRankOrder(b.Rankings); err != nil {
		return nil, err
	}
	out = append(out, '[')
	out = appendJSONString(out, b.SourceID)
	out = append(out, ',')
	out = appendRankings(out, b.Rankings)
	return append(out, ']'), nil
}

// UnmarshalJSON reads [source id, rankings].
func (b *ImportedBallot) UnmarshalJSON(data []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(data, &pair); err != nil || len(pair) != 2 {
		return Errorf(CodeInvalid, "imported ballot %.40q is not [source id, rankings]", data)
	}
	if err := json.Unmarshal(pair[0], &b.SourceID); err != nil {
		return Errorf(CodeInvalid, "imported ballot source id %.40q is not a string", pair[0])
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
	Election string           `json:"election"`
	Source   string           `json:"source"`
	Ballots  []ImportedBallot `json:"ballots"`
}

// appendJSON writes the batch as encoding/json would, without reflection.
func (d ballotsImported) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"election":`...)
	b = appendJSONString(b, d.Election)
	b = append(b, `,"source":`...)
	b = appendJSONString(b, d.Source)
	b = append(b, `,"ballots":[`...)
	var err error
	for i, x := range d.Ballots {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = x.appendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, "]}"...), nil
}

type conflictResolved struct {
	Election string `json:"election"`
	Conflict uint64 `json:"conflict"`
	Accept   bool   `json:"accept"`
}

// electionEvent is event data that names the election it changes.
type electionEvent interface{ electionName() string }

func (d electionUpdated) electionName() string       { return d.Name }
func (d electionNamed) electionName() string         { return d.Name }
func (d candidatesChanged) electionName() string     { return d.Election }
func (d votersAdded) electionName() string           { return d.Election }
func (d votersRemoved) electionName() string         { return d.Election }
func (d ballotsImported) electionName() string       { return d.Election }
func (d conflictResolved) electionName() string      { return d.Election }
func (d ballotCast) electionName() string            { return d.Election }
func (d ballotRankingsChanged) electionName() string { return d.Election }
