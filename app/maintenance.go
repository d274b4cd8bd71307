package app

import "fmt"

// VerifyReport is what a check of a database found. FirstBadSeq is the first
// log sequence number whose event is missing, malformed or breaks the hash
// chain (0 when the chain is whole).
type VerifyReport struct {
	Events      uint64
	HeadHash    string
	FirstBadSeq uint64
	Problems    []string
	// Notes say what was checked beyond the log, or why not.
	Notes []string
}

// OK reports whether nothing was wrong.
func (r VerifyReport) OK() bool { return len(r.Problems) == 0 }

// Problem records one thing found wrong.
func (r *VerifyReport) Problem(format string, a ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, a...))
}

// BackupInfo describes a backup just written: where, how many events it
// holds, and its size in bytes.
type BackupInfo struct {
	Path   string
	Events uint64
	Size   int64
}

// RestoreInfo describes a restore just done: the check of the backup, and
// where the database it replaced was kept ("" if there was none).
type RestoreInfo struct {
	Report VerifyReport
	Kept   string
}
