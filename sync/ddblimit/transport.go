package ddblimit

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The service's per-partition limits.
const (
	PartitionWriteUnits = 1000 // write units a second per partition key value
	PartitionReadUnits  = 3000 // read units a second per partition key value
	DefaultBurst        = 200 * time.Millisecond
)

// Config sets the limits a Transport imposes. The zero Config is DynamoDB's
// per-partition limits with a small burst, transaction conflicts on, and no
// lost responses.
type Config struct {
	// WriteUnits and ReadUnits are each partition's budget a second
	// (default PartitionWriteUnits and PartitionReadUnits).
	WriteUnits, ReadUnits float64
	// Burst is how much unused capacity a partition keeps, as time at its
	// rate (default DefaultBurst; DynamoDB keeps up to 300 s).
	Burst time.Duration
	// Unlimited turns the budgets off.
	Unlimited bool
	// ThrottleCode is the error a throttled request gets:
	// CodeProvisionedThroughputExceeded (default) or CodeThrottling.
	ThrottleCode string
	// NoConflicts turns transaction conflicts off.
	NoConflicts bool
	// TransactionLatency holds a transaction's items this long before it is
	// forwarded.
	TransactionLatency time.Duration
	// LoseResponses is the probability that a request commits and its
	// answer is lost.
	LoseResponses float64
	// StaleReads, when set, makes eventually consistent reads lag: an item
	// written (put, updated, written by a transaction or a batch) less than
	// this long ago is not there yet for a GetItem, and a Query's answer
	// ends before the first such item (without a LastEvaluatedKey), as a
	// copy of the partition that has applied the partition's writes only
	// up to some point answers. Strongly consistent reads see everything,
	// and so does a read whose projection leaves the item's key out (its
	// items cannot be told apart).
	StaleReads time.Duration
	// StaleGaps makes a lagging Query leave out only the recent items and
	// answer the rest, LastEvaluatedKey and all, as a copy that applied the
	// partition's writes out of order would: DynamoDB's copies do not, but
	// a reader must not trust that they never will.
	StaleGaps bool
	// PartitionKey and SortKey name the tables' key attributes (default PK
	// and SK).
	PartitionKey, SortKey string
	// Seed seeds the choice of lost responses.
	Seed uint64
	// Now tells the time (default time.Now).
	Now func() time.Time
}

// Transport is an http.RoundTripper that imposes DynamoDB's limits on the
// requests it forwards to DynamoDB Local (see the package documentation).
type Transport struct {
	base http.RoundTripper

	mu       sync.Mutex
	cfg      Config
	writes   map[string]*bucket
	reads    map[string]*bucket
	inflight map[string]int
	// written holds when each item was last written, while StaleReads is
	// set.
	written map[string]time.Time
	rng     *rand.Rand
	stats   Stats
}

// New returns a Transport with the limits of cfg in front of base (nil
// means a clone of http.DefaultTransport with enough idle connections for
// hundreds of clients).
func New(base http.RoundTripper, cfg Config) *Transport {
	if base == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 1024, 1024
		base = tr
	}
	t := &Transport{base: base, writes: map[string]*bucket{}, reads: map[string]*bucket{}, inflight: map[string]int{}, written: map[string]time.Time{},
		rng: rand.New(rand.NewPCG(cfg.Seed, 15)), stats: newStats()}
	t.setConfig(cfg)
	return t
}

// Configure changes the limits while requests flow (for example to heal a
// fault); budgets already spent stay spent.
func (t *Transport) Configure(change func(*Config)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cfg := t.cfg
	change(&cfg)
	t.setConfig(cfg)
}

