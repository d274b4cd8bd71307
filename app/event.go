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
	EvUserKeySet            EventType = "UserKeySet"
	EvOwnershipTransferred  EventType = "OwnershipTransferred"
	EvElectionCreated       EventType = "ElectionCreated"
	EvElectionUpdated       EventType = "ElectionUpdated"
	EvElectionLaunched      EventType = "ElectionLaunched"
	EvElectionClosed        EventType = "ElectionClosed"
	EvElectionFinalized     EventType = "ElectionFinalized"
	EvElectionDeleted       EventType = "ElectionDeleted"
	EvElectionArchived      EventType = "ElectionArchived"
	EvElectionRestored      EventType = "ElectionRestored"
	EvElectionRenamed       EventType = "ElectionRenamed"
	EvCandidatesAdded       EventType = "CandidatesAdded"
	EvCandidatesRemoved     EventType = "CandidatesRemoved"
	EvVotersAdded           EventType = "VotersAdded"
	EvVotersRemoved         EventType = "VotersRemoved"
	EvVoterLinked           EventType = "VoterLinked"
	EvBallotCast            EventType = "BallotCast"
	EvBallotRankingsChanged EventType = "BallotRankingsChanged"
	EvBallotsImported       EventType = "BallotsImported"
	EvConflictResolved      EventType = "ConflictResolved"
	EvDeviceJoined          EventType = "DeviceJoined"
	EvAuditStarted          EventType = "AuditStarted"
	EvAuditRoundStarted     EventType = "AuditRoundStarted"
	EvAuditBallotRead       EventType = "AuditBallotRead"
)

// The formats of an event. Format 1 (V = 0 when decoded: the field did not
// exist) is what VoteDesk wrote before events were signed: its hash covers
// the whole event. Format 2 adds who acted by account id, the actor's and
// the device's signatures, and a sealed part kept out of the hash. Format
// 3 is format 2 for an import whose ballots are stored in chunks
// (ballot_chunk.go), where a format 2 import stores an item a ballot:
// what a device stores for an event must not depend on its version, so a
// VoteDesk that stores imports only the older way stops at such an event
// (Check) and asks to be updated, where it would store them otherwise.
const (
	FormatLegacy  = 1
	FormatSigned  = 2
	FormatChunked = 3
)

// formatFor is the format of a new event of type t.
func formatFor(t EventType) int {
	if t == EvBallotsImported {
		return importFormat
	}
	return FormatSigned
}

// importFormat is the format of new import events: a variable so that
// tests can make the imports of earlier versions (a ballot an item).
var importFormat = FormatChunked

