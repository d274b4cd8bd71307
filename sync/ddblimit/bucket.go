package ddblimit

import "time"

// bucket is one partition's budget of read or write units: it fills at rate
// units a second up to capacity, and a request is admitted while it holds
// anything (it may then go into debt by that request).
type bucket struct {
	tokens float64
	last   time.Time
}

// refill brings the bucket up to now.
func (b *bucket) refill(now time.Time, rate, capacity float64) {
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(capacity, b.tokens+dt*rate)
	}
	b.last = now
}

// bucketFor returns the bucket under key in m, full when new.
func bucketFor(m map[string]*bucket, key string, now time.Time, capacity float64) *bucket {
	b, ok := m[key]
	if !ok {
		b = &bucket{tokens: capacity, last: now}
		m[key] = b
	}
	return b
}
