//go:build !unix

package tally

import "time"

// cpuTime is not measured on this system.
func cpuTime() time.Duration { return 0 }
