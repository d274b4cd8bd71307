package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"votedesk/app"
)

// Exit statuses.
const (
	ExitOK      = 0
	ExitRefused = 1
	ExitUsage   = 2
	// ExitPartial is a command of many independent items (ballot cast
	// --stdin, tally of many contests) that did some and refused others:
	// what was done is printed, each refusal is named.
	ExitPartial = 3
)

// partialError says a command did part of its items and refused the rest.
type partialError struct{ msg string }

func (e *partialError) Error() string { return e.msg }

// Backend is an open database: the domain service, the maintenance
// operations of the file itself, and cloud sync.
type Backend struct {
	Service *app.Service
	Store   Maintenance
	// Cloud builds the syncer for the given cloud options (nil: this build
	// has no cloud sync).
	Cloud func(app.CloudOptions) app.Syncer
}

// Maintenance is what the command line needs of the open database file
// beyond the domain service.
type Maintenance interface {
	StateHash(ctx context.Context) (string, error)
	Backup(ctx context.Context, path string) (app.BackupInfo, error)
	Verify(ctx context.Context) (app.VerifyReport, error)
	// ServeControl answers other processes' backup requests while a long
	// command runs, for users authorize lets through.
	ServeControl(authorize func(user, password string) error) (stop func(), err error)
	// Upgraded says where the file was kept as it was when opening it
	// upgraded its layout ("" when it did not).
	Upgraded() string
	Close() error
}

// Files are the operations on a database file that is not open here.
type Files interface {
	// Restore checks the backup at from and, if approve (when set) lets
	// what the check found through, replaces the database at dbPath with it.
	Restore(ctx context.Context, dbPath, from string, approve func(app.VerifyReport) error) (app.RestoreInfo, error)
	Compact(ctx context.Context, dbPath string) (app.CompactInfo, error)
	// RequestBackup asks the process that has the database open for a
	// backup, as user (who must be allowed to make one there).
	RequestBackup(ctx context.Context, dbPath, dest, user, password string) (app.BackupInfo, error)
	CheckFile(ctx context.Context, path string) (app.VerifyReport, error)
}

// Deps are the outside world of the command line, injected by main.
type Deps struct {
	// Open opens the database at path.
	Open func(path string) (*Backend, error)
	// GUI runs the desktop app on the database at path until it is closed.
	// ask: the path was named (--db or VOTEDESK_DB) and holds no database,
	// so the app asks before creating one.
	GUI func(path string, ask bool) error
	// Kiosk runs a kiosk window (votedesk kiosk) until an official closes it.
	Kiosk func(KioskStart) error
	// Files works on database files that are not open.
	Files Files
	// DefaultDB returns the database path used when neither --db nor
	// VOTEDESK_DB is given.
	DefaultDB func() (string, error)
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	Getenv    func(string) string
}

// call is one run of one command.
type call struct {
	ctx     context.Context
	deps    Deps
	args    *args
	json    bool
	dbPath  string
	asUser  string
	backend *Backend
	actor   string
	// role is the signed-in user's role.
	role app.Role
	// creates: this command may make a new database (creators).
	creates bool
}

// command is one form of the command line.
type command struct {
	path  string
	usage string
	flags map[string]flagKind
	// db: the command works on the database; auth: it needs a signed-in user.
	db, auth bool
	run      func(c *call) error
}

var commands = map[string]*command{}

func register(cmds ...*command) {
	for _, c := range cmds {
		commands[c.path] = c
	}
}

// globalFlags are accepted anywhere on the line.
var globalFlags = map[string]flagKind{"db": valueFlag, "json": boolFlag, "as": valueFlag, "help": boolFlag, "h": boolFlag}

