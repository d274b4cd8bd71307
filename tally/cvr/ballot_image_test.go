package cvr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"votedesk/tally"
)

// oakland is the excerpt of Oakland's 2018 School Director District 6
// ballot image (testdata/real).
const oakland = "testdata/real/oakland-2018-school-director-6"

// TestBallotImageOakland2018 reads a real ballot image as Alameda County
// published it, named by its folder or by its ballot image file (the
// master lookup found beside it): 40 voters, SHANTHI GONZALES ranked at
// every rank she was marked (three times on most ballots, kept as cast),
// the ranks left blank kept blank, ballots without any ranking kept as
// such, the voter id as each ballot's id and the precinct by its name. The
// master lookup named instead of the ballot image reads the same.
func TestBallotImageOakland2018(t *testing.T) {
	want := map[int]string{ // voter: ranks, G for Gonzales, U for blank
		29071: "GGG", 29072: "GGG", 29073: "GUU", 29074: "UUU", 29075: "GGG", 29076: "GGG", 29077: "GUU", 29078: "GGG", 29079: "GUU", 29080: "UUU",
		29081: "GGG", 29082: "GUU", 29083: "GGG", 29084: "GGG", 29085: "GGG", 29086: "GGU", 29087: "UUU", 29088: "GUU", 29089: "GUU", 29090: "GUU",
		29091: "GGG", 29092: "GGG", 29093: "GGG", 29094: "GGG", 29095: "GUG", 29096: "GGG", 29097: "GGG", 29098: "GGG", 29099: "GGG", 29100: "GGG",
		29101: "GGG", 29102: "GGG", 29103: "UUU", 29104: "GGG", 29105: "UUU", 29106: "GGG", 29107: "GUU", 29108: "GGG", 29109: "UUU", 29110: "UUU",
	}
	for _, path := range []string{oakland, filepath.Join(oakland, "ballot_image.txt"), filepath.Join(oakland, "master_lookup.txt")} {
		format, err := DetectFile(path)
		if err != nil || format != FormatBallotImage {
			t.Fatalf("%s detected as %q, %v", path, format, err)
		}
		f, err := ReadFile(context.Background(), Source{FilePath: path}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(f.Candidates, ", "); got != "SHANTHI GONZALES, Undeclared Write-ins, ANTHONY WILSON" {
			t.Errorf("candidates %s", got)
		}
		if f.Ballots.Len() != 40 || f.Stats.Undervotes != 7 {
			t.Fatalf("%d ballots, %d without a ranking; want 40, 7", f.Ballots.Len(), f.Stats.Undervotes)
		}
		for i := range f.Ballots.Len() {
			voter, err := strconv.Atoi(f.Ballots.ID(i))
			if err != nil || want[voter] == "" {
				t.Fatalf("ballot %d has id %q", i, f.Ballots.ID(i))
			}
			var wantMarks []string
			for r, c := range want[voter] {
				if c == 'G' {
					wantMarks = append(wantMarks, strconv.Itoa(r+1)+":SHANTHI GONZALES")
				}
			}
			if got := rankedNames(&f.Ballots, i, f.Candidates); got != strings.Join(wantMarks, " ") {
				t.Errorf("voter %d: %q, want %q", voter, got, wantMarks)
			}
			precinct := "362110"
			if voter > 29100 {
				precinct = "363100"
			}
			if f.Ballots.Precincts[i] != precinct {
				t.Errorf("voter %d in precinct %q, want %q", voter, f.Ballots.Precincts[i], precinct)
			}
		}
	}
}

// writeBallotImage writes a ballot image and its master lookup into a new
// folder, from records "contest voter precinct rank candidate over under"
// and master lines "kind id description order contest writein" (or "raw"
// and a line as written).
func writeBallotImage(t *testing.T, image []string, master [][6]string) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for _, r := range image {
		var v [7]int
		if _, err := fmt.Sscan(r, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]); err != nil {
			b.WriteString(r + "\n") // a malformed line, as written
			continue
		}
		fmt.Fprintf(&b, "%07d%09d%07d%03d%07d%03d%07d%d%d\n", v[0], v[1], 1, 2, v[2], v[3], v[4], v[5], v[6])
	}
	if err := os.WriteFile(filepath.Join(dir, "BallotImage.txt"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	for _, m := range master {
		if m[0] == "raw" {
			b.WriteString(m[1] + "\n")
			continue
		}
		id, _ := strconv.Atoi(m[1])
		order, _ := strconv.Atoi(m[3])
		contest, _ := strconv.Atoi(m[4])
		fmt.Fprintf(&b, "%-10s%07d%-50s%07d%07d%s0\r\n", m[0], id, m[2], order, contest, m[5])
	}
	if err := os.WriteFile(filepath.Join(dir, "MasterLookup.txt"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sfMaster is a master lookup of two contests, as San Francisco's list
// every ranked contest of an election.
var sfMaster = [][6]string{
	{"Candidate", "11", "ALICE", "1", "7", "0"},
	{"Candidate", "12", "BOB", "2", "7", "0"},
	{"Candidate", "13", "WRITE-IN", "3", "7", "1"},
	{"Candidate", "14", "WRITE-IN - CAROL", "4", "7", "1"},
	{"Candidate", "21", "DAN", "1", "8", "0"},
	{"Contest", "7", "Mayor", "1", "0", "0"},
	{"Contest", "8", "Board of Supervisors, District 5", "2", "0", "0"},
	{"Precinct", "1", "PCT 1101", "1", "0", "0"},
}

// TestBallotImageContests reads one contest of a ballot image of two, by
// its id or a part of its name; overvotes, the undeclared write-in and a
// named write-in are read as such; naming no contest, or none of the
// file's, is refused with the contests listed.
func TestBallotImageContests(t *testing.T) {
	dir := writeBallotImage(t, []string{
		"7 1 1 1 11 0 0", "7 1 1 2 0 1 0", "7 1 1 3 13 0 0",
		"8 1 1 1 21 0 0", "8 1 1 2 0 0 1", "8 1 1 3 0 0 1",
		"7 2 1 1 14 0 0", "7 2 1 2 12 0 0", "7 2 1 3 0 0 1",
		"8 2 1 1 0 0 1", "8 2 1 2 0 0 1", "8 2 1 3 0 0 1",
	}, sfMaster)
	contests, err := Contests(dir, FormatBallotImage)
	if err != nil || len(contests) != 2 || contests[1].ID != "8" || contests[1].Name != "Board of Supervisors, District 5" {
		t.Fatalf("contests %+v, %v", contests, err)
	}
	for _, name := range []string{"7", "0000007", "mayor"} {
		f, err := ReadFile(context.Background(), Source{FilePath: dir, ContestID: name}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := renderAll(&f.Ballots, f.Candidates)
		want := []string{"ALICE * Undeclared Write-ins", "WRITE-IN - CAROL BOB"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || strings.Join(f.Candidates, ",") != "ALICE,BOB,Undeclared Write-ins,WRITE-IN - CAROL" {
			t.Errorf("contest %q: %q, candidates %q; want %q", name, got, f.Candidates, want)
		}
	}
	f, err := ReadFile(context.Background(), Source{FilePath: filepath.Join(dir, "BallotImage.txt"), ContestID: "District 5"}, Options{})
	if err != nil || f.Ballots.Len() != 2 || f.Ballots.Precincts[0] != "PCT 1101" || f.Stats.Undervotes != 1 {
		t.Errorf("District 5: %+v, %v", f, err)
	}
	for name, want := range map[string]string{
		"":         `MasterLookup.txt: no contest is named; the master lookup lists 7 (Mayor), 8 (Board of Supervisors, District 5)`,
		"Governor": `contest "Governor" is not one of the master lookup's`,
	} {
		_, err := ReadFile(context.Background(), Source{FilePath: dir, ContestID: name}, Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("contest %q: %v, want %q", name, err, want)
		}
	}
}

// TestBallotImageRefused: a damaged ballot image or master lookup is
// refused with the file, the line and the column, and what is wrong.
func TestBallotImageRefused(t *testing.T) {
	ok := []string{"7 1 1 1 11 0 0", "7 1 1 2 12 0 0"}
	for _, tc := range []struct {
		image  []string
		master [][6]string
		want   string
	}{
		{append(ok, "0000007000000001"), sfMaster, "BallotImage.txt: line 3: a ballot image line has 45 characters, not 16"},
		{append(ok, "00000070000000020000001002000000100100000x100"), sfMaster, "line 3, column 37: expected 7 digits in columns 37 to 43"},
		{[]string{"7 1 1 2 11 0 0", "7 1 1 1 12 0 0"}, sfMaster, "line 2, column 34: voter 1: rank 1 follows rank 2"},
		{append(ok, "7 2 1 1 11 0 0", "7 1 1 3 11 0 0"), sfMaster, "line 4, column 8: voter 1's ranks are not together: the ballot began on line 1"},
		{append(ok, "7 2 1 1 99 0 0"), sfMaster, "line 3, column 37: candidate 99 is not a candidate of contest 7"},
		{append(ok, "7 2 1 1 0 1 1"), sfMaster, "line 3, column 44: voter 2, rank 1: overvote 1 and undervote 1"},
		{append(ok, "7 2 1 1 0 0 0"), sfMaster, "voter 2, rank 1 names no candidate and is marked neither"},
		{append(ok, "7 2 1 1 11 0 0", "7 2 2 2 12 0 0"), sfMaster, "voter 2: rank 2 is in precinct 2, rank 1 in 1"},
		{ok, [][6]string{{"raw", "Candidate 00000x1ALICE"}}, "MasterLookup.txt: line 1: expected a record id of 7 digits in columns 11 to 17"},
		{ok, [][6]string{{"Candidate", "11", "ALICE", "1", "7", "0"}}, "MasterLookup.txt: no Contest record"},
	} {
		dir := writeBallotImage(t, tc.image, tc.master)
		_, err := ReadFile(context.Background(), Source{FilePath: dir, ContestID: "7"}, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.image, err, tc.want)
		}
	}
	// A ballot image without its master lookup.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ballot_image_Mayor.txt"), []byte(strings.Repeat("0", 45)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(context.Background(), Source{FilePath: filepath.Join(dir, "ballot_image_Mayor.txt")}, Options{})
	if err == nil || !strings.Contains(err.Error(), `no master lookup file beside ballot_image_Mayor.txt (looked for "master_lookup_mayor.txt")`) {
		t.Errorf("no master lookup: %v", err)
	}
}

// TestBallotImageCounts: the real excerpt counted: 33 of its 40 voters
// rank Gonzales first, 7 rank no one.
func TestBallotImageCounts(t *testing.T) {
	f, err := ReadFile(context.Background(), Source{FilePath: oakland}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	contest := tally.Contest{}
	for _, n := range f.Candidates {
		contest.Candidates = append(contest.Candidates, tally.Candidate{Name: n, UndeclaredWriteIn: n == UndeclaredWriteIn})
	}
	rules := tally.DefaultRules()
	rules.MaxRankingsAllowed = f.Ballots.Positions() // three ranks, for two candidates and a write-in
	res, err := tally.Tabulate(contest, &f.Ballots, tally.IRV, rules)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Winners) != 1 || f.Candidates[res.Winners[0]] != "SHANTHI GONZALES" {
		t.Errorf("winners %v", res.Winners)
	}
	if v := res.Passes[0].Rounds[0].Tally[0].Votes.String(); v != "33" {
		t.Errorf("Gonzales has %s first choices in the excerpt, want 33", v)
	}
}

// TestBallotImagePartners: in a folder of many contests' files, as Alameda
// County published 2010's (ballot_image_ School Director, District 4 -
// Oakland_Nov 2010.txt beside master_lookup_ School Director, ...), a
// ballot image finds its own master lookup by name; the folder alone is
// refused with the reason.
func TestBallotImagePartners(t *testing.T) {
	dir := t.TempDir()
	image := "000000700000000100000010020000001001000001100\n"
	for _, contest := range []string{" School Director, District 4 - Oakland_Nov 2010", "Mayor of San Leandro_Nov 2010"} {
		master := fmt.Sprintf("%-10s%07d%-50s%07d%07d00\n%-10s%07d%-50s%07d%07d00\n", "Candidate", 11, "ALICE"+contest[:3], 1, 7, "Contest", 7, strings.TrimSpace(contest), 1, 0)
		if err := os.WriteFile(filepath.Join(dir, "ballot_image_"+contest+".txt"), []byte(image), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "master_lookup_"+contest+".txt"), []byte(master), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := ReadFile(context.Background(), Source{FilePath: filepath.Join(dir, "ballot_image_Mayor of San Leandro_Nov 2010.txt")}, Options{})
	if err != nil || len(f.Candidates) != 1 || f.Candidates[0] != "ALICEMay" {
		t.Fatalf("%+v, %v", f, err)
	}
	f, err = ReadFile(context.Background(), Source{FilePath: filepath.Join(dir, "master_lookup_ School Director, District 4 - Oakland_Nov 2010.txt")}, Options{})
	if err != nil || f.Candidates[0] != "ALICE Sc" {
		t.Fatalf("named by its master lookup: %+v, %v", f, err)
	}
	if _, err := ReadFile(context.Background(), Source{FilePath: dir, Provider: FormatBallotImage}, Options{}); err == nil || !strings.Contains(err.Error(), "the folder holds 2 ballot image files; name the one to read") {
		t.Errorf("the folder: %v", err)
	}
}
