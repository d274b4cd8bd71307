package ui

import (
	"sync"

	"fyne.io/fyne/v2"
)

// tasks runs long work off the UI goroutine and posts each result back to
// it with fyne.DoAndWait. In tests (queued set) results are instead queued
// and delivered by Wait on the test's goroutine, so the widgets are only
// ever touched by one goroutine, as on the desktop.
type tasks struct {
	wg     sync.WaitGroup
	queued bool
	mu     sync.Mutex
	queue  []func()
}

// run calls work on a new goroutine, then done with its result on the UI
// goroutine.
func run[T any](t *tasks, work func() (T, error), done func(T, error)) {
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		v, err := work()
		t.deliver(func() { done(v, err) }, true)
	}()
}

// post runs f on the UI goroutine without waiting (progress from a task).
func (t *tasks) post(f func()) { t.deliver(f, false) }

func (t *tasks) deliver(f func(), wait bool) {
	if t.queued {
		t.mu.Lock()
		t.queue = append(t.queue, f)
		t.mu.Unlock()
		return
	}
	if wait {
		fyne.DoAndWait(f)
	} else {
		fyne.Do(f)
	}
}

// Wait blocks until every task started so far, and every task their
// results started, has finished; with queued results it delivers them, in
// order, on the calling goroutine.
func (t *tasks) Wait() {
	for {
		t.wg.Wait()
		t.mu.Lock()
		q := t.queue
		t.queue = nil
		t.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, f := range q {
			f()
		}
	}
}
