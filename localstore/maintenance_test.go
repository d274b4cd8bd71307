package localstore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
	"votedesk/localstore"
)

// filled opens a database with an owner, an election and a few ballots.
func filled(t *testing.T) (*localstore.Store, *app.Service) {
	t.Helper()
	st, err := localstore.Open(filepath.Join(t.TempDir(), "votedesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := app.NewService(st, nil, nil)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(svc.RegisterUser(ctx, "", "owner", "owner@example.org", "owner-password"))
	must(svc.CreateElection(ctx, "owner", "E", "", true))
	must(svc.AddCandidates(ctx, "owner", "E", "A", "B", "C"))
	must(svc.AddVoters(ctx, "owner", "E", app.VoterEntry{Name: "v1"}, app.VoterEntry{Name: "v2"}, app.VoterEntry{Name: "v3"}))
	must(svc.LaunchElection(ctx, "owner", "E"))
	for _, v := range []string{"v1", "v2", "v3"} {
		_, err := svc.CastBallot(ctx, "owner", app.Cast{Election: "E", Voter: v, Rankings: []app.Ranking{{Candidate: "B", Rank: 1}}})
		must(err)
	}
	return st, svc
}

func TestVerifyPassesOnAHealthyDatabase(t *testing.T) {
	st, _ := filled(t)
	r, err := st.Verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.Events != 8 || r.HeadHash == "" {
		t.Errorf("report = %+v; want OK with 8 events", r)
	}
}

// tamper closes the store, changes the database file with fn, and returns
// a check of the file.
func tamper(t *testing.T, st *localstore.Store, fn func(tx *bolt.Tx) error) app.VerifyReport {
	t.Helper()
	path := st.Path()
	st.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	db.Close()
	r, err := localstore.CheckFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

func TestVerifyFindsTampering(t *testing.T) {
	t.Run("ErrEventBytesEdited", func(t *testing.T) {
		st, _ := filled(t)
		r := tamper(t, st, func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte("vote_event_log"))
			v := string(b.Get(seqKey(7)))
			return b.Put(seqKey(7), []byte(strings.Replace(v, `"B"`, `"C"`, 1)))
		})
		if r.OK() || r.FirstBadSeq != 7 || !strings.Contains(r.Problems[0], "changed after it was written") {
			t.Errorf("report = %+v; want event 7 found changed", r)
		}
	})
	t.Run("ErrEventRemoved", func(t *testing.T) {
		st, _ := filled(t)
		r := tamper(t, st, func(tx *bolt.Tx) error { return tx.Bucket([]byte("vote_event_log")).Delete(seqKey(4)) })
		if r.FirstBadSeq != 5 || !strings.Contains(r.Problems[0], "jumps") {
			t.Errorf("report = %+v; want a gap found at 5", r)
		}
	})
	t.Run("ErrProjectionEdited", func(t *testing.T) {
		st, _ := filled(t)
		r := tamper(t, st, func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte("vote_data"))
			c := b.Cursor()
			prefix := []byte("ELECTION#E\x00BALLOT#v2")
			k, v := c.Seek(prefix)
			return b.Put(append([]byte(nil), k...), append(append([]byte(nil), v[:len(v)-1]...), 'x'))
		})
		if r.OK() || r.FirstBadSeq != 0 || !strings.Contains(strings.Join(r.Problems, "\n"), "BALLOT#v2") {
			t.Errorf("report = %+v; want the ballot item of v2 found different from the rebuild", r)
		}
	})
}

