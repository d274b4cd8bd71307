// Package ddblimit makes DynamoDB Local behave like DynamoDB under load, for
// tests. Transport is an http.RoundTripper put in front of DynamoDB Local
// (which stays the engine: every admitted request is forwarded to it and
// answered by it); it adds what DynamoDB Local never does:
//
//   - Per-partition budgets. DynamoDB serves each partition key value with
//     at most 1,000 write units and 3,000 read units a second. Transport
//     keeps a token bucket per table and partition key value for writes and
//     one for reads, refilled at those rates and holding at most Burst of
//     unused capacity (DynamoDB keeps up to 300 s; the default here is small
//     so that tests see throttling). A write costs ceil(item size / 1 KB)
//     units, estimated from the request's attribute values (for UpdateItem
//     the key and the update's values, for DeleteItem one unit); a write in
//     TransactWriteItems costs twice that, a ConditionCheck too. A read
//     costs one unit per 4 KB of the items returned when strongly
//     consistent, half that when eventually consistent; reads are admitted
//     before they are forwarded and charged by what the answer holds.
//     A bucket may go into debt by one request (a 256 KB segment is
//     admitted by a bucket that has any capacity left), so over time a
//     partition carries exactly its rate.
//   - Throttling errors as the service sends them: HTTP 400 with
//     x-amzn-ErrorType and __type
//     com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException
//     (or ThrottlingException, Config.ThrottleCode), the service's message
//     and ThrottlingReasons naming the key-range limit
//     (TableWriteKeyRangeThroughputExceeded,
//     TableReadKeyRangeThroughputExceeded) and the table. The AWS SDK for Go
//     v2 retries both codes with backoff. A throttled TransactWriteItems is
//     cancelled instead: TransactionCanceledException with a
//     CancellationReasons entry per item, ThrottlingError for the items of
//     a throttled partition and None for the others, which the SDK does not
//     retry (the caller sees it).
//   - Transaction conflicts: a TransactWriteItems that names an item (table,
//     partition and sort key) another TransactWriteItems in flight names is
//     cancelled with reason TransactionConflict, without being forwarded; a
//     PutItem, UpdateItem or DeleteItem of such an item fails with
//     TransactionConflictException, as on the service.
//     Config.TransactionLatency holds each transaction's items for that long
//     before it is forwarded, as the service's two-phase commit does, which
//     widens the window.
//   - BatchWriteItem across partitions some of which are over budget: the
//     items of the others are written and the rest come back as
//     UnprocessedItems (HTTP 200), as on the service; a batch all over
//     budget is throttled like any write.
//   - Lost responses: with probability Config.LoseResponses a request is
//     forwarded, commits, and its answer is replaced by a connection reset.
//
// Counters (Stats) say how many requests were made, throttled, cancelled by
// conflicts and lost, per operation and per partition, with the units each
// partition consumed.
//
// Scan is forwarded without a budget check (it reads every partition), and
// each partition is charged for the items the page read from it, so later
// requests to a partition a scan drained are throttled.
package ddblimit