func (t *Transport) setConfig(cfg Config) {
	if cfg.WriteUnits == 0 {
		cfg.WriteUnits = PartitionWriteUnits
	}
	if cfg.ReadUnits == 0 {
		cfg.ReadUnits = PartitionReadUnits
	}
	if cfg.Burst == 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.ThrottleCode == "" {
		cfg.ThrottleCode = CodeProvisionedThroughputExceeded
	}
	if cfg.PartitionKey == "" {
		cfg.PartitionKey = "PK"
	}
	if cfg.SortKey == "" {
		cfg.SortKey = "SK"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	t.cfg = cfg
}

// RoundTrip admits, throttles or cancels one DynamoDB request, and forwards
// the admitted ones.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	op := strings.TrimPrefix(req.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	fwd := req.Clone(req.Context())
	fwd.Body = io.NopCloser(bytes.NewReader(body))
	fwd.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }

	t.mu.Lock()
	r, err := parse(op, body, t.cfg.PartitionKey, t.cfg.SortKey)
	if err != nil {
		r = request{op: op} // not ours to judge: DynamoDB Local answers it
	}
	t.stats.request(op)
	resp, unprocessed := t.refuse(req, r)
	if resp != nil {
		t.mu.Unlock()
		return resp, nil
	}
	if len(unprocessed) > 0 {
		body = batchWithout(r, unprocessed)
		fwd.Body = io.NopCloser(bytes.NewReader(body))
		fwd.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		fwd.ContentLength = int64(len(body))
	}
	lose := t.cfg.LoseResponses > 0 && t.rng.Float64() < t.cfg.LoseResponses
	latency := t.cfg.TransactionLatency
	if r.transact {
		for _, a := range r.accesses {
			t.inflight[a.item()]++
		}
		defer t.release(r)
	} else {
		latency = 0
	}
	t.mu.Unlock()

	if latency > 0 {
		timer := time.NewTimer(latency)
		select {
		case <-timer.C:
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		}
	}
	resp, err = t.base.RoundTrip(fwd)
	if err != nil {
		return nil, err
	}
	if len(unprocessed) > 0 && resp.StatusCode == http.StatusOK {
		if resp, err = handBack(resp, unprocessed); err != nil {
			return nil, err
		}
	}
	reads := !r.transact && len(r.accesses) > 0 && !r.accesses[0].write
	if !reads && resp.StatusCode == http.StatusOK {
		t.noteWritten(r, unprocessed)
	}
	if !reads && !lose && resp.StatusCode < 400 {
		return resp, nil
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if reads && resp.StatusCode == http.StatusOK {
		t.chargeReads(r, decoded(resp, raw))
		if stale := t.staleView(r, decoded(resp, raw)); stale != nil {
			setBody(resp, stale)
			return resp, nil
		}
	}
	if resp.StatusCode >= 400 {
		var e struct {
			Type string `json:"__type"`
		}
		json.Unmarshal(decoded(resp, raw), &e)
		t.mu.Lock()
		t.stats.answered(op, e.Type[strings.LastIndex(e.Type, "#")+1:])
		t.mu.Unlock()
	}
	if lose {
		t.mu.Lock()
		t.stats.lost(op)
		t.mu.Unlock()
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return resp, nil
}

// refuse returns the answer to a request that must not be forwarded (a
// transaction conflict or a partition over its budget) and charges the
// writes of one that may. A BatchWriteItem with only some items in
// partitions over budget is forwarded without them, and they come back as
// UnprocessedItems, as the service does: unprocessed lists them. t.mu is
// held.
func (t *Transport) refuse(req *http.Request, r request) (resp *http.Response, unprocessed []access) {
	if r.transact && !t.cfg.NoConflicts {
		reasons, conflict := make([]cancellationReason, len(r.accesses)), false
		for i, a := range r.accesses {
			reasons[i].Code = "None"
			if t.inflight[a.item()] > 0 {
				reasons[i] = cancellationReason{Code: "TransactionConflict", Message: conflictMessage}
				conflict = true
			}
		}
		if conflict {
			t.stats.conflict(r.op)
			return cancelResponse(req, reasons), nil
		}
	}
	// A single write to an item a transaction in flight holds fails as on
	// the service, with TransactionConflictException (which the SDK does not
	// retry).
	if !r.transact && !t.cfg.NoConflicts {
		for _, a := range r.accesses {
			if a.write && t.inflight[a.item()] > 0 {
				t.stats.conflict(r.op)
				return errorResponse(req, CodeTransactionConflict, map[string]any{"message": conflictMessage}), nil
			}
		}
	}
	now := t.cfg.Now()
	over := map[string]bool{}
	for _, a := range r.accesses {
		if t.cfg.Unlimited {
			break
		}
		if a.pk == "" {
			continue // a Scan: charged by what it read, throttled by no one partition
		}
		p := a.partition()
		if over[p] {
			continue
		}
		rate, m := t.cfg.ReadUnits, t.reads
		if a.write {
			rate, m = t.cfg.WriteUnits, t.writes
		}
		capacity := rate * t.cfg.Burst.Seconds()
		b := bucketFor(m, p, now, capacity)
		b.refill(now, rate, capacity)
		if b.tokens <= 0 {
			over[p] = true
		}
	}
	admitted := r.accesses
	if len(over) > 0 && r.op == "BatchWriteItem" {
		admitted = nil
		for _, a := range r.accesses {
			if over[a.partition()] {
				unprocessed = append(unprocessed, a)
			} else {
				admitted = append(admitted, a)
			}
		}
		if len(admitted) > 0 {
			for p := range over {
				t.stats.throttledAt(p)
			}
			t.stats.unprocessed(r.op, len(unprocessed))
			over = nil
		}
	}
	if len(over) > 0 {
		for p := range over {
			t.stats.throttledAt(p)
		}
		t.stats.throttle(r.op)
		if r.transact {
			reasons := make([]cancellationReason, len(r.accesses))
			for i, a := range r.accesses {
				reasons[i].Code = "None"
				if over[a.partition()] {
					reasons[i] = cancellationReason{Code: "ThrottlingError", Message: throttleMessage}
				}
			}
			return cancelResponse(req, reasons), nil
		}
		a := r.accesses[0]
		for _, x := range r.accesses {
			if over[x.partition()] {
				a = x
				break
			}
		}
		return throttleResponse(req, t.cfg.ThrottleCode, a.write, a.table), nil
	}
	for _, a := range admitted {
		if a.write {
			capacity := t.cfg.WriteUnits * t.cfg.Burst.Seconds()
			bucketFor(t.writes, a.partition(), now, capacity).tokens -= a.units
			t.stats.consumed(a.partition(), 0, a.units)
		}
	}
	return nil, unprocessed
}

// batchWithout is a BatchWriteItem's body without the unprocessed items
// (those of the partitions over budget).
func batchWithout(r request, unprocessed []access) []byte {
	over := map[string]bool{}
	for _, a := range unprocessed {
		over[a.partition()] = true
	}
	items := map[string][]json.RawMessage{}
	for _, a := range r.accesses {
		if !over[a.partition()] {
			items[a.table] = append(items[a.table], a.raw)
		}
	}
	b, _ := json.Marshal(map[string]any{"RequestItems": items})
	return b
}

// handBack adds the unprocessed items to a BatchWriteItem's answer.
func handBack(resp *http.Response, unprocessed []access) (*http.Response, error) {
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(decoded(resp, raw), &out); err != nil {
		return nil, err
	}
	items := map[string][]json.RawMessage{}
	if u := out["UnprocessedItems"]; u != nil {
		if err := json.Unmarshal(u, &items); err != nil {
			return nil, err
		}
	}
	for _, a := range unprocessed {
		items[a.table] = append(items[a.table], a.raw)
	}
	out["UnprocessedItems"], _ = json.Marshal(items)
	body, _ := json.Marshal(out)
	setBody(resp, body)
	return resp, nil
}

// setBody replaces an answer's body, with the headers that describe it.
func setBody(resp *http.Response, body []byte) {
	resp.Header.Del("Content-Encoding")
	resp.Header.Set("X-Amz-Crc32", fmt.Sprint(crc32.ChecksumIEEE(body)))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", fmt.Sprint(len(body)))
	resp.Body = io.NopCloser(bytes.NewReader(body))
}

// noteWritten records when a write that succeeded wrote its items (but the
// unprocessed ones), while StaleReads is set.
func (t *Transport) noteWritten(r request, unprocessed []access) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cfg.StaleReads <= 0 {
		return
	}
	now := t.cfg.Now()
	for _, a := range r.accesses {
		if a.write && !slices.ContainsFunc(unprocessed, func(u access) bool { return u.item() == a.item() }) {
			t.written[staleKey(a.table, a.pk, a.sk)] = now
		}
	}
}

