package app_test

import (
	"testing"

	"votedesk/app"
)

// TestCheckVoters checks that a poll-book dry run answers as AddVoters
// would, and writes nothing.
func TestCheckVoters(t *testing.T) {
	e := newEnv(t)
	before := e.snapshot()
	for _, tc := range []struct {
		name, actor, election string
		voters                []app.VoterEntry
		code                  app.Code
	}{
		{"Accepted", "user", "Draft", []app.VoterEntry{{Name: "v8"}, {Name: "v9", Email: "v9@example.org"}}, ""},
		{"ErrAlreadyListed", "user", "Draft", []app.VoterEntry{{Name: "v8"}, {Name: "v1"}}, app.CodeConflict},
		{"ErrForbidden", "observer", "Draft", []app.VoterEntry{{Name: "v8"}}, app.CodeForbidden},
		{"ErrLocked", "user", "Open", []app.VoterEntry{{Name: "v8"}}, app.CodeConflict},
		{"ErrBadEmail", "user", "Draft", []app.VoterEntry{{Name: "v8", Email: "nope"}}, app.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := e.svc.CheckVoters(e.ctx, tc.actor, tc.election, tc.voters...)
			if tc.code == "" && err != nil || tc.code != "" && app.ErrorCode(err) != tc.code {
				t.Errorf("CheckVoters = %v, want code %q", err, tc.code)
			}
			if tc.code == "" {
				return
			}
			if err2 := e.svc.AddVoters(e.ctx, tc.actor, tc.election, tc.voters...); app.ErrorMessage(err2) != app.ErrorMessage(err) {
				t.Errorf("AddVoters says %q, CheckVoters %q", app.ErrorMessage(err2), app.ErrorMessage(err))
			}
		})
	}
	if e.snapshot() != before {
		t.Error("CheckVoters changed the database")
	}
}