// Event is one entry of the append-only log: what happened (Type and Data),
// who did it (Actor, the name at the time; ActorID, the account), when by
// the acting device's clock (When), and the event's stable id (device id and
// device sequence), which stays the same wherever the event travels. Seq is
// its place in the log, PrevHash the hash of the event before it, and Hash
// the hash of this one over PrevHash and the event's content, which chains
// the log.
//
// A format-2 event (V = 2) is signed twice: UserSig by the actor's key
// (UserKey, derived from their password at sign-in and never stored) over
// what was done, and DevSig by the key of the device that made it (DevKey,
// whose hash is the device part of ID) over the id and what was done.
// Sealed holds the secret part of a ballot event (rankings, confirmation
// codes) with a random nonce; Data carries only its commitment, so the hash
// and the signatures cover the commitment and confirm nothing about the
// secret to someone who sees the event without it (see seal.go).
type Event struct {
	Seq      uint64          `json:"seq"`
	V        int             `json:"v,omitempty"`
	ID       string          `json:"id"`
	When     time.Time       `json:"when"`
	Actor    string          `json:"actor"`
	ActorID  string          `json:"actor_id,omitempty"`
	Type     EventType       `json:"type"`
	Data     json.RawMessage `json:"data"`
	Sealed   json.RawMessage `json:"sealed,omitempty"`
	UserKey  string          `json:"ukey,omitempty"`
	UserSig  string          `json:"usig,omitempty"`
	DevKey   string          `json:"dkey,omitempty"`
	DevSig   string          `json:"dsig,omitempty"`
	PrevHash string          `json:"prev_hash"`
	Hash     string          `json:"hash"`

	// verified is set by VerifySignatures once both signatures checked, so
	// applying the event does not check them again.
	verified bool
	// sealedHere is set when this device sealed the event's secret itself
	// (Service.record), so its sealed part matches its commitment by
	// construction and applying it does not open it again: for an import
	// of a million ballots that is a scan of 100 MB of JSON and its hash.
	sealedHere bool
	// decodedData and decodedSealed are Data and Sealed as DecodeEvent
	// read them, valid JSON since the whole event was: Check does not
	// scan them again while they are still those slices.
	decodedData, decodedSealed []byte
	// sealedDataValid says decodedSealed is in seal's layout and readEvent
	// checked the secret inside it (which makes it valid JSON as a whole).
	sealedDataValid bool
	// opened is the secret OpenSealed found in Sealed, kept with the Data
	// and Sealed it came from: checking the chain, the envelope and
	// applying an event each open it, a 570 KB scan and hash per
	// 5,000-ballot import.
	opened                   json.RawMessage
	openedData, openedSealed []byte
	// userSum is the SHA-256 of userMessage, kept with what it covers:
	// checking the device's signature, the replay key and recording it
	// each hash the message.
	userSum    [sha256.Size]byte
	userSumFor userSumKey
	// chainHash is ComputeHash's last answer, kept with what it covered: a
	// pull checks each page's chain while it reads ahead, and Integrate
	// checks it again before it writes.
	chainHash string
	chainFor  chainKey
}

// chainKey is what ComputeHash covers: the hash before the event and the
// event's content, Data by identity.
type chainKey struct {
	prev                                 string
	user                                 userSumKey
	id, userKey, userSig, devKey, devSig string
}

func (k chainKey) same(o chainKey) bool {
	return k.prev == o.prev && k.user.same(o.user) && k.id == o.id &&
		k.userKey == o.userKey && k.userSig == o.userSig && k.devKey == o.devKey && k.devSig == o.devSig
}

// userSumKey is what userMessage covers, Data by identity.
type userSumKey struct {
	v                   int
	when                time.Time
	actor, actorID, typ string
	data                []byte
}

func (k userSumKey) same(o userSumKey) bool {
	return k.v == o.v && k.when == o.when && k.actor == o.actor && k.actorID == o.actorID && k.typ == o.typ && k.data != nil && sameBytes(k.data, o.data)
}

// sameBytes reports whether a and b are the same slice: one start, one
// length.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Signed reports whether the event is of the signed format.
func (e *Event) Signed() bool { return e.V >= FormatSigned }

// ComputeHash returns the hash of the event chained after prev: the hex
// SHA-256 of prev, a newline, and the event's content (everything but its
// position and its sealed part) as canonical JSON.
func (e *Event) ComputeHash(prev string) string {
	k := chainKey{prev: prev, user: userSumKey{v: e.V, when: e.When, actor: e.Actor, actorID: e.ActorID, typ: string(e.Type), data: e.Data},
		id: e.ID, userKey: e.UserKey, userSig: e.UserSig, devKey: e.DevKey, devSig: e.DevSig}
	if k.same(e.chainFor) {
		return e.chainHash
	}
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(e.content(make([]byte, 0, 256+len(e.Data))))
	e.chainHash, e.chainFor = hex.EncodeToString(h.Sum(nil)), k
	return e.chainHash
}

// ContentHash identifies what an event is, wherever it sits in the log: the
// hex SHA-256 of its content, the bytes its chain hash covers after prev.
// Two events with one id are the same event only if their content hashes
// agree.
func (e *Event) ContentHash() string {
	sum := sha256.Sum256(e.content(make([]byte, 0, 256+len(e.Data))))
	return hex.EncodeToString(sum[:])
}

// content appends the event's content as canonical JSON, braces included.
func (e *Event) content(b []byte) []byte {
	b = append(b, '{')
	if e.Signed() {
		b = append(b, `"v":`...)
		b = strconv.AppendInt(b, int64(e.V), 10)
		b = append(b, ',')
	}
	b = e.appendContent(b, FormatTime(e.When))
	if e.Signed() {
		b = e.appendSignatures(b)
	}
	return append(b, '}')
}