func staleKey(table, pk, sk string) string {
	return table + "\x00" + keyText(pk) + "\x00" + keyText(sk)
}

// staleView returns the answer an eventually consistent GetItem or Query
// gets from a copy of the partition that lags by StaleReads, or nil when
// that is the answer as it is.
func (t *Transport) staleView(r request, body []byte) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := r.accesses[0]
	if t.cfg.StaleReads <= 0 || a.consistent || (r.op != "GetItem" && r.op != "Query") {
		return nil
	}
	recent := func(it map[string]json.RawMessage) bool {
		at, ok := t.written[staleKey(a.table, string(it[t.cfg.PartitionKey]), string(it[t.cfg.SortKey]))]
		return ok && t.cfg.Now().Sub(at) < t.cfg.StaleReads
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(body, &out) != nil {
		return nil
	}
	if r.op == "GetItem" {
		var it map[string]json.RawMessage
		if json.Unmarshal(out["Item"], &it) != nil || it == nil || !recent(it) {
			return nil
		}
		delete(out, "Item")
	} else {
		var items []map[string]json.RawMessage
		if json.Unmarshal(out["Items"], &items) != nil {
			return nil
		}
		cut := slices.IndexFunc(items, recent)
		if cut < 0 {
			return nil
		}
		kept := items[:cut]
		if t.cfg.StaleGaps {
			kept = slices.DeleteFunc(items, recent)
		} else {
			delete(out, "LastEvaluatedKey")
		}
		out["Items"], _ = json.Marshal(kept)
		out["Count"], _ = json.Marshal(len(kept))
		out["ScannedCount"], _ = json.Marshal(len(kept))
	}
	t.stats.Stale++
	b, _ := json.Marshal(out)
	return b
}

