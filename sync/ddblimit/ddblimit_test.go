package ddblimit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/sync/ddblimit"
	"votedesk/sync/ddblocal"
)

var endpoint string

func TestMain(m *testing.M) {
	os.Exit(ddblocal.RunTests(m.Run, &endpoint))
}

// clock is a test clock the budgets refill by.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

var tableSeq atomic.Int64

// client is a DynamoDB client through hc making at most attempts attempts
// per call, with a millisecond between them.
func client(hc *http.Client, attempts int) *dynamodb.Client {
	if hc == nil {
		hc = &http.Client{}
	}
	return dynamodb.New(dynamodb.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(endpoint), HTTPClient: hc,
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""),
		Retryer: retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = attempts
			o.RateLimiter = ratelimit.None
			o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return time.Millisecond, nil })
		}),
	})
}

// newTable creates a table keyed like VoteDesk's (PK, SK) and returns its
// name.
func newTable(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("ddblimit%d", tableSeq.Add(1))
	_, err := client(nil, 3).CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// limited returns a Transport with cfg on a test clock, and a client
// through it that does not retry.
func limited(cfg ddblimit.Config) (*ddblimit.Transport, *clock, *dynamodb.Client) {
	c := &clock{now: time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC)}
	if cfg.Now == nil {
		cfg.Now = c.Now
	}
	tr := ddblimit.New(nil, cfg)
	return tr, c, client(&http.Client{Transport: tr}, 1)
}

func item(pk, sk string, size int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
		"v": &types.AttributeValueMemberS{Value: strings.Repeat("x", size)},
	}
}

func put(db *dynamodb.Client, table, pk, sk string, size int) error {
	_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item(pk, sk, size)})
	return err
}

// TestWriteBudget writes small items (one unit each) into one partition at
// half its budget, then at twice it: no throttling below the budget, and at
// twice it the partition admits its rate plus its burst.
func TestWriteBudget(t *testing.T) {
	table := newTable(t)
	tr, clk, db := limited(ddblimit.Config{WriteUnits: 100, Burst: 100 * time.Millisecond})
	t.Run("BelowTheBudget", func(t *testing.T) {
		for i := range 100 {
			clk.Add(20 * time.Millisecond) // 50 writes a second
			if err := put(db, table, "hot", fmt.Sprint(i), 100); err != nil {
				t.Fatalf("write %d at half the budget: %v", i, err)
			}
		}
		if s := tr.Stats(); s.Throttled != 0 {
			t.Errorf("%d throttled below the budget", s.Throttled)
		}
	})
	t.Run("ErrProvisionedThroughputExceeded", func(t *testing.T) {
		clk.Add(time.Second) // the burst is full again
		admitted := 0
		for i := range 400 {
			clk.Add(5 * time.Millisecond) // 200 writes a second for 2 s
			err := put(db, table, "hot", fmt.Sprint("b", i), 100)
			var pt *types.ProvisionedThroughputExceededException
			switch {
			case err == nil:
				admitted++
			case errors.As(err, &pt):
				if len(pt.ThrottlingReasons) != 1 || aws.ToString(pt.ThrottlingReasons[0].Reason) != "TableWriteKeyRangeThroughputExceeded" ||
					!strings.HasSuffix(aws.ToString(pt.ThrottlingReasons[0].Resource), ":table/"+table) || !strings.Contains(pt.ErrorMessage(), "hot key") {
					t.Fatalf("throttling error %+v, reasons %+v", pt, pt.ThrottlingReasons)
				}
			default:
				t.Fatalf("write %d: %v, want ProvisionedThroughputExceededException", i, err)
			}
		}
		// 2 s at 100 units a second, plus the burst of 10, give or take one.
		if admitted < 209 || admitted > 211 {
			t.Errorf("%d writes admitted at twice the budget over 2 s, want 210", admitted)
		}
		if err := put(db, table, "cold", "1", 100); err != nil {
			t.Errorf("another partition is throttled with the hot one: %v", err)
		}
		s := tr.Stats()
		if p := s.Partitions[table+" hot"]; p.Throttled != 400-admitted || p.WriteUnits != float64(100+admitted) {
			t.Errorf("partition stats %+v, want %d throttled and %d units", p, 400-admitted, 100+admitted)
		}
	})
	t.Run("ErrThrottlingException", func(t *testing.T) {
		tr.Configure(func(c *ddblimit.Config) { c.ThrottleCode = ddblimit.CodeThrottling })
		var te *types.ThrottlingException
		if err := put(db, table, "hot", "t", 100); !errors.As(err, &te) {
			t.Fatalf("write over the budget: %v, want ThrottlingException", err)
		}
	})
	t.Run("RetriedBySDK", func(t *testing.T) {
		before := tr.Stats().Ops["PutItem"].Requests
		err := put(client(&http.Client{Transport: tr}, 3), table, "hot", "r", 100)
		var me *retry.MaxAttemptsError
		if !errors.As(err, &me) {
			t.Fatalf("write over the budget with retries: %v, want the SDK to give up after its attempts", err)
		}
		if n := tr.Stats().Ops["PutItem"].Requests - before; n != 3 {
			t.Errorf("the SDK sent %d attempts, want 3", n)
		}
	})
}

