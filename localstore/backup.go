package localstore

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// BackupInfo is app.BackupInfo.
type BackupInfo = app.BackupInfo

// Backup writes a consistent copy of the database to path while it stays in
// use: one read transaction copies every page (bbolt's Tx.CopyFile), so the
// copy holds exactly what was committed when the backup began. The copy is
// written to a temporary file beside path, synced, and renamed into place.
//
// A backup is always a new file: it refuses any path where something
// exists (checkBackupTarget), so it can never replace the database, another
// database or an older backup.
func (s *Store) Backup(ctx context.Context, path string) (BackupInfo, error) {
	if err := ctx.Err(); err != nil {
		return BackupInfo{}, err
	}
	if err := s.checkBackupTarget(path); err != nil {
		return BackupInfo{}, err
	}
	tmp, err := tempBeside(path)
	if err != nil {
		return BackupInfo{}, err
	}
	defer os.Remove(tmp)
	var info BackupInfo
	err = s.db.View(func(btx *bolt.Tx) error {
		k, _ := btx.Bucket(bucketLog).Cursor().Last()
		if k != nil {
			info.Events = getSeq(k)
		}
		return btx.CopyFile(tmp, 0o600)
	})
	if err != nil {
		return BackupInfo{}, fmt.Errorf("localstore: back up to %s: %w", path, err)
	}
	if err := syncFile(tmp); err != nil {
		return BackupInfo{}, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return BackupInfo{}, fmt.Errorf("localstore: back up to %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return BackupInfo{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return BackupInfo{}, err
	}
	info.Path, info.Size = path, fi.Size()
	return info, nil
}

// RestoreInfo is app.RestoreInfo.
type RestoreInfo = app.RestoreInfo

// Restore replaces the database at dbPath with the backup at from, after
// checking the backup (layout, hash chain, projection = rebuild from the log,
// counts). Nothing is replaced when the check fails. The database must not be
// open elsewhere; the file it replaces is kept beside it as
// "{dbPath}.before-restore-{time}". approve, if set, is asked after the
// check whether the backup the check describes may replace the database
// (app.VerifyReport.RestoreRefusal): a refusal restores nothing, and the
// backup is checked once, not once for the question and once to restore.
func Restore(ctx context.Context, dbPath, from string, now time.Time, approve func(app.VerifyReport) error) (RestoreInfo, error) {
	report, err := CheckFile(ctx, from)
	if err != nil {
		return RestoreInfo{}, err
	}
	if !report.OK() {
		return RestoreInfo{Report: report}, app.Errorf(app.CodeInvalid, "the backup %s fails its check: %s; nothing was restored", from, report.Problems[0])
	}
	if approve != nil {
		if err := approve(report); err != nil {
			return RestoreInfo{Report: report}, err
		}
	}
	var kept string
	if _, err := os.Stat(dbPath); err == nil {
		cur, err := Open(dbPath) // takes the lock: refuses while VoteDesk runs on it
		if err != nil {
			return RestoreInfo{}, err
		}
		defer cur.Close()
		kept = app.KeptName(dbPath, "restore", now)
		if err := copyFile(dbPath, kept); err != nil {
			return RestoreInfo{}, err
		}
	}
	tmp, err := tempBeside(dbPath)
	if err != nil {
		return RestoreInfo{}, err
	}
	defer os.Remove(tmp)
	if err := copyFile(from, tmp); err != nil {
		return RestoreInfo{}, err
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		return RestoreInfo{}, fmt.Errorf("localstore: restore %s: %w", dbPath, err)
	}
	if err := syncDir(filepath.Dir(dbPath)); err != nil {
		return RestoreInfo{}, err
	}
	return RestoreInfo{Report: report, Kept: kept}, nil
}

// Compact rewrites the database at dbPath without its free pages, keeping
// everything it holds, and returns the sizes before and after. The file it
// replaces is kept beside it, named by app.KeptName. The database must not
// be open elsewhere.
func Compact(ctx context.Context, dbPath string, now time.Time) (app.CompactInfo, error) {
	src, err := Open(dbPath)
	if err != nil {
		return app.CompactInfo{}, err
	}
	defer src.Close()
	info, err := src.compact(ctx, now)
	if err != nil {
		return app.CompactInfo{}, fmt.Errorf("localstore: compact %s: %w", dbPath, err)
	}
	return info, nil
}

func (src *Store) compact(ctx context.Context, now time.Time) (app.CompactInfo, error) {
	dbPath := src.path
	fi, err := os.Stat(dbPath)
	if err != nil {
		return app.CompactInfo{}, err
	}
	kept := app.KeptName(dbPath, "compact", now)
	if err := copyFile(dbPath, kept); err != nil {
		return app.CompactInfo{}, err
	}
	tmp, err := tempBeside(dbPath)
	if err != nil {
		return app.CompactInfo{}, err
	}
	defer os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: OpenTimeout, PageSize: pageSize})
	if err != nil {
		return app.CompactInfo{}, err
	}
	if err := bolt.Compact(dst, src.db, 64<<20); err != nil {
		dst.Close()
		return app.CompactInfo{}, err
	}
	if err := rebind(dst, tmp); err != nil {
		dst.Close()
		return app.CompactInfo{}, err
	}
	if err := dst.Close(); err != nil {
		return app.CompactInfo{}, err
	}
	if err := syncFile(tmp); err != nil {
		return app.CompactInfo{}, err
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		return app.CompactInfo{}, err
	}
	if err := syncDir(filepath.Dir(dbPath)); err != nil {
		return app.CompactInfo{}, err
	}
	nfi, err := os.Stat(dbPath)
	if err != nil {
		return app.CompactInfo{}, err
	}
	return app.CompactInfo{Before: fi.Size(), After: nfi.Size(), Kept: kept}, nil
}

// tempBeside names a new temporary file in path's folder.
func tempBeside(path string) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("localstore: create a file beside %s: %w", path, err)
	}
	name := f.Name()
	f.Close()
	return name, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("localstore: read %s: %w", from, err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("localstore: write %s: %w", to, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("localstore: copy %s to %s: %w", from, to, err)
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return fmt.Errorf("localstore: sync %s: %w", to, err)
	}
	return out.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("localstore: sync %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("localstore: sync %s: %w", path, err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("localstore: sync folder %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("localstore: sync folder %s: %w", dir, err)
	}
	return nil
}

// checkBackupTarget says why path must not receive a backup: a backup is
// always a new file. Whatever is there already (the database itself by any
// path or link, another installation's database, an older backup, a
// folder, a link, any other file) stays as it is.
func (s *Store) checkBackupTarget(path string) error {
	fi, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write the backup %s: %v", path, err)
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return app.Errorf(app.CodeInvalid, "%s is a symbolic link; name a new file for the backup (nothing was written)", path)
	case fi.IsDir():
		return app.Errorf(app.CodeInvalid, "%s is a folder; name a new file in it for the backup (nothing was written)", path)
	}
	if self, err := os.Stat(s.path); err == nil && os.SameFile(self, fi) {
		return app.Errorf(app.CodeInvalid, "%s is this database itself; a backup goes to a new file (nothing was written)", path)
	}
	if checkShape(path) == nil && fi.Size() > 0 {
		return app.Errorf(app.CodeInvalid, "%s is already a VoteDesk database or backup; a backup never replaces one: name a new file (nothing was written)", path)
	}
	return app.Errorf(app.CodeInvalid, "%s exists; a backup never replaces a file: name a new one (nothing was written)", path)
}
