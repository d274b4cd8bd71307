package cli_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"votedesk/tally/rctab"
)

// TestCLIRCTabStoredElection imports every tabulation case of RCTab's test
// suite (rctab and rctab-more: Dominion and Hart folders too) into
// a stored election with `import cvr --rctab` and counts the election with
// `tally ELECTION --rctab`: the reports are byte for byte those of counting
// the config's files directly, which match RCTab's (TestCLITallyRCTabConfig
// and the rctab package). A file read for the count and the same file read
// into an election are one reading.
func TestCLIRCTabStoredElection(t *testing.T) {
	c := dataCLI(t)
	cases, err := filepath.Glob(filepath.Join(shared, "rctab", "*", "*_config.json"))
	more, err2 := filepath.Glob(filepath.Join(shared, "rctab-more", "*", "*_config.json"))
	if cases = append(cases, more...); err != nil || err2 != nil || len(cases) < 23 {
		t.Fatalf("RCTab cases: %d, %v, %v", len(cases), err, err2)
	}
	for _, config := range cases {
		name := strings.TrimSuffix(filepath.Base(config), "_config.json")
		if reports, _ := filepath.Glob(strings.TrimSuffix(config, "_config.json") + "*_expected_detailed_report.json"); len(reports) == 0 {
			continue // a conversion case: no count to compare
		}
		t.Run(name, func(t *testing.T) {
			cfg, err := rctab.Load(config)
			if err != nil {
				t.Fatal(err)
			}
			election := "E " + name
			c.ok("election", "create", election)
			add := []string{"candidate", "add", election}
			for _, cand := range cfg.Contest().Candidates {
				add = append(add, cand.Name)
			}
			c.ok(add...)
			c.ok("import", "cvr", election, "--rctab", config)

			direct, stored := filepath.Join(t.TempDir(), "direct"), filepath.Join(t.TempDir(), "stored")
			c.ok("tally", "--rctab", config, "--output", direct)
			c.ok("tally", election, "--rctab", config, "--output", stored)
			compareDirs(t, direct, stored, draftStatus)

			// Once the polls are closed, the first count keeps what it
			// read and the second reads that (app/count_cache.go): the
			// same reports both times.
			c.ok("election", "launch", election)
			c.ok("election", "close", election)
			for _, pass := range []string{"first", "cached"} {
				again := filepath.Join(t.TempDir(), pass)
				c.ok("tally", election, "--rctab", config, "--output", again)
				compareDirs(t, direct, again, "UNOFFICIAL: the election is not finalized yet")
			}
		})
	}
	// The last case's cached count is stamped with the current head:
	// verify reads its ballots again and compares.
	if out := c.ok("verify"); !strings.Contains(out, "projection matches a rebuild") {
		t.Errorf("verify: %s", out)
	}
	t.Run("ErrMissingCandidate", func(t *testing.T) {
		config := filepath.Join(shared, "rctab", "test_set_1_exhaust_at_overvote", "test_set_1_exhaust_at_overvote_config.json")
		c.ok("election", "create", "Short")
		c.ok("candidate", "add", "Short", "Somebody")
		msg := c.refused(1, "import", "cvr", "Short", "--rctab", config)
		if !strings.Contains(msg, "is not a candidate of the election") {
			t.Errorf("message %q", msg)
		}
		c.refused(2, "import", "cvr", "Short", "--rctab", config, "--alias", "Nobody at all=Somebody")
		c.refused(2, "import", "cvr", "Short", "extra.csv", "--rctab", config)
	})
	t.Run("ErrCandidateNotInConfig", func(t *testing.T) {
		config := filepath.Join(shared, "rctab", "test_set_1_exhaust_at_overvote", "test_set_1_exhaust_at_overvote_config.json")
		c.ok("election", "create", "Other")
		c.ok("candidate", "add", "Other", "Nobody")
		ballots := filepath.Join(t.TempDir(), "ballots.csv")
		os.WriteFile(ballots, []byte("ballot_id,rank_1\nx1,Nobody\n"), 0o600)
		c.ok("import", "cvr", "Other", ballots)
		dir := filepath.Join(t.TempDir(), "out")
		msg := c.refused(1, "tally", "Other", "--rctab", config, "--output", dir)
		if !strings.Contains(msg, `"Nobody"`) {
			t.Errorf("message %q", msg)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("a refused count wrote %s", dir)
		}
	})
}

