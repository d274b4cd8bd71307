package localstore

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"votedesk/app"
)

// A VoteDesk process that holds a database open (the desktop app, a kiosk, a
// long command) serves a control socket so that another process can still
// take a consistent backup: bbolt's file lock keeps the second process from
// opening the file itself. The socket is private to the user (mode 0600, in
// XDG_RUNTIME_DIR or the temp folder) and named from the database's path.
// One request per connection, as a JSON line: {"op":"backup","path":"..."};
// the reply is a JSON line {"ok":true,"path":..,"events":..,"size":..} or
// {"ok":false,"error":".."}.

// ControlSocket returns the control socket path of the database at dbPath.
func ControlSocket(dbPath string) string {
	abs, err := filepath.Abs(dbPath)
	if err != nil {
		abs = dbPath
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(controlDir(), "votedesk-"+hex.EncodeToString(sum[:8])+".sock")
}

// controlDir is the folder of the control sockets: XDG_RUNTIME_DIR, or
// else a folder of this user's in the temporary folder, made with mode
// 0700. Both ends refuse a folder that is not this user's and private
// (another user made it first, or a link), so nobody else can listen in
// the socket's place.
func controlDir() string {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return dir
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("votedesk-%d", os.Getuid()))
	_ = os.Mkdir(dir, 0o700)
	return dir
}

// checkControlDir refuses a control-socket folder others could use.
func checkControlDir(sock string) error {
	if dir := filepath.Dir(sock); !privateDir(dir) {
		return app.Errorf(app.CodeUnavailable, "the folder %s of VoteDesk's control socket is not private to this user (another user's, a link, or open to others); remove it, or set XDG_RUNTIME_DIR", dir)
	}
	return nil
}

type controlRequest struct {
	Op       string `json:"op"`
	Path     string `json:"path"`
	User     string `json:"user"`
	Password string `json:"password"`
}

type controlReply struct {
	OK     bool   `json:"ok"`
	Error  string `json:"error,omitempty"`
	Path   string `json:"path,omitempty"`
	Events uint64 `json:"events,omitempty"`
	Size   int64  `json:"size,omitempty"`
}

// ServeControl serves the store's control socket until stop is called.
func (s *Store) ServeControl(authorize func(user, password string) error) (stop func(), err error) {
	path := ControlSocket(s.path)
	if err := checkControlDir(path); err != nil {
		return nil, err
	}
	if c, err := net.DialTimeout("unix", path, 200*time.Millisecond); err == nil {
		c.Close()
		return nil, app.Errorf(app.CodeUnavailable, "another VoteDesk already serves %s", path)
	}
	os.Remove(path) // a socket left by a process that died
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("localstore: serve control socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("localstore: restrict control socket: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go s.handleControl(conn, authorize)
		}
	}()
	return func() {
		l.Close()
		<-done
		os.Remove(path)
	}, nil
}

func (s *Store) handleControl(conn net.Conn, authorize func(user, password string) error) {
	defer conn.Close()
	if !samePeer(conn) {
		return // another user's process: no answer at all
	}
	_ = conn.SetDeadline(time.Now().Add(10 * time.Minute))
	var req controlRequest
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &req)
	}
	reply := controlReply{}
	switch {
	case err != nil:
		reply.Error = "malformed request"
	case req.Op != "backup":
		reply.Error = fmt.Sprintf("unknown operation %q", req.Op)
	case !filepath.IsAbs(req.Path):
		reply.Error = "the backup path must be absolute"
	case authorize == nil:
		reply.Error = "this VoteDesk does not take backup requests"
	default:
		if err := authorize(req.User, req.Password); err != nil {
			reply.Error = app.ErrorMessage(err)
			break
		}
		info, err := s.Backup(context.Background(), req.Path)
		if err != nil {
			reply.Error = app.ErrorMessage(err)
		} else {
			reply = controlReply{OK: true, Path: info.Path, Events: info.Events, Size: info.Size}
		}
	}
	b, _ := json.Marshal(reply)
	_, _ = conn.Write(append(b, '\n'))
}

// RequestBackup asks the VoteDesk process that holds the database at dbPath
// open to write a backup to dest.
func RequestBackup(ctx context.Context, dbPath, dest, user, password string) (app.BackupInfo, error) {
	abs, err := filepath.Abs(dest)
	if err != nil {
		return app.BackupInfo{}, err
	}
	sock := ControlSocket(dbPath)
	if err := checkControlDir(sock); err != nil {
		return app.BackupInfo{}, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return app.BackupInfo{}, &app.Error{Code: app.CodeUnavailable,
			Message: fmt.Sprintf("the database %s is open in another VoteDesk that does not answer backup requests; back up from that VoteDesk, or close it first", dbPath), Err: err}
	}
	defer conn.Close()
	if !samePeer(conn) {
		return app.BackupInfo{}, app.Errorf(app.CodeUnavailable, "the control socket %s is served by another user's process; no backup was requested", sock)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	b, _ := json.Marshal(controlRequest{Op: "backup", Path: abs, User: user, Password: password})
	if _, err := conn.Write(append(b, '\n')); err != nil {
		return app.BackupInfo{}, fmt.Errorf("localstore: request backup: %w", err)
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return app.BackupInfo{}, fmt.Errorf("localstore: request backup: %w", err)
	}
	var reply controlReply
	if err := json.Unmarshal(line, &reply); err != nil {
		return app.BackupInfo{}, errors.New("localstore: malformed reply to a backup request")
	}
	if !reply.OK {
		return app.BackupInfo{}, app.Errorf(app.CodeUnavailable, "the running VoteDesk could not back up: %s", reply.Error)
	}
	// Believe the file, not the reply: whoever answered on the socket, the
	// backup must be there and check.
	if reply.Path != abs {
		return app.BackupInfo{}, app.Errorf(app.CodeUnavailable, "the running VoteDesk answered for %s, not %s; no backup was made", reply.Path, abs)
	}
	report, err := CheckFile(ctx, abs)
	if err != nil {
		return app.BackupInfo{}, app.Errorf(app.CodeUnavailable, "the running VoteDesk said it backed up to %s, but the file does not check: %s", abs, app.ErrorMessage(err))
	}
	if !report.OK() {
		return app.BackupInfo{}, app.Errorf(app.CodeUnavailable, "the running VoteDesk said it backed up to %s, but the file fails its check: %s", abs, report.Problems[0])
	}
	return app.BackupInfo{Path: abs, Events: report.Events, Size: reply.Size}, nil
}
