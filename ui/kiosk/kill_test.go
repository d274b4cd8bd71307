package kiosk

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"votedesk/app"
	"votedesk/localstore"
)

// killHelperEnv names the database a helper process votes on; set only for
// the child of TestCastSurvivesKill.
const killHelperEnv = "VOTEDESK_KIOSK_KILL_DB"

// TestCastSurvivesKill starts this test binary as a kiosk process on a real
// bbolt file (TestKioskKillHelper), reads the confirmation codes it prints
// as each receipt appears on its screen, kills it with SIGKILL right after
// the n-th, reopens the file and finds every confirmed ballot.
func TestCastSurvivesKill(t *testing.T) {
	for run := range 6 {
		t.Run(fmt.Sprintf("Run%d", run), func(t *testing.T) {
			f := newFixture(t)
			path := f.path
			f.store.Close()
			killAfter := 1 + rand.IntN(5)

			cmd := exec.Command(os.Args[0], "-test.run=^TestKioskKillHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), killHelperEnv+"="+path)
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			confirmed := map[string]string{} // code -> voter
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				voter, code, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "CONFIRMED "), " ")
				if !ok || !strings.HasPrefix(sc.Text(), "CONFIRMED ") {
					continue
				}
				confirmed[code] = voter
				if len(confirmed) == killAfter {
					cmd.Process.Kill()
					break
				}
			}
			cmd.Wait()
			if len(confirmed) != killAfter {
				t.Fatalf("the helper confirmed %d ballots before it ended, want %d", len(confirmed), killAfter)
			}

			st, err := localstore.Open(path)
			if err != nil {
				t.Fatalf("reopen after SIGKILL: %v", err)
			}
			defer st.Close()
			ballots, err := app.NewService(st, nil, nil).Ballots(f.ctx, official, "Mayor")
			if err != nil {
				t.Fatal(err)
			}
			stored := map[string]app.Ballot{}
			for _, b := range ballots {
				stored[b.Confirmation] = b
			}
			for code, voter := range confirmed {
				if b, ok := stored[code]; !ok || b.Voter != voter || !sameRanking(b.Rankings, "Wright", "Kiss") {
					t.Errorf("ballot %s of %s, confirmed on screen, is not stored as cast (%+v)", code, voter, b)
				}
			}
			if r, err := st.Verify(f.ctx); err != nil || !r.OK() {
				t.Errorf("verify after SIGKILL: %v %v", r.Problems, err)
			}
			t.Logf("killed after %d confirmed ballots; %d stored", killAfter, len(ballots))
		})
	}
}

// TestKioskKillHelper is the kiosk process of TestCastSurvivesKill: it
// votes for v0000, v0001, ... through the kiosk's screens and prints each
// confirmation code as soon as the receipt shows it.
func TestKioskKillHelper(t *testing.T) {
	path := os.Getenv(killHelperEnv)
	if path == "" {
		t.Skip("the kiosk process of TestCastSurvivesKill")
	}
	hash, err := app.HashSecret(passcode)
	if err != nil {
		t.Fatal(err)
	}
	passcodeHash = hash
	f := openFixture(t, path)
	// A kiosk runs for an official signed in on it: their key signs its
	// ballots. This process is new, so the official signs in here.
	if _, err := f.svc.SignIn(f.ctx, official, officialP); err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, f, "Mayor")
	for i := range 20 {
		voter := fmt.Sprintf("v%04d", i)
		code := h.vote(voter, "21")
		fmt.Printf("CONFIRMED %s %s\n", voter, code)
		h.key(fyne.KeyReturn)
	}
}
