package app

import (
	"encoding/json"
	"time"
)

// What the rules check of every event before its type's own rules: the
// format, the signatures, replays and devices.
//
// The log's first signed event marks where the signed format begins
// (METADATA/FORMAT). Before it, events are format 1 and replay by the rules
// they were made under. After it, every event must be signed, except
// format-1 events of a device that appeared before the mark and has not
// yet announced a signing key of its own (its outbox, made before it was
// upgraded, may still arrive); nobody can make a new device appear with
// unsigned events.
//
// A signed event passes only if its device signature matches the device
// its id names and its actor's signature matches (VerifySignatures), and if
// what its actor signed was not already applied (its ReplayKey, kept in the
// SEEN partition, which stays on the device: it is not part of the cloud
// projection).
const (
	skFormat    = "FORMAT"
	PKSeen      = "SEEN" // the replay keys (SeenSK)
	prefixDev   = "DEVICE#"
	attrSuccess = "successor"
)

// SeenSK is where the SEEN partition keeps a signed event's replay key:
// after the time the actor signed (part of what they signed, so a replay
// carries the same), then the key. Events arrive roughly in time order, so
// each lands beside the ones before it, where keys that are hashes alone
// fell anywhere in the partition: a pulled page of 3,471 events then
// rewrote a leaf page of the partition for nearly every event.
// (Databases of layout version 2 kept the hash alone; opening one moves
// its keys, localstore/migrate.go.)
func SeenSK(ev *Event) string { return FormatTime(ev.When) + "/" + ev.ReplayKey() }

// LocalPartition reports whether a projection partition stays on the
// device (it is derived from the log, but the cloud projection leaves it
// out): the replay keys, and the poll books' name indexes (voter_names.go).
func LocalPartition(pk string) bool { return pk == PKSeen || isVoterNames(pk) }

func devicePK(id string) string { return prefixDev + id }

// checkEnvelope checks an event's format, signatures and replay key.
func (a *applier) checkEnvelope() error {
	ev := a.ev
	marked, _, err := a.tx.Get(pkMetadata, skFormat)
	if err != nil {
		return err
	}
	signedSince := marked.Int("signed_since")
	if !ev.Signed() {
		if signedSince == 0 {
			return a.noteLegacyDevice()
		}
		d, ok, err := a.tx.Get(devicePK(EventDevice(ev.ID)), skMetadata)
		if err != nil {
			return err
		}
		if !ok || !d.Flag("legacy") || d.Str(attrSuccess) != "" {
			return Errorf(CodeForbidden, "event %s is unsigned, but the log has been signed since event %d and its device %s may not add unsigned events", ev.ID, signedSince, EventDevice(ev.ID))
		}
		return nil
	}
	if err := ev.VerifySignatures(); err != nil {
		return err
	}
	if !ev.sealedHere {
		if _, err := ev.OpenSealed(); err != nil {
			return err
		}
	}
	if err := checkSealed(ev); err != nil {
		return err
	}
	seen, ok, err := a.tx.Get(PKSeen, SeenSK(ev))
	if err != nil {
		return err
	}
	if ok {
		return Errorf(CodeConflict, "event %s repeats what event %d already did (%s by %s): a replay, not applied", ev.ID, seen.Int("seq"), ev.Type, ev.Actor)
	}
	return nil
}

// noteLegacyDevice records a device of the unsigned format the first time
// one of its events is applied.
func (a *applier) noteLegacyDevice() error {
	d := EventDevice(a.ev.ID)
	if _, ok, err := a.tx.Get(devicePK(d), skMetadata); err != nil || ok {
		return err
	}
	it := newItem(devicePK(d), skMetadata, "DEVICE")
	it.Set("device_id", S(d))
	it.Set("legacy", Bool(true))
	it.Set("first_seq", N(int64(a.ev.Seq)))
	return a.tx.Put(it)
}

