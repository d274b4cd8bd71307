package app

import (
	"bytes"
	"encoding/json"
)

// ShardOf says which shard of the cloud log an event is stored in (see
// sync/doc.go, "Shards"): the id of the election a ballot event is for, or
// "" for the global shard, which holds everything else. Where an event is
// stored does not decide where it stands in the log (the global shard's
// cuts do), so an event whose election id cannot be read goes to the
// global shard, which is always right.
func ShardOf(ev *Event) string {
	switch ev.Type {
	case EvBallotCast, EvBallotRankingsChanged, EvBallotsImported, EvAuditBallotRead:
	default:
		return ""
	}
	// The election's name and id are the payload's first fields (json
	// writes a struct's fields in order): a million-ballot import is not
	// scanned for them.
	head := ev.Data[:min(len(ev.Data), 1024)]
	const key = `"election_id":"`
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return ""
	}
	rest := head[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 || j > 100 {
		return ""
	}
	id := string(rest[:j])
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == ':') {
			return ""
		}
	}
	return id
}

// ShardNamed returns the id of the election whose shard an event tells of:
// the shard a ballot event belongs to (ShardOf), or that of the election
// it creates ("" for none).
// A reader of the log learns from them which shards may hold events that
// no cut orders yet.
func ShardNamed(ev *Event) string {
	if id := ShardOf(ev); id != "" {
		return id
	}
	if ev.Type != EvElectionCreated {
		return ""
	}
	var d electionCreated
	if len(ev.Data) > 64<<10 || json.Unmarshal(ev.Data, &d) != nil {
		return ""
	}
	if d.ElectionID != "" {
		return d.ElectionID
	}
	return legacyElectionID(ev.ID)
}
