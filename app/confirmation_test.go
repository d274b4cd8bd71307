package app_test

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"votedesk/app"
)

// codeRE is a confirmation code: three groups of four characters of
// Crockford's base 32 (no I, L, O or U).
var codeRE = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)

// listIDs hands out the ids it holds, then repeats the last.
type listIDs struct {
	mu  sync.Mutex
	ids []string
}

func (l *listIDs) NewID() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := l.ids[0]
	if len(l.ids) > 1 {
		l.ids = l.ids[1:]
	}
	return id
}

// TestConfirmationCodes: receipts carry a short code a voter can copy, read
// back however it is typed; codes of 2,000 ballots are all different and
// not in casting order.
func TestConfirmationCodes(t *testing.T) {
	e := newEnv(t)
	seen := map[string]bool{}
	var codes []string
	for i := range 2000 {
		r, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Open", Rankings: rank("C", "A"), Source: app.SourcePaper, Transcribed: true})
		e.must(err)
		if !codeRE.MatchString(r.Confirmation) {
			t.Fatalf("ballot %d: code %q", i, r.Confirmation)
		}
		if seen[r.Confirmation] {
			t.Fatalf("code %s handed out twice", r.Confirmation)
		}
		seen[r.Confirmation] = true
		codes = append(codes, r.Confirmation)
	}
	ascending := 0
	for i := 1; i < len(codes); i++ {
		if codes[i] > codes[i-1] {
			ascending++
		}
	}
	if ascending < 900 || ascending > 1100 {
		t.Errorf("%d of %d codes follow the one before in order: codes follow casting order", ascending, len(codes)-1)
	}
	code := codes[0]
	typed := strings.ToLower(strings.ReplaceAll(code, "-", " "))
	typed = strings.NewReplacer("0", "o", "1", "l").Replace(typed)
	if got, ok := app.ParseConfirmation(typed); !ok || got != code {
		t.Errorf("ParseConfirmation(%q) = %q, %v; want %s", typed, got, ok, code)
	}
	for _, bad := range []string{"", "K3QZ-8WPM-T2V", "K3QZ-8WPM-T2VDX", "K3QZ-8WPM-T2VU", "K3QZ-8WPM-T2V!", "ÄÄÄÄ-8WPM-T2VD"} {
		if got, ok := app.ParseConfirmation(bad); ok {
			t.Errorf("ParseConfirmation(%q) = %q, want no code", bad, got)
		}
	}
	old := "0F8FAD5B-D9CB-469F-A165-70867728950E"
	if got, ok := app.ParseConfirmation(old); !ok || got != strings.ToLower(old) {
		t.Errorf("an older ballot's UUID reads as %q, %v", got, ok)
	}
}

// TestConfirmationDrawnAgain: a code the election already holds for an
// unlisted ballot is never handed out twice: it is drawn again, and a
// source that keeps giving it is refused, recording nothing.
func TestConfirmationDrawnAgain(t *testing.T) {
	e := newEnv(t)
	ids := &listIDs{ids: []string{"x", "x", "y", "x"}}
	svc := app.NewService(e.store, e.clock, ids)
	paper := app.Cast{Election: "Open", Rankings: rank("C", "A"), Source: app.SourcePaper, Transcribed: true}
	first, err := svc.CastBallot(e.ctx, "user", paper)
	e.must(err)
	second, err := svc.CastBallot(e.ctx, "user", paper)
	e.must(err)
	if first.Confirmation == second.Confirmation {
		t.Fatalf("two ballots share the code %s", first.Confirmation)
	}
	before := e.snapshot()
	if _, err := svc.CastBallot(e.ctx, "user", paper); app.ErrorCode(err) != app.CodeInternal {
		t.Fatalf("a source that repeats a taken code: %v", err)
	}
	if e.snapshot() != before {
		t.Error("a refused cast changed the store")
	}
}