// markReplayKey records a signed event's replay key, and the start of the
// signed format at the first signed event.
func markReplayKey(tx Tx, ev *Event) error {
	it := newItem(PKSeen, SeenSK(ev), "SEEN")
	it.Set("seq", N(int64(ev.Seq)))
	if err := tx.Put(it); err != nil {
		return err
	}
	if _, ok, err := tx.Get(pkMetadata, skFormat); err != nil || ok {
		return err
	}
	f := newItem(pkMetadata, skFormat, "FORMAT")
	f.Set("signed_since", N(int64(ev.Seq)))
	return tx.Put(f)
}

// actingUser loads the account behind an event: by id and key for a signed
// event, by name for a format-1 event.
func (a *applier) actingUser() (User, error) {
	if !a.ev.Signed() {
		u, ok, err := getUser(a.tx, a.ev.Actor)
		if err != nil {
			return User{}, err
		}
		if !ok {
			return User{}, Errorf(CodeForbidden, "%q is not a user", a.ev.Actor)
		}
		return u, nil
	}
	u, ok, err := userByID(a.tx, a.ev.ActorID)
	if err != nil {
		return User{}, err
	}
	former := false
	if !ok || u.PublicKey != a.ev.UserKey {
		if former, err = formerKey(a.tx, a.ev.ActorID, a.ev.UserKey); err != nil {
			return User{}, err
		}
	}
	switch {
	case !ok && former:
		return User{}, authority(Errorf(CodeForbidden, "%q (account %s) was removed before this event reached the log", a.ev.Actor, a.ev.ActorID))
	case !ok:
		return User{}, Errorf(CodeForbidden, "%q (account %s) is not a user", a.ev.Actor, a.ev.ActorID)
	case u.PublicKey != a.ev.UserKey && former:
		return User{}, authority(Errorf(CodeForbidden, "event %s is signed with the key %s had before their password changed", a.ev.ID, u.Name))
	case u.PublicKey == "" || u.PublicKey != a.ev.UserKey:
		return User{}, Errorf(CodeForbidden, "event %s is signed with a key that is not %s's", a.ev.ID, u.Name)
	}
	return u, nil
}

// deviceJoined is the data of a DeviceJoined event: a device announcing
// the identity it makes events under from now on, and why.
type deviceJoined struct {
	Device      string `json:"device"`
	Predecessor string `json:"predecessor,omitempty"`
	Reason      string `json:"reason"`
	Detail      string `json:"detail,omitempty"`
}

// The reasons a device takes a new identity.
const (
	DeviceUpgraded  = "upgraded"  // a database made before events were signed
	DeviceCopied    = "copied"    // the file is a copy (another machine or file)
	DeviceRewound   = "rewound"   // the log holds events of this device it does not have (a restored backup)
	DeviceCollision = "collision" // another copy of this database made events with the same ids
)

func applyDeviceJoined(a *applier) error {
	var d deviceJoined
	if err := a.decode(&d); err != nil {
		return err
	}
	if !a.ev.Signed() {
		return Errorf(CodeInvalid, "a device announcement must be signed by the device")
	}
	if d.Device != EventDevice(a.ev.ID) {
		return Errorf(CodeInvalid, "device announcement %s names device %s", a.ev.ID, d.Device)
	}
	switch d.Reason {
	case DeviceUpgraded, DeviceCopied, DeviceRewound, DeviceCollision:
	default:
		return Errorf(CodeInvalid, "device announcement %s has unknown reason %q", a.ev.ID, d.Reason)
	}
	if _, ok, err := a.tx.Get(devicePK(d.Device), skMetadata); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "device %s has already announced itself", d.Device)
	}
	it := newItem(devicePK(d.Device), skMetadata, "DEVICE")
	it.Set("device_id", S(d.Device))
	it.Set("public_key", S(a.ev.DevKey))
	it.Set("first_seq", N(int64(a.ev.Seq)))
	it.Set("reason", S(d.Reason))
	if d.Predecessor != "" {
		it.Set("predecessor", S(d.Predecessor))
		p, ok, err := a.tx.Get(devicePK(d.Predecessor), skMetadata)
		if err != nil {
			return err
		}
		if ok && p.Str(attrSuccess) == "" {
			p.Set(attrSuccess, S(d.Device))
			if err := a.tx.Put(p); err != nil {
				return err
			}
		}
	}
	if err := a.tx.Put(it); err != nil {
		return err
	}
	if d.Reason != DeviceCollision && d.Reason != DeviceRewound {
		return nil
	}
	return a.flagSystemConflict("device_"+d.Reason, deviceDetail(d), a.ev.When)
}

