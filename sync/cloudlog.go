package cloudsync

import (
	"context"
	"errors"
	mrand "math/rand/v2"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// errLostRace means a conditional append found its sequence numbers taken
// (or was cancelled by a transaction busy with them):
// another device appended first (or an earlier attempt of ours committed and
// its response was lost). What holds the place tells which (see
// Syncer.appendAtHead).
var errLostRace = errors.New("cloudsync: another append took these sequence numbers")

// lostRace is errLostRace with what DynamoDB said holds the contested place
// (the first segment's key), when it said so: a write refused by its
// condition returns the item that refused it (ReturnValuesOnConditionCheckFailure).
type lostRace struct {
	holder map[string]types.AttributeValue
}

func (e *lostRace) Error() string        { return errLostRace.Error() }
func (e *lostRace) Is(target error) bool { return target == errLostRace }

// lost makes the lostRace of an append refused by err, which
// isConditionFailure or isTransactionConflict accepted.
func lost(err error) error {
	var cf *types.ConditionalCheckFailedException
	if errors.As(err, &cf) && cf.Item != nil {
		return &lostRace{holder: cf.Item}
	}
	// A transaction refused by the first segment's condition says what
	// holds its place; any other refusal (a conflict, or another
	// segment's condition) leaves the place to be read.
	var tc *types.TransactionCanceledException
	if errors.As(err, &tc) && len(tc.CancellationReasons) > 0 {
		if r := tc.CancellationReasons[0]; aws.ToString(r.Code) == "ConditionalCheckFailed" && r.Item != nil {
			return &lostRace{holder: r.Item}
		}
	}
	return errLostRace
}

// logHead returns the last sequence number of the cloud log's global shard
// and the hash its last segment gives for that entry (0 and "" when it is
// empty); the hash is as stored, checked only when the entries are pulled.
func (c *Cloud) logHead(ctx context.Context) (uint64, string, error) {
	return c.shardHead(ctx, globalShard)
}

// shardHead is logHead for any shard.
func (c *Cloud) shardHead(ctx context.Context, shard string) (uint64, string, error) {
	out, err := c.db.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(c.tables.Log),
		KeyConditionExpression:    aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": str(shardPK(shard))},
		ProjectionExpression:      aws.String("SK, last_seq, last_hash"),
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(1),
		ConsistentRead:            aws.Bool(true),
	})
	if err != nil {
		return 0, "", c.classify(ctx, "read the head of the cloud log", err)
	}
	if len(out.Items) == 0 {
		return 0, "", nil
	}
	last, err := strconv.ParseUint(getNum(out.Items[0], attrLastSeq), 10, 64)
	if err != nil {
		return 0, "", app.Errorf(app.CodeInvalid, "the last segment of the cloud log%s (%s) has no valid last_seq", shardWords(shard), getStr(out.Items[0], attrSK))
	}
	return last, getStr(out.Items[0], attrLastHash), nil
}

// frame is where a segment stands in its shard and what it starts with.
type frame struct {
	firstID  string
	lastSeq  uint64
	lastHash string
}

// framesFrom returns the frames of the segments of shard from sequence
// number from to its head, read consistently (an append that committed
// before the read is among them): the head, and the first id of every run
// appended since from. Only the frames are projected; DynamoDB charges the
// items' size, rounded up to 4 KB for the whole query, so a few segments
// cost about as much as the head alone.
func (c *Cloud) framesFrom(ctx context.Context, shard string, from uint64) ([]frame, error) {
	var out []frame
	var start map[string]types.AttributeValue
	for {
		page, err := c.db.Query(ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(c.tables.Log),
			KeyConditionExpression:    aws.String("PK = :p AND SK >= :from"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": str(shardPK(shard)), ":from": str(seqKey(from))},
			ProjectionExpression:      aws.String("SK, first_id, last_seq, last_hash"),
			ConsistentRead:            aws.Bool(true),
			ExclusiveStartKey:         start,
		})
		if err != nil {
			return nil, c.classify(ctx, "read the head of the cloud log", err)
		}
		for _, it := range page.Items {
			last, err := strconv.ParseUint(getNum(it, attrLastSeq), 10, 64)
			if err != nil {
				return nil, app.Errorf(app.CodeInvalid, "the segment of the cloud log%s at %s has no valid last_seq", shardWords(shard), getStr(it, attrSK))
			}
			out = append(out, frame{firstID: getStr(it, attrFirstID), lastSeq: last, lastHash: getStr(it, attrLastHash)})
		}
		if page.LastEvaluatedKey == nil {
			return out, nil
		}
		start = page.LastEvaluatedKey
	}
}

