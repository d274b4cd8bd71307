package cloudsync

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// A segment is one item of the cloud log: a run of consecutive events,
// packed so that a push writes thousands of events in one transaction (see
// doc.go for the measurements that called for it).
//
//	PK          LOG#global, or LOG#ELECTION#{id} for an election's shard
//	            (doc.go, "Shards")
//	SK          the first event's sequence number, 20 digits
//	entity_type EVENTS
//	first_seq   the first event's sequence number   (N)
//	last_seq    the last event's sequence number    (N)
//	first_when, last_when   the events' times, RFC 3339
//	first_id, last_id       their ids
//	last_hash   the last event's hash (the chain's head after this segment)
//	events      the entries as JSON lines: events exactly as the local log
//	            stores them (app.EncodeEvent), and in the global shard
//	            cuts (shard.go), when they are small (S)
//	events_gz   the same lines gzipped, when they are not (B)
const (
	logPartition   = "LOG#global"
	segmentEntity  = "EVENTS"
	attrEvents     = "events"
	attrEventsGz   = "events_gz"
	attrFirstSeq   = "first_seq"
	attrLastSeq    = "last_seq"
	attrLastHash   = "last_hash"
	attrFirstID    = "first_id"
	seqWidthFormat = "%020d"
)

// Limits of a segment and of one push transaction. DynamoDB items hold at
// most 400 KB and a transaction 100 items and 4 MB.
const (
	segmentMaxEvents = 1000
	segmentMaxRaw    = 256 << 10 // events' JSON before compression
	segmentGzipAbove = 4 << 10
	segmentMaxStored = 390 << 10
	txMaxSegments    = 25
	txMaxStored      = 3 << 20
)

// seqKey writes a sequence number as a sort key: 20 digits, zero-padded, so
// string order is numeric order.
func seqKey(seq uint64) string { return fmt.Sprintf(seqWidthFormat, seq) }

// segment is a run of consecutive entries ready to store.
type segment struct {
	entries []entry
	item    map[string]types.AttributeValue
	stored  int
}

// packSegments splits consecutive events of the global shard into
// segments.
func packSegments(evs []*app.Event) ([]segment, error) {
	return packEntries(logPartition, eventEntries(evs))
}

// packEntries splits consecutive entries of the shard whose partition key
// is pk into segments.
func packEntries(pk string, evs []entry) ([]segment, error) {
	var out []segment
	var lines bytes.Buffer
	start := 0
	flush := func(end int) error {
		if end == start {
			return nil
		}
		seg, err := newSegment(pk, evs[start:end], lines.Bytes())
		if err != nil {
			return err
		}
		out = append(out, seg)
		lines.Reset()
		start = end
		return nil
	}
	for i, ev := range evs {
		b, err := ev.encode()
		if err != nil {
			return nil, err
		}
		if i > start && (i-start >= segmentMaxEvents || lines.Len()+len(b)+1 > segmentMaxRaw) {
			if err := flush(i); err != nil {
				return nil, err
			}
		}
		if lines.Len() > 0 {
			lines.WriteByte('\n')
		}
		lines.Write(b)
	}
	if err := flush(len(evs)); err != nil {
		return nil, err
	}
	return out, nil
}

// newSegment builds the item of one segment of partition pk from its
// entries and their JSON lines.
func newSegment(pk string, evs []entry, lines []byte) (segment, error) {
	first, last := evs[0], evs[len(evs)-1]
	item := map[string]types.AttributeValue{
		attrPK:        str(pk),
		attrSK:        str(seqKey(first.seq())),
		"entity_type": str(segmentEntity),
		attrFirstSeq:  num(first.seq()),
		attrLastSeq:   num(last.seq()),
		attrFirstID:   str(first.id()),
		"last_id":     str(last.id()),
		attrLastHash:  str(last.hash()),
	}
	if first.ev != nil {
		item["first_when"] = str(app.FormatTime(first.ev.When))
	}
	if last.ev != nil {
		item["last_when"] = str(app.FormatTime(last.ev.When))
	}
	stored := len(lines)
	if len(lines) > segmentGzipAbove {
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
		w.Write(lines)
		w.Close()
		item[attrEventsGz] = &types.AttributeValueMemberB{Value: z.Bytes()}
		stored = z.Len()
	} else {
		item[attrEvents] = str(string(lines))
	}
	if stored > segmentMaxStored {
		return segment{}, app.Errorf(app.CodeInvalid,
			"event %d (%s) is too large to sync: %d bytes even compressed, and a DynamoDB item holds at most 400 KB; split it (for example import fewer ballots at once)",
			first.seq(), first.id(), stored)
	}
	return segment{entries: evs, item: item, stored: stored + 256}, nil
}

// decodeSegment reads the entries of one segment item and checks its frame:
// the sort key, first and last sequence numbers agree with the entries,
// and every entry is whole. It does not check the hash chain (checkEntries
// does, against where the reader stands). Errors name the sequence number.
func decodeSegment(item map[string]types.AttributeValue) ([]entry, error) {
	sk := getStr(item, attrSK)
	first, err := strconv.ParseUint(sk, 10, 64)
	if err != nil || len(sk) != 20 {
		return nil, app.Errorf(app.CodeInvalid, "cloud log item %q is not a segment (its sort key is not a 20-digit sequence number)", sk)
	}
	last, err := strconv.ParseUint(getNum(item, attrLastSeq), 10, 64)
	if err != nil || last < first {
		return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d has no valid last_seq", first)
	}
	var lines []byte
	switch {
	case item[attrEvents] != nil:
		lines = []byte(getStr(item, attrEvents))
	case item[attrEventsGz] != nil:
		b, _ := item[attrEventsGz].(*types.AttributeValueMemberB)
		if b == nil {
			return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d: events_gz is not binary", first)
		}
		zr, err := gzip.NewReader(bytes.NewReader(b.Value))
		if err == nil {
			lines, err = io.ReadAll(io.LimitReader(zr, 64<<20))
		}
		if err != nil {
			return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d: its compressed events are corrupt: %v", first, err)
		}
	case item[attrProposalPK] != nil:
		return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d claims a proposal (%s) that is not in the cloud", first, getStr(item, attrProposalPK))
	default:
		return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d holds no events", first)
	}
	claim := item[attrPrevHash] != nil
	evs := make([]entry, 0, min(last-first+1, segmentMaxEvents))
	for i, line := range bytes.Split(lines, []byte{'\n'}) {
		seq := first + uint64(i)
		e, err := decodeEntry(line)
		if err != nil {
			return nil, app.Errorf(app.CodeInvalid, "cloud log event %d is malformed: %s", seq, app.ErrorMessage(err))
		}
		if !claim && e.seq() != seq {
			return nil, app.Errorf(app.CodeInvalid, "cloud log event %d: the segment at %d holds sequence %d in its place", seq, first, e.seq())
		}
		evs = append(evs, e)
	}
	if got := first + uint64(len(evs)) - 1; got != last {
		return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d says it ends at %d but holds events up to %d", first, last, got)
	}
	if claim {
		return placeClaimed(item, first, evs)
	}
	return evs, nil
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func num(n uint64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatUint(n, 10)}
}

func getStr(item map[string]types.AttributeValue, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

func getNum(item map[string]types.AttributeValue, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberN); ok {
		return v.Value
	}
	return ""
}