func TestBackupRestoreCompact(t *testing.T) {
	ctx := context.Background()
	st, svc := filled(t)
	dir := t.TempDir()
	backup := filepath.Join(dir, "backup.db")
	info, err := st.Backup(ctx, backup)
	if err != nil || info.Events != 8 {
		t.Fatalf("backup = %+v, %v", info, err)
	}
	backedUp := int(info.Events)
	var backupHead string
	if err := st.View(ctx, func(tx app.Tx) (err error) { _, backupHead, err = tx.Head(); return err }); err != nil {
		t.Fatal(err)
	}
	e, _ := svc.Election(ctx, "owner", "E")
	allow := true
	if err := svc.UpdateElection(ctx, "owner", "E", e.Version, app.ElectionChanges{AllowEdit: &allow}); err != nil {
		t.Fatal(err)
	}
	path := st.Path()
	t.Run("ErrRestoreWhileOpen", func(t *testing.T) {
		if _, err := localstore.Restore(ctx, path, backup, time.Now(), nil); !strings.Contains(app.ErrorMessage(err), "already open") {
			t.Errorf("restore over an open database: %v", err)
		}
	})
	t.Run("ErrCheckWhileOpen", func(t *testing.T) {
		// verify --file on the database the app has open: it is not
		// "not a VoteDesk database".
		_, err := localstore.CheckFile(ctx, path)
		if app.ErrorCode(err) != app.CodeUnavailable || !strings.Contains(app.ErrorMessage(err), "open in another VoteDesk") || !strings.Contains(app.ErrorMessage(err), path) {
			t.Errorf("checking the database while it is open: %v", err)
		}
	})
	st.Close()
	t.Run("ErrBackupFailsCheck", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.db")
		os.WriteFile(bad, []byte("not a database"), 0o600)
		if _, err := localstore.Restore(ctx, path, bad, time.Now(), nil); err == nil {
			t.Error("restored a file that is not a database")
		}
	})
	t.Run("ErrNotApproved", func(t *testing.T) {
		before, _ := os.ReadFile(path)
		var asked app.VerifyReport
		_, err := localstore.Restore(ctx, path, backup, time.Now(), func(r app.VerifyReport) error {
			asked = r
			return app.Errorf(app.CodeForbidden, "not this one")
		})
		after, _ := os.ReadFile(path)
		kept, _ := filepath.Glob(path + ".before-restore-*")
		if app.ErrorMessage(err) != "not this one" || asked.Events != 8 || !bytes.Equal(before, after) || len(kept) != 0 {
			t.Errorf("a restore refused by approve: %v, asked about %d events, database changed %v, kept %q", err, asked.Events, !bytes.Equal(before, after), kept)
		}
	})
	ri, err := localstore.Restore(ctx, path, backup, time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ri.Kept); err != nil || !strings.HasSuffix(ri.Kept, ".before-restore-20261103T120000Z") {
		t.Errorf("replaced database not kept: %q %v", ri.Kept, err)
	}
	ci, err := localstore.Compact(ctx, path, time.Date(2026, 11, 3, 13, 0, 0, 0, time.UTC))
	if err != nil || ci.After == 0 || ci.Before == 0 {
		t.Errorf("compact %d -> %d: %v", ci.Before, ci.After, err)
	}
	// The file compaction replaced is kept beside it, and checks out.
	if !strings.HasSuffix(ci.Kept, ".before-compact-20261103T130000Z") {
		t.Errorf("compacted file kept as %q", ci.Kept)
	}
	if r, err := localstore.CheckFile(ctx, ci.Kept); err != nil || !r.OK() || r.Events == 0 {
		t.Errorf("the kept file does not check: %+v %v", r, err)
	}
	st2, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	// The restored file is a new file: it is a new device, announced by an
	// event of its own after the backup's.
	var evs []*app.Event
	err = st2.View(ctx, func(tx app.Tx) error {
		return tx.Events(1, func(ev *app.Event) (bool, error) { evs = append(evs, ev); return true, nil })
	})
	if err != nil || len(evs) != int(backedUp)+1 || evs[len(evs)-1].Type != app.EvDeviceJoined {
		t.Errorf("restored log: %d events (%v), want the backup's %d and a device announcement", len(evs), err, backedUp)
	}
	if head := evs[backedUp-1].Hash; head != backupHead {
		t.Errorf("restored log's event %d has hash %s, the backup's %s", backedUp, head, backupHead)
	}
	if r, err := st2.Verify(ctx); err != nil || !r.OK() {
		t.Errorf("restored database does not verify: %+v %v", r, err)
	}
}

// TestControlSocketImpostor: another process listening where the control
// socket should be (the attack of issue 20: it answers "backed up 999999
// events" and writes nothing) is not believed: the file must exist and
// check.
func TestControlSocketImpostor(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "v.db")
	sock := localstore.ControlSocket(db)
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			bufio.NewReader(c).ReadBytes('\n')
			fmt.Fprintf(c, `{"ok":true,"path":%q,"events":999999,"size":1}`+"\n", filepath.Join(filepath.Dir(db), "dest.db"))
			c.Close()
		}
	}()
	_, err = localstore.RequestBackup(ctx, db, filepath.Join(filepath.Dir(db), "dest.db"), "olga", "pw")
	if err == nil || !strings.Contains(app.ErrorMessage(err), "does not check") {
		t.Errorf("an impostor's reply was believed: %v", err)
	}
}

func TestBackupThroughControlSocket(t *testing.T) {
	ctx := context.Background()
	st, _ := filled(t)
	stop, err := st.ServeControl(func(user, password string) error {
		if user != "aud" || password != "right" {
			return app.Errorf(app.CodeForbidden, "%s may not back up the database", user)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	dest := filepath.Join(t.TempDir(), "via-socket.db")
	if _, err := localstore.RequestBackup(ctx, st.Path(), dest, "obs", "right"); err == nil || !strings.Contains(app.ErrorMessage(err), "obs may not back up") {
		t.Errorf("a backup for a user the gate refuses: %v", err)
	}
	if _, err := os.Stat(dest); err == nil {
		t.Error("a refused backup wrote its file")
	}
	info, err := localstore.RequestBackup(ctx, st.Path(), dest, "aud", "right")
	if err != nil || info.Events != 8 {
		t.Fatalf("backup through socket = %+v, %v", info, err)
	}
	if r, err := localstore.CheckFile(ctx, dest); err != nil || !r.OK() {
		t.Errorf("backup does not verify: %+v %v", r, err)
	}
}
