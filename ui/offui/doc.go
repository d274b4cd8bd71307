// Package offui is the one way VoteDesk's screens run work off Fyne's UI
// goroutine and run code later: a Runner starts slow work (disk, network,
// a big tally) on a goroutine of its own and hands what it returns back to
// the UI goroutine with fyne.Do, posts progress there, and arms timers
// whose callbacks run there too. Package ui (the officials' app) and
// package kiosk share it: a kiosk started from the officials' app runs on
// the app's Runner.
//
// A Runner counts what is in flight: work running, results and progress
// on their way to the UI goroutine, and timers that are due (fired, or
// past their time) until their callback has run. Wait returns once none is
// left. A timer not yet due is not waited for (a kiosk re-arms its idle
// timer on every key, and a sync interval never ends); it is waited for
// from the moment it is due. A timer's stop is final: once stop returns
// on the UI goroutine, the callback does not run, even if the timer had
// already fired and its callback was on its way.
//
// Tests use NewManual: nothing goes through fyne.Do, every result and
// callback is queued and run by Wait on the test's goroutine (Fyne's test
// driver runs fyne.Do at once on whatever goroutine calls it, so that is
// how a test keeps the widgets on one goroutine, as the desktop does), and
// time stands still unless the test moves it with Advance, which runs each
// timer at its time, in order, with what it starts settled before the
// next. No test sleeps to wait for a timer.
package offui
