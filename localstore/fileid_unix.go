//go:build unix

package localstore

import (
	"os"
	"syscall"
)

// fileIdentity returns the device and inode numbers of a file: a copy of the
// file is another inode.
func fileIdentity(fi os.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
