package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"votedesk/app"
)

func init() {
	cloudFlags := map[string]flagKind{"endpoint": valueFlag, "table-prefix": valueFlag}
	syncFlags := map[string]flagKind{"endpoint": valueFlag, "table-prefix": valueFlag, "watch": boolFlag, "interval": valueFlag,
		"no-projection": boolFlag, "check-projection": boolFlag}
	register(
		&command{path: "cloud init", usage: "cloud init [--endpoint URL] [--table-prefix P]", flags: cloudFlags, db: true, run: cloudInit},
		&command{path: "sync", usage: "sync [--endpoint URL] [--table-prefix P] [--watch] [--interval D] [--no-projection] [--check-projection]", flags: syncFlags, db: true, run: syncRun},
		&command{path: "sync status", usage: "sync status   (conflicts and rejected commands too when signed in)", db: true, run: syncStatus},
		&command{path: "state-hash", usage: "state-hash", db: true, run: stateHash},
	)
}

// syncer builds the syncer for the --endpoint and --table-prefix given.
func (c *call) syncer() (app.Syncer, error) {
	if c.backend.Cloud == nil {
		return nil, app.Errorf(app.CodeUnavailable, "this VoteDesk was built without cloud sync")
	}
	return c.backend.Cloud(app.CloudOptions{Endpoint: c.args.str("endpoint"), TablePrefix: c.args.str("table-prefix"),
		NoProjection: c.args.flag("no-projection"), CheckProjection: c.args.flag("check-projection")}), nil
}

func cloudInit(c *call) error {
	if err := c.args.want(0, 0, "cloud init [--endpoint URL] [--table-prefix P]"); err != nil {
		return err
	}
	s, err := c.syncer()
	if err != nil {
		return err
	}
	created, err := s.InitCloud(c.ctx)
	if err != nil {
		return err
	}
	st, err := s.Status(c.ctx)
	if err != nil {
		return err
	}
	tables := []string{st.TablePrefix + "vote_data", st.TablePrefix + "vote_event_log"}
	return c.out(map[string]any{"tables": tables, "created": created}, func(w io.Writer) {
		if len(created) == 0 {
			fmt.Fprintf(w, "tables %s and %s already exist\n", tables[0], tables[1])
			return
		}
		fmt.Fprintf(w, "created %v; tables %s and %s are ready\n", created, tables[0], tables[1])
	})
}

type syncResultJSON struct {
	Pulled      int    `json:"pulled"`
	Pushed      int    `json:"pushed"`
	Rebased     int    `json:"rebased"`
	LastEventID uint64 `json:"last_event_id"`
	Projection  uint64 `json:"projection_last_event_id"`
	Repaired    int    `json:"projection_repaired,omitempty"`
}

func syncRun(c *call) error {
	if err := c.args.want(0, 0, "sync [--endpoint URL] [--table-prefix P] [--watch] [--interval D]"); err != nil {
		return err
	}
	interval := 30 * time.Second
	if v := c.args.str("interval"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return usagef("--interval takes a duration such as 30s or 5m, not %q", v)
		}
		interval = d
	}
	ctx, stop := signal.NotifyContext(c.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress, endProgress := c.progressPrinter()
	report := func(r app.SyncResult) error {
		return c.out(syncResultJSON(r), func(w io.Writer) {
			fmt.Fprintf(w, "synced: pulled %d, pushed %d event(s); log head %d, cloud projection at %d\n", r.Pulled, r.Pushed, r.LastEventID, r.Projection)
			if r.Repaired > 0 {
				fmt.Fprintf(w, "the cloud projection differed from the log in %d item(s); they were written again\n", r.Repaired)
			}
		})
	}
	if !c.args.flag("watch") {
		s, err := c.syncer()
		if err != nil {
			return err
		}
		r, err := s.Sync(ctx, progress)
		endProgress()
		if err != nil {
			return err
		}
		return report(r)
	}
	return c.watch(ctx, interval, progress, endProgress, report)
}

