// Package tally counts ranked ballots. It is pure: standard library only, no I/O.
package tally
