package ui

import (
	"sync"

	"fyne.io/fyne/v2"
)

// tasks runs long work off the UI goroutine and posts each result back to it.
// Wait lets tests (and shutdown) wait until every started task has delivered
// its result.
type tasks struct {
	wg sync.WaitGroup
}

// run calls work on a new goroutine, then done with its result on the UI
// goroutine.
func run[T any](t *tasks, work func() (T, error), done func(T, error)) {
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		v, err := work()
		fyne.DoAndWait(func() { done(v, err) })
	}()
}

// Wait blocks until every task started so far has delivered its result.
func (t *tasks) Wait() { t.wg.Wait() }
