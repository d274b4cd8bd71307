package cloudsync

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// claimEvents makes n events as a device's pending run (ids in order, no
// place yet).
func claimEvents(n int) []entry {
	out := make([]entry, n)
	for i := range out {
		data, _ := json.Marshal(map[string]any{"election": "Mayor", "voter": fmt.Sprintf("v%04d", i), "pad": strings.Repeat("x", 300+i)})
		out[i] = entry{ev: &app.Event{ID: fmt.Sprintf("feedfacefeedface-%010d", i+1), When: time.Date(2026, 11, 28, 7, 0, i, 0, time.UTC),
			Actor: "ann", Type: app.EvBallotCast, Data: data}}
	}
	return out
}

// placedRun places entries after seq, whose hash is prev, as an append
// does.
func placedRun(entries []entry, seq uint64, prev string) []entry {
	out := make([]entry, len(entries))
	for i, e := range entries {
		out[i] = e.placed(seq+uint64(i)+1, prev)
		prev = out[i].hash()
	}
	return out
}

// TestClaimReadsBackItsRun: a run proposed once and claimed at any place
// reads back, through its claim, as the run placed there: the same ids,
// contents, places and chain as the segment the device would have
// appended whole. The proposal is the same wherever the run lands.
func TestClaimReadsBackItsRun(t *testing.T) {
	run := claimEvents(40)
	var first proposal
	for i, at := range []struct {
		seq  uint64
		prev string
	}{{0, ""}, {41, strings.Repeat("a", 64)}, {12345, strings.Repeat("b", 64)}} {
		placed := placedRun(run, at.seq, at.prev)
		segs, err := packEntries(logPartition, placed)
		if err != nil || len(segs) != 1 {
			t.Fatalf("packed into %d segments: %v", len(segs), err)
		}
		p, err := proposalOf(placed)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = p
		} else if p.pk != first.pk || p.sk != first.sk {
			t.Fatalf("the run placed at %d proposes %s/%s, at 1 %s/%s: a proposal must not depend on its place", at.seq+1, p.pk, p.sk, first.pk, first.sk)
		}
		claim := claimOf(segs[0], p)
		if claim.item[attrEvents] != nil || claim.item[attrEventsGz] != nil {
			t.Fatal("the claim holds the events")
		}
		got, err := decodeSegment(withEvents(claim.item, p.item))
		if err != nil {
			t.Fatalf("a claim at %d: %v", at.seq+1, err)
		}
		if err := checkEntries(globalShard, at.prev, at.seq+1, got); err != nil {
			t.Fatalf("a claim at %d reads back a run that does not continue the log: %v", at.seq+1, err)
		}
		for j := range got {
			if got[j].id() != placed[j].id() || got[j].hash() != placed[j].hash() || got[j].seq() != placed[j].seq() {
				t.Fatalf("entry %d of the claim at %d reads back as %s at %d (%s), want %s at %d (%s)", j, at.seq+1,
					got[j].id(), got[j].seq(), got[j].hash(), placed[j].id(), placed[j].seq(), placed[j].hash())
			}
		}
	}
}

// FuzzDecodeClaim: whatever a claim and its proposal hold, reading them
// never panics, and what is accepted is placed where the claim says,
// chained from its prev_hash and ending with its last hash and first id.
func FuzzDecodeClaim(f *testing.F) {
	run := claimEvents(3)
	placed := placedRun(run, 9, strings.Repeat("c", 64))
	p, _ := proposalOf(placed)
	segs, _ := packEntries(logPartition, placed)
	claim := claimOf(segs[0], p)
	lines := getStr(p.item, attrEvents)
	f.Add(uint64(10), uint64(12), strings.Repeat("c", 64), getStr(claim.item, attrLastHash), getStr(claim.item, attrFirstID), lines)
	f.Add(uint64(10), uint64(11), "", "", "x", lines)
	f.Add(uint64(1), uint64(1), "", "", "", `{"seq":1,"cut":{"shard":"ELECTION#e","to":3,"to_hash":"`+strings.Repeat("d", 64)+`"},"prev_hash":"","hash":""}`)
	f.Fuzz(func(t *testing.T, first, last uint64, prev, lastHash, firstID, events string) {
		item := map[string]types.AttributeValue{
			attrSK:         str(seqKey(first)),
			attrLastSeq:    num(last),
			attrFirstID:    str(firstID),
			attrLastHash:   str(lastHash),
			attrPrevHash:   str(prev),
			attrProposalPK: str("PROPOSAL#x"),
			attrProposalSK: str("y"),
			attrEvents:     str(events),
		}
		got, err := decodeSegment(item)
		if err != nil {
			return
		}
		if len(got) == 0 || got[0].seq() != first || got[len(got)-1].seq() != last {
			t.Fatalf("accepted a claim of %d..%d as %d entries", first, last, len(got))
		}
		if got[0].id() != firstID || got[len(got)-1].hash() != lastHash {
			t.Fatalf("accepted entries that do not start with the claim's first id or end with its hash")
		}
		if err := checkEntries(globalShard, prev, first, got); err != nil && !strings.Contains(app.ErrorMessage(err), "cut") {
			// An event that is not whole (no signature, for one) may
			// still fail here, as any segment's does; the chain may not.
			if strings.Contains(app.ErrorMessage(err), "chain") || strings.Contains(app.ErrorMessage(err), "missing") {
				t.Fatalf("accepted a claim whose entries do not chain from its prev_hash: %v", err)
			}
		}
	})
}
