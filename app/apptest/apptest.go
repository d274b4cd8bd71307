// Package apptest holds what the tests of several packages share: a clock
// the test sets, and ids it can predict. Production code never imports it.
package apptest

import (
	"fmt"
	"sync"
	"time"
)

// Clock is an app.Clock a test controls: it starts at a time, moves on by
// Step at every reading (0: it stands still), and the test moves it with Add
// or Set.
type Clock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

// NewClock returns a clock at t that moves on by step at every reading.
func NewClock(t time.Time, step time.Duration) *Clock {
	return &Clock{t: t, step: step}
}

// Now returns the clock's time, then moves it on by its step.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// SeqIDs is an app.IDSource of predictable UUIDs:
// 00000000-0000-4000-8000-000000000001, then ...2, and so on from Next+1.
type SeqIDs struct {
	mu   sync.Mutex
	Next int
}

// NewID returns the next id.
func (s *SeqIDs) NewID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Next++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", s.Next)
}
