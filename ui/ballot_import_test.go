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
	h, es := draftToImport(t, "Mayor 2009", "Andy Montroll", "Bob Kiss", "Dan Smith", "James Simpson", "Kurt Wright", "Write-in")
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
	h.assertDialog("Import 8,98", "ballots into \"Mayor 2009\"", "2009-Burlington-Mayor.blt (BLT)")
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
		// A name that is no candidate is asked about; left unmatched, the
		// file is refused naming it, and nothing is imported.
		bad := filepath.Join(t.TempDir(), "bad.csv")
		h.must(os.WriteFile(bad, []byte("ballot_id,rank_1,rank_2\nb1,Bob Kiss,Nobody Known\n"), 0o600))
		before, _ := h.svc.Election(h.ctx, "Olivia", "Mayor 2009")
		es.Import.Read(bad)
		h.wait()
		if m := es.Import.Matching; m == nil || len(m.Names) != 1 || m.Names[0] != "Nobody Known" {
			t.Fatalf("matching %+v; dialog %q", m, h.dialogText())
		}
		h.assertDialog("bad.csv has 1 name that is not a candidate of \"Mayor 2009\"")
		es.Import.Matching.Submit()
		h.wait()
		if !strings.Contains(h.dialogText(), "Nobody Known") {
			t.Errorf("asked again: dialog %q", h.dialogText())
		}
		h.closeDialogs()
		after, _ := h.svc.Election(h.ctx, "Olivia", "Mayor 2009")
		if after.Ballots != before.Ballots || es.Import.Preview != nil {
			t.Error("a refused file changed the ballots")
		}
	})
}

// TestImportExportFolder imports a Dominion export folder of San Francisco's
// 2020 election through Import export folder: the official picks the
// contest among the folder's, sees what will be imported, and the ballots
// are stored as RCTab reads them (25 for District 3, 8 of them blank).
func TestImportExportFolder(t *testing.T) {
	h, es := draftToImport(t, "D3", "Aaron Peskin", "Danny Sauter", "Spencer Simonsen", "Stephen (Lulu) Schwartz", "Write-in")
	if es.ImportFolder.Disabled() {
		t.Fatal("Import export folder is disabled for the owner of a draft with candidates")
	}
	dir := filepath.Join(apptest.SharedTestdata(), "rctab-more", "dominion_multi_file", "dominion_multi_file_input_data")
	es.Import.ReadFolder(dir)
	h.wait()
	if c := h.win.Canvas().Focused(); es.Import.ContestChoice != nil && c != es.Import.ContestChoice {
		t.Errorf("Which contest?: focus on %T, want the list of contests", c)
	}
	if es.Import.ContestChoice == nil || !strings.Contains(h.dialogText(), "holds 42 contests") {
		t.Fatalf("no contest choice; dialog %q", h.dialogText())
	}
	es.Import.ContestChoice.SetSelected("BOARD OF SUPERVISORS DISTRICT 3 (contest 13)")
	h.wait()
	im := es.Import.Preview
	if im == nil || im.Ballots != 25 || im.Files[0].Undervotes != 8 {
		t.Fatalf("preview %+v; dialog %q", im, h.dialogText())
	}
	h.assertDialog("Import 25 ballots into \"D3\"", "(Dominion, contest 13)", "without this contest skipped", `"AARON PESKIN" counts for Aaron Peskin`)
	h.closeDialogs()
	es.Import.Record()
	h.wait()
	if e, err := h.svc.Election(h.ctx, "Olivia", "D3"); err != nil || e.Ballots != 25 {
		t.Errorf("after the import: %+v, %v", e.Ballots, err)
	}
	h.closeDialogs()

	t.Run("ErrNotAnExportFolder", func(t *testing.T) {
		es.Import.ReadFolder(t.TempDir())
		h.wait()
		if !strings.Contains(h.dialogText(), "neither a Dominion CVR export") || !strings.Contains(h.dialogText(), "Nothing was imported") {
			t.Errorf("dialog %q", h.dialogText())
		}
		h.closeDialogs()
	})
}

// TestImportSheetOfSeveralContests imports one contest of a sheet that
// holds several, as New York City publishes its primaries: the official
// picks the contest among those the headers name, and only its ranking
// columns are imported.
func TestImportSheetOfSeveralContests(t *testing.T) {
	h, es := draftToImport(t, "Comptroller", "Brad Lander", "Corey Johnson")
	header := "Cast Vote Record,Precinct,DEM Mayor Choice 1 of 2 Citywide (026916),DEM Mayor Choice 2 of 2 Citywide (226916)," +
		"DEM Comptroller Choice 1 of 2 Citywide (026917),DEM Comptroller Choice 2 of 2 Citywide (226917)"
	sheet := filepath.Join(t.TempDir(), "nyc.csv")
	h.must(os.WriteFile(sheet, []byte(header+"\nc1,MN 1,Eric Adams,undervote,Brad Lander,Corey Johnson\nc2,MN 2,Maya Wiley,Eric Adams,Corey Johnson,undervote\n"), 0o600))
	es.Import.Read(sheet)
	h.wait()
	if es.Import.ContestChoice == nil || !strings.Contains(h.dialogText(), "holds 2 contests") {
		t.Fatalf("no contest choice; dialog %q", h.dialogText())
	}
	es.Import.ContestChoice.SetSelected("DEM Comptroller Citywide")
	h.wait()
	im := es.Import.Preview
	if im == nil || im.Ballots != 2 {
		t.Fatalf("preview %+v; dialog %q", im, h.dialogText())
	}
	h.assertDialog("Import 2 ballots into \"Comptroller\"", "nyc.csv (ES&S, contest DEM Comptroller Citywide)")
	h.closeDialogs()
	es.Import.Record()
	h.wait()
	ballots, err := h.svc.Ballots(h.ctx, "Olivia", "Comptroller")
	h.must(err)
	if len(ballots) != 2 || ballots[0].Rankings[0].Candidate != "Brad Lander" || ballots[0].Precinct != "MN 1" {
		t.Errorf("stored %+v", ballots)
	}
	h.closeDialogs()
}