// TestUnits checks what requests cost: a write one unit per KB, twice that
// in a transaction; a read one unit per 4 KB, half when eventually
// consistent.
func TestUnits(t *testing.T) {
	table := newTable(t)
	tr, _, db := limited(ddblimit.Config{Unlimited: true})
	ctx := context.Background()
	if err := put(db, table, "p", "big", 3500); err != nil { // 3.5 KB: 4 units
		t.Fatal(err)
	}
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: item("p", "t1", 3500)}},
		{Put: &types.Put{TableName: aws.String(table), Item: item("q", "t2", 100)}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, consistent := range []bool{true, false} {
		_, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(consistent),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: "big"}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		KeyConditionExpression:    aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "p"}}})
	if err != nil {
		t.Fatal(err)
	}
	s := tr.Stats()
	// p: 4 (put) + 8 (in the transaction) write units; 1 + 0.5 (gets) + 2
	// (a query of 7 KB) read units. q: 2 write units.
	if p := s.Partitions[table+" p"]; p.WriteUnits != 12 || p.ReadUnits != 3.5 {
		t.Errorf("partition p consumed %+v, want 12 WCU and 3.5 RCU", p)
	}
	if q := s.Partitions[table+" q"]; q.WriteUnits != 2 {
		t.Errorf("partition q consumed %+v, want 2 WCU", q)
	}
}

// TestReadBudget reads one partition over its budget.
func TestReadBudget(t *testing.T) {
	table := newTable(t)
	tr, clk, db := limited(ddblimit.Config{ReadUnits: 10, Burst: 100 * time.Millisecond})
	if err := put(db, table, "r", "1", 100); err != nil {
		t.Fatal(err)
	}
	throttled := 0
	for range 40 {
		clk.Add(50 * time.Millisecond) // 20 consistent reads a second
		_, err := db.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			KeyConditionExpression:    aws.String("#k = :p"),
			ExpressionAttributeNames:  map[string]string{"#k": "PK"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "r"}}})
		var pt *types.ProvisionedThroughputExceededException
		if errors.As(err, &pt) && aws.ToString(pt.ThrottlingReasons[0].Reason) == "TableReadKeyRangeThroughputExceeded" {
			throttled++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	// 2 s at 10 units a second: 20 reads of one unit (and one more from
	// the burst); the other 20 or so are throttled.
	if throttled < 18 || throttled > 20 {
		t.Errorf("%d of 40 reads throttled at twice the read budget, want about 20 (%v)", throttled, tr.Stats())
	}
}

// TestTransactionThrottled is a transaction into a partition over its
// budget: cancelled with ThrottlingError for that item, None for the other.
func TestTransactionThrottled(t *testing.T) {
	table := newTable(t)
	_, _, db := limited(ddblimit.Config{WriteUnits: 10, Burst: 100 * time.Millisecond})
	if err := put(db, table, "hot", "0", 2000); err != nil { // 2 of the 1 unit left: in debt
		t.Fatal(err)
	}
	_, err := db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: item("cold", "1", 10)}},
		{Put: &types.Put{TableName: aws.String(table), Item: item("hot", "1", 10)}},
	}})
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) {
		t.Fatalf("transaction over the budget: %v, want TransactionCanceledException", err)
	}
	if len(tc.CancellationReasons) != 2 || aws.ToString(tc.CancellationReasons[0].Code) != "None" ||
		aws.ToString(tc.CancellationReasons[1].Code) != "ThrottlingError" || !strings.Contains(tc.ErrorMessage(), "[None, ThrottlingError]") {
		t.Errorf("cancellation %q, reasons %+v", tc.ErrorMessage(), tc.CancellationReasons)
	}
}

