// Package apptest holds what the tests of several packages share: a clock
// the test sets, and ids it can predict. Production code never imports it.
package apptest