// release forgets a finished transaction's items.
func (t *Transport) release(r request) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, a := range r.accesses {
		if t.inflight[a.item()]--; t.inflight[a.item()] <= 0 {
			delete(t.inflight, a.item())
		}
	}
}

// chargeReads charges a read's partitions for the items its answer holds.
func (t *Transport) chargeReads(r request, body []byte) {
	var out struct {
		Item      map[string]json.RawMessage
		Items     []map[string]json.RawMessage
		Responses map[string][]map[string]json.RawMessage
	}
	if json.Unmarshal(body, &out) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	charge := func(a access, units float64) {
		if b := t.reads[a.partition()]; b != nil {
			b.tokens -= units
		}
		t.stats.consumed(a.partition(), units, 0)
	}
	a := r.accesses[0]
	switch r.op {
	case "GetItem":
		charge(a, readUnits(itemSize(out.Item), a.consistent))
	case "Query":
		size := 0
		for _, it := range out.Items {
			size += itemSize(it)
		}
		charge(a, readUnits(size, a.consistent))
	case "Scan":
		// Each partition the page read pays for its own items.
		sizes := map[string]int{}
		for _, it := range out.Items {
			sizes[string(it[t.cfg.PartitionKey])] += itemSize(it)
		}
		for pk, size := range sizes {
			charge(access{table: a.table, pk: pk}, readUnits(size, a.consistent))
		}
	case "BatchGetItem":
		for _, a := range r.accesses {
			for _, it := range out.Responses[a.table] {
				if string(it[t.cfg.PartitionKey]) == a.pk && string(it[t.cfg.SortKey]) == a.sk {
					charge(a, readUnits(itemSize(it), a.consistent))
				}
			}
		}
	}
}

// decoded returns an answer's body without its gzip encoding.
func decoded(resp *http.Response, raw []byte) []byte {
	if !strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		return raw
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return raw
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return raw
	}
	return out
}