// TestTransactionConflict runs two transactions on the same item at once:
// one commits, the other is cancelled with TransactionConflict.
func TestTransactionConflict(t *testing.T) {
	table := newTable(t)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, TransactionLatency: 300 * time.Millisecond})
	db := client(&http.Client{Transport: tr}, 1)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String(table), Item: item("own", fmt.Sprint(i), 10)}},
				{Put: &types.Put{TableName: aws.String(table), Item: item("log", "42", 10), ConditionExpression: aws.String("attribute_not_exists(PK)")}},
			}})
		}()
	}
	wg.Wait()
	won, conflicts := 0, 0
	for _, err := range errs {
		var tc *types.TransactionCanceledException
		switch {
		case err == nil:
			won++
		case errors.As(err, &tc) && aws.ToString(tc.CancellationReasons[1].Code) == "TransactionConflict" &&
			aws.ToString(tc.CancellationReasons[0].Code) == "None":
			conflicts++
		default:
			t.Errorf("transaction: %v", err)
		}
	}
	if won != 1 || conflicts != 1 || tr.Stats().Conflicts != 1 {
		t.Errorf("%d committed, %d conflicts (%v); want one of each", won, conflicts, tr.Stats())
	}
}

// TestSingleWriteConflict: a PutItem of an item a transaction in flight
// holds fails with TransactionConflictException; once the transaction is
// done the same PutItem is refused only by its condition.
func TestSingleWriteConflict(t *testing.T) {
	table := newTable(t)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, TransactionLatency: 400 * time.Millisecond})
	db := client(&http.Client{Transport: tr}, 1)
	done := make(chan error)
	go func() {
		_, err := db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(table), Item: item("log", "42", 10), ConditionExpression: aws.String("attribute_not_exists(PK)")}},
			{Put: &types.Put{TableName: aws.String(table), Item: item("log", "43", 10), ConditionExpression: aws.String("attribute_not_exists(PK)")}},
		}})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	putLog := func() error {
		_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("log", "42", 10),
			ConditionExpression: aws.String("attribute_not_exists(PK)")})
		return err
	}
	var tce *types.TransactionConflictException
	if err := putLog(); !errors.As(err, &tce) {
		t.Errorf("PutItem during the transaction: %v, want TransactionConflictException", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("transaction: %v", err)
	}
	var ccf *types.ConditionalCheckFailedException
	if err := putLog(); !errors.As(err, &ccf) {
		t.Errorf("PutItem after the transaction: %v, want ConditionalCheckFailedException", err)
	}
	if s := tr.Stats(); s.Conflicts != 1 || s.Ops["PutItem"].Conflicts != 1 {
		t.Errorf("stats %v, want one conflict, of PutItem", s)
	}
}

// TestBatchPartlyThrottled: a BatchWriteItem across a partition over its
// budget and one within it writes the items of the second and hands the
// others back as UnprocessedItems, as the service does; a batch entirely
// over budget is throttled.
func TestBatchPartlyThrottled(t *testing.T) {
	table := newTable(t)
	tr, _, db := limited(ddblimit.Config{WriteUnits: 10, Burst: 100 * time.Millisecond})
	if err := put(db, table, "hot", "0", 2000); err != nil { // the hot partition is in debt
		t.Fatal(err)
	}
	var reqs []types.WriteRequest
	for i := range 3 {
		for _, pk := range []string{"hot", "cold"} {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item(pk, fmt.Sprint(i+1), 10)}})
		}
	}
	out, err := db.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
	if err != nil {
		t.Fatalf("batch: %v", err)
	}
	back := out.UnprocessedItems[table]
	if len(back) != 3 {
		t.Fatalf("%d items handed back, want the 3 of the hot partition", len(back))
	}
	for _, w := range back {
		if pk := w.PutRequest.Item["PK"].(*types.AttributeValueMemberS).Value; pk != "hot" {
			t.Errorf("an item of %q handed back", pk)
		}
	}
	for i := range 3 {
		got, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "cold"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprint(i + 1)}}})
		if err != nil || got.Item == nil {
			t.Errorf("cold item %d not written: %v", i+1, err)
		}
	}
	if s := tr.Stats(); s.Unprocessed != 3 || s.Ops["BatchWriteItem"].Throttled != 0 {
		t.Errorf("stats %v, want 3 unprocessed and no throttled batch", s)
	}
	// Only the hot partition: throttled whole.
	_, err = db.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: back}})
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pte) {
		t.Errorf("a batch all over budget: %v, want ProvisionedThroughputExceededException", err)
	}
}

