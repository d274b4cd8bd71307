package app_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
)

var joinCodeRE = regexp.MustCompile(`^[A-HJ-NP-Z]{3}-[A-HJ-NP-Z]{3}-[0-9]{5}$`)

func TestJoinCode(t *testing.T) {
	created := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	e := app.Election{Name: "Mayor 2026", Created: created}
	code := app.JoinCode(e)
	if !joinCodeRE.MatchString(code) {
		t.Fatalf("JoinCode = %q, want the form ABC-DEF-12345", code)
	}
	t.Run("Deterministic", func(t *testing.T) {
		again := app.Election{Name: "Mayor 2026", Created: created.In(time.FixedZone("x", 3600)), Description: "other settings"}
		if got := app.JoinCode(again); got != code {
			t.Errorf("same election, other settings: %q, want %q", got, code)
		}
	})
	t.Run("DiffersByNameAndCreation", func(t *testing.T) {
		seen := map[string]bool{code: true}
		for _, o := range []app.Election{{Name: "Mayor 2027", Created: created}, {Name: "Mayor 2026", Created: created.Add(time.Millisecond)}} {
			c := app.JoinCode(o)
			if seen[c] {
				t.Errorf("%+v has the join code %s of another election", o, c)
			}
			seen[c] = true
		}
	})
	t.Run("ParseForgives", func(t *testing.T) {
		digits := code[8:]
		loose := strings.ToLower(code[:3]+" "+code[4:7]) + " " + strings.NewReplacer("0", "o", "1", "l").Replace(digits)
		for _, in := range []string{code, strings.ToLower(code), strings.ReplaceAll(code, "-", ""), loose} {
			if got, ok := app.ParseJoinCode(in); !ok || got != code {
				t.Errorf("ParseJoinCode(%q) = %q, %v; want %q", in, got, ok, code)
			}
		}
	})
	t.Run("ParseRefuses", func(t *testing.T) {
		for _, in := range []string{"", "Mayor 2026", "ABC-DEF-1234", "ABC-DEF-123456", "AB1-DEF-12345", "ABC-DEF-1234X", "ABI-DEF-12345", "ÄBC-DEF-12345"} {
			if got, ok := app.ParseJoinCode(in); ok {
				t.Errorf("ParseJoinCode(%q) = %q, want refused", in, got)
			}
		}
	})
}

func TestFindElectionByJoinCode(t *testing.T) {
	e := newEnv(t)
	open, err := e.svc.Election(e.ctx, "observer", "Open")
	e.must(err)
	code := app.JoinCode(open)
	for _, in := range []string{code, strings.ToLower(strings.ReplaceAll(code, "-", " "))} {
		got, err := e.svc.ElectionByJoinCode(e.ctx, "observer", in)
		if err != nil || got.Name != "Open" {
			t.Errorf("ElectionByJoinCode(%q) = %q, %v", in, got.Name, err)
		}
		if got, err := e.svc.FindElection(e.ctx, "observer", in); err != nil || got.Name != "Open" {
			t.Errorf("FindElection(%q) = %q, %v", in, got.Name, err)
		}
	}
	if got, err := e.svc.FindElection(e.ctx, "observer", " Secret "); err != nil || got.Name != "Secret" {
		t.Errorf("FindElection by name = %q, %v", got.Name, err)
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, in := range []string{"ZZZ-ZZZ-00000", "Nope"} {
			if _, err := e.svc.FindElection(e.ctx, "observer", in); !app.IsCode(err, app.CodeNotFound) {
				t.Errorf("FindElection(%q): %v, want not found", in, err)
			}
		}
		if _, err := e.svc.ElectionByJoinCode(e.ctx, "observer", "Open"); !app.IsCode(err, app.CodeInvalid) {
			t.Errorf("ElectionByJoinCode(name): %v, want invalid", err)
		}
	})
}