// Main runs the command line and returns the exit status.
func Main(argv []string, d Deps) int {
	if d.Getenv == nil {
		d.Getenv = os.Getenv
	}
	c := &call{ctx: context.Background(), deps: d}
	rest, err := c.globals(argv)
	if err != nil {
		return c.fail(err)
	}
	if len(rest) == 0 {
		path, err := c.databasePath()
		if err != nil {
			return c.fail(err)
		}
		_, statErr := os.Stat(path)
		ask := errors.Is(statErr, fs.ErrNotExist) && (c.dbPath != "" || d.Getenv("VOTEDESK_DB") != "")
		if err := d.GUI(path, ask); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	if rest[0] == "help" {
		// votedesk help [COMMAND], votedesk COMMAND --help: one command's
		// usage, a group's commands, or all of them.
		if len(rest) > 1 && c.commandHelp(d.Stdout, rest[1:]) {
			return ExitOK
		}
		if len(rest) > 1 {
			return c.fail(usagef("unknown command %q; run `votedesk help` for the list", strings.Join(rest[1:min(3, len(rest))], " ")))
		}
		c.usage(d.Stdout)
		return ExitOK
	}
	cmd, tail := lookup(rest)
	if cmd == nil {
		return c.fail(usagef("unknown command %q; run `votedesk help` for the list", strings.Join(rest[:min(2, len(rest))], " ")))
	}
	if c.args, err = parseArgs(tail, cmd.flags); err != nil {
		return c.fail(fmt.Errorf("%w\nusage: votedesk %s", err, cmd.usage))
	}
	if cmd.db {
		c.creates = creators[cmd.path]
		if err := c.open(); err != nil {
			return c.fail(err)
		}
		defer c.backend.Store.Close()
		if cmd.auth {
			if err := c.signIn(); err != nil {
				return c.fail(err)
			}
		}
	}
	return c.fail(cmd.run(c))
}

// globals pulls the global flags out of argv, wherever they are.
func (c *call) globals(argv []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(argv); i++ {
		s := argv[i]
		if s == "--" {
			rest = append(rest, argv[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(s, "-"), "=")
		kind, global := globalFlags[name]
		if !strings.HasPrefix(s, "-") || !global {
			rest = append(rest, s)
			continue
		}
		if kind == valueFlag && !hasValue {
			if i+1 >= len(argv) {
				return nil, usagef("flag --%s needs a value", name)
			}
			i++
			value = argv[i]
		}
		switch name {
		case "db":
			c.dbPath = value
		case "as":
			c.asUser = value
		case "json":
			b, err := parseBool(name, value)
			if err != nil {
				return nil, err
			}
			c.json = b
		case "help", "h":
			rest = append([]string{"help"}, rest...)
		}
	}
	return rest, nil
}

// lookup finds the command named by the first one or two words.
func lookup(words []string) (*command, []string) {
	if len(words) >= 2 {
		if cmd := commands[words[0]+" "+words[1]]; cmd != nil {
			return cmd, words[2:]
		}
	}
	if cmd := commands[words[0]]; cmd != nil {
		return cmd, words[1:]
	}
	return nil, nil
}

// databasePath is --db, else VOTEDESK_DB, else the default.
func (c *call) databasePath() (string, error) {
	if c.dbPath != "" {
		return c.dbPath, nil
	}
	if p := c.deps.Getenv("VOTEDESK_DB"); p != "" {
		return p, nil
	}
	return c.deps.DefaultDB()
}

func (c *call) open() error {
	path, err := c.databasePath()
	if err != nil {
		return err
	}
	if !c.creates {
		if err := mustExist(path); err != nil {
			return err
		}
	}
	c.backend, err = c.deps.Open(path)
	if err == nil {
		if kept := c.backend.Store.Upgraded(); kept != "" {
			fmt.Fprintf(c.deps.Stderr, "votedesk: upgraded %s to this version's layout; the file as it was is kept as %s\n", path, kept)
		}
	}
	return err
}

// mustExist says, when there is no database at path, what makes one: a
// mistyped --db never starts an empty database.
func mustExist(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return app.Errorf(app.CodeNotFound, "no VoteDesk database at %s (check --db or VOTEDESK_DB): `votedesk user add NAME --email E` makes a new one whose first user is its OWNER, `votedesk sync --endpoint URL` joins one from the cloud, `votedesk restore FILE` brings back a backup", path)
	}
	return nil
}

// creators are the commands that may make a new database at a path where
// there is none: the first run (the first user), setting up the cloud
// tables, and joining from the cloud.
// Every other command on a missing path says so, so a mistyped --db never
// starts an empty database.
var creators = map[string]bool{"user add": true, "sync": true, "cloud init": true}

// fail prints err (if any) and returns the exit status it calls for.
func (c *call) fail(err error) int {
	if err == nil {
		return ExitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(c.deps.Stderr, "votedesk:", err)
		return ExitUsage
	}
	var pe *partialError
	if errors.As(err, &pe) {
		fmt.Fprintln(c.deps.Stderr, "votedesk:", err)
		return ExitPartial
	}
	fmt.Fprintln(c.deps.Stderr, "votedesk:", app.ErrorMessage(err))
	if app.ErrorCode(err) == app.CodeInternal && app.ErrorMessage(err) != err.Error() {
		fmt.Fprintln(c.deps.Stderr, "  cause:", err)
	}
	return ExitRefused
}

// out prints v as JSON with --json, otherwise calls text.
func (c *call) out(v any, text func(w io.Writer)) error {
	if c.json {
		enc := json.NewEncoder(c.deps.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	text(c.deps.Stdout)
	return nil
}

// outPages writes a list of n items read a page at a time (read returns
// items from to to-1): with --json, byte for byte the array out would write
// of the items made by asJSON; else each page through text (first says
// whether it is the first). A state's million ballots are never held at
// once.
func outPages[T any](c *call, n int, read func(from, to int) ([]T, error), asJSON func(T) any, text func(w io.Writer, first bool, page []T)) error {
	const page = 4096
	w := bufio.NewWriter(c.deps.Stdout)
	if c.json && n == 0 {
		w.WriteString("[]\n")
	}
	for from := 0; from < n; from += page {
		items, err := read(from, from+page)
		if err != nil {
			w.Flush()
			return err
		}
		if !c.json {
			text(w, from == 0, items)
			continue
		}
		for i, it := range items {
			b, err := json.MarshalIndent(asJSON(it), "  ", "  ")
			if err != nil {
				return err
			}
			sep := ",\n  "
			if from+i == 0 {
				sep = "[\n  "
			}
			w.WriteString(sep)
			w.Write(b)
		}
		if from+page >= n {
			w.WriteString("\n]\n")
		}
	}
	return w.Flush()
}

func (c *call) usage(w io.Writer) {
	fmt.Fprintln(w, "VoteDesk: ranked-choice elections, offline first.")
	fmt.Fprintln(w, "\nUsage: votedesk [--db PATH] [--as USER] [--json] COMMAND ...   (no command opens the desktop app)")
	fmt.Fprintln(w, "\nCommands:")
	var lines []string
	for _, cmd := range commands {
		lines = append(lines, "  votedesk "+cmd.usage)
	}
	sort.Strings(lines)
	fmt.Fprintln(w, strings.Join(lines, "\n"))
	fmt.Fprintln(w, "\nEnvironment: VOTEDESK_DB (database path), VOTEDESK_USER and VOTEDESK_PASSWORD (sign-in),")
	fmt.Fprintln(w, "VOTEDESK_NEW_PASSWORD (password of a user being added).")
	fmt.Fprintln(w, "Cloud sync uses the AWS environment: AWS_REGION, AWS_PROFILE or AWS_ACCESS_KEY_ID and")
	fmt.Fprintln(w, "AWS_SECRET_ACCESS_KEY, and AWS_ENDPOINT_URL_DYNAMODB (or --endpoint) for DynamoDB Local.")
	fmt.Fprintln(w, "Exit status: 0 done, 1 refused (nothing written), 2 usage error, 3 done in part (ballot cast --stdin,")
	fmt.Fprintln(w, "tally of many contests: what was done is printed, each refusal named).")
}

// commandHelp prints the help of the command words name (its usage, its
// flags, what every command shares), or of every command of a group
// ("ballot"); false when words name neither.
func (c *call) commandHelp(w io.Writer, words []string) bool {
	var cmds []*command
	if cmd, _ := lookup(words); cmd != nil {
		cmds = []*command{cmd}
	} else {
		for path, cmd := range commands {
			if strings.HasPrefix(path, words[0]+" ") {
				cmds = append(cmds, cmd)
			}
		}
		sort.Slice(cmds, func(i, j int) bool { return cmds[i].path < cmds[j].path })
	}
	if len(cmds) == 0 {
		return false
	}
	fmt.Fprintln(w, "Usage:")
	for _, cmd := range cmds {
		fmt.Fprintln(w, "  votedesk "+cmd.usage)
	}
	if len(cmds) == 1 {
		var flags []string
		for name, kind := range cmds[0].flags {
			f := "--" + name
			if kind == valueFlag {
				f += " VALUE"
			}
			flags = append(flags, f)
		}
		sort.Strings(flags)
		if len(flags) > 0 {
			fmt.Fprintln(w, "\nFlags: "+strings.Join(flags, ", "))
		}
		if cmds[0].auth {
			fmt.Fprintln(w, "\nSigns in as VOTEDESK_USER (or --as USER) with VOTEDESK_PASSWORD, or asks on a terminal.")
		}
	}
	if strings.HasPrefix(cmds[0].path, "user") {
		fmt.Fprintln(w, "\nRoles, lowest first (each may do what the ones below it may):")
		for _, r := range app.Roles() {
			fmt.Fprintf(w, "  %-9s %s\n", r, r.Description())
		}
	}
	fmt.Fprintln(w, "\nEvery command takes --db PATH (else VOTEDESK_DB, else the default database) and --json.")
	fmt.Fprintln(w, "Exit status: 0 done, 1 refused (nothing written), 2 usage error, 3 done in part.")
	fmt.Fprintln(w, "`votedesk help` lists every command; the README describes each.")
	return true
}

// ctxT is the context type service methods take.
type ctxT = context.Context