// compareDirs fails unless the two folders hold the same files with the
// same contents, but for the order of audit.log's lines: a stored election
// keeps its ballots in an order of its own, so the audit trail names the
// same records (by their ids in the files) in another order.
//
// With a status, got is a stored election's count, whose reports carry one
// line more than RCTab's: how final the count is, which must say status.
// draftStatus is what a draft election's reports say of their standing.
const draftStatus = "PRELIMINARY: the election is a draft"

func compareDirs(t *testing.T, want, got, status string) {
	t.Helper()
	stored := status != ""
	list := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	wn, gn := list(want), list(got)
	if !slices.Equal(wn, gn) {
		t.Fatalf("files %v, want %v", gn, wn)
	}
	for _, n := range wn {
		w, g := readFile(t, filepath.Join(want, n)), readFile(t, filepath.Join(got, n))
		if (stored || n == "cvr_cdf.json.sha256") && strings.HasSuffix(n, ".sha256") {
			// The stored election's reports say how final they are (one
			// line more, below), so their hashes differ: each must hash
			// its own file.
			if sum := sha256.Sum256([]byte(readFile(t, filepath.Join(got, strings.TrimSuffix(n, ".sha256"))))); g != fmt.Sprintf("%x  %s\n", sum, strings.TrimSuffix(n, ".sha256")) {
				t.Errorf("%s: %q does not hash its file", n, g)
			}
			continue
		}
		if stored && strings.Contains(n, "_report") {
			lines := statusLine.FindAllString(g, -1)
			if len(lines) != 1 || !strings.Contains(lines[0], status) {
				t.Errorf("%s: status lines %q, want one saying %q", n, lines, status)
			}
			g = statusLine.ReplaceAllString(g, "")
		}
		switch n {
		case "cvr_cdf.json":
			// The CDF export says when it was written.
			w, g = generatedDate.ReplaceAllString(w, ""), generatedDate.ReplaceAllString(g, "")
		case "audit.log":
			// A record without an id in its file is "record N" when the
			// file is counted, and was given the id FILE-SHA256/N when
			// imported.
			g = fileRecordID.ReplaceAllString(g, "[CVR] record $1 ")
			w, g = sortedLines(w), sortedLines(g)
		}
		if w != g {
			t.Errorf("%s differs:\n%s", n, firstDiff(w, g))
		}
	}
}

var generatedDate = regexp.MustCompile(`"GeneratedDate" : "[^"]*"`)

// statusLine is the line a stored election's report adds to RCTab's: the
// JSON config's "status" or the CSV's Status row.
// (with the comma that separates it from the key before or after it).
var statusLine = regexp.MustCompile(`(?m),\n\s*"status" : "[^"]*"$|^\s*"status" : "[^"]*",\n|^Status,[^\n]*\n`)

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + x + "\n  got  " + y
		}
	}
	return ""
}

var fileRecordID = regexp.MustCompile(`\[CVR\] [0-9a-f]{12}/([0-9]+) `)

func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// TestCLIBLTStoredElection: Burlington 2009 counted from its BLT file and
// from the election it was imported into gives the same detailed report
// but for the contest's name (the file's title, the election's name), for
// the rules Burlington used and for RCTab's defaults.
func TestCLIBLTStoredElection(t *testing.T) {
	c := dataCLI(t, "Mayor")
	c.ok("import", "cvr", "Mayor", burlingtonBLT)
	for _, rules := range [][]string{burlingtonRules, nil} {
		direct := c.ok(append([]string{"tally", "--method", "irv", "--cvr", burlingtonBLT, "--json"}, rules...)...)
		stored := c.ok(append([]string{"tally", "Mayor", "--json"}, rules...)...)
		direct = strings.Replace(direct, `"contest" : "2009 Burlington Mayor Election"`, `"contest" : "Mayor"`, 1)
		if status := statusLine.FindAllString(stored, -1); len(status) != 1 || !strings.Contains(status[0], "PRELIMINARY") {
			t.Errorf("rules %v: status %q, want one line saying the count is preliminary", rules, status)
		}
		stored = statusLine.ReplaceAllString(stored, "")
		if direct != stored {
			t.Errorf("rules %v: the stored election's report differs from the file's:\n%s", rules, firstDiff(direct, stored))
		}
	}
}

