package apptest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Clock is an app.Clock a test controls: it starts at a time, moves on by
// Step at every reading (0: it stands still), and the test moves it with Add
// or Set.
type Clock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

// NewClock returns a clock at t that moves on by step at every reading.
func NewClock(t time.Time, step time.Duration) *Clock {
	return &Clock{t: t, step: step}
}

// Now returns the clock's time, then moves it on by its step.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// SeqIDs is an app.IDSource of predictable UUIDs:
// 00000000-0000-4000-8000-000000000001, then ...2, and so on from Next+1.
type SeqIDs struct {
	mu   sync.Mutex
	Next int
}

// NewID returns the next id.
func (s *SeqIDs) NewID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Next++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", s.Next)
}

// SharedTestdata returns the folder of the project's shared test data
// (../shared/testdata beside the checkout), read in place: the folder named
// by VOTEDESK_SHARED_TESTDATA, else the first shared/testdata found walking
// up from the working directory. When there is none it returns a path that
// does not exist and says so, so a test reading from it fails naming the fix.
func SharedTestdata() string {
	if d := os.Getenv(SharedTestdataEnv); d != "" {
		return d
	}
	dir, err := os.Getwd()
	for err == nil {
		p := filepath.Join(dir, "shared", "testdata")
		if fi, statErr := os.Stat(p); statErr == nil && fi.IsDir() {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return "shared-testdata-not-found (put the shared test data at ../shared/testdata or set " + SharedTestdataEnv + ")"
}

// SharedTestdataEnv names the variable that points at the shared test data.
const SharedTestdataEnv = "VOTEDESK_SHARED_TESTDATA"

// Template is a database a test package builds once per test run and copies
// into each test: building it registers users, and password hashing is
// deliberately slow.
type Template struct {
	name  string
	build func(path string) error
	once  sync.Once
	path  string
	err   error
}

// NewTemplate returns a template that build fills the first time a test
// asks for a copy.
func NewTemplate(name string, build func(path string) error) *Template {
	return &Template{name: name, build: build}
}

// Copy returns the path of a fresh copy of the template in t.TempDir().
func (tp *Template) Copy(t testing.TB) string {
	t.Helper()
	tp.once.Do(func() {
		dir, err := os.MkdirTemp("", "votedesk-"+tp.name+"-template-")
		if err != nil {
			tp.err = err
			return
		}
		tp.path = filepath.Join(dir, "template.db")
		tp.err = tp.build(tp.path)
	})
	if tp.err != nil {
		t.Fatalf("build the %s template database: %v", tp.name, tp.err)
	}
	path := filepath.Join(t.TempDir(), "votedesk.db")
	CopyFile(t, tp.path, path)
	return path
}

// CopyFile copies a file (mode 0600), failing the test on error.
func CopyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
