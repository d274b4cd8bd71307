package localstore

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"
	"slices"
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
	if !freelistWhole(f, size) {
		return app.Errorf(app.CodeInvalid, "%s is damaged: its list of free pages is not where its header says (a changed page?); nothing was changed", path)
	}
	return nil
}

// freelistWhole reports whether the list of free pages that bbolt reads
// when it opens f for writing is a freelist page within the file: the one
// the current header names (bbolt's choice: the valid header with the
// higher transaction id). bbolt panics there on any other page, after it
// has locked the file, and nothing can unlock it but the end of the
// process: every later open of the file, a restore over it included,
// would be told that another VoteDesk has it open. A file with no valid
// header, or whose header names no freelist, is left to bbolt.
func freelistWhole(f *os.File, size int64) bool {
	var best []byte
	var bestTx uint64
	off := int64(0)
	for i := range 2 {
		var page [16 + 64]byte
		if _, err := f.ReadAt(page[:], off); err != nil {
			break
		}
		m := page[16:]
		ps := int64(binary.LittleEndian.Uint32(m[8:]))
		if i == 0 {
			off = ps // the second header follows the first, at its page size
		}
		h := fnv.New64a()
		h.Write(m[:56])
		valid := binary.LittleEndian.Uint32(m[0:]) == 0xED0CDAED && binary.LittleEndian.Uint32(m[4:]) == 2 &&
			h.Sum64() == binary.LittleEndian.Uint64(m[56:]) && ps >= 512 && ps <= 1<<20
		if tx := binary.LittleEndian.Uint64(m[48:]); valid && (best == nil || tx > bestTx) {
			best, bestTx = slices.Clone(m), tx
		}
		if ps < 512 || ps > 1<<20 {
			break
		}
	}
	if best == nil {
		return true
	}
	ps := int64(binary.LittleEndian.Uint32(best[8:]))
	pgid := binary.LittleEndian.Uint64(best[32:])
	if pgid == ^uint64(0) {
		return true // not kept in the file: bbolt rebuilds it
	}
	if pgid < 2 || pgid > uint64(size/ps) {
		return false
	}
	var hdr [16 + 8]byte
	at := int64(pgid) * ps
	if _, err := f.ReadAt(hdr[:], at); err != nil {
		return false
	}
	flags := binary.LittleEndian.Uint16(hdr[8:])
	count := uint64(binary.LittleEndian.Uint16(hdr[10:]))
	overflow := int64(binary.LittleEndian.Uint32(hdr[12:]))
	if count == 0xFFFF { // the count is the first element, then the ids
		n := binary.LittleEndian.Uint64(hdr[16:])
		if n >= 1<<40 {
			return false // bbolt would take it for a negative int and panic
		}
		count = n + 1
	}
	room := (overflow + 1) * ps
	return flags == 0x10 && at+room <= size && count <= uint64(room-16)/8
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