// watch syncs every interval until interrupted, backing off after
// failures. It opens the database for each cycle and closes it after, so
// other commands can use it between cycles.
func (c *call) watch(ctx context.Context, interval time.Duration, progress func(app.SyncProgress), endProgress func(), report func(app.SyncResult) error) error {
	c.backend.Store.Close()
	failures := 0
	for {
		r, err := c.watchCycle(ctx, progress)
		endProgress()
		if ctx.Err() != nil {
			return nil
		}
		wait := interval
		if err != nil {
			failures++
			fmt.Fprintf(c.deps.Stderr, "votedesk: sync failed (will retry): %s\n", app.ErrorMessage(err))
			wait = app.Backoff(interval, failures)
		} else {
			failures = 0
			report(r)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// watchCycle opens the database, runs one sync cycle and closes it again.
func (c *call) watchCycle(ctx context.Context, progress func(app.SyncProgress)) (app.SyncResult, error) {
	if err := c.open(); err != nil {
		return app.SyncResult{}, err
	}
	defer c.backend.Store.Close()
	s, err := c.syncer()
	if err != nil {
		return app.SyncResult{}, err
	}
	return s.Sync(ctx, progress)
}

// progressPrinter shows sync progress on one line of a terminal's stderr,
// each report replacing the last (a wait to retry says why), and nothing
// when stderr is not a terminal. end clears the line once the cycle is
// over, so what the command prints next starts a line of its own.
func (c *call) progressPrinter() (progress func(app.SyncProgress), end func()) {
	f, ok := c.deps.Stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, func() {}
	}
	const clearLine = "\r\033[K" // back to the line's start, and erase it
	shown := false
	progress = func(p app.SyncProgress) {
		shown = true
		line := p.Waiting()
		if line == "" {
			line = fmt.Sprintf("%-10s pulled %d/%d  pushed %d/%d  projection %d/%d", p.Stage, p.Pulled, p.ToPull, p.Pushed, p.ToPush, p.Projected, p.ToProject)
		}
		// A line longer than the terminal would wrap, and the next one
		// would erase only its last part.
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 1 && utf8.RuneCountInString(line) >= w {
			line = string([]rune(line)[:w-2]) + "…"
		}
		fmt.Fprint(f, clearLine+line)
	}
	end = func() {
		if shown {
			fmt.Fprint(f, clearLine)
			shown = false
		}
	}
	return progress, end
}

type syncStatusJSON struct {
	app.SyncStatus
	OpenConflicts int            `json:"open_conflicts"`
	Conflicts     []conflictJSON `json:"conflicts"`
	Rejected      []rejectedJSON `json:"rejected"`
	Details       string         `json:"details,omitempty"`
}

func syncStatus(c *call) error {
	if err := c.args.want(0, 0, "sync status"); err != nil {
		return err
	}
	s, err := c.syncer()
	if err != nil {
		return err
	}
	st, err := s.Status(c.ctx)
	if err != nil {
		return err
	}
	out := syncStatusJSON{SyncStatus: st, Conflicts: []conflictJSON{}, Rejected: []rejectedJSON{}}
	signedIn := c.asUser != "" || c.deps.Getenv("VOTEDESK_USER") != ""
	if signedIn {
		if err := c.signIn(); err != nil {
			return err
		}
		if out.Conflicts, out.Rejected, err = c.conflictsAndRejections(""); err != nil {
			return err
		}
		for _, k := range out.Conflicts {
			if !k.Resolved {
				out.OpenConflicts++
			}
		}
	} else {
		out.Details = "sign in (--as USER) to list conflicts and rejected commands"
	}
	return c.out(out, func(w io.Writer) {
		endpoint := st.Endpoint
		if endpoint == "" {
			endpoint = "(the AWS environment's)"
		}
		fmt.Fprintf(w, "endpoint:       %s\n", endpoint)
		fmt.Fprintf(w, "table prefix:   %q\n", st.TablePrefix)
		fmt.Fprintf(w, "last_event_id:  %d\n", st.LastEventID)
		fmt.Fprintf(w, "pending:        %d event(s) not yet in the cloud log\n", st.Pending)
		for _, sh := range st.Shards {
			fmt.Fprintf(w, "shard:          %s, read to entry %d\n", c.shardName(sh), sh.Read)
		}
		fmt.Fprintf(w, "last success:   %s\n", showTime(st.LastSuccess))
		fmt.Fprintf(w, "last attempt:   %s\n", showTime(st.LastAttempt))
		if st.LastError != "" {
			fmt.Fprintf(w, "last error:     %s\n", st.LastError)
		}
		if !signedIn {
			fmt.Fprintln(w, out.Details)
			return
		}
		fmt.Fprintf(w, "conflicts:      %d open, %d in all\n", out.OpenConflicts, len(out.Conflicts))
		printConflicts(w, out.Conflicts)
		fmt.Fprintf(w, "rejected:       %d command(s)\n", len(out.Rejected))
		printRejected(w, out.Rejected)
	})
}

// shardName names a shard of the cloud log for people: "global", or the
// election's name when this device knows it, with its id.
func (c *call) shardName(sh app.ShardPlace) string {
	if sh.ElectionID == "" {
		return sh.Shard + " (users, roles, elections' set-up, and the order of all ballots)"
	}
	if name, ok := c.electionName(sh.ElectionID); ok {
		return fmt.Sprintf("%q's ballots (%s)", name, sh.Shard)
	}
	return sh.Shard
}

func showTime(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func stateHash(c *call) error {
	if err := c.args.want(0, 0, "state-hash"); err != nil {
		return err
	}
	h, err := c.backend.Store.StateHash(c.ctx)
	if err != nil {
		return err
	}
	return c.out(map[string]string{"state_hash": h}, func(w io.Writer) { fmt.Fprintln(w, h) })
}

// electionName is the name of the election with id, when a user is signed
// in who may see it.
func (c *call) electionName(id string) (string, bool) {
	if c.actor == "" || c.backend == nil || c.backend.Service == nil {
		return "", false
	}
	e, err := c.backend.Service.ElectionByID(c.ctx, c.actor, id)
	if err != nil {
		return "", false
	}
	return e.Name, true
}
