//go:build linux || darwin

package localstore

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// residency maps the file (read only, without faulting anything in) and
// returns a test of whether a range of it is all in the page cache, by
// mincore(2); ok is false when the file cannot be mapped.
func residency(f *os.File, size int64) (cached func(off, n int64) bool, release func(), ok bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, nil, false
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, false
	}
	page := int64(os.Getpagesize())
	vec := make([]byte, (warmChunk+page-1)/page)
	cached = func(off, n int64) bool {
		pages := (n + page - 1) / page
		_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[off])), uintptr(n), uintptr(unsafe.Pointer(&vec[0])))
		if errno != 0 {
			return false
		}
		for _, v := range vec[:pages] {
			if v&1 == 0 {
				return false
			}
		}
		return true
	}
	return cached, func() { _ = unix.Munmap(m) }, true
}
