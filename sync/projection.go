package cloudsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	mrand "math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// The cloud projection's METADATA/SYNC item holds, besides what the local one
// holds (last_event_id, last_event_hash), while a device is writing the
// projection: claim (a random token), claim_target (the sequence number it
// writes up to) and claimed_at. See doc.go for the protocol.
const (
	pkMetadata      = "METADATA"
	skSync          = "SYNC"
	attrLastEventID = "last_event_id"
	attrClaim       = "claim"
	attrClaimTarget = "claim_target"
	attrClaimedAt   = "claimed_at"
)

// projectionState is what the cloud METADATA/SYNC item says.
type projectionState struct {
	last   uint64 // the projection is complete up to this event
	claim  string // the token of the device writing it, if any
	target uint64 // that device's target
}

func syncKey() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(pkMetadata), attrSK: str(skSync)}
}

// readProjectionState reads METADATA/SYNC with a consistent read.
func (c *Cloud) readProjectionState(ctx context.Context) (projectionState, error) {
	out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(c.tables.Data), Key: syncKey(), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return projectionState{}, c.classify(ctx, "read the cloud projection's METADATA/SYNC", err)
	}
	var st projectionState
	st.last, _ = strconv.ParseUint(getNum(out.Item, attrLastEventID), 10, 64)
	st.claim = getStr(out.Item, attrClaim)
	st.target, _ = strconv.ParseUint(getNum(out.Item, attrClaimTarget), 10, 64)
	return st, nil
}

// updateProjection brings the cloud projection from its last event up to
// this device's confirmed head, when it is behind it. It returns the
// projection's last event afterwards as far as this device knows. Losing
// the claim to another device is not an error: that device writes at least
// as far.
func (s *Syncer) updateProjection(ctx context.Context, c *Cloud, progress func()) (uint64, error) {
	st, err := c.readProjectionState(ctx)
	if err != nil {
		return 0, err
	}
	if err := s.local.PruneCloudDirty(ctx, st.last); err != nil {
		return st.last, err
	}
	head, puts, deletes, err := s.local.CloudDelta(ctx, st.last)
	if err != nil {
		return st.last, err
	}
	if head <= st.last {
		return st.last, s.checkProjection(ctx, c, st, head, progress)
	}
	if st.claim != "" && st.target > head {
		// Someone with more of the log is writing; their write covers ours.
		return st.last, nil
	}
	token := newToken()
	if err := c.claimProjection(ctx, st, token, head, s.now()); err != nil {
		if isConditionFailure(err) || isTransactionConflict(err) {
			return st.last, nil
		}
		return st.last, c.classify(ctx, "claim the cloud projection", err)
	}
	s.step("projection-claimed")
	if st.claim != "" {
		// We took over from a writer that may still have writes in flight:
		// each of its calls ends within the call timeout, and it checks its
		// claim before each batch, so after that long it writes no more.
		if err := sleep(ctx, c.db.timeout+claimRecheck); err != nil {
			return st.last, c.classify(ctx, "wait for the previous projection writer", err)
		}
	}
	var syncItem app.Item
	var writes []types.WriteRequest
	for _, it := range puts {
		if it.PK() == pkMetadata && it.SK() == skSync {
			syncItem = it
			continue
		}
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: ToAttributeMap(it)}})
	}
	for _, it := range deletes {
		writes = append(writes, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: ToAttributeMap(it)}})
	}
	if syncItem == nil {
		return st.last, app.Errorf(app.CodeInternal, "the confirmed projection has no METADATA/SYNC item after event %d", head)
	}
	s.progress.ToProject = len(writes)
	lost, err := s.writeBatches(ctx, c, token, writes, progress)
	if err != nil || lost {
		return st.last, err
	}
	if err := c.finishProjection(ctx, token, syncItem); err != nil {
		if isConditionFailure(err) {
			return st.last, nil
		}
		return st.last, c.classify(ctx, "finish the cloud projection", err)
	}
	s.step("projection-done")
	if err := s.local.PruneCloudDirty(ctx, head); err != nil {
		return head, err
	}
	return head, nil
}

// Bulk writes of the projection: batches of 25 items (BatchWriteItem's
// most) and about projectionBatchBytes, projectionWorkers at a time, each
// batch's unprocessed items sent again with backoff. A writer re-reads its
// claim at least every claimRecheck and stops at once when it lost it.
// A batch of 25 chunks of imported ballots (256 KB each) would cost 6,400
// write units, six seconds of its partition's budget: eight of them in
// flight left one waiting past the writer's patience (two call timeouts)
// while the others went first.
const (
	projectionBatch      = 25
	projectionBatchBytes = 512 << 10
	projectionWorkers    = 8
	claimRecheck         = time.Second
)