func TestKioskElection(t *testing.T) {
	e := newEnv(t)
	open, err := e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	got, cands, err := e.svc.KioskElection(e.ctx, "user", app.JoinCode(open))
	if err != nil || got.Name != "Open" || len(cands) != 3 || cands[0].Name != "A" || cands[2].Name != "C" {
		t.Fatalf("KioskElection(join code) = %q, %+v, %v", got.Name, cands, err)
	}
	e.must(e.svc.FinalizeElection(e.ctx, "user", "Secret"))
	for _, tc := range []struct {
		name, actor, election string
		code                  app.Code
	}{
		{"ErrDraft", "user", "Draft", app.CodeConflict},
		{"ErrFinalized", "user", "Secret", app.CodeConflict},
		{"ErrNoSuchElection", "user", "Nope", app.CodeNotFound},
		{"ErrVoterCannotRunKiosk", "voter", "Open", app.CodeForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := e.svc.KioskElection(e.ctx, tc.actor, tc.election)
			if !app.IsCode(err, tc.code) || strings.Contains(app.ErrorMessage(err), "%!") {
				t.Errorf("KioskElection(%s, %s): %v, want %s", tc.actor, tc.election, err, tc.code)
			}
		})
	}
}

func TestCheckInVoter(t *testing.T) {
	e := newEnv(t)
	yes := true
	// "Window": launched, re-casting allowed, voting from start+2h to start+3h;
	// the env clock starts at start+1h.
	before, after := app.FormatTime(start.Add(2*time.Hour)), app.FormatTime(start.Add(3*time.Hour))
	e.must(e.svc.CreateElection(e.ctx, "user", "Window", "", true))
	e.must(e.svc.UpdateElection(e.ctx, "user", "Window", 0, app.ElectionChanges{NoVotingBefore: &before, NoVotingAfter: &after, AllowRecast: &yes}))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Window", "A", "B"))
	if err := e.svc.AddVoters(e.ctx, "user", "Window", app.VoterEntry{Name: "bo"}, app.VoterEntry{Name: "Bo"}); !app.IsCode(err, app.CodeInvalid) {
		t.Errorf("poll book with bo and Bo: %v, want refused (names compare without letter case)", err)
	}
	e.must(e.svc.AddVoters(e.ctx, "user", "Window", app.VoterEntry{Name: "Ann Lee"}, app.VoterEntry{Name: "bo"}))
	e.must(e.svc.LaunchElection(e.ctx, "user", "Window"))
	e.must(cast(e, "user", "Open", "v1", "A")) // "Open" does not allow re-casting

	t.Run("Eligible", func(t *testing.T) {
		got, err := e.svc.CheckInVoter(e.ctx, "user", "Open", "  v2 ")
		if err != nil || got != (app.CheckIn{Voter: "v2"}) {
			t.Errorf("CheckInVoter(v2) = %+v, %v", got, err)
		}
	})
	t.Run("ErrVotingClosed", func(t *testing.T) {
		_, err := e.svc.CheckInVoter(e.ctx, "user", "Window", "Ann Lee")
		if !app.IsCode(err, app.CodeConflict) || !strings.Contains(app.ErrorMessage(err), "it opens at") {
			t.Errorf("before the window: %v", err)
		}
		e.clock.Set(start.Add(4 * time.Hour))
		_, err = e.svc.CheckInVoter(e.ctx, "user", "Window", "Ann Lee")
		if !app.IsCode(err, app.CodeConflict) || !strings.Contains(app.ErrorMessage(err), "it closed at") {
			t.Errorf("after the window: %v", err)
		}
		e.clock.Set(start.Add(2*time.Hour + time.Minute))
	})
	t.Run("CaseInsensitiveWhenUnique", func(t *testing.T) {
		got, err := e.svc.CheckInVoter(e.ctx, "user", "Window", "ann lee")
		if err != nil || got.Voter != "Ann Lee" {
			t.Errorf("CheckInVoter(ann lee) = %+v, %v", got, err)
		}
		if got, err := e.svc.CheckInVoter(e.ctx, "user", "Window", " BO "); err != nil || got.Voter != "bo" {
			t.Errorf("CheckInVoter(BO) = %+v, %v; want bo", got, err)
		}
		if got, err := e.svc.CheckInVoter(e.ctx, "user", "Window", "ann   lee"); err != nil || got.Voter != "Ann Lee" {
			t.Errorf("CheckInVoter(ann   lee) = %+v, %v; want Ann Lee", got, err)
		}
	})
	t.Run("Recast", func(t *testing.T) {
		_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Window", Voter: "Ann Lee", Rankings: rank("A"), Source: app.SourceKiosk})
		e.must(err)
		got, err := e.svc.CheckInVoter(e.ctx, "user", "Window", "Ann Lee")
		if err != nil || !got.Recast {
			t.Errorf("CheckInVoter after voting, re-cast allowed = %+v, %v", got, err)
		}
	})
	for _, tc := range []struct {
		name, actor, election, voter string
		code                         app.Code
		says                         string
	}{
		{"ErrNotInPollBook", "user", "Open", "Zed", app.CodeNotFound, "not in the poll book"},
		{"ErrAlreadyVoted", "user", "Open", "v1", app.CodeConflict, "already voted"},
		{"ErrEmptyName", "user", "Open", "  ", app.CodeInvalid, "name"},
		{"ErrNotLaunched", "user", "Draft", "v1", app.CodeConflict, "not launched"},
		{"ErrVoterCannotCheckIn", "voter", "Open", "v2", app.CodeForbidden, "USE_APPLICATION"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.CheckInVoter(e.ctx, tc.actor, tc.election, tc.voter)
			if !app.IsCode(err, tc.code) || !strings.Contains(app.ErrorMessage(err), tc.says) {
				t.Errorf("CheckInVoter(%s, %q): %v, want %s saying %q", tc.election, tc.voter, err, tc.code, tc.says)
			}
		})
	}
}

