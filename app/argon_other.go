//go:build !linux

package app

// prefault does nothing here: MADV_POPULATE_WRITE is Linux's.
func prefault(uint64) {}