// TestScanCharged: a scan is charged to each partition for the items it
// read there.
func TestScanCharged(t *testing.T) {
	table := newTable(t)
	tr, _, db := limited(ddblimit.Config{})
	for i := range 4 {
		if err := put(db, table, "p"+fmt.Sprint(i%2), fmt.Sprint(i), 5000); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"p0", "p1"} {
		// two items of about 5 KB: 10 KB, three units of 4 KB
		if got := tr.Stats().Partitions[table+" "+pk].ReadUnits; got != 3 {
			t.Errorf("partition %s charged %v read units for the scan, want 3", pk, got)
		}
	}
}

// TestLostResponse loses every answer: the write fails for the client and
// is in the table all the same.
func TestLostResponse(t *testing.T) {
	table := newTable(t)
	tr, _, db := limited(ddblimit.Config{LoseResponses: 1})
	if err := put(db, table, "lost", "1", 10); err == nil {
		t.Fatal("a write whose answer was lost succeeded for the client")
	}
	out, err := client(nil, 1).GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "lost"}, "SK": &types.AttributeValueMemberS{Value: "1"}}})
	if err != nil || out.Item == nil {
		t.Fatalf("the write whose answer was lost is not in the table: %v", err)
	}
	if s := tr.Stats(); s.Lost != 1 {
		t.Errorf("stats %v, want 1 lost", s)
	}
}

// TestStaleReads: with StaleReads, an eventually consistent Query ends
// before the first item written less than StaleReads ago, and a GetItem
// does not find one; strongly consistent reads see every item, and once
// StaleReads has passed the eventual ones do too.
func TestStaleReads(t *testing.T) {
	tr, clk, db := limited(ddblimit.Config{Unlimited: true, StaleReads: time.Second})
	table := newTable(t)
	ctx := context.Background()
	for _, sk := range []string{"1", "2"} {
		if err := put(db, table, "log", sk, 100); err != nil {
			t.Fatal(err)
		}
	}
	clk.Add(2 * time.Second)
	for _, sk := range []string{"3", "4"} {
		if err := put(db, table, "log", sk, 100); err != nil {
			t.Fatal(err)
		}
	}
	query := func(consistent bool) ([]string, bool) {
		out, err := db.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "log"}},
			ConsistentRead:            aws.Bool(consistent), Limit: aws.Int32(3),
		})
		if err != nil {
			t.Fatal(err)
		}
		var sks []string
		for _, it := range out.Items {
			sks = append(sks, it["SK"].(*types.AttributeValueMemberS).Value)
		}
		return sks, out.LastEvaluatedKey != nil
	}
	get := func(sk string) bool {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "log"}, "SK": &types.AttributeValueMemberS{Value: sk}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item != nil
	}
	if sks, more := query(false); strings.Join(sks, ",") != "1,2" || more {
		t.Errorf("eventually consistent query: %v (more: %v), want 1,2 and the end", sks, more)
	}
	if sks, more := query(true); strings.Join(sks, ",") != "1,2,3" || !more {
		t.Errorf("consistent query: %v (more: %v), want 1,2,3 and more", sks, more)
	}
	if !get("2") || get("4") {
		t.Errorf("eventually consistent GetItem found 2: %v, 4: %v; want true, false", get("2"), get("4"))
	}
	if n := tr.Stats().Stale; n != 2 {
		t.Errorf("Stats().Stale = %d, want 2", n)
	}
	clk.Add(2 * time.Second)
	if sks, more := query(false); strings.Join(sks, ",") != "1,2,3" || !more || !get("4") {
		t.Errorf("after StaleReads, eventually consistent query %v (more: %v) and GetItem of 4 %v; want 1,2,3, more and true", sks, more, get("4"))
	}
}

// TestStaleGaps: with StaleGaps, a lagging eventually consistent Query
// leaves out only the recent items and goes on past them.
func TestStaleGaps(t *testing.T) {
	_, clk, db := limited(ddblimit.Config{Unlimited: true, StaleReads: time.Second, StaleGaps: true})
	table := newTable(t)
	// "2" is written last as the copy sees it: 10 s after "1" and "3".
	for _, w := range []struct {
		sk    string
		shift time.Duration
	}{{"1", 0}, {"2", 10 * time.Second}, {"3", -10 * time.Second}} {
		clk.Add(w.shift)
		if err := put(db, table, "log", w.sk, 100); err != nil {
			t.Fatal(err)
		}
	}
	clk.Add(10*time.Second + 500*time.Millisecond)
	out, err := db.Query(context.Background(), &dynamodb.QueryInput{
		TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "log"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var sks []string
	for _, it := range out.Items {
		sks = append(sks, it["SK"].(*types.AttributeValueMemberS).Value)
	}
	if strings.Join(sks, ",") != "1,3" {
		t.Errorf("a lagging copy with gaps answered %v, want 1,3", sks)
	}
}