func TestPasscodeLock(t *testing.T) {
	hash, err := app.HashSecret("right-passcode")
	if err != nil {
		t.Fatal(err)
	}
	clock := apptest.NewClock(start, time.Millisecond)
	l := app.NewPasscodeLock(hash, clock)
	wrong := func(want app.Code) string {
		t.Helper()
		err := l.Unlock("wrong-passcode")
		if !app.IsCode(err, want) {
			t.Fatalf("wrong passcode: %v, want %s", err, want)
		}
		return app.ErrorMessage(err)
	}
	// An empty passcode is no try, however often.
	for range 2 * app.PasscodeFreeTries {
		if err := l.Unlock(""); !app.IsCode(err, app.CodeInvalid) || l.LockedFor() > 0 {
			t.Fatalf("an empty passcode: %v, locked for %v", err, l.LockedFor())
		}
	}
	if msg := wrong(app.CodeForbidden); !strings.Contains(msg, "2 more tries") {
		t.Errorf("first wrong try says %q", msg)
	}
	wrong(app.CodeForbidden)
	if msg := wrong(app.CodeUnavailable); !strings.Contains(msg, "30 s") {
		t.Errorf("third wrong try says %q", msg)
	}
	t.Run("LockedRefusesEvenTheRightPasscode", func(t *testing.T) {
		if err := l.Unlock("right-passcode"); !app.IsCode(err, app.CodeUnavailable) {
			t.Errorf("right passcode while locked: %v", err)
		}
	})
	t.Run("LockoutGrows", func(t *testing.T) {
		clock.Set(clock.Now().Add(30 * time.Second))
		if msg := wrong(app.CodeUnavailable); !strings.Contains(msg, "1 min") {
			t.Errorf("fourth wrong try says %q", msg)
		}
		if d := l.LockedFor(); d < 59*time.Second || d > time.Minute {
			t.Errorf("LockedFor = %v, want about 1 min", d)
		}
		clock.Set(clock.Now().Add(time.Minute))
		if msg := wrong(app.CodeUnavailable); !strings.Contains(msg, "2 min") {
			t.Errorf("fifth wrong try says %q", msg)
		}
	})
	t.Run("RightPasscodeResets", func(t *testing.T) {
		clock.Set(clock.Now().Add(2 * time.Minute))
		if err := l.Unlock("right-passcode"); err != nil {
			t.Fatalf("right passcode after the lock: %v", err)
		}
		if msg := wrong(app.CodeForbidden); !strings.Contains(msg, "2 more tries") {
			t.Errorf("after a success, a wrong try says %q", msg)
		}
	})
}

func TestCheckPasscode(t *testing.T) {
	for in, ok := range map[string]bool{"": false, "12345": false, "123456": true, "schlüssel": true, strings.Repeat("x", 1025): false} {
		if err := app.CheckPasscode(in); (err == nil) != ok {
			t.Errorf("CheckPasscode(%.10q): %v", in, err)
		}
	}
}

func TestWaitText(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Millisecond: "1 s", 30 * time.Second: "30 s", 90 * time.Second: "1 min 30 s", 15 * time.Minute: "15 min"} {
		if got := app.WaitText(d); got != want {
			t.Errorf("WaitText(%v) = %q, want %q", d, got, want)
		}
	}
}
