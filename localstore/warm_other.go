//go:build !linux && !darwin

package localstore

import "os"

// residency: on this system bbolt maps the file without MADV_RANDOM, so
// faults read ahead as usual and the warmer does nothing.
func residency(*os.File, int64) (func(off, n int64) bool, func(), bool) {
	return nil, nil, false
}