// holder returns the id of the first event and the last hash of the
// segment that holds place seq, which an append refused by lostErr
// contested: from the refusal when DynamoDB returned the holding item with
// it, else read (segmentMark).
func (c *Cloud) holder(ctx context.Context, shard string, lostErr error, seq uint64) (firstID, lastHash string, err error) {
	var lr *lostRace
	if errors.As(lostErr, &lr) {
		return getStr(lr.holder, attrFirstID), getStr(lr.holder, attrLastHash), nil
	}
	return c.segmentMark(ctx, shard, seq)
}

// segmentMark returns the id of the first event and the last hash of the
// segment stored at sequence number seq ("" and "" when there is none),
// read consistently: after an append there lost its race, they tell
// whether the write that holds the place is this device's own (an earlier
// attempt whose answer was lost).
func (c *Cloud) segmentMark(ctx context.Context, shard string, seq uint64) (firstID, lastHash string, err error) {
	out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:            aws.String(c.tables.Log),
		Key:                  map[string]types.AttributeValue{attrPK: str(shardPK(shard)), attrSK: str(seqKey(seq))},
		ProjectionExpression: aws.String(attrFirstID + ", " + attrLastHash),
		ConsistentRead:       aws.Bool(true),
	})
	if err != nil {
		return "", "", c.classify(ctx, "read the cloud log", err)
	}
	return getStr(out.Item, attrFirstID), getStr(out.Item, attrLastHash), nil
}

// readLog reads the global shard of the cloud log from sequence number from
// on and calls fn with the entries of each page of the query, in order. A page that does not
// continue the log without a gap, or holds a malformed event, stops the
// read with an error naming the sequence number before fn sees any of it.
// The next page is queried, decoded and its signatures checked while fn
// takes the current one (a first pull of a large log spends about as long
// on those as on applying), so at most two pages are held at a time.
//
// Events up to settled are known to be in the log (a consistent read of its
// head said so). When there are at least eventualFrom of them to read, they
// are read with eventually consistent queries, at half the read units, as
// far as those go; the rest, and everything when there are fewer, with
// consistent ones (sync/doc.go, "Reading at half price").
//
// check, when given, is called by the reader on each page as it is decoded
// (frames checked, signatures not yet), in order: what it refuses ends the
// read as a bad segment does.
func (c *Cloud) readLog(ctx context.Context, from, settled uint64, check func(page []entry) error, fn func(page []entry) error) error {
	ctx, stop := context.WithCancel(ctx)
	pages := make(chan logPage, 1)
	defer func() {
		// Stop the reader, and wait until it has: no query of this read
		// outlives it.
		stop()
		for range pages {
		}
	}()
	go func() {
		defer close(pages)
		err := c.scanLog(ctx, logPartition, from, 0, settled, func(items []map[string]types.AttributeValue, next uint64) (uint64, error) {
			page, err := decodePage(items, next)
			if err != nil || len(page) == 0 {
				return next, err
			}
			if check != nil {
				if err := check(page); err != nil {
					// What check found whole goes on first, when it says
					// so (readMerged with upTo).
					var pp *partialPage
					if errors.As(err, &pp) && pp.n > 0 {
						verifyEntries(page[:pp.n])
						select {
						case pages <- logPage{entries: page[:pp.n]}:
						case <-ctx.Done():
							return next, ctx.Err()
						}
					}
					return next, err
				}
			}
			// Check the page's signatures here, while the page before it
			// is applied: applying finds them checked.
			verifyEntries(page)
			// The consumer numbers the events as the merged log does, so
			// where the shard goes on is taken before they are handed on.
			after := page[len(page)-1].seq() + 1
			select {
			case pages <- logPage{entries: page}:
			case <-ctx.Done():
				return next, ctx.Err()
			}
			return after, nil
		})
		if err != nil && ctx.Err() == nil {
			pages <- logPage{err: err}
		}
	}()
	for p := range pages {
		if p.err != nil {
			return p.err
		}
		if err := fn(p.entries); err != nil {
			return err
		}
	}
	return nil
}

