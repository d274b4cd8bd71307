package app

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
	Election     string    `json:"election"`
	Voter        string    `json:"voter,omitempty"`
	Confirmation string    `json:"confirmation"`
	Rankings     []Ranking `json:"rankings"`
	Source       string    `json:"source"`
	Transcribed  bool      `json:"transcribed,omitempty"`
}

type ballotRankingsChanged struct {
	Election string    `json:"election"`
	Voter    string    `json:"voter"`
	Rankings []Ranking `json:"rankings"`
}

// ImportedBallot is one ballot of a BallotsImported event.
type ImportedBallot struct {
	ID       string    `json:"id"`
	SourceID string    `json:"source_id,omitempty"`
	Rankings []Ranking `json:"rankings"`
}

type ballotsImported struct {
	Election string           `json:"election"`
	Source   string           `json:"source"`
	Ballots  []ImportedBallot `json:"ballots"`
}

type conflictResolved struct {
	Election string `json:"election"`
	Conflict uint64 `json:"conflict"`
	Accept   bool   `json:"accept"`
}
