package app

import (
	"os"
	"runtime"
	"runtime/metrics"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// prefaultMaxHeap is the live heap above which prefault does nothing: it
// ends with a garbage collection, cheap on a small heap (a command that
// has just started, the app at its sign-in screen) and dearer than what it
// saves on a large one.
const prefaultMaxHeap = 16 << 20

// noPopulate is set once the kernel has refused MADV_POPULATE_WRITE
// (Linux before 5.14).
var noPopulate atomic.Bool

// prefault makes size bytes of heap ready for the allocation that follows:
// it allocates them, has the kernel fill in their pages in one call
// (madvise MADV_POPULATE_WRITE) instead of a fault per page, and frees
// them again, so the next allocation of that size takes the same pages.
// Only the speed depends on it: if the pages are not reused, or the
// kernel refuses, the allocation faults them in as before.
func prefault(size uint64) {
	if noPopulate.Load() || size == 0 || size > 1<<30 || liveHeap() > prefaultMaxHeap {
		return
	}
	b := make([]byte, size)
	page := uint64(os.Getpagesize())
	if n := size &^ (page - 1); n > 0 {
		if err := unix.Madvise(b[:n], unix.MADV_POPULATE_WRITE); err != nil {
			noPopulate.Store(true)
		}
	}
	runtime.KeepAlive(b)
	runtime.GC()
}

// liveHeap returns the bytes of heap objects, live or not yet swept.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return ^uint64(0)
	}
	return s[0].Value.Uint64()
}
