package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"votedesk/app"
)

// The file commands act on the database file itself: whoever can read the
// file can back it up, verify it, restore or compact it.
func init() {
	register(
		&command{path: "backup", usage: "backup FILE   (a consistent copy, also while VoteDesk runs)", run: backup},
		&command{path: "restore", usage: "restore FILE [--owner NAME]   (checks the backup first; keeps the replaced database beside it; --owner confirms restoring another installation's database, owned by NAME)",
			flags: map[string]flagKind{"owner": valueFlag}, run: restore},
		&command{path: "compact", usage: "compact", run: compact},
		&command{path: "verify", usage: "verify [--file BACKUP | --cloud [--endpoint URL] [--table-prefix P]]   (hash chain, projection = rebuild from the log, counts; --cloud: the cloud log's chain against this device's)",
			flags: map[string]flagKind{"file": valueFlag, "cloud": boolFlag, "endpoint": valueFlag, "table-prefix": valueFlag}, run: verify},
	)
}

type backupJSON struct {
	Path   string `json:"path"`
	Events uint64 `json:"events"`
	Size   int64  `json:"size"`
	Via    string `json:"via"`
}

func backup(c *call) error {
	if err := c.args.want(1, 1, "backup FILE"); err != nil {
		return err
	}
	dest := c.args.pos[0]
	path, err := c.databasePath()
	if err != nil {
		return err
	}
	var info app.BackupInfo
	via := "direct"
	if err := c.open(); err == nil {
		defer c.backend.Store.Close()
		user, pw, err := c.credentials()
		if err != nil {
			return err
		}
		if _, err := c.backend.Service.AuthorizeBackup(c.ctx, user, pw); err != nil {
			return err
		}
		info, err = c.backend.Store.Backup(c.ctx, dest)
		if err != nil {
			return err
		}
	} else if app.ErrorCode(err) == app.CodeUnavailable && strings.Contains(app.ErrorMessage(err), "already open") {
		via = "running VoteDesk"
		user, pw, err := c.credentials()
		if err != nil {
			return err
		}
		if info, err = c.deps.Files.RequestBackup(c.ctx, path, dest, user, pw); err != nil {
			return err
		}
	} else {
		return err
	}
	return c.out(backupJSON{Path: info.Path, Events: info.Events, Size: info.Size, Via: via}, func(w io.Writer) {
		fmt.Fprintf(w, "backed up %d events (%d bytes) to %s\n", info.Events, info.Size, info.Path)
	})
}

func restore(c *call) error {
	if err := c.args.want(1, 1, "restore FILE"); err != nil {
		return err
	}
	path, err := c.databasePath()
	if err != nil {
		return err
	}
	// A restore replaces every record: the OWNER of the database it
	// replaces signs in first, and the backup must hold their own account
	// (or they name its OWNER to confirm). Restoring where there is no
	// database yet (a new machine) needs no one.
	var approve func(app.VerifyReport) error
	if _, err := os.Stat(path); err == nil {
		if err := c.open(); err != nil {
			return err
		}
		user, pw, err := c.credentials()
		var u app.User
		if err == nil {
			u, err = c.backend.Service.AuthorizeRestore(c.ctx, user, pw)
		}
		c.backend.Store.Close()
		if err != nil {
			return err
		}
		approve = func(report app.VerifyReport) error {
			if err := report.RestoreRefusal(u, c.args.str("owner")); err != nil {
				return app.Errorf(app.ErrorCode(err), "%s (votedesk restore %s --owner NAME); nothing was restored", app.ErrorMessage(err), c.args.pos[0])
			}
			return nil
		}
	}
	// The check of a state's backup takes tens of seconds: a terminal is
	// shown how far it is.
	p := c.progress()
	ctx := app.WithVerifyProgress(c.ctx, func(step string, done, total uint64) {
		p.show("checking the backup, " + verifyStep(step, done, total))
	})
	info, err := c.deps.Files.Restore(ctx, path, c.args.pos[0], approve)
	p.end()
	if err != nil {
		return err
	}
	return c.out(map[string]any{"restored": path, "events": info.Report.Events, "kept": info.Kept}, func(w io.Writer) {
		fmt.Fprintf(w, "restored %d events into %s\n", info.Report.Events, path)
		if info.Kept != "" {
			fmt.Fprintf(w, "the database it replaced is kept as %s\n", info.Kept)
		}
	})
}

