package localstore

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSamePeer: a control socket connection from this user's process is
// this user's; one from a process of another user (the test runs a copy
// of itself as nobody, which takes root) is not, and gets no answer.
func TestSamePeer(t *testing.T) {
	if sock := os.Getenv("VOTEDESK_PEER_TEST_DIAL"); sock != "" {
		c, err := net.Dial("unix", sock)
		if err != nil {
			os.Exit(3)
		}
		c.Write([]byte("{}\n"))
		time.Sleep(200 * time.Millisecond)
		os.Exit(0)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755) // t.TempDir makes both private
	sock := filepath.Join(dir, "peer.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	os.Chmod(sock, 0o777)
	accept := func() bool {
		t.Helper()
		c, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return samePeer(c)
	}
	go func() {
		if c, err := net.Dial("unix", sock); err == nil {
			time.Sleep(100 * time.Millisecond)
			c.Close()
		}
	}()
	if !accept() {
		t.Error("a connection from this process is not this user's")
	}
	if os.Getuid() != 0 {
		t.Skip("running a process as another user takes root")
	}
	// A copy of the test binary that nobody may run (go test's own folder
	// is private).
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "peer.test")
	if err := os.WriteFile(exe, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^TestSamePeer$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "VOTEDESK_PEER_TEST_DIAL="+sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	if accept() {
		t.Error("a connection from another user's process passes as this user's")
	}
}