// TestCLIRCTabManyContests runs every config of both RCTab folders in one
// command, as a state counts its ranked contests after an election: each
// contest's folder holds exactly what a run of that config alone writes,
// and the summary names each contest's winners. A contest that fails
// leaves the others' reports and makes the run exit 1.
func TestCLIRCTabManyContests(t *testing.T) {
	c := newCLI(t)
	out := filepath.Join(t.TempDir(), "all")
	summary := c.ok("tally", "--rctab", filepath.Join(shared, "rctab"), "--rctab", filepath.Join(shared, "rctab-more"), "--output", out)
	configs, _ := filepath.Glob(filepath.Join(shared, "rctab*", "*", "*_config.json"))
	if len(configs) < 23 {
		t.Fatalf("%d configs", len(configs))
	}
	for _, config := range configs {
		name := strings.TrimSuffix(filepath.Base(config), "_config.json")
		alone := filepath.Join(t.TempDir(), name)
		c.ok("tally", "--rctab", config, "--output", alone)
		compareDirs(t, alone, filepath.Join(out, name), "")
	}
	for _, want := range []string{"Generic CSV Test  ", "Cucumber", "Candidate C Name, Candidate A Name, Candidate B Name", "Michael Gottner", "1,000", fmt.Sprintf("%d contest(s) counted, 0 failed", len(configs))} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	t.Run("ErrOneFails", func(t *testing.T) {
		dir := t.TempDir()
		bad := filepath.Join(dir, "bad_config.json")
		os.WriteFile(bad, []byte(`{"tabulatorVersion":"2.0.0","outputSettings":{"contestName":"Bad"},"cvrFileSources":[{"provider":"genericCsv","filePath":"missing.csv","firstVoteColumnIndex":"2","firstVoteRowIndex":"2"}],"candidates":[{"name":"A"}],"rules":{}}`), 0o600)
		good := filepath.Join(shared, "rctab", "generic_csv_test", "generic_csv_test_config.json")
		out := filepath.Join(t.TempDir(), "out")
		r := c.run(nil, "tally", "--rctab", bad, "--rctab", good, "--output", out, "--json")
		if r.code != 3 || !strings.Contains(r.err, "1 of 2 contests failed") {
			t.Fatalf("exit %d, %q", r.code, r.err)
		}
		var rows []struct {
			Config, Error string
			Winners       []string
		}
		decode(t, r.out, &rows)
		if len(rows) != 2 || !strings.Contains(rows[0].Error, "missing.csv") || strings.HasPrefix(rows[0].Error, "rctab") || rows[1].Winners[0] != "Cucumber" {
			t.Errorf("rows %+v", rows)
		}
		if _, err := os.Stat(filepath.Join(out, "bad")); !os.IsNotExist(err) {
			t.Error("the failed contest wrote a folder")
		}
		if _, err := os.Stat(filepath.Join(out, "generic_csv_test", "detailed_report.json")); err != nil {
			t.Error("the good contest's reports are missing")
		}
	})
}

