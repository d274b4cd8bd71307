package offui

import (
	"errors"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// log records what ran, in order; with NewManual everything runs on the
// test's goroutine, so it needs no lock.
type log []string

func (l *log) add(s string) func() { return func() { *l = append(*l, s) } }

func TestManualRunsResultsOnWait(t *testing.T) {
	r := NewManual()
	var got log
	worked := make(chan struct{})
	Run(r, func() (int, error) {
		close(worked)
		return 7, errors.New("refused")
	}, func(v int, err error) {
		got = append(got, "done")
		if v != 7 || err == nil || err.Error() != "refused" {
			t.Errorf("done(%d, %v), want 7 and the error", v, err)
		}
	})
	r.Post(got.add("progress"))
	<-worked
	if len(got) != 0 {
		t.Fatalf("ran before Wait: %v", got)
	}
	r.Wait()
	if !slices.Contains(got, "done") || !slices.Contains(got, "progress") || len(got) != 2 {
		t.Errorf("after Wait: %v", got)
	}
	// Work that returns nothing for the UI goroutine is waited for too.
	ran := false
	r.Go(func() func() { ran = true; return nil })
	r.Wait()
	if !ran {
		t.Error("Wait returned before the work ran")
	}
}

// TestWaitCoversTimers: a timer is waited for from the moment it is due,
// with everything its callback starts: work, the work's result, the
// timers that result arms and are due at once.
func TestWaitCoversTimers(t *testing.T) {
	t.Run("NotYetDueIsNotWaitedFor", func(t *testing.T) {
		r := NewManual()
		var got log
		r.After(20*time.Second, got.add("20s"))
		r.Wait()
		r.Advance(19 * time.Second)
		if len(got) != 0 {
			t.Fatalf("ran before its time: %v", got)
		}
		r.Advance(time.Second)
		if !slices.Equal(got, log{"20s"}) {
			t.Errorf("after 20 s: %v", got)
		}
	})
	t.Run("DueNowRunsOnWait", func(t *testing.T) {
		r := NewManual()
		var got log
		r.After(0, got.add("now"))
		r.Wait()
		if !slices.Equal(got, log{"now"}) {
			t.Errorf("after Wait: %v", got)
		}
	})
	t.Run("WhatATimerStartsIsSettled", func(t *testing.T) {
		r := NewManual()
		var got log
		r.After(time.Second, func() {
			got = append(got, "timer")
			r.Go(func() func() {
				return func() {
					got = append(got, "result")
					r.After(0, func() {
						got = append(got, "timer armed by the result")
						r.Post(got.add("posted"))
					})
				}
			})
		})
		r.Advance(time.Second)
		if want := (log{"timer", "result", "timer armed by the result", "posted"}); !slices.Equal(got, want) {
			t.Errorf("after one Advance: %v, want %v", got, want)
		}
	})
	t.Run("InTimeOrder", func(t *testing.T) {
		r := NewManual()
		var got log
		var tick func()
		tick = func() {
			got = append(got, "tick")
			r.After(time.Second, tick)
		}
		r.After(time.Second, tick)
		r.After(2500*time.Millisecond, got.add("2.5s"))
		r.After(2500*time.Millisecond, got.add("2.5s, armed second"))
		r.Advance(3 * time.Second)
		if want := (log{"tick", "tick", "2.5s", "2.5s, armed second", "tick"}); !slices.Equal(got, want) {
			t.Errorf("over 3 s: %v, want %v", got, want)
		}
	})
	t.Run("Desktop", func(t *testing.T) {
		test.NewTempApp(t) // its fyne.Do runs at once, on the goroutine that calls it
		r := New()
		var got log
		stopLater := r.After(time.Hour, got.add("in an hour"))
		defer stopLater()
		r.After(0, func() {
			got = append(got, "timer")
			Run(r, func() (string, error) { return "result", nil }, func(s string, _ error) {
				got = append(got, s)
				r.After(0, got.add("timer armed by the result"))
			})
		})
		r.Wait()
		if want := (log{"timer", "result", "timer armed by the result"}); !slices.Equal(got, want) {
			t.Errorf("after Wait: %v, want %v", got, want)
		}
	})
}

// TestStopIsFinal: a stopped timer's callback never runs, even when it had
// come due and was waiting behind another callback that stopped it.
func TestStopIsFinal(t *testing.T) {
	r := NewManual()
	var got log
	stop := r.After(time.Second, got.add("stopped early"))
	stop()
	var stopSecond func()
	r.After(2*time.Second, func() {
		got = append(got, "first")
		stopSecond()
	})
	stopSecond = r.After(2*time.Second, got.add("second"))
	r.Advance(time.Minute)
	if !slices.Equal(got, log{"first"}) {
		t.Errorf("ran %v, want only the first", got)
	}
	if len(r.armed) != 0 {
		t.Errorf("%d timers left armed", len(r.armed))
	}
}
