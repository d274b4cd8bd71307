package offui

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// Runner runs work off the UI goroutine, and timers, handing both back to
// the UI goroutine, and counts what is in flight so that Wait can wait for
// it. Make one with New or NewManual.
type Runner struct {
	manual bool

	mu sync.Mutex
	// changed is broadcast whenever busy falls, something is queued, or a
	// timer fires or stops.
	changed *sync.Cond
	// busy counts work running and, on the desktop, results, progress and
	// timer callbacks posted to the UI goroutine and not yet run.
	busy int
	// queue is, with NewManual, what Wait runs on its caller's goroutine.
	queue []func()
	armed map[*timer]struct{}
	seq   uint64
	// now is NewManual's time: it moves only with Advance.
	now time.Time
}

// timer is one After: armed until it fires or is stopped.
type timer struct {
	due time.Time
	// seq orders timers due at the same moment as they were armed.
	seq     uint64
	f       func()
	clock   *time.Timer
	stopped bool
}

// New returns a Runner for the desktop: results and callbacks go to the UI
// goroutine through fyne.Do, and timers run on the system clock.
func New() *Runner { return newRunner(false) }

// NewManual returns a Runner for tests: results and callbacks are run by
// Wait on its caller's goroutine, and time moves only with Advance.
func NewManual() *Runner { return newRunner(true) }

func newRunner(manual bool) *Runner {
	r := &Runner{manual: manual, armed: map[*timer]struct{}{}}
	r.changed = sync.NewCond(&r.mu)
	return r
}

// Go calls work on a new goroutine, then the function it returns (if not
// nil) on the UI goroutine.
func (r *Runner) Go(work func() (onUI func())) {
	r.begin()
	go func() {
		onUI := work()
		if onUI == nil {
			r.end()
			return
		}
		r.deliver(onUI)
	}()
}

// Run calls work on a new goroutine, then done with its result on the UI
// goroutine.
func Run[T any](r *Runner, work func() (T, error), done func(T, error)) {
	r.Go(func() func() {
		v, err := work()
		return func() { done(v, err) }
	})
}

// Post runs f on the UI goroutine without waiting for it (progress from
// work running).
func (r *Runner) Post(f func()) {
	r.begin()
	r.deliver(f)
}

// After runs f on the UI goroutine once d has passed, unless stop is
// called first (on the UI goroutine).
func (r *Runner) After(d time.Duration, f func()) (stop func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	t := &timer{seq: r.seq, f: f}
	r.armed[t] = struct{}{}
	if r.manual {
		t.due = r.now.Add(d)
	} else {
		t.due = time.Now().Add(d)
		t.clock = time.AfterFunc(d, func() { r.fire(t) })
	}
	return func() { r.stop(t) }
}

// Wait blocks until nothing is in flight: no work running, no result,
// progress or timer callback waiting to run, and no timer due. With
// NewManual it runs, on the calling goroutine, the results and callbacks
// as they arrive and the timers as they come due, in order. On the
// desktop it must not be called on the UI goroutine, which it waits for.
func (r *Runner) Wait() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		switch {
		case r.busy > 0:
			r.changed.Wait()
		case len(r.queue) > 0:
			q := r.queue
			r.queue = nil
			r.mu.Unlock()
			for _, f := range q {
				f()
			}
			r.mu.Lock()
		default:
			t := r.next(r.clock())
			if t == nil {
				return
			}
			if !r.manual {
				// Its clock is about to fire it.
				r.changed.Wait()
				continue
			}
			delete(r.armed, t)
			r.queue = append(r.queue, r.callback(t))
		}
	}
}

// Advance moves a NewManual Runner's time on by d, running every timer
// that comes due on the way at its time, each after what the one before
// started has settled (Wait).
func (r *Runner) Advance(d time.Duration) {
	if !r.manual {
		panic("offui: Advance on a Runner that runs on the system clock")
	}
	r.mu.Lock()
	end := r.now.Add(d)
	r.mu.Unlock()
	for {
		r.Wait()
		r.mu.Lock()
		t := r.next(end)
		if t == nil {
			r.now = end
			r.mu.Unlock()
			return
		}
		r.now = t.due
		r.mu.Unlock()
	}
}

// begin counts one more thing in flight.
func (r *Runner) begin() {
	r.mu.Lock()
	r.busy++
	r.mu.Unlock()
}

// end counts one thing in flight less.
func (r *Runner) end() {
	r.mu.Lock()
	r.busy--
	r.changed.Broadcast()
	r.mu.Unlock()
}

// deliver runs f on the UI goroutine, or queues it for Wait, and then
// counts it done.
func (r *Runner) deliver(f func()) {
	if !r.manual {
		fyne.Do(func() {
			defer r.end()
			f()
		})
		return
	}
	r.mu.Lock()
	r.queue = append(r.queue, f)
	r.busy--
	r.changed.Broadcast()
	r.mu.Unlock()
}

// fire is a desktop timer's clock firing: its callback goes to the UI
// goroutine unless it was stopped.
func (r *Runner) fire(t *timer) {
	r.mu.Lock()
	if _, ok := r.armed[t]; !ok {
		r.mu.Unlock()
		return
	}
	delete(r.armed, t)
	r.busy++
	r.changed.Broadcast()
	r.mu.Unlock()
	r.deliver(r.callback(t))
}

// callback runs t's function unless t was stopped since it fired.
func (r *Runner) callback(t *timer) func() {
	return func() {
		r.mu.Lock()
		stopped := t.stopped
		r.mu.Unlock()
		if !stopped {
			t.f()
		}
	}
}

func (r *Runner) stop(t *timer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t.stopped = true
	if _, ok := r.armed[t]; ok {
		delete(r.armed, t)
		if t.clock != nil {
			t.clock.Stop()
		}
		r.changed.Broadcast()
	}
}

// clock is the time now: the system's, or NewManual's own.
func (r *Runner) clock() time.Time {
	if r.manual {
		return r.now
	}
	return time.Now()
}

// next returns the armed timer due first at or before until, if any.
func (r *Runner) next(until time.Time) *timer {
	var first *timer
	for t := range r.armed {
		if t.due.After(until) {
			continue
		}
		if first == nil || t.due.Before(first.due) || t.due.Equal(first.due) && t.seq < first.seq {
			first = t
		}
	}
	return first
}
