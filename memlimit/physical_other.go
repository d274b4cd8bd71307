//go:build !linux

package memlimit

// physical returns 0: the machine's memory is not looked up here, so no
// limit is set (the runtime's default).
func physical() int64 { return 0 }