// deviceDetail says, for officials, what a device's new identity means.
func deviceDetail(d deviceJoined) string {
	what := "another copy of its database made events under the same ids"
	if d.Reason == DeviceRewound {
		what = "its database is older than events it had already made (a backup was restored over it)"
	}
	s := "device " + d.Predecessor + " found that " + what + "; it continues as device " + d.Device + ", and every event of both copies is kept"
	if d.Detail != "" {
		s += " (" + d.Detail + ")"
	}
	return s
}

// flagSystemConflict records something officials must look at that belongs
// to no election (a device found a copy of itself, a receipted ballot whose
// election was deleted) in the METADATA partition's CONFLICT items, with
// extra attributes.
func (a *applier) flagSystemConflict(kind, detail string, when time.Time, extra ...Attr) error {
	it := newItem(pkMetadata, conflictSK(a.ev.Seq), "CONFLICT")
	for _, x := range extra {
		it.Set(x.Name, x.Value)
	}
	it.Set("kind", S(kind))
	it.Set("seq", N(int64(a.ev.Seq)))
	it.Set("event_id", S(a.ev.ID))
	it.Set("actor", S(a.ev.Actor))
	it.Set("when", Time(when))
	it.Set("detail", S(detail))
	it.Set("resolved", Bool(false))
	return a.tx.Put(it)
}

// AnnounceDevice records, at the head of the log, that this device makes
// events under a new identity from now on (the one tx's NewEventID uses),
// and why; predecessor is the identity it leaves ("" for none). The event
// has no actor: the device signs it alone.
func AnnounceDevice(tx Tx, when time.Time, predecessor, reason, detail string) error {
	id, err := tx.NewEventID()
	if err != nil {
		return err
	}
	d := deviceJoined{Device: EventDevice(id), Predecessor: predecessor, Reason: reason, Detail: detail}
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	ev := &Event{V: FormatSigned, ID: id, When: when.UTC(), Type: EvDeviceJoined, Data: raw}
	if err := tx.SignEvent(ev); err != nil {
		return err
	}
	ev.markVerified()
	if err := tx.AppendEvent(ev); err != nil {
		return err
	}
	return applyDecoded(tx, ev, d)
}

// checkSealed refuses a signed event that carries in the open what its type
// seals (rankings, confirmation codes, imported ballots, password hashes):
// the log shows every viewer an event's open data.
func checkSealed(ev *Event) error {
	fields := sealedFields[ev.Type]
	if len(fields) == 0 {
		return nil
	}
	found, commit, ok := openKeys(ev.Data, fields)
	if !ok {
		var open map[string]json.RawMessage
		if err := json.Unmarshal(ev.Data, &open); err != nil {
			return Errorf(CodeInvalid, "%s event %s has malformed data: %v", ev.Type, ev.ID, err)
		}
		found = ""
		for _, f := range fields {
			if _, ok := open[f]; ok {
				found = f
				break
			}
		}
		_, commit = open["commit"]
	}
	if found != "" {
		return Errorf(CodeInvalid, "%s event %s carries %s in the open; it must be sealed", ev.Type, ev.ID, found)
	}
	if !commit {
		return Errorf(CodeInvalid, "%s event %s has no sealed part", ev.Type, ev.ID)
	}
	return nil
}
