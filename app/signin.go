package app

import (
	"sync"
	"time"
)

// AttemptLog remembers failed sign-ins, per login, so the service can slow
// password guessing down. localstore keeps it in the database file (on this
// device only); MemoryAttempts keeps it for the life of the process.
type AttemptLog interface {
	Failures(login string) (n int, last time.Time, err error)
	RecordFailure(login string, when time.Time) error
	ClearFailures(login string) error
}

// Sign-in throttling: after FreeAttempts failures in a row, each further try
// must wait twice as long as the one before (1 s, 2 s, 4 s, ...), up to
// MaxLockout. A success clears the count.
const (
	FreeAttempts = 5
	MaxLockout   = 5 * time.Minute
)

// lockout is how long after the last failure the next try must wait.
func lockout(failures int) time.Duration {
	if failures < FreeAttempts {
		return 0
	}
	d := time.Second << min(failures-FreeAttempts, 20)
	return min(d, MaxLockout)
}

// Option configures a Service.
type Option func(*Service)

// WithAttemptLog keeps failed sign-ins in al.
func WithAttemptLog(al AttemptLog) Option { return func(s *Service) { s.attempts = al } }

// WithKeyring keeps the signing keys of users who sign in in k instead of
// DefaultKeyring.
func WithKeyring(k *Keyring) Option { return func(s *Service) { s.keys = k } }

// attemptKey is what a failure is counted against: the account when the
// login names one (so a name and an email share one count), else the login
// as the domain compares names.
func attemptKey(u User, found bool, login string) string {
	if found {
		return "account:" + u.ID
	}
	return "login:" + NameKey(login)
}

// MemoryAttempts is an AttemptLog in memory.
type MemoryAttempts struct {
	mu sync.Mutex
	m  map[string]memoryAttempt
}

type memoryAttempt struct {
	n    int
	last time.Time
}

// Failures returns the failures recorded for login.
func (m *MemoryAttempts) Failures(login string) (int, time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.m[login]
	return a.n, a.last, nil
}

// RecordFailure counts one more failure.
func (m *MemoryAttempts) RecordFailure(login string, when time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]memoryAttempt{}
	}
	a := m.m[login]
	m.m[login] = memoryAttempt{n: a.n + 1, last: when}
	return nil
}

// ClearFailures forgets the failures of login.
func (m *MemoryAttempts) ClearFailures(login string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, login)
	return nil
}
