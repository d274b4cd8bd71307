package cloudsync_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fault is one way the network or DynamoDB misbehaves.
type fault int

const (
	noFault         fault = iota
	lostResponse          // the request reaches DynamoDB and commits; the answer is lost
	serverError           // HTTP 500 before DynamoDB sees the request
	throughput            // ProvisionedThroughputExceededException
	throttling            // ThrottlingException
	connectionReset       // the connection drops before the request is sent
	truncatedBody         // the answer arrives cut in half
)

func (f fault) String() string {
	return [...]string{"none", "lost-response", "500", "provisioned-throughput", "throttling", "connection-reset", "truncated-body"}[f]
}

// faultyTransport wraps the AWS client's HTTP transport and injects faults:
// with probability rate, each request suffers one of kinds, and the first
// eligible one always does. only, when set, limits faults to requests whose
// X-Amz-Target operation it names.
type faultyTransport struct {
	base  http.RoundTripper
	mu    sync.Mutex
	rng   *rand.Rand
	rate  float64
	kinds []fault
	only  string
	seen  map[fault]int
}

func newFaultyTransport(seed uint64, rate float64, kinds ...fault) *faultyTransport {
	return &faultyTransport{base: http.DefaultTransport.(*http.Transport).Clone(), rng: rand.New(rand.NewPCG(seed, 1)),
		rate: rate, kinds: kinds, seen: map[fault]int{}}
}

func (ft *faultyTransport) heal() {
	ft.mu.Lock()
	ft.rate = 0
	ft.mu.Unlock()
}

func (ft *faultyTransport) pick(op string) fault {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	if ft.rate == 0 || (ft.only != "" && !strings.HasSuffix(op, ft.only)) {
		return noFault
	}
	// The first eligible request always suffers a fault, so a run whose
	// pushes all happen to draw "no fault" still tests the recovery.
	if len(ft.seen) > 0 && ft.rng.Float64() >= ft.rate {
		return noFault
	}
	f := ft.kinds[ft.rng.IntN(len(ft.kinds))]
	ft.seen[f]++
	return f
}

func (ft *faultyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	f := ft.pick(req.Header.Get("X-Amz-Target"))
	switch f {
	case serverError:
		return errorResponse(req, 500, "InternalServerError"), nil
	case throughput:
		return errorResponse(req, 400, "ProvisionedThroughputExceededException"), nil
	case throttling:
		return errorResponse(req, 400, "ThrottlingException"), nil
	case connectionReset:
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, &net.OpError{Op: "write", Net: "tcp", Err: syscall.ECONNRESET}
	}
	resp, err := ft.base.RoundTrip(req)
	if err != nil || f == noFault {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if f == lostResponse {
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body[:len(body)/2]))
	return resp, nil
}

// errorResponse is how DynamoDB answers with an error of the given type.
func errorResponse(req *http.Request, status int, typ string) *http.Response {
	if req.Body != nil {
		req.Body.Close()
	}
	body := fmt.Sprintf(`{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":"injected by the test"}`, typ)
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-Errortype", typ)
	return &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)), Header: h,
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}

// TestFaults syncs two devices through a transport that injects one kind of
// fault at random into a share of the requests, then heals it: nothing is
// lost, nothing doubled, and everything converges.
func TestFaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rate  float64
		only  string
		kinds []fault
	}{
		{"LostResponseOfHalfThePushes", 0.5, "PutItem", []fault{lostResponse}},
		{"LostResponses", 0.3, "", []fault{lostResponse}},
		{"ServerErrors", 0.3, "", []fault{serverError}},
		{"Throttling", 0.3, "", []fault{throughput, throttling}},
		{"ConnectionResets", 0.3, "", []fault{connectionReset}},
		{"TruncatedBodies", 0.3, "", []fault{truncatedBody}},
		{"AllAtOnce", 0.4, "", []fault{lostResponse, serverError, throughput, throttling, connectionReset, truncatedBody}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := newPrefix(t)
			ft := newFaultyTransport(uint64(time.Now().UnixNano()), 0, tc.kinds...)
			ft.only = tc.only
			a := newDevice(t, "A", prefix, 0, nil)
			b := newDevice(t, "B", prefix, time.Minute, &http.Client{Transport: ft})
			seed(a, 300)
			a.sync()
			b.sync()
			castMayor(a, "ann", 1, 120)
			castMayor(b, "ben", 101, 300)
			editCouncil(b, "olga", 3)
			before, _ := b.store.Pending(b.ctx, 0)
			a.sync()
			ft.mu.Lock()
			ft.rate = tc.rate
			ft.mu.Unlock()
			failures := 0
			for i := 0; i < 10; i++ {
				if _, err := b.syncer.Sync(b.ctx, nil); err != nil {
					failures++
					continue
				}
			}
			ft.heal()
			t.Logf("faults injected: %v; failed cycles: %d of 10", ft.seen, failures)
			if len(ft.seen) == 0 {
				t.Fatal("no fault was injected")
			}
			b.sync()
			a.sync()
			b.sync()
			log := converged(t, connect(t, prefix, nil), a, b)
			ids := map[string]int{}
			for _, ev := range log {
				ids[ev.ID]++
			}
			for _, ev := range before {
				if ids[ev.ID] != 1 {
					t.Errorf("B's event %s is in the cloud log %d times, want once", ev.ID, ids[ev.ID])
				}
			}
		})
	}
}
