package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// EventType names what happened.
type EventType string

// The event types of the log.
const (
	EvUserRegistered        EventType = "UserRegistered"
	EvUserRoleChanged       EventType = "UserRoleChanged"
	EvUserRemoved           EventType = "UserRemoved"
	EvUserPasswordChanged   EventType = "UserPasswordChanged"
	EvUserNameChanged       EventType = "UserNameChanged"
	EvUserEmailChanged      EventType = "UserEmailChanged"
	EvOwnershipTransferred  EventType = "OwnershipTransferred"
	EvElectionCreated       EventType = "ElectionCreated"
	EvElectionUpdated       EventType = "ElectionUpdated"
	EvElectionLaunched      EventType = "ElectionLaunched"
	EvElectionFinalized     EventType = "ElectionFinalized"
	EvElectionDeleted       EventType = "ElectionDeleted"
	EvCandidatesAdded       EventType = "CandidatesAdded"
	EvCandidatesRemoved     EventType = "CandidatesRemoved"
	EvVotersAdded           EventType = "VotersAdded"
	EvVotersRemoved         EventType = "VotersRemoved"
	EvBallotCast            EventType = "BallotCast"
	EvBallotRankingsChanged EventType = "BallotRankingsChanged"
	EvBallotsImported       EventType = "BallotsImported"
	EvConflictResolved      EventType = "ConflictResolved"
)

// Event is one entry of the append-only log: what happened (Type and Data),
// who did it (Actor), when by the acting device's clock (When), and the
// event's stable id (device id and device sequence), which stays the same
// wherever the event travels. Seq is its place in the log, PrevHash the hash
// of the event before it, and Hash the hash of this one over PrevHash and the
// event's content, which chains the log.
type Event struct {
	Seq      uint64          `json:"seq"`
	ID       string          `json:"id"`
	When     time.Time       `json:"when"`
	Actor    string          `json:"actor"`
	Type     EventType       `json:"type"`
	Data     json.RawMessage `json:"data"`
	PrevHash string          `json:"prev_hash"`
	Hash     string          `json:"hash"`
}

// ComputeHash returns the hash of the event chained after prev: the hex
// SHA-256 of prev, a newline, and the event's content (id, time, actor, type
// and data, everything but its position) as canonical JSON.
func (e *Event) ComputeHash(prev string) string {
	b := make([]byte, 0, 128+len(e.Data))
	b = append(b, '{')
	b = e.appendContent(b, FormatTime(e.When))
	b = append(b, '}')
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// appendContent appends the event's content fields, the ones its hash
// covers, with its time written as when: "id", "when", "actor", "type" and
// "data", without braces.
func (e *Event) appendContent(b []byte, when string) []byte {
	b = append(b, `"id":`...)
	b = appendJSONString(b, e.ID)
	b = append(b, `,"when":`...)
	b = appendJSONString(b, when)
	b = append(b, `,"actor":`...)
	b = appendJSONString(b, e.Actor)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, string(e.Type))
	b = append(b, `,"data":`...)
	return append(b, e.Data...)
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it (so the bytes match json.Marshal's).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			q, _ := json.Marshal(s) // marshalling a string cannot fail
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Chain places the event after prev: it sets PrevHash and Hash.
func (e *Event) Chain(prev string) {
	e.PrevHash = prev
	e.Hash = e.ComputeHash(prev)
}

// EncodeEvent writes an event as the log stores it: JSON with the fields in
// a fixed order. Data must be valid, compact JSON (as json.Marshal makes it,
// and as DecodeEvent checks it).
func EncodeEvent(e *Event) ([]byte, error) {
	if !json.Valid(e.Data) {
		return nil, Errorf(CodeInvalid, "event %s has no valid JSON data", e.ID)
	}
	b := make([]byte, 0, 256+len(e.Data))
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, e.Seq, 10)
	b = append(b, ',')
	b = e.appendContent(b, e.When.UTC().Format(time.RFC3339Nano))
	b = append(b, `,"prev_hash":`...)
	b = appendJSONString(b, e.PrevHash)
	b = append(b, `,"hash":`...)
	b = appendJSONString(b, e.Hash)
	return append(b, '}'), nil
}

// DecodeEvent reads an event written by EncodeEvent and checks that it is
// whole: a known type, an id, a time and JSON data.
func DecodeEvent(b []byte) (*Event, error) {
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, Errorf(CodeInvalid, "event is not valid JSON: %v", err)
	}
	if err := e.Check(); err != nil {
		return nil, err
	}
	return &e, nil
}

// Check reports what is missing or malformed in an event's envelope.
func (e *Event) Check() error {
	switch {
	case e.ID == "":
		return Errorf(CodeInvalid, "event %d has no id", e.Seq)
	case e.When.IsZero():
		return Errorf(CodeInvalid, "event %s has no time", e.ID)
	case !knownTypes[e.Type]:
		return Errorf(CodeInvalid, "event %s has unknown type %q", e.ID, e.Type)
	case len(e.Data) == 0 || !json.Valid(e.Data):
		return Errorf(CodeInvalid, "event %s (%s) has no valid JSON data", e.ID, e.Type)
	}
	return nil
}

var knownTypes = map[EventType]bool{
	EvUserRegistered: true, EvUserRoleChanged: true, EvUserRemoved: true, EvUserPasswordChanged: true,
	EvUserNameChanged: true, EvUserEmailChanged: true, EvOwnershipTransferred: true,
	EvElectionCreated: true, EvElectionUpdated: true, EvElectionLaunched: true, EvElectionFinalized: true,
	EvElectionDeleted: true, EvCandidatesAdded: true, EvCandidatesRemoved: true, EvVotersAdded: true,
	EvVotersRemoved: true, EvBallotCast: true, EvBallotRankingsChanged: true, EvBallotsImported: true,
	EvConflictResolved: true,
}

// EventTypes lists every event type.
func EventTypes() []EventType {
	out := make([]EventType, 0, len(knownTypes))
	for t := range knownTypes {
		out = append(out, t)
	}
	sortStrings(out)
	return out
}
