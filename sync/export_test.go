package cloudsync

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// Hooks for TestAppendCapacity (capacity_test.go). It drives the cloud log
// as hundreds of devices do, with the requests they make, without being
// those devices: each simulated device reads the log as a pull does and
// appends as a push does, but does not decode, check or apply what it
// reads. On real devices that work runs on each device's own processor;
// done here, two hundred times over on this machine's two cores, it would
// measure the cores instead of the shared log (TestLoad does that).

// LogHead reads the cloud log's head, as a sync cycle starts by doing.
func LogHead(ctx context.Context, c *Cloud) (uint64, string, error) { return c.logHead(ctx) }

// ReadLogRaw makes the queries a pull from sequence number from makes
// when the log's head was settled (readLog), page after page to the end of
// the log, and returns the last event read and the hash its segment gives
// (from-1 and "" when there was nothing after from-1). The segments are
// not decoded: only their place in the log is checked.
func ReadLogRaw(ctx context.Context, c *Cloud, from, settled uint64) (last uint64, hash string, err error) {
	last = from - 1
	err = c.scanLog(ctx, logPartition, from, 0, settled, func(items []map[string]types.AttributeValue, next uint64) (uint64, error) {
		for _, it := range items {
			first, err1 := strconv.ParseUint(getNum(it, attrFirstSeq), 10, 64)
			end, err2 := strconv.ParseUint(getNum(it, attrLastSeq), 10, 64)
			if err1 != nil || err2 != nil || first != next || end < first {
				return next, fmt.Errorf("segment %s does not continue the log at %d", getStr(it, attrSK), next)
			}
			next, last, hash = end+1, end, getStr(it, attrLastHash)
		}
		return next, nil
	})
	return last, hash, err
}

// AppendAfter appends evs right after event seq, whose hash is hash, as a
// push of one transaction does (Syncer.push): at that place on condition
// that it is free, and after a lost race at the head (Syncer.appendAtHead,
// with its backoff and its check for an append whose answer was lost). It
// returns how many races it lost.
func AppendAfter(ctx context.Context, c *Cloud, evs []*app.Event, seq uint64, hash string) (lost int, err error) {
	return AppendAfterClaiming(ctx, c, evs, seq, hash, 0)
}

// AppendAfterClaiming is AppendAfter with Config.ClaimFrom claimFrom.
func AppendAfterClaiming(ctx context.Context, c *Cloud, evs []*app.Event, seq uint64, hash string, claimFrom int) (lost int, err error) {
	s := &Syncer{local: &settingsOnly{m: map[string][]byte{}}, cfg: Config{ClaimFrom: claimFrom}, Step: func(name string) {
		if name == "lost" {
			lost++
		}
	}}
	placed := placedAfter(evs, seq, hash)
	segs, err := packSegments(placed)
	if err != nil {
		return 0, err
	}
	if len(batchSegments(segs)) != 1 {
		return 0, errors.New("AppendAfter: the events need more than one transaction")
	}
	err = s.write(ctx, c, segs)
	if errors.Is(err, errLostRace) {
		s.step("lost")
		var res app.SyncResult
		_, err = s.appendAtHead(ctx, c, placed, err, &res)
	}
	return lost, err
}

// settingsOnly is the Local of a writer with no database (AppendAfter):
// sync settings kept in memory (the proposals it wrote), and nothing else.
type settingsOnly struct {
	Local
	mu sync.Mutex
	m  map[string][]byte
}

func (l *settingsOnly) SyncSetting(_ context.Context, name string) ([]byte, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.m[name]
	return v, ok, nil
}

func (l *settingsOnly) SetSyncSetting(_ context.Context, name string, value []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[name] = value
	return nil
}

// ShardContents reads one shard of the cloud log ("global", or an
// election's "ELECTION#{id}") as it is stored: its events, and how many
// cuts it holds.
func ShardContents(ctx context.Context, c *Cloud, shard string) (evs []*app.Event, cuts int, err error) {
	tail, err := c.readTail(ctx, shard, place{})
	for _, e := range tail {
		if e.cut != nil {
			cuts++
		} else {
			evs = append(evs, e.ev)
		}
	}
	return evs, cuts, err
}

// SweepEveryCycle makes s sweep at the end of every cycle, as a one-off
// sync does, however often it syncs.
func SweepEveryCycle(s *Syncer) { s.sweepEvery = 0 }
