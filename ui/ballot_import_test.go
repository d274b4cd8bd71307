package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/app/apptest"
)

// TestImportBallotsFromElection imports Burlington 2009's ballots (BLT)
// through the overview's Import ballots, and refuses a file naming someone
// who is not a candidate, importing nothing.
func TestImportBallotsFromElection(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor 2009", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Mayor 2009", "Andy Montroll", "Bob Kiss", "Dan Smith", "James Simpson", "Kurt Wright", "Write-in"))
	h.signIn("Olivia")
	h.sh.OpenElection("Mayor 2009", tabOverview)
	h.wait()
	es := h.sh.Election
	if es.ImportBallots.Disabled() {
		t.Fatal("Import ballots is disabled for the owner of a draft with candidates")
	}
	blt := filepath.Join(apptest.SharedTestdata(), "real", "burlington_2009_mayor", "2009-Burlington-Mayor.blt")
	es.Import.Read(blt)
	h.wait()
	im := es.Import.Preview
	if im == nil || im.Ballots < 8980 {
		t.Fatalf("preview %+v; dialog %q", im, h.dialogText())
	}
	h.assertDialog("Import 8,98", "ballots into \"Mayor 2009\"", "2009-Burlington-Mayor.blt (blt)")
	h.closeDialogs()
	es.Import.Record()
	h.wait()
	e, err := h.svc.Election(h.ctx, "Olivia", "Mayor 2009")
	h.must(err)
	if !es.Import.Imported || e.Ballots != int64(im.Ballots) {
		t.Errorf("after the import: %d ballots stored, %d previewed", e.Ballots, im.Ballots)
	}
	h.closeDialogs()

	t.Run("ErrUnknownCandidate", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.csv")
		h.must(os.WriteFile(bad, []byte("ballot_id,rank_1,rank_2\nb1,Bob Kiss,Nobody Known\n"), 0o600))
		before, _ := h.svc.Election(h.ctx, "Olivia", "Mayor 2009")
		es.Import.Read(bad)
		h.wait()
		if !strings.Contains(h.dialogText(), "Nobody Known") || !strings.Contains(h.dialogText(), "Nothing was imported") {
			t.Errorf("refusal dialog %q", h.dialogText())
		}
		after, _ := h.svc.Election(h.ctx, "Olivia", "Mayor 2009")
		if after.Ballots != before.Ballots {
			t.Error("a refused file changed the ballots")
		}
	})
}
