package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"votedesk/localstore"
)

// TestGUISmoke starts the real binary with no arguments under a headless X
// server (Xvfb), finds its window, waits until it has remembered its window
// size, asks it to close the way a session manager does (SIGTERM), and
// checks that it exits with status 0 and leaves the database closed.
//
// Before that, a --db path where there is no database: the app asks in a
// window of its own and creates nothing unless told to (a mistyped path
// must not start an empty database); told to (VOTEDESK_CREATE_DB, which
// the question sets when the user answers Create), it creates it.
func TestGUISmoke(t *testing.T) {
	for _, tool := range []string{"Xvfb", "xwininfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing (make system-deps installs it)", tool)
			}
			t.Skipf("%s is missing (make system-deps installs it)", tool)
		}
	}
	display := startXvfb(t)
	home := t.TempDir()
	db := filepath.Join(home, "votedesk.db")
	for _, d := range []string{".cache", ".config"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}

	asked := startGUI(t, display, home, db)
	asked.waitWindow(`"VoteDesk: no database"`)
	if err := asked.stop(); err == nil || !strings.Contains(asked.out.String(), "no VoteDesk database at "+db+"; nothing was created") {
		t.Errorf("quitting the question: %v\n%s", err, asked.out.String())
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("the app made a database at a path it was asked about")
	}

	g := startGUI(t, display, home, db, "VOTEDESK_CREATE_DB="+db)
	g.waitWindow(`"VoteDesk"`)
	// The app remembers its window size while it runs.
	prefsFile := filepath.Join(home, ".config", "fyne", "org.votedesk.app", "preferences.json")
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		if b, _ := os.ReadFile(prefsFile); strings.Contains(string(b), "window.size") {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the window size was not remembered within 10 s:\n%s", g.out.String())
		}
	}
	if err := g.stop(); err != nil {
		t.Fatalf("votedesk did not exit cleanly: %v\n%s", err, g.out.String())
	}
	if strings.Contains(g.out.String(), "when none is started") {
		t.Errorf("votedesk used Fyne before its app started:\n%s", g.out.String())
	}
	st, err := localstore.Open(db)
	if err != nil {
		t.Fatalf("the database was not made, or was left open: %v", err)
	}
	defer st.Close()

	// Opened again while another VoteDesk has it (here this test): the
	// app says so in a window, as well as on its error output, since it
	// may have been started from an icon.
	locked := startGUI(t, display, home, db)
	locked.waitWindow(`"VoteDesk: cannot open the database"`)
	if err := locked.stop(); err == nil || !strings.Contains(locked.out.String(), "already open by another VoteDesk") {
		t.Errorf("the app on a database another has open: %v\n%s", err, locked.out.String())
	}
}

// guiRun is the real binary running the desktop app under Xvfb.
type guiRun struct {
	t       *testing.T
	cmd     *exec.Cmd
	display string
	out     *bytes.Buffer
	exited  chan error
}

func startGUI(t *testing.T, display, home, db string, env ...string) *guiRun {
	t.Helper()
	g := &guiRun{t: t, display: display, out: &bytes.Buffer{}, exited: make(chan error, 1)}
	g.cmd = exec.Command(binary, "--db", db)
	g.cmd.Env = append(append(os.Environ(), "DISPLAY="+display, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_RUNTIME_DIR="+home, "VOTEDESK_DB=", "VOTEDESK_CREATE_DB=", "WAYLAND_DISPLAY="), env...)
	g.cmd.Stdout, g.cmd.Stderr = g.out, g.out
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { g.exited <- g.cmd.Wait() }()
	t.Cleanup(func() {
		if g.cmd.ProcessState == nil {
			g.cmd.Process.Kill()
			<-g.exited
		}
	})
	return g
}

// waitWindow waits until a window with the quoted title is on the display.
func (g *guiRun) waitWindow(title string) {
	g.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		tree, _ := exec.Command("xwininfo", "-display", g.display, "-root", "-tree").Output()
		if strings.Contains(string(tree), title) {
			return
		}
		select {
		case err := <-g.exited:
			g.t.Fatalf("votedesk exited before showing its window %s (%v):\n%s", title, err, g.out.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			g.t.Fatalf("no window %s on %s after 30 s; windows:\n%s\noutput:\n%s", title, g.display, tree, g.out.String())
		}
	}
}

// stop asks the app to close as a session manager does (SIGTERM) and
// returns how it exited.
func (g *guiRun) stop() error {
	g.t.Helper()
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		g.t.Fatal(err)
	}
	select {
	case err := <-g.exited:
		return err
	case <-time.After(15 * time.Second):
		g.t.Fatalf("votedesk did not exit within 15 s of SIGTERM:\n%s", g.out.String())
		return nil
	}
}

// startXvfb starts a headless X server on a free display and returns its
// name; the server stops when the test ends (SIGTERM, so that it removes
// its lock file). A display whose lock file or socket is there is taken;
// and a server that exits at once (its display turned out to be taken)
// is not the one that answers, so the next display is tried: a test must
// not talk to another test's server, which may go away under it.
func startXvfb(t *testing.T) string {
	t.Helper()
	n := 90 + os.Getpid()%400
	for tries := 0; tries < 20; tries, n = tries+1, n+1 {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); !os.IsNotExist(err) {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); !os.IsNotExist(err) {
			continue
		}
		display := fmt.Sprintf(":%d", n)
		x := exec.Command("Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
		if err := x.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { x.Wait(); close(exited) }()
		stop := func() {
			x.Process.Signal(syscall.SIGTERM)
			<-exited
		}
		up := false
		for i := 0; i < 100 && !up; i++ {
			select {
			case <-exited:
				i = 100 // taken after all: try the next display
			default:
				up = exec.Command("xwininfo", "-display", display, "-root").Run() == nil
				if !up {
					time.Sleep(100 * time.Millisecond)
				}
			}
		}
		select {
		case <-exited:
			continue
		default:
		}
		if !up {
			stop()
			t.Fatalf("Xvfb did not start on %s", display)
		}
		t.Cleanup(stop)
		return display
	}
	t.Fatal("no free display for Xvfb")
	return ""
}
