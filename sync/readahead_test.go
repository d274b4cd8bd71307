package cloudsync_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"votedesk/app"
)

// pageTransport makes every query of the cloud log return one segment a
// page (Limit 1), so a small log reads in many pages, and tells when each
// query starts and how many are in flight.
type pageTransport struct {
	base     http.RoundTripper
	mu       sync.Mutex
	queries  int
	inFlight int
	started  chan int // receives the number of each query as it starts
}

func (pt *pageTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".Query") {
		return pt.base.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	var in map[string]any
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, err
	}
	in["Limit"] = 1
	body, _ = json.Marshal(in)
	if !bytes.Contains(body, []byte(`"LOG#global"`)) {
		// The elections' shards are read where cuts order them; what is
		// counted here is the read ahead of the global shard.
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		return pt.base.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	pt.mu.Lock()
	pt.queries++
	n := pt.queries
	pt.inFlight++
	pt.mu.Unlock()
	defer func() {
		pt.mu.Lock()
		pt.inFlight--
		pt.mu.Unlock()
	}()
	if pt.started != nil {
		select {
		case pt.started <- n:
		default:
		}
	}
	return pt.base.RoundTrip(req)
}

func (pt *pageTransport) counts() (queries, inFlight int) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return pt.queries, pt.inFlight
}

// TestPullReadsAhead: a pull queries the next page of the cloud log while
// it applies the current one; a pull stopped while it applies a page (the
// consumer fails, or the cycle is cancelled) leaves no query running and
// the pages before it applied; the next pull takes up from there, and the
// device ends equal to the one that wrote the log.
func TestPullReadsAhead(t *testing.T) {
	prefix := newPrefix(t)
	a := newDevice(t, "A", prefix, 0, nil)
	seed(a, 300)
	a.sync()
	for i := range 6 {
		castMayor(a, "ann", 1+i*10, 10+i*10)
		a.sync()
	}
	segments := 7

	// The reader alone: the consumer fails at the second page.
	pt := &pageTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	c := connect(t, prefix, &http.Client{Transport: pt})
	pages := 0
	stop := errors.New("stop here")
	err := c.ReadLog(context.Background(), 1, func(page []*app.Event) error {
		pages++
		if pages == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || pages != 2 {
		t.Fatalf("ReadLog = %v after %d pages, want the consumer's error after 2", err, pages)
	}
	queries, inFlight := pt.counts()
	// The global shard's pages: the two taken, one waiting for the
	// consumer, and one being read (the consumer's reads of Mayor's shard
	// for each cut give the reader time to get that far).
	if inFlight != 0 || queries > 4 {
		t.Fatalf("after ReadLog returned: %d queries made, %d still running; want at most 4 (two pages, one waiting and one read ahead), none running", queries, inFlight)
	}
	time.Sleep(200 * time.Millisecond)
	if q, _ := pt.counts(); q != queries {
		t.Fatalf("the reader went on querying after ReadLog returned: %d queries, then %d", queries, q)
	}

	// A device's pull: while page 1 is applied, page 2 is being read.
	pt = &pageTransport{base: http.DefaultTransport.(*http.Transport).Clone(), started: make(chan int, 64)}
	b := newDevice(t, "B", prefix, time.Minute, &http.Client{Transport: pt})
	ctx, cancel := context.WithCancel(context.Background())
	b.ctx = ctx
	var seen []uint64
	page := 0
	b.syncer.Step = func(name string) {
		if name != "page" {
			return
		}
		page++
		c, _, _, _ := b.store.SyncHead(context.Background())
		seen = append(seen, c)
		if page == 1 {
			// The head query, page 1's query, and page 2's.
			deadline := time.After(10 * time.Second)
			for {
				select {
				case n := <-pt.started:
					if n >= 3 {
						return
					}
					continue
				case <-deadline:
					t.Error("page 2 was not queried while page 1 was applied")
					return
				}
			}
		}
		if page == 3 {
			cancel()
		}
	}
	if _, err := b.syncer.Sync(ctx, nil); !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "cancel") {
		t.Fatalf("cancelled sync = %v", err)
	}
	if _, inFlight := pt.counts(); inFlight != 0 {
		t.Fatalf("%d queries still running after the cancelled sync returned", inFlight)
	}
	if len(seen) != 3 || seen[0] >= seen[1] || seen[1] >= seen[2] {
		t.Fatalf("confirmed heads after each page: %v, want three, growing", seen)
	}
	b.ctx = context.Background()
	if got, _, _ := b.head(); got != seen[2] {
		t.Fatalf("after the cancelled sync B's confirmed head is %d, want %d (the pages applied stay applied)", got, seen[2])
	}

	b.syncer.Step = nil
	res := b.sync()
	if got, want := page, 3; got != want {
		t.Fatalf("pages before the cancel: %d", got)
	}
	if res.Pulled == 0 {
		t.Fatal("the second sync pulled nothing")
	}
	a.sync()
	if ha, hb := a.stateHash(), b.stateHash(); ha != hb {
		t.Fatalf("state hashes differ: A %s, B %s", ha, hb)
	}
	if q, _ := pt.counts(); q < segments {
		t.Fatalf("B read the log in %d queries, want at least %d (one segment a page)", q, segments)
	}
}