// TestCLISecretElectionSmallPrecincts: RCTab's own precinct case (p1 13
// ballots, p2 10, 3 naming none) imported into a secret election: the
// per-precinct reports never show the 3 ballots alone; they are reported
// with p2, the smallest precinct large enough, notes.txt and the command
// say so, and the whole-contest reports are RCTab's. The ballot export
// names the combined precinct too.
func TestCLISecretElectionSmallPrecincts(t *testing.T) {
	c := dataCLI(t)
	config := filepath.Join(shared, "rctab", "generic_csv_test", "generic_csv_test_config.json")
	c.ok("election", "create", "S", "--secret")
	c.ok("candidate", "add", "S", "Lettuce", "Broccoli", "Cucumber", "Cauliflower", "Undeclared Write-ins")
	c.ok("import", "cvr", "S", "--rctab", config)
	out := filepath.Join(t.TempDir(), "out")
	r := c.run(nil, "tally", "S", "--rctab", config, "--output", out)
	if r.code != 0 {
		t.Fatalf("tally: %s", r.err)
	}
	const merged = "p2 with precincts of fewer than 10 ballots"
	if !strings.Contains(r.err, "note: S is a secret election: precinct (none) had fewer than 10 ballots") || !strings.Contains(r.err, merged) {
		t.Errorf("the command did not say what it combined: %q", r.err)
	}
	if notes := readFile(t, filepath.Join(out, "notes.txt")); !strings.Contains(notes, merged) {
		t.Errorf("notes.txt: %q", notes)
	}
	reports, _ := filepath.Glob(filepath.Join(out, "*_precinct_summary_report.csv"))
	var names []string
	for _, f := range reports {
		names = append(names, filepath.Base(f))
	}
	slices.Sort(names)
	want := []string{"p1_precinct_summary_report.csv", "p2_with_precincts_of_fewer_than_10_ballots_precinct_summary_report.csv"}
	if !slices.Equal(names, want) {
		t.Errorf("precinct reports %q, want %q", names, want)
	}
	if g := readFile(t, filepath.Join(out, want[1])); !strings.Contains(g, "Precinct,"+merged) {
		t.Errorf("the combined precinct's report does not name it:\n%s", g)
	}
	direct := filepath.Join(t.TempDir(), "direct")
	c.ok("tally", "--rctab", config, "--output", direct)
	for _, n := range []string{"detailed_report.json", "summary_report.csv", "p1_precinct_summary_report.csv"} {
		if w, g := readFile(t, filepath.Join(direct, n)), statusLine.ReplaceAllString(readFile(t, filepath.Join(out, n)), ""); w != g {
			t.Errorf("%s differs from RCTab's reading:\n%s", n, firstDiff(w, g))
		}
	}
	if audit := readFile(t, filepath.Join(out, "audit.log")); !strings.Contains(audit, "R_3QEQ85E7gV2DuyG") {
		t.Error("the OWNER's audit log does not name the records by their ids")
	}
	// An OBSERVER, once the polls are closed, gets the same reports, but
	// the records are numbered, not named by the voting system's ids.
	c.ok("election", "launch", "S")
	c.ok("election", "close", "S")
	c.run([]string{"VOTEDESK_NEW_PASSWORD=otto-password"}, "user", "add", "otto", "--email", "otto@example.org")
	c.ok("user", "role", "otto", "OBSERVER")
	c.signedIn("otto", "otto-password")
	seen := filepath.Join(t.TempDir(), "observer")
	c.ok("tally", "S", "--rctab", config, "--output", seen)
	if audit := readFile(t, filepath.Join(seen, "audit.log")); strings.Contains(audit, "R_3QEQ85E7gV2DuyG") {
		t.Error("an OBSERVER's audit log names the voting system's records")
	}
	for _, n := range []string{"summary_report.csv", want[1]} {
		if w, g := statusLine.ReplaceAllString(readFile(t, filepath.Join(out, n)), ""), statusLine.ReplaceAllString(readFile(t, filepath.Join(seen, n)), ""); w != g {
			t.Errorf("%s: the OBSERVER's differs from the OWNER's:\n%s", n, firstDiff(w, g))
		}
	}
	c.signedIn("olga", "owner-password")
	file := filepath.Join(t.TempDir(), "S.json")
	c.ok("export", "ballots", "S", "--format", "cdf", "--output", file)
	if cdf := readFile(t, file); strings.Contains(cdf, `"p2"`) || !strings.Contains(cdf, `"`+merged+`"`) || !strings.Contains(cdf, `"p1"`) {
		t.Errorf("the ballot export shows the small precinct apart:\n%.2000s", cdf)
	}
}