func compact(c *call) error {
	if err := c.args.want(0, 0, "compact"); err != nil {
		return err
	}
	path, err := c.databasePath()
	if err != nil {
		return err
	}
	if err := mustExist(path); err != nil {
		return err
	}
	info, err := c.deps.Files.Compact(c.ctx, path)
	if err != nil {
		return err
	}
	return c.out(map[string]any{"before": info.Before, "after": info.After, "kept": info.Kept}, func(w io.Writer) {
		fmt.Fprintf(w, "compacted %s from %d to %d bytes\n", path, info.Before, info.After)
		fmt.Fprintf(w, "the file as it was is kept as %s\n", info.Kept)
	})
}

// verifyStep is the progress line of a verify's step.
func verifyStep(step string, done, total uint64) string {
	of := func(what string) string {
		if total == 0 {
			return what
		}
		return fmt.Sprintf("%s: %s of %s events (%d%%)", what, thousands(int(done)), thousands(int(total)), 100*done/total)
	}
	switch step {
	case app.VerifyChain:
		return of("checking the hash chain")
	case app.VerifyRebuild:
		return of("replaying the log into a rebuild of the projection")
	}
	return "comparing the projection with the rebuild"
}

type verifyJSON struct {
	OK          bool     `json:"ok"`
	Events      uint64   `json:"events"`
	HeadHash    string   `json:"head_hash"`
	FirstBadSeq uint64   `json:"first_bad_seq,omitempty"`
	Problems    []string `json:"problems,omitempty"`
	Notes       []string `json:"notes,omitempty"`
}

func verify(c *call) error {
	if err := c.args.want(0, 0, "verify [--file BACKUP]"); err != nil {
		return err
	}
	var r app.VerifyReport
	var err error
	p := c.progress()
	ctx := app.WithVerifyProgress(c.ctx, func(step string, done, total uint64) { p.show(verifyStep(step, done, total)) })
	if f := c.args.str("file"); f != "" {
		r, err = c.deps.Files.CheckFile(ctx, f)
		p.end()
	} else if c.args.flag("cloud") {
		if err := c.open(); err != nil {
			return err
		}
		defer c.backend.Store.Close()
		s, err := c.syncer()
		if err != nil {
			return err
		}
		v, ok := s.(app.CloudVerifier)
		if !ok {
			return app.Errorf(app.CodeUnavailable, "this VoteDesk cannot verify the cloud log")
		}
		if r, err = v.VerifyCloud(c.ctx); err != nil {
			return err
		}
	} else {
		if err := c.open(); err != nil {
			return err
		}
		defer c.backend.Store.Close()
		r, err = c.backend.Store.Verify(ctx)
		p.end()
	}
	if err != nil {
		return err
	}
	if err := c.out(verifyJSON{OK: r.OK(), Events: r.Events, HeadHash: r.HeadHash, FirstBadSeq: r.FirstBadSeq, Problems: r.Problems, Notes: r.Notes}, func(w io.Writer) {
		if r.OK() {
			if c.args.flag("cloud") {
				fmt.Fprintf(w, "verified the cloud log: %d events, hash chain whole (head %s), the same as this device's confirmed events\n", r.Events, r.HeadHash)
				for _, n := range r.Notes {
					fmt.Fprintln(w, n)
				}
				return
			}
			fmt.Fprintf(w, "verified: %d events, hash chain whole (head %s), projection matches a rebuild from the log, counts agree, audits follow from the ballots\n", r.Events, r.HeadHash)
			for _, n := range r.Notes {
				fmt.Fprintln(w, "note:", n)
			}
			return
		}
		for _, p := range r.Problems {
			fmt.Fprintln(w, "problem:", p)
		}
	}); err != nil {
		return err
	}
	if !r.OK() {
		msg := r.Problems[0]
		if r.FirstBadSeq != 0 {
			msg = fmt.Sprintf("first bad event: %d (%s)", r.FirstBadSeq, msg)
		}
		return app.Errorf(app.CodeConflict, "verification failed: %s", msg)
	}
	return nil
}
