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
//	PK          LOG#global (the shard; LOG#ELECTION#{id} if sharded, doc.go)
//	SK          the first event's sequence number, 20 digits
//	entity_type EVENTS
//	first_seq   the first event's sequence number   (N)
//	last_seq    the last event's sequence number    (N)
//	first_when, last_when   the events' times, RFC 3339
//	first_id, last_id       their ids
//	last_hash   the last event's hash (the chain's head after this segment)
//	events      the events as JSON lines, exactly as the local log stores
//	            them (app.EncodeEvent), when they are small (S)
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

// segment is a run of consecutive events ready to store.
type segment struct {
	events []*app.Event
	item   map[string]types.AttributeValue
	stored int
}

// packSegments splits consecutive events into segments.
func packSegments(evs []*app.Event) ([]segment, error) {
	var out []segment
	var lines bytes.Buffer
	start := 0
	flush := func(end int) error {
		if end == start {
			return nil
		}
		seg, err := newSegment(evs[start:end], lines.Bytes())
		if err != nil {
			return err
		}
		out = append(out, seg)
		lines.Reset()
		start = end
		return nil
	}
	for i, ev := range evs {
		b, err := app.EncodeEvent(ev)
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

// newSegment builds the item of one segment from its events and their JSON
// lines.
func newSegment(evs []*app.Event, lines []byte) (segment, error) {
	first, last := evs[0], evs[len(evs)-1]
	item := map[string]types.AttributeValue{
		attrPK:        str(logPartition),
		attrSK:        str(seqKey(first.Seq)),
		"entity_type": str(segmentEntity),
		attrFirstSeq:  num(first.Seq),
		attrLastSeq:   num(last.Seq),
		"first_when":  str(app.FormatTime(first.When)),
		"last_when":   str(app.FormatTime(last.When)),
		attrFirstID:   str(first.ID),
		"last_id":     str(last.ID),
		attrLastHash:  str(last.Hash),
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
			"event %d (%s, %s) is too large to sync: %d bytes even compressed, and a DynamoDB item holds at most 400 KB; split it (for example import fewer ballots at once)",
			first.Seq, first.ID, first.Type, stored)
	}
	return segment{events: evs, item: item, stored: stored + 256}, nil
}

// decodeSegment reads the events of one segment item and checks its frame:
// the sort key, first and last sequence numbers agree with the events, and
// every event is whole. It does not check the hash chain (the local store
// does, against its confirmed head). Errors name the sequence number.
func decodeSegment(item map[string]types.AttributeValue) ([]*app.Event, error) {
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
	default:
		return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d holds no events", first)
	}
	evs := make([]*app.Event, 0, last-first+1)
	for i, line := range bytes.Split(lines, []byte{'\n'}) {
		seq := first + uint64(i)
		ev, err := app.DecodeEvent(line)
		if err != nil {
			return nil, app.Errorf(app.CodeInvalid, "cloud log event %d is malformed: %s", seq, app.ErrorMessage(err))
		}
		if ev.Seq != seq {
			return nil, app.Errorf(app.CodeInvalid, "cloud log event %d: the segment at %d holds sequence %d in its place", seq, first, ev.Seq)
		}
		evs = append(evs, ev)
	}
	if got := first + uint64(len(evs)) - 1; got != last {
		return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d says it ends at %d but holds events up to %d", first, last, got)
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
