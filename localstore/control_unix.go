//go:build unix

package localstore

import (
	"os"
	"syscall"
)

// privateDir reports whether dir is a real folder owned by this user that
// no one else may enter.
func privateDir(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
