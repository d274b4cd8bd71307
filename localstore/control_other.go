//go:build !unix

package localstore

import "os"

// privateDir reports whether dir is a real folder (ownership is not
// checked on this system).
func privateDir(dir string) bool {
	fi, err := os.Lstat(dir)
	return err == nil && fi.IsDir()
}
