package app

import (
	"fmt"
	"sync"
	"time"
	"unicode/utf8"
)

// Kiosk passcodes: an officer sets one when starting a kiosk; leaving the
// kiosk or reaching any screen but the voter's needs it. It is kept only as
// an argon2id hash (HashSecret), in memory. After PasscodeFreeTries wrong
// tries in a row the kiosk locks for PasscodeFirstLockout, and each further
// wrong try (once the lock is over) locks for twice as long as the one
// before, up to PasscodeMaxLockout. While locked, nothing is checked.
const (
	MinPasscodeLength    = 6
	PasscodeFreeTries    = 3
	PasscodeFirstLockout = 30 * time.Second
	PasscodeMaxLockout   = 15 * time.Minute
)

// CheckPasscode reports whether a new kiosk passcode is acceptable.
func CheckPasscode(p string) error {
	if utf8.RuneCountInString(p) < MinPasscodeLength {
		return Errorf(CodeInvalid, "the kiosk passcode must have at least %d characters", MinPasscodeLength)
	}
	if len(p) > 1024 {
		return Errorf(CodeInvalid, "the kiosk passcode is longer than 1024 bytes")
	}
	return nil
}

// PasscodeLock checks kiosk passcodes against a hash and slows guessing down.
// It is safe for use from several goroutines; tries are checked one at a
// time.
type PasscodeLock struct {
	mu          sync.Mutex
	hash        string
	clock       Clock
	failures    int
	lockedUntil time.Time
}

// NewPasscodeLock makes a lock for the passcode hashed as hash (by
// HashSecret). A nil clock means the system clock.
func NewPasscodeLock(hash string, clock Clock) *PasscodeLock {
	if clock == nil {
		clock = SystemClock
	}
	return &PasscodeLock{hash: hash, clock: clock}
}

// Unlock checks a passcode. It returns nil when it is right (and forgets
// earlier wrong tries), a CodeForbidden error when it is wrong, and a
// CodeUnavailable error, without checking, while the lock is closed after too
// many wrong tries. An empty passcode (Enter on an empty field) is no try:
// a CodeInvalid error that costs nothing. Checking takes about 0.1 s
// (argon2id).
func (l *PasscodeLock) Unlock(passcode string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	if wait := l.lockedUntil.Sub(now); wait > 0 {
		return Errorf(CodeUnavailable, "Too many wrong passcodes. Try again in %s.", WaitText(wait))
	}
	if passcode == "" {
		return Errorf(CodeInvalid, "Type the officer passcode, then press Enter.")
	}
	if VerifySecret(l.hash, passcode) {
		l.failures, l.lockedUntil = 0, time.Time{}
		return nil
	}
	l.failures++
	if l.failures < PasscodeFreeTries {
		left := PasscodeFreeTries - l.failures
		return Errorf(CodeForbidden, "Wrong passcode. %d more %s before the kiosk locks for %s.", left, plural(left, "try", "tries"), WaitText(PasscodeFirstLockout))
	}
	d := PasscodeFirstLockout << min(l.failures-PasscodeFreeTries, 20)
	d = min(d, PasscodeMaxLockout)
	l.lockedUntil = now.Add(d)
	return Errorf(CodeUnavailable, "Wrong passcode. Too many wrong tries: try again in %s.", WaitText(d))
}

// LockedFor returns how long the lock stays closed (0 when it is open).
func (l *PasscodeLock) LockedFor() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return max(l.lockedUntil.Sub(l.clock.Now()), 0)
}

// WaitText writes a wait in words, rounded up to the second: "30 s",
// "2 min", "1 min 30 s".
func WaitText(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
