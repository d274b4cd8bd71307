package cloudsync_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"votedesk/app"
	cloudsync "votedesk/sync"
	"votedesk/sync/ddblimit"
)

// beforeAppend is a transport that runs a function once, just before its
// device's next append to the cloud log: another device syncing there makes
// this one lose the race for the head.
type beforeAppend struct {
	mu   sync.Mutex
	next func()
}

func (b *beforeAppend) Do(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".PutItem") && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		b.mu.Lock()
		f := b.next
		if bytes.Contains(body, []byte(`"LOG#`)) { // an append to any shard of the log
			b.next = nil
		} else {
			f = nil
		}
		b.mu.Unlock()
		if f != nil {
			f()
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// waits collects the waits a cycle reports.
type waits struct {
	mu   sync.Mutex
	seen []app.SyncProgress
}

func (w *waits) report(p app.SyncProgress) {
	if p.Stage == "wait" {
		w.mu.Lock()
		w.seen = append(w.seen, p)
		w.mu.Unlock()
	}
}

func (w *waits) why(why string) (app.SyncProgress, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.seen {
		if p.Why == why {
			return p, true
		}
	}
	return app.SyncProgress{}, false
}

// TestSyncSaysWhyItWaits: a cycle that must wait says so, with why and for
// how long, when DynamoDB throttles it and when another device appended
// first; the progress it reports keeps its counts.
func TestSyncSaysWhyItWaits(t *testing.T) {
	prefix := newPrefix(t)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true})
	l := newDevice(t, "laptop", prefix, 0, &http.Client{Transport: tr})
	seed(l, 40)
	l.sync()

	t.Run("Throttled", func(t *testing.T) {
		castMayor(l, "ann", 1, 20)
		tr.Configure(func(c *ddblimit.Config) {
			*c = ddblimit.Config{ReadUnits: 50, Burst: time.Millisecond, NoConflicts: true}
		})
		defer tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{Unlimited: true, NoConflicts: true} })
		var w waits
		if _, err := l.syncer.Sync(l.ctx, w.report); err != nil {
			t.Fatalf("throttled sync: %v", err)
		}
		p, ok := w.why(app.SyncBusyThrottled)
		if !ok {
			t.Fatalf("no wait for throttling reported: %+v; %v", w.seen, tr.Stats())
		}
		if msg := p.Waiting(); !strings.Contains(msg, "slow down") || !strings.Contains(msg, "retrying in") {
			t.Errorf("throttled wait says %q", msg)
		}
	})

	t.Run("AnotherDeviceFirst", func(t *testing.T) {
		k := copyDevice(t, l, "kiosk", prefix)
		hook := &beforeAppend{}
		k.syncer = cloudsync.New(k.store, cloudConfig(prefix, hook))
		k.sync()
		castMayor(k, "ben", 21, 22)
		castMayor(l, "ann", 23, 24)
		hook.next = func() { l.sync() }
		var w waits
		res, err := k.syncer.Sync(k.ctx, w.report)
		if err != nil {
			t.Fatalf("sync after losing the race: %v", err)
		}
		p, ok := w.why(app.SyncBusyAppending)
		if !ok {
			t.Fatalf("no wait for the other device reported: %+v", w.seen)
		}
		if p.ToPush != 2 || res.Pushed != 2 {
			t.Errorf("the wait reported %d to push, the cycle pushed %d; want 2 and 2", p.ToPush, res.Pushed)
		}
		if msg := p.Waiting(); !strings.Contains(msg, "other devices are adding to the log") {
			t.Errorf("contended wait says %q", msg)
		}
	})
}