// scanLog makes the queries of a read of the partition pk from sequence
// number from on, up to to (0: to its end; readLog says which are
// eventually consistent) and hands each page's
// segments to take with the sequence number they must start at; take
// returns the one after them, or why they do not continue the log. That
// ends the read, unless the page was read eventually consistent: then the
// consistent read from there decides.
func (c *Cloud) scanLog(ctx context.Context, pk string, from, to, settled uint64, take func(items []map[string]types.AttributeValue, next uint64) (uint64, error)) error {
	next := from
	consistent := settled < from || settled-from+1 < eventualFrom
	for {
		// One query from next, page by page to its end.
		queried := next
		var start map[string]types.AttributeValue
		for {
			out, err := c.queryLog(ctx, pk, queried, to, start, consistent)
			if err == nil {
				err = c.resolveClaims(ctx, out.Items)
			}
			if err != nil {
				return err
			}
			n, err := take(out.Items, next)
			if err != nil && (consistent || ctx.Err() != nil) {
				return err
			}
			if err != nil {
				// Eventually consistent reads that do not continue the
				// log (a copy of the partition that lags, or a bad
				// segment): the consistent read from next decides.
				break
			}
			next = n
			if out.LastEvaluatedKey == nil {
				break
			}
			start = out.LastEvaluatedKey
		}
		if consistent || to != 0 && next > to {
			return nil
		}
		// The eventually consistent reads went as far as they could; the
		// rest is read consistently, which sees every append.
		consistent = true
	}
}

// eventualFrom is how many settled events a pull must have to read before
// it reads them eventually consistent: below it, the consistent query that
// ends every pull would cost more than the half it saves.
const eventualFrom = 16

// logPage is one page of readLog's query, decoded, or what stopped it.
type logPage struct {
	entries []entry
	err     error
}

// verifyEntries checks the signatures of the events among entries on
// every core (app.VerifyAll).
func verifyEntries(entries []entry) {
	evs := make([]*app.Event, 0, len(entries))
	for _, e := range entries {
		if e.ev != nil {
			evs = append(evs, e.ev)
		}
	}
	app.VerifyAll(evs)
}

// decodePage decodes the segments of a page of the log's query and checks
// that they continue the log at sequence number next without a gap.
func decodePage(items []map[string]types.AttributeValue, next uint64) ([]entry, error) {
	var page []entry
	for _, item := range items {
		evs, err := decodeSegment(item)
		if err != nil {
			return nil, err
		}
		if evs[0].seq() != next {
			return nil, app.Errorf(app.CodeInvalid, "cloud log event %d is missing: the next segment starts at %d (a gap or an overlap in the log)", next, evs[0].seq())
		}
		next += uint64(len(evs))
		page = append(page, evs...)
	}
	return page, nil
}

// queryLog queries one page of the segments of partition pk from sequence
// number from (up to those starting at to, when to is not 0), after start
// (the last page's LastEvaluatedKey): what every pull asks DynamoDB for.
func (c *Cloud) queryLog(ctx context.Context, pk string, from, to uint64, start map[string]types.AttributeValue, consistent bool) (*dynamodb.QueryOutput, error) {
	cond := "PK = :p AND SK >= :from"
	values := map[string]types.AttributeValue{":p": str(pk), ":from": str(seqKey(from))}
	if to != 0 {
		cond = "PK = :p AND SK BETWEEN :from AND :to"
		values[":to"] = str(seqKey(to))
	}
	out, err := c.db.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(c.tables.Log),
		KeyConditionExpression:    aws.String(cond),
		ExpressionAttributeValues: values,
		ConsistentRead:            aws.Bool(consistent),
		ExclusiveStartKey:         start,
	})
	if err != nil {
		return nil, c.classify(ctx, "read the cloud log", err)
	}
	return out, nil
}

