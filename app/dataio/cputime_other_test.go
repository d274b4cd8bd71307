//go:build !unix

package dataio_test

import "time"

// cpuTime is not measured on this system.
func cpuTime() time.Duration { return 0 }
