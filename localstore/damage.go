package localstore

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"votedesk/app"
)

// Damaged files. bbolt maps the file into memory and trusts its pages: a
// file cut short makes a read beyond its end fault (SIGBUS, which kills the
// process), and a changed page makes bbolt panic. A file the user names (a
// backup to check or restore, a database to open) is therefore checked for
// its shape before bbolt opens it, and every walk over a whole file runs
// under guard, which turns a fault or a panic into an error naming the
// file. Nothing is changed when either refuses.

// checkShape reads the two meta pages of an existing file and refuses it
// when neither is a bbolt meta page, or when the file is shorter than the
// pages its header says it holds (a truncated copy).
func checkShape(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil // a new database
	}
	if err != nil {
		return app.Errorf(app.CodeInvalid, "cannot read %s: %v", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return app.Errorf(app.CodeInvalid, "cannot read %s: %v", path, err)
	}
	size := fi.Size()
	if size == 0 {
		return nil // bbolt initialises an empty file
	}
	var need int64
	valid := 0
	for _, at := range []int64{0, -1} {
		var page [16 + 64]byte
		off := int64(0)
		if at < 0 {
			// The second meta page follows the first, at its page size.
			var first [16 + 64]byte
			if _, err := f.ReadAt(first[:], 0); err != nil {
				break
			}
			ps := int64(binary.LittleEndian.Uint32(first[16+8:]))
			if ps < 512 || ps > 1<<20 {
				break
			}
			off = ps
		}
		if _, err := f.ReadAt(page[:], off); err != nil && err != io.EOF {
			continue
		}
		m := page[16:]
		if binary.LittleEndian.Uint32(m[0:]) != 0xED0CDAED {
			continue
		}
		ps := int64(binary.LittleEndian.Uint32(m[8:]))
		pgid := int64(binary.LittleEndian.Uint64(m[40:]))
		if ps < 512 || ps > 1<<20 || pgid < 0 || pgid > 1<<40 {
			continue
		}
		valid++
		need = max(need, pgid*ps)
	}
	if valid == 0 {
		return app.Errorf(app.CodeInvalid, "%s is not a VoteDesk database (no database header); nothing was changed", path)
	}
	if size < need {
		return app.Errorf(app.CodeInvalid, "%s is damaged: it holds %d bytes but its header says %d (a copy cut short?); nothing was changed", path, size, need)
	}
	return nil
}

// guard runs fn and turns a memory fault or a panic while it reads the
// file at path into an error naming the file.
func guard(path string, fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if p := recover(); p != nil {
			err = &app.Error{Code: app.CodeInvalid,
				Message: fmt.Sprintf("%s is damaged: reading it failed (%v); nothing was changed. `votedesk verify --file BACKUP` checks a backup to restore", path, p)}
		}
	}()
	return fn()
}

// nameFile makes sure an error about reading the file at path names it.
func nameFile(path string, err error) error {
	if err == nil {
		return nil
	}
	msg := app.ErrorMessage(err)
	if strings.Contains(msg, path) {
		return err
	}
	code := app.ErrorCode(err)
	if code == app.CodeInternal {
		code = app.CodeInvalid
	}
	return &app.Error{Code: code, Message: fmt.Sprintf("%s cannot be read: %s (is it damaged? nothing was changed)", path, msg), Err: err}
}
