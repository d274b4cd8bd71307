package app

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"time"
)

// EventSpec describes an event made outside a Service, by a tool or a test
// that plays another device: what it does (Type and Data, as the log's JSON
// fields), when, by whom (Actor and ActorKey; none for a device
// announcement), and on which device (Device's key and its DeviceSeq).
type EventSpec struct {
	Type      EventType
	Data      map[string]any
	When      time.Time
	Actor     User
	ActorKey  ed25519.PrivateKey
	Device    ed25519.PrivateKey
	DeviceSeq int
}

// sealedFields are the data fields each event type carries sealed.
var sealedFields = map[EventType][]string{
	EvBallotCast:            {"confirmation", "rankings"},
	EvBallotRankingsChanged: {"rankings"},
	EvBallotsImported:       {"ballots"},
	EvUserRegistered:        {"password_hash"},
	EvUserPasswordChanged:   {"password_hash"},
	EvUserKeySet:            {"password_hash"},
}

// MakeEvent builds a signed event as a Service would record it: its sealed
// fields sealed, signed by the actor's and the device's keys. Its Seq,
// PrevHash and Hash are left for the log to set.
func MakeEvent(s EventSpec) (*Event, error) {
	public := make(map[string]any, len(s.Data))
	secret := map[string]any{}
	for k, v := range s.Data {
		public[k] = v
	}
	for _, k := range sealedFields[s.Type] {
		if v, ok := public[k]; ok {
			secret[k] = v
			delete(public, k)
		}
	}
	ev := &Event{V: formatFor(s.Type), When: s.When.UTC(), Actor: s.Actor.Name, ActorID: s.Actor.ID, Type: s.Type,
		ID: fmt.Sprintf("%s-%010d", DeviceIDOf(s.Device.Public().(ed25519.PublicKey)), s.DeviceSeq)}
	if len(secret) > 0 {
		raw, err := json.Marshal(secret)
		if err != nil {
			return nil, err
		}
		commit, part, err := seal(raw)
		if err != nil {
			return nil, err
		}
		public["commit"], ev.Sealed = commit, part
	}
	raw, err := json.Marshal(public)
	if err != nil {
		return nil, err
	}
	ev.Data = raw
	if s.ActorKey != nil {
		ev.SignAsActor(s.ActorKey)
	}
	ev.SignAsDevice(s.Device)
	return ev, nil
}