// appendContent appends the event's content fields, the ones its hash
// covers, with its time written as when: "id", "when", "actor", ("actor_id"
// for format 2), "type" and "data", without braces.
func (e *Event) appendContent(b []byte, when string) []byte {
	b = append(b, `"id":`...)
	b = appendJSONString(b, e.ID)
	b = append(b, `,"when":`...)
	b = appendJSONString(b, when)
	b = append(b, `,"actor":`...)
	b = appendJSONString(b, e.Actor)
	if e.Signed() {
		b = append(b, `,"actor_id":`...)
		b = appendJSONString(b, e.ActorID)
	}
	b = append(b, `,"type":`...)
	b = appendJSONString(b, string(e.Type))
	b = append(b, `,"data":`...)
	return append(b, e.Data...)
}

// appendSignatures appends the keys and signatures of a format-2 event.
func (e *Event) appendSignatures(b []byte) []byte {
	for _, f := range [...]struct{ name, v string }{{"ukey", e.UserKey}, {"usig", e.UserSig}, {"dkey", e.DevKey}, {"dsig", e.DevSig}} {
		b = append(b, `,"`...)
		b = append(b, f.name...)
		b = append(b, `":`...)
		b = appendJSONString(b, f.v)
	}
	return b
}

// jsonPlain[c] says byte c stands for itself in a string as json.Marshal
// writes it: no control character, quote, backslash, HTML character or
// byte of a multi-byte character.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it (so the bytes match json.Marshal's).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !jsonPlain[s[i]] {
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
// a fixed order, exactly as json.Marshal writes the Event. Data (and Sealed,
// when present) must be valid, compact JSON (as json.Marshal makes it, and
// as DecodeEvent checks it).
func EncodeEvent(e *Event) ([]byte, error) {
	// Parts decoded from a whole event, or sealed by this device's own
	// encoder (fastjson_test.go checks it writes valid JSON), are not
	// scanned again: a million-ballot import would scan 100 MB each time.
	validData, validSealed := e.knownValid()
	if !validData && !validJSON(e.Data) {
		return nil, Errorf(CodeInvalid, "event %s has no valid JSON data", e.ID)
	}
	if len(e.Sealed) > 0 && !validSealed && !validJSON(e.Sealed) {
		return nil, Errorf(CodeInvalid, "event %s has no valid JSON sealed part", e.ID)
	}
	b := make([]byte, 0, 512+len(e.Data)+len(e.Sealed))
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, e.Seq, 10)
	if e.V != 0 {
		b = append(b, `,"v":`...)
		b = strconv.AppendInt(b, int64(e.V), 10)
	}
	b = append(b, `,"id":`...)
	b = appendJSONString(b, e.ID)
	b = append(b, `,"when":`...)
	b = appendJSONString(b, e.When.UTC().Format(time.RFC3339Nano))
	b = append(b, `,"actor":`...)
	b = appendJSONString(b, e.Actor)
	if e.ActorID != "" {
		b = append(b, `,"actor_id":`...)
		b = appendJSONString(b, e.ActorID)
	}
	b = append(b, `,"type":`...)
	b = appendJSONString(b, string(e.Type))
	b = append(b, `,"data":`...)
	b = append(b, e.Data...)
	if len(e.Sealed) > 0 {
		b = append(b, `,"sealed":`...)
		b = append(b, e.Sealed...)
	}
	for _, f := range [...]struct{ name, v string }{{"ukey", e.UserKey}, {"usig", e.UserSig}, {"dkey", e.DevKey}, {"dsig", e.DevSig}} {
		if f.v != "" {
			b = append(b, `,"`...)
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = appendJSONString(b, f.v)
		}
	}
	b = append(b, `,"prev_hash":`...)
	b = appendJSONString(b, e.PrevHash)
	b = append(b, `,"hash":`...)
	b = appendJSONString(b, e.Hash)
	return append(b, '}'), nil
}

