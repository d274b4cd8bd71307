package app

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

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
	// Accounts are the accounts the database holds (no verifiers): whose
	// database it is, for a restore.
	Accounts []User
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

// CompactInfo describes a compaction just done: the sizes before and
// after, and where the file it replaced was kept.
type CompactInfo struct {
	Before, After int64
	Kept          string
}

// KeptName names the copy of the database at dbPath kept before an
// operation that replaces or removes records (a restore, a compaction, a
// format upgrade, the deletion of a finalized election): beside it, with
// what was done and the time, so `verify --file` can check it and a
// restore can bring it back.
func KeptName(dbPath, before string, now time.Time) string {
	return fmt.Sprintf("%s.before-%s-%s", dbPath, before, now.UTC().Format("20060102T150405Z"))
}

// RestoreInfo describes a restore just done: the check of the backup, and
// where the database it replaced was kept ("" if there was none).
type RestoreInfo struct {
	Report VerifyReport
	Kept   string
}

// ReadAccounts lists the accounts a database holds, without their password
// verifiers, read in tx.
func ReadAccounts(tx Tx) ([]User, error) {
	var out []User
	err := tx.Partitions(prefixUser, skMetadata, func(it Item) (bool, error) {
		u := userFromItem(it)
		u.PasswordHash = ""
		out = append(out, u)
		return true, nil
	})
	return out, err
}

// RestoreRefusal says why the OWNER u may not restore the checked backup
// r without confirming whose database it is, or nil when they may: the
// backup must hold u's own account (the same account, not a name), or a
// restore would hand the installation to whoever owns the backup. confirm
// is what the OWNER gave to confirm (the name of the backup's OWNER).
func (r VerifyReport) RestoreRefusal(u User, confirm string) error {
	for _, a := range r.Accounts {
		if a.ID == u.ID {
			return nil
		}
	}
	owners := r.OwnerNames()
	if confirm != "" && slices.Contains(owners, confirm) {
		return nil
	}
	after := "it has no OWNER account, so nobody could manage this installation after the restore"
	if len(owners) > 0 {
		after = "after the restore its OWNER " + strings.Join(owners, ", ") + " would own this installation"
	}
	return Errorf(CodeConflict, "this backup is another installation's database: your account %s is not in it, and %s; to restore it anyway, confirm by naming its OWNER", u.Name, after)
}

// OwnerNames are the names of the OWNER accounts among r.Accounts.
func (r VerifyReport) OwnerNames() []string {
	var out []string
	for _, a := range r.Accounts {
		if a.Role == RoleOwner {
			out = append(out, a.Name)
		}
	}
	return out
}
