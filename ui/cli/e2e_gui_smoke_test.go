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
	cmd := exec.Command(binary, "--db", db)
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_RUNTIME_DIR="+home, "VOTEDESK_DB=", "WAYLAND_DISPLAY=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-exited
		}
	})

	deadline := time.Now().Add(30 * time.Second)
	for {
		tree, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
		if strings.Contains(string(tree), `"VoteDesk"`) {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("votedesk exited before showing its window (%v):\n%s", err, out.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no VoteDesk window on %s after 30 s; windows:\n%s\noutput:\n%s", display, tree, out.String())
		}
	}

	// The app remembers its window size while it runs.
	prefsFile := filepath.Join(home, ".config", "fyne", "org.votedesk.app", "preferences.json")
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		if b, _ := os.ReadFile(prefsFile); strings.Contains(string(b), "window.size") {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the window size was not remembered within 10 s:\n%s", out.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("votedesk did not exit cleanly: %v\n%s", err, out.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("votedesk did not exit within 15 s of SIGTERM:\n%s", out.String())
	}
	if strings.Contains(out.String(), "when none is started") {
		t.Errorf("votedesk used Fyne before its app started:\n%s", out.String())
	}
	st, err := localstore.Open(db)
	if err != nil {
		t.Fatalf("the database was left open: %v", err)
	}
	st.Close()
}

// startXvfb starts a headless X server on a free display and returns its
// name; the server stops when the test ends.
func startXvfb(t *testing.T) string {
	t.Helper()
	n := 90 + os.Getpid()%400
	for ; ; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); os.IsNotExist(err) {
			break
		}
	}
	display := fmt.Sprintf(":%d", n)
	x := exec.Command("Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		x.Process.Signal(syscall.SIGTERM)
		x.Wait()
	})
	for i := 0; i < 100; i++ {
		if exec.Command("xwininfo", "-display", display, "-root").Run() == nil {
			return display
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("Xvfb did not start on %s", display)
	return ""
}