// writeBatches writes the projection's changes in bulk while the claim
// token is ours; lost reports that another device took the claim.
func (s *Syncer) writeBatches(ctx context.Context, c *Cloud, token string, writes []types.WriteRequest, progress func()) (lost bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu        sync.Mutex
		firstErr  error
		lostClaim bool
		checked   = time.Now()
	)
	fail := func(e error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = e
		}
		mu.Unlock()
		cancel()
	}
	// still reports whether the claim is still ours, reading it again when
	// the last check is older than claimRecheck.
	still := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if lostClaim || firstErr != nil {
			return false
		}
		if time.Since(checked) < claimRecheck {
			return true
		}
		st, err := c.readProjectionState(ctx)
		if err != nil {
			firstErr = err
			return false
		}
		checked = time.Now()
		lostClaim = st.claim != token
		return !lostClaim
	}
	next := make(chan []types.WriteRequest)
	var moved progressClock // when any batch last got an item written
	moved.tick()
	var wg sync.WaitGroup
	for range projectionWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range next {
				if !still() {
					continue
				}
				if err := c.writeBatch(ctx, batch, &moved); err != nil {
					fail(err)
					continue
				}
				mu.Lock()
				s.progress.Projected += len(batch)
				progress()
				mu.Unlock()
				s.step("projection-chunk")
			}
		}()
	}
	for start := 0; start < len(writes); {
		if ctx.Err() != nil {
			break
		}
		end, size := start, 0
		for end < len(writes) && end-start < projectionBatch {
			n := writeSize(writes[end])
			if end > start && size+n > projectionBatchBytes {
				break
			}
			size += n
			end++
		}
		next <- writes[start:end]
		start = end
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return false, firstErr
	}
	return lostClaim || !still(), nil
}

// writeSize is about the bytes a write carries: its attributes' names
// and values, as DynamoDB counts an item's size.
func writeSize(w types.WriteRequest) int {
	var item map[string]types.AttributeValue
	switch {
	case w.PutRequest != nil:
		item = w.PutRequest.Item
	case w.DeleteRequest != nil:
		item = w.DeleteRequest.Key
	}
	n := 0
	for name, v := range item {
		n += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberN:
			n += len(v.Value)
		case *types.AttributeValueMemberB:
			n += len(v.Value)
		default:
			n += 8
		}
	}
	return n
}

// progressClock is when a projection's writes last made progress, shared
// by its writers.
type progressClock struct{ at atomic.Int64 }

func (p *progressClock) tick()                { p.at.Store(time.Now().UnixNano()) }
func (p *progressClock) since() time.Duration { return time.Since(time.Unix(0, p.at.Load())) }

// writeBatch writes one batch, sending unprocessed items again (DynamoDB
// returns them when a partition is busy) with jittered backoff.
func (c *Cloud) writeBatch(ctx context.Context, batch []types.WriteRequest, moved *progressClock) error {
	pending := batch
	// A batch gives up only after the whole projection made no progress
	// for two call timeouts: one election's ballots share a partition, so
	// a large projection is paced by that partition's write budget for as
	// long as it takes (doc.go, "The cloud projection"), not failed by it,
	// and while other batches go through, this one waits its turn (a
	// batch of its own made no progress for 12 s while seven others took
	// the partition's budget, and failed the projection of a million
	// ballots).
	for attempt := 0; len(pending) > 0; attempt++ {
		out, err := c.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{c.tables.Data: pending},
		})
		switch {
		case isThrottled(err):
			// The whole batch was refused as busy: it waits like
			// unprocessed items.
		case err != nil:
			return c.classify(ctx, "write the cloud projection", err)
		default:
			left := out.UnprocessedItems[c.tables.Data]
			if len(left) < len(pending) {
				moved.tick()
				attempt = 0
			}
			if len(left) == 0 {
				return nil
			}
			pending = left
		}
		if moved.since() > 2*c.db.timeout {
			return app.Errorf(app.CodeUnavailable, "DynamoDB at %s kept refusing %d item(s) of the cloud projection as busy for %s; sync again later", c.endpoint, len(pending), (2 * c.db.timeout).Round(time.Second))
		}
		wait := time.Duration(mrand.Int64N(int64(20*time.Millisecond) << min(attempt, 6)))
		if err := sleep(ctx, wait); err != nil {
			return c.classify(ctx, "wait to write the cloud projection", err)
		}
	}
	return nil
}

// claimProjection takes the right to write the projection up to target, on
// condition that METADATA/SYNC is still as read (same last event, same claim
// or none).
func (c *Cloud) claimProjection(ctx context.Context, st projectionState, token string, target uint64, now string) error {
	cond := "attribute_not_exists(last_event_id)"
	vals := map[string]types.AttributeValue{":tok": str(token), ":target": num(target), ":now": str(now)}
	if st.last != 0 {
		cond = "last_event_id = :last"
		vals[":last"] = num(st.last)
	}
	if st.claim == "" {
		cond += " AND attribute_not_exists(claim)"
	} else {
		cond += " AND claim = :seen"
		vals[":seen"] = str(st.claim)
	}
	_, err := c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(c.tables.Data),
		Key:                       syncKey(),
		UpdateExpression:          aws.String("SET claim = :tok, claim_target = :target, claimed_at = :now"),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: vals,
	})
	return err
}

// finishProjection writes METADATA/SYNC as the confirmed projection holds it
// and drops the claim, on condition that the claim is still ours.
func (c *Cloud) finishProjection(ctx context.Context, token string, syncItem app.Item) error {
	names := map[string]string{}
	vals := map[string]types.AttributeValue{":tok": str(token)}
	set := ""
	for i, a := range syncItem {
		if a.Name == attrPK || a.Name == attrSK {
			continue
		}
		n, v := "#a"+strconv.Itoa(i), ":v"+strconv.Itoa(i)
		names[n] = a.Name
		vals[v] = toAttr(a.Value)
		if set != "" {
			set += ", "
		}
		set += n + " = " + v
	}
	names["#claim"] = attrClaim
	_, err := c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(c.tables.Data),
		Key:                       syncKey(),
		UpdateExpression:          aws.String("SET " + set + " REMOVE claim, claim_target, claimed_at"),
		ConditionExpression:       aws.String("#claim = :tok"),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: vals,
	})
	return err
}

// newToken returns a random claim token.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
