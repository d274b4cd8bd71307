package app_test

import (
	"testing"

	"votedesk/app"
)

// TestRebuildGivesSameBytes runs commands of every event type, then derives
// the projection again from the log and compares the two byte for byte.
func TestRebuildGivesSameBytes(t *testing.T) {
	e := newEnv(t)
	yes := true
	desc := "re-described"
	m := "schulze"
	e.must(e.svc.RegisterUser(e.ctx, "owner", "temp", "temp@example.org", "password-temp"))
	e.must(e.svc.SetRole(e.ctx, "owner", "temp", app.RoleAdmin))
	e.must(e.svc.RenameUser(e.ctx, "owner", "temp", "temp2"))
	e.must(e.svc.ChangeEmail(e.ctx, "temp2", "temp2", "temp2@example.org"))
	e.must(e.svc.ChangePassword(e.ctx, "temp2", "temp2", "password-new"))
	e.must(e.svc.RemoveUser(e.ctx, "temp2", "temp2"))
	e.must(e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{Description: &desc, AllowRecast: &yes, Method: &m}))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Draft", "D"))
	e.must(e.svc.RemoveCandidates(e.ctx, "user", "Draft", "D"))
	e.must(e.svc.AddVoters(e.ctx, "user", "Draft", app.VoterEntry{Name: "v9", Email: "v9@example.org"}))
	e.must(e.svc.RemoveVoters(e.ctx, "user", "Draft", "v9"))
	e.must(e.svc.LaunchElection(e.ctx, "user", "Draft"))
	e.must(cast(e, "user", "Draft", "v1", "A", "B"))
	e.must(cast(e, "user", "Draft", "v1", "B"))
	e.must(cast(e, "user", "Secret", "v2", "C"))
	_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, []app.ImportedBallot{{SourceID: "1", Rankings: rank("A")}}, nil)
	e.must(err)
	e.must(e.svc.FinalizeElection(e.ctx, "user", "Open"))
	e.must(e.svc.CreateElection(e.ctx, "user", "Gone", "", false))
	e.must(e.svc.DeleteElection(e.ctx, "user", "Gone"))
	e.must(e.svc.TransferOwnership(e.ctx, "owner", "auditor"))

	live := e.snapshot()
	refused, err := e.store.Rebuild(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if refused != 0 {
		t.Errorf("rebuild refused %d events that were accepted live", refused)
	}
	if rebuilt := e.snapshot(); rebuilt != live {
		t.Errorf("rebuilt projection differs:\n live    %+v\n rebuilt %+v", live, rebuilt)
	}
}

// TestLogIsHashChained checks that every event links to the one before.
func TestLogIsHashChained(t *testing.T) {
	e := newEnv(t)
	e.must(cast(e, "user", "Open", "v1", "A"))
	prev := ""
	var n uint64
	err := e.store.View(e.ctx, func(tx app.Tx) error {
		return tx.Events(1, func(ev *app.Event) (bool, error) {
			n++
			if ev.Seq != n {
				t.Errorf("event %d has sequence %d", n, ev.Seq)
			}
			if ev.PrevHash != prev || ev.Hash != ev.ComputeHash(prev) {
				t.Errorf("event %d breaks the hash chain", ev.Seq)
			}
			prev = ev.Hash
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("empty log")
	}
}