// DecodeEvent reads an event written by EncodeEvent and checks that it is
// whole: a known format and type, an id, a time, JSON data, and for the
// signed format its keys and signatures.
func DecodeEvent(b []byte) (*Event, error) {
	e, ok := readEvent(b)
	if !ok {
		e = Event{}
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, Errorf(CodeInvalid, "event is not valid JSON: %v", err)
		}
	}
	// Data and Sealed are valid JSON: readEvent checked them, or
	// Unmarshal the whole event.
	e.decodedData, e.decodedSealed = e.Data, e.Sealed
	if err := e.Check(); err != nil {
		return nil, err
	}
	return &e, nil
}

// knownValid says whether Data and Sealed are known to be valid JSON
// without a scan: they are still the bytes DecodeEvent checked, or (the
// sealed part) this device's encoder wrote them.
func (e *Event) knownValid() (data, sealed bool) {
	data = sameBytes(e.Data, e.decodedData) && len(e.Data) > 0
	sealed = sameBytes(e.Sealed, e.decodedSealed) && len(e.Sealed) > 0 || e.sealedHere
	return data, sealed
}

// Check reports what is missing or malformed in an event's envelope.
func (e *Event) Check() error {
	validData, validSealed := e.knownValid()
	switch {
	case e.V != 0 && e.V != FormatSigned && (e.V != FormatChunked || e.Type != EvBallotsImported):
		return Errorf(CodeInvalid, "event %s (%s) has format %d; this VoteDesk reads formats 1 to 3, 3 for imports (a newer VoteDesk wrote it?)", e.ID, e.Type, e.V)
	case e.ID == "":
		return Errorf(CodeInvalid, "event %d has no id", e.Seq)
	case e.When.IsZero():
		return Errorf(CodeInvalid, "event %s has no time", e.ID)
	case !knownTypes[e.Type]:
		return Errorf(CodeInvalid, "event %s has unknown type %q (a newer VoteDesk wrote it? update VoteDesk on this device)", e.ID, e.Type)
	case len(e.Data) == 0 || !validData && !validJSON(e.Data):
		return Errorf(CodeInvalid, "event %s (%s) has no valid JSON data", e.ID, e.Type)
	case len(e.Sealed) > 0 && !validSealed && !validJSON(e.Sealed):
		return Errorf(CodeInvalid, "event %s (%s) has a sealed part that is not valid JSON", e.ID, e.Type)
	}
	if !e.Signed() {
		if e.ActorID != "" || e.UserKey != "" || e.UserSig != "" || e.DevKey != "" || e.DevSig != "" || len(e.Sealed) > 0 {
			return Errorf(CodeInvalid, "event %s has signatures or a sealed part but no format 2", e.ID)
		}
		return nil
	}
	switch {
	case e.DevKey == "" || e.DevSig == "":
		return Errorf(CodeInvalid, "event %s is not signed by its device", e.ID)
	case e.Type != EvDeviceJoined && (e.ActorID == "" || e.UserKey == "" || e.UserSig == ""):
		return Errorf(CodeInvalid, "event %s (%s) is not signed by its actor", e.ID, e.Type)
	}
	return nil
}

var knownTypes = map[EventType]bool{
	EvUserRegistered: true, EvUserRoleChanged: true, EvUserRemoved: true, EvUserPasswordChanged: true,
	EvUserNameChanged: true, EvUserEmailChanged: true, EvUserKeySet: true, EvOwnershipTransferred: true,
	EvElectionCreated: true, EvElectionUpdated: true, EvElectionLaunched: true, EvElectionClosed: true,
	EvElectionFinalized: true, EvElectionDeleted: true, EvElectionArchived: true, EvElectionRestored: true,
	EvElectionRenamed: true, EvCandidatesAdded: true, EvCandidatesRemoved: true, EvVotersAdded: true,
	EvVotersRemoved: true, EvVoterLinked: true, EvBallotCast: true, EvBallotRankingsChanged: true,
	EvBallotsImported: true, EvConflictResolved: true, EvDeviceJoined: true,
	EvAuditStarted: true, EvAuditRoundStarted: true, EvAuditBallotRead: true,
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