// appendSegments writes segments to the cloud log in one transaction, each
// on condition that its sequence number is free: all commit or none does.
// One segment is one conditional PutItem, at half a transaction's write
// units.
func (c *Cloud) appendSegments(ctx context.Context, segs []segment) error {
	if len(segs) == 1 {
		_, err := c.db.PutItem(ctx, &dynamodb.PutItemInput{
			TableName:                           aws.String(c.tables.Log),
			Item:                                segs[0].item,
			ConditionExpression:                 aws.String("attribute_not_exists(PK)"),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		})
		if isConditionFailure(err) || isTransactionConflict(err) {
			return lost(err)
		}
		if err != nil {
			return c.classify(ctx, "append to the cloud log", err)
		}
		return nil
	}
	items := make([]types.TransactWriteItem, len(segs))
	for i, s := range segs {
		items[i] = types.TransactWriteItem{Put: &types.Put{
			TableName:                           aws.String(c.tables.Log),
			Item:                                s.item,
			ConditionExpression:                 aws.String("attribute_not_exists(PK)"),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}}
	}
	// A transaction cancelled because a partition it writes was over its
	// budget wrote nothing, and the SDK, which sends a throttled request
	// again, does not send a transaction again: it is sent again here,
	// after a wait, until it goes through or two call timeouts pass. A
	// million imported ballots are some 80,000 transactional write units
	// into one shard's partition: 80 s at its 1,000 a second.
	began := time.Now()
	for attempt := 0; ; attempt++ {
		_, err := c.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
		// Another device's append busy with the same sequence numbers
		// cancels this one (a conflict) or finds them taken (a
		// condition): either way nothing of this transaction was written,
		// and the device pulls what the other appended and tries again
		// after it.
		switch {
		case isConditionFailure(err) || isTransactionConflict(err):
			return lost(err)
		case isTransactionThrottled(err) && time.Since(began) < 2*c.db.timeout:
			wait := time.Duration(mrand.Int64N(int64(50*time.Millisecond) << min(attempt, 5)))
			if c.onRetry != nil {
				c.onRetry(wait, app.SyncBusyThrottled)
			}
			if err := sleep(ctx, wait); err != nil {
				return c.classify(ctx, "wait to append to the cloud log", err)
			}
		case err != nil:
			return c.classify(ctx, "append to the cloud log", err)
		default:
			return nil
		}
	}
}

// isTransactionThrottled reports whether a transaction was cancelled
// because a partition it writes was over its budget.
func isTransactionThrottled(err error) bool { return cancelledFor(err, "ThrottlingError") }

// isConditionFailure reports whether err is a write refused by its condition
// (alone, or as one of the reasons a transaction was cancelled).
func isConditionFailure(err error) bool {
	var cf *types.ConditionalCheckFailedException
	return errors.As(err, &cf) || cancelledFor(err, "ConditionalCheckFailed")
}

// isTransactionConflict reports whether a transaction was cancelled because
// another one was busy with the same item.
func isTransactionConflict(err error) bool {
	var tce *types.TransactionConflictException
	return cancelledFor(err, "TransactionConflict") || errors.As(err, &tce)
}

// cancelledFor reports whether err is a transaction cancelled with reason
// code among its reasons.
func cancelledFor(err error, code string) bool {
	var tc *types.TransactionCanceledException
	if errors.As(err, &tc) {
		for _, r := range tc.CancellationReasons {
			if aws.ToString(r.Code) == code {
				return true
			}
		}
	}
	return false
}

// batchSegments groups segments into push transactions.
func batchSegments(segs []segment) [][]segment {
	var out [][]segment
	start, size := 0, 0
	for i, s := range segs {
		if i > start && (i-start >= txMaxSegments || size+s.stored > txMaxStored) {
			out = append(out, segs[start:i])
			start, size = i, 0
		}
		size += s.stored
	}
	if start < len(segs) {
		out = append(out, segs[start:])
	}
	return out
}

// ReadLog reads the whole cloud log, every shard merged in the one order
// every device holds it in, checking every shard's hash chain and every
// cut, and calls fn with the events of each page in order from sequence
// number from on. It is what pull uses, for tools and tests that inspect
// the cloud log.
func (c *Cloud) ReadLog(ctx context.Context, from uint64, fn func(page []*app.Event) error) error {
	m, _ := decodeMark(nil, 0, "")
	return c.readMerged(ctx, m, 1, "", 0, false, nil, func(page []*app.Event, _ mark) error {
		for len(page) > 0 && page[0].Seq < from {
			page = page[1:]
		}
		if len(page) == 0 {
			return nil
		}
		return fn(page)
	})
}
