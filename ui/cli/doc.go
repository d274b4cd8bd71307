// Package cli is VoteDesk's command line: the same binary as the desktop app,
// for scripts and tests. Its forms are a contract (see the README).
package cli