// TestImportBallotImage imports Alameda County's ballot image of Oakland's
// 2018 School Director District 6 contest, chosen as its folder through
// Import export folder (the master lookup beside it names the
// candidates), and refuses the same file twice.
func TestImportBallotImage(t *testing.T) {
	h, es := draftToImport(t, "School 6", "Shanthi Gonzales", "Anthony Wilson", "Undeclared Write-ins")
	dir := filepath.Join("..", "tally", "cvr", "testdata", "real", "oakland-2018-school-director-6")
	es.Import.ReadFolder(dir)
	h.wait()
	im := es.Import.Preview
	if im == nil || im.Ballots != 40 {
		t.Fatalf("preview %+v; dialog %q", im, h.dialogText())
	}
	h.assertDialog("Import 40 ballots into \"School 6\"", "(WinEDS ballot image, contest 107)", `"SHANTHI GONZALES" counts for Shanthi Gonzales`)
	h.closeDialogs()
	es.Import.Record()
	h.wait()
	if e, err := h.svc.Election(h.ctx, "Olivia", "School 6"); err != nil || e.Ballots != 40 {
		t.Errorf("after the import: %+v, %v", e.Ballots, err)
	}
	h.closeDialogs()
	es.Import.Read(filepath.Join(dir, "ballot_image.txt"))
	h.wait()
	if es.Import.Preview == nil {
		t.Fatalf("the ballot image file itself: dialog %q", h.dialogText())
	}
	h.closeDialogs()
	es.Import.Record()
	h.wait()
	if !strings.Contains(h.dialogText(), "already imported") {
		t.Errorf("the same ballots again: dialog %q", h.dialogText())
	}
	h.closeDialogs()
}

// TestImportMatchingNames imports Minneapolis 2009 Ward 1 as the city
// published it: 48 write-ins by the names voters wrote and "XXX" for a rank
// left blank are no candidates, so the official is asked what each stands
// for (focus on the choice for every name), says "XXX" is a blank rank and every
// other name the election's write-in, and the file is read again and
// imported.
func TestImportMatchingNames(t *testing.T) {
	h, es := draftToImport(t, "Ward 1", "ALE", "FOX", "HAN", "RAN", "REI", "Write-in")
	es.Import.Read(filepath.Join("..", "tally", "cvr", "testdata", "real", "minneapolis-2009-ward-1.csv"))
	h.wait()
	m := es.Import.Matching
	if m == nil || len(m.Names) != 49 || m.Names[1] != "XXX" {
		t.Fatalf("matching %+v; dialog %q", m, h.dialogText())
	}
	h.assertDialog("minneapolis-2009-ward-1.csv has 49 names that are not candidates of \"Ward 1\"", "ART CLARK", "Every name not chosen below")
	if c := h.win.Canvas().Focused(); c != m.Rest {
		t.Errorf("focus on %T, want the choice for every name", c)
	}
	// Tab goes on to each name's choice in turn (it went to Cancel, then
	// Read again, when the list was laid out before the choice for all).
	for i := range 2 {
		h.win.Canvas().FocusNext()
		if c := h.win.Canvas().Focused(); c != m.Choices[i] {
			t.Fatalf("Tab %d: focus on %T, want %s's choice", i+1, c, m.Names[i])
		}
	}
	m.Choices[1].SetSelected("(a rank left blank)")
	m.Rest.SetSelected("Write-in")
	m.Submit()
	h.wait()
	im := es.Import.Preview
	if im == nil || im.Ballots != 4016 {
		t.Fatalf("preview %+v; dialog %q", im, h.dialogText())
	}
	h.assertDialog("Import 4,016 ballots into \"Ward 1\"", `"ART CLARK" counts for Write-in (as matched)`, `"XXX" stands for a rank left blank`)
	h.closeDialogs()
	es.Import.Record()
	h.wait()
	if e, err := h.svc.Election(h.ctx, "Olivia", "Ward 1"); err != nil || e.Ballots != 4016 {
		t.Errorf("after the import: %+v, %v", e.Ballots, err)
	}
	h.closeDialogs()
}

// draftToImport signs Olivia in as owner of a new draft election with
// these candidates, open on its overview, ready to import ballots.
func draftToImport(t *testing.T, election string, candidates ...string) (*harness, *ElectionScreen) {
	t.Helper()
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", election, "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", election, candidates...))
	h.signIn("Olivia")
	h.sh.OpenElection(election, tabOverview)
	h.wait()
	return h, h.sh.Election
}