// TestCLIConvertToCSV: votedesk convert writes RCTab's converted CSV of the
// Dominion conversion case through the real binary, byte for byte, and
// refuses to write it over the database.
func TestCLIConvertToCSV(t *testing.T) {
	c := dataCLI(t)
	dir := filepath.Join(shared, "rctab-more", "conversions_from_dominion")
	config := filepath.Join(dir, "conversions_from_dominion_config.json")
	out := filepath.Join(t.TempDir(), "alaska.csv")
	c.ok("convert", "--rctab", config, "--output", out)
	if got, want := readFile(t, out), readFile(t, filepath.Join(dir, "conversions_from_dominion_expected.csv")); got != want {
		t.Errorf("the converted CSV differs from RCTab's:\n%s", firstDiff(want, got))
	}
	before := readFile(t, c.db)
	if msg := c.refused(1, "convert", "--rctab", config, "--output", c.db); !strings.Contains(msg, c.db) {
		t.Errorf("message %q does not name the database", msg)
	}
	if readFile(t, c.db) != before {
		t.Error("a refused convert changed the database")
	}
	c.refused(2, "convert", "--output", out)
	c.refused(2, "convert", "--rctab", config, "--output", out, "--format", "xml")

	// The CDF conversion, chosen by the file's extension and by --format.
	want := readFile(t, filepath.Join(dir, "conversions_from_dominion_expected_cdf_cvr.json"))
	date := regexp.MustCompile(`"GeneratedDate" : "[^"]*"`)
	for _, args := range [][]string{{"--output", filepath.Join(t.TempDir(), "alaska.json")}, {"--output", filepath.Join(t.TempDir(), "alaska.cdf"), "--format", "CDF"}} {
		c.ok(append([]string{"convert", "--rctab", config}, args...)...)
		got := readFile(t, args[1])
		if got, want := date.ReplaceAllString(got, ""), date.ReplaceAllString(want, ""); got != want {
			t.Errorf("convert %v: the CDF report differs from RCTab's:\n%s", args, firstDiff(want, got))
		}
	}
}

// TestCLIImportContests: votedesk import contests makes an election per
// contest config of a folder, with its ballots, through the real binary;
// counting one gives the same winner as the config counted directly; the
// same folder again refuses every contest (names taken) and changes
// nothing; a folder with no configs is refused.
func TestCLIImportContests(t *testing.T) {
	c := dataCLI(t)
	folder := filepath.Join(shared, "rctab-more")
	out := c.ok("import", "contests", folder)
	if !strings.Contains(out, "6 contest(s) imported, 0 failed") || !strings.Contains(out, "Alaska Dominion test") {
		t.Errorf("import contests printed:\n%s", out)
	}
	var e struct {
		Ballots int               `json:"ballots"`
		Method  string            `json:"method"`
		Rules   map[string]string `json:"rules"`
	}
	if err := json.Unmarshal([]byte(c.ok("election", "show", "TRAVIS COUNTY OFFICERS", "--json")), &e); err != nil {
		t.Fatal(err)
	}
	if e.Ballots != 9 || e.Method != "irv" || e.Rules["maxSkippedRanksAllowed"] != "1" {
		t.Errorf("TRAVIS COUNTY OFFICERS: %+v; want 9 ballots counted by IRV under the config's rules", e)
	}
	stored := c.ok("tally", "Alaska Dominion test")
	reports := filepath.Join(t.TempDir(), "out")
	c.ok("tally", "--rctab", filepath.Join(folder, "conversions_from_dominion", "conversions_from_dominion_config.json"), "--output", reports)
	if direct := readFile(t, filepath.Join(reports, "summary_report.csv")); !strings.Contains(direct, "Winner(s),Tom Steyer\n") || !strings.Contains(stored, "Winner(s): Tom Steyer\n") {
		t.Errorf("the stored election and the config's files elect differently:\n%s\n%s", stored, direct)
	}
	before := readFile(t, c.db)
	if msg := c.refused(1, "import", "contests", folder); !strings.Contains(msg, "all 6 contests failed") {
		t.Errorf("importing the same folder again: %q", msg)
	}
	if readFile(t, c.db) != before {
		t.Error("a refused import changed the database")
	}
	c.refused(1, "import", "contests", t.TempDir())
	c.refused(2, "import", "contests")
}
