package localstore_test

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
)

// TestDamagedFilesAreReported cuts a real database short at many lengths
// and changes bytes all over it; opening, verifying, checking and
// restoring each damaged copy either works or is refused with a message
// naming the file, and never kills the process (a fault or a panic here
// would end the test binary).
func TestDamagedFilesAreReported(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	st, err := localstore.Open(good)
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(st, apptest.NewClock(time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC), time.Millisecond), nil)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(svc.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password"))
	must(svc.CreateElection(ctx, "olga", "E", "", false))
	must(svc.AddCandidates(ctx, "olga", "E", "A", "B"))
	var voters []app.VoterEntry
	for i := range 300 {
		voters = append(voters, app.VoterEntry{Name: "voter-" + strings.Repeat("x", i%40) + string(rune('a'+i%26)) + string(rune('a'+i/26))})
	}
	must(svc.AddVoters(ctx, "olga", "E", voters...))
	backup := filepath.Join(dir, "backup.db")
	_, err = st.Backup(ctx, backup)
	must(err)
	st.Close()
	raw, err := os.ReadFile(backup)
	must(err)

	try := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, name)
		must(os.WriteFile(p, data, 0o600))
		report := func(op string, err error) {
			if err != nil && !strings.Contains(app.ErrorMessage(err), p) {
				t.Errorf("%s of %s: %q does not name the file", op, name, app.ErrorMessage(err))
			}
		}
		r, err := localstore.CheckFile(ctx, p)
		report("check", err)
		_ = r
		target := filepath.Join(dir, "restored-"+name)
		_, err = localstore.Restore(ctx, target, p, time.Now(), nil)
		if err == nil && len(data) < len(raw) {
			t.Errorf("a copy of %s cut to %d of %d bytes was restored", name, len(data), len(raw))
		}
		os.Remove(target)
		if s, err := localstore.Open(p); err == nil {
			_, verr := s.Verify(ctx)
			report("verify", verr)
			s.Close()
		} else {
			report("open", err)
		}
	}
	ps := int(binary.LittleEndian.Uint32(raw[16+8:])) // the file's page size, from its header
	for _, n := range []int{100, 4096, 4096 + 100, ps, ps + 100, 2 * ps, len(raw) / 2, len(raw) - ps, len(raw) - 1} {
		try("cut.db", raw[:n])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		data := append([]byte(nil), raw...)
		for range 1 + i%8 {
			p := 2*ps + rng.IntN(len(data)-2*ps)
			data[p] ^= byte(1 + rng.IntN(255))
		}
		// Some runs hit page headers: their type and count.
		if i%2 == 0 {
			pg := 2 + rng.IntN(len(data)/ps-2)
			data[pg*ps+8] ^= 0xff
			data[pg*ps+10] ^= byte(rng.IntN(256))
		}
		try("flipped.db", data)
	}
	// The list of free pages, which bbolt reads as it opens a file for
	// writing, after it has locked it: a bbolt panic there left the file
	// locked for as long as the process ran, so the open after it (the
	// GUI opening the database again, a restore over it) was told that
	// another VoteDesk had it open.
	freelist := int(binary.LittleEndian.Uint64(raw[16+32:]))
	for _, change := range []struct {
		name string
		set  map[int]byte // offset in the page -> byte
	}{
		{"type", map[int]byte{8: raw[freelist*ps+8] ^ 0xff}},
		{"count", map[int]byte{11: raw[freelist*ps+11] ^ 0x7f}},
		{"length", map[int]byte{13: raw[freelist*ps+13] ^ 0x10}},
		// A count of 0xFFFF says the first element holds it: here one
		// bbolt reads as a negative int.
		{"countoverflow", map[int]byte{10: 0xff, 11: 0xff, 16: 0xff, 17: 0xff, 18: 0xff, 19: 0xff, 20: 0xff, 21: 0xff, 22: 0xff, 23: 0xff}},
	} {
		t.Run("Freelist"+change.name, func(t *testing.T) {
			p := filepath.Join(dir, "freelist.db")
			data := append([]byte(nil), raw...)
			for at, b := range change.set {
				data[freelist*ps+at] = b
			}
			must(os.WriteFile(p, data, 0o600))
			if _, err := localstore.Open(p); err == nil || !strings.Contains(app.ErrorMessage(err), p) {
				t.Fatalf("a file whose freelist page's %s changed opened: %v", change.name, err)
			}
			must(os.WriteFile(p, raw, 0o600))
			s, err := localstore.Open(p)
			if err != nil {
				t.Fatalf("the file made whole again does not open: %v", err)
			}
			s.Close()
		})
	}
}

// TestBackupNeverReplacesTheDatabase: a backup named at the database
// itself (its path, a relative path, a hard link), a folder, a link,
// another kind of file or an older backup is refused: a backup is always a
// new file.
func TestBackupNeverReplacesTheDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "v.db")
	st, err := localstore.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	os.Link(db, filepath.Join(dir, "hard.db"))
	os.Symlink(db, filepath.Join(dir, "link.db"))
	os.WriteFile(filepath.Join(dir, "report.pdf"), []byte("%PDF"), 0o600)
	os.Mkdir(filepath.Join(dir, "folder"), 0o700)
	t.Chdir(dir)
	for _, p := range []string{db, "v.db", "./folder/../v.db", "hard.db", "link.db", "report.pdf", "folder"} {
		if _, err := st.Backup(ctx, p); err == nil || !strings.Contains(app.ErrorMessage(err), p) {
			t.Errorf("backup to %s: %v", p, err)
		}
	}
	if b, _ := os.ReadFile("report.pdf"); string(b) != "%PDF" {
		t.Error("the other file changed")
	}
	if _, err := st.Backup(ctx, "backup.db"); err != nil {
		t.Errorf("backup: %v", err)
	}
	before, _ := os.ReadFile("backup.db")
	if _, err := st.Backup(ctx, "backup.db"); err == nil || !strings.Contains(app.ErrorMessage(err), "never replaces") {
		t.Errorf("a backup over an older one: %v", err)
	}
	if after, _ := os.ReadFile("backup.db"); string(after) != string(before) {
		t.Error("the older backup changed")
	}
}
