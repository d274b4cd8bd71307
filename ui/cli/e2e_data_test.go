package cli_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	burlingtonBLT   = filepath.Join(shared, "real", "burlington_2009_mayor", "2009-Burlington-Mayor.blt")
	burlingtonCands = []string{"Bob Kiss", "Andy Montroll", "James Simpson", "Dan Smith", "Kurt Wright", "Write-in"}
	burlingtonRules = []string{"--rule", "overvoteRule=exhaustIfMultipleContinuing", "--rule", "batchElimination=true"}
)

// dataCLI is a database with an owner and a draft election with the
// Burlington 2009 candidates.
func dataCLI(t *testing.T, elections ...string) *cliRun {
	t.Helper()
	c := newCLI(t)
	if r := c.run([]string{"VOTEDESK_PASSWORD=owner-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("user add: %s", r.err)
	}
	c.signedIn("olga", "owner-password")
	for _, e := range elections {
		c.ok("election", "create", e)
		c.ok(append([]string{"candidate", "add", e}, burlingtonCands...)...)
	}
	return c
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCLIImportExport imports the real Burlington ballots, counts them,
// exports results, ballots and the log, and imports the exported ballots
// back into fresh elections: the same count.
func TestCLIImportExport(t *testing.T) {
	c := dataCLI(t, "Mayor", "Copy csv", "Copy cdf")
	out := c.ok("import", "cvr", "Mayor", burlingtonBLT)
	if !strings.Contains(out, `imported 8,984 ballots into "Mayor"`) || !strings.Contains(out, "4 with no rankings") {
		t.Errorf("import cvr:\n%s", out)
	}
	tallied := c.ok(append([]string{"tally", "Mayor"}, burlingtonRules...)...)
	if !strings.Contains(tallied, "4,313") || !strings.Contains(tallied, "Winner(s): Bob Kiss") {
		t.Errorf("tally of the imported ballots:\n%s", tallied)
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	c.ok(append([]string{"export", "results", "Mayor", "--format", "html", "--output", html}, burlingtonRules...)...)
	for _, want := range []string{"Bob Kiss", "4,313", "How votes moved between rounds", "batchElimination", "Preliminary"} {
		if !strings.Contains(readFile(t, html), want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	jsonOut := filepath.Join(dir, "detailed_report.json")
	c.ok(append([]string{"export", "results", "Mayor", "--format", "json", "--output", jsonOut}, burlingtonRules...)...)
	if got, want := readFile(t, jsonOut), c.ok(append([]string{"tally", "Mayor", "--json"}, burlingtonRules...)...); got != want {
		t.Errorf("export results --format json differs from tally --json")
	}
	csvOut := filepath.Join(dir, "detailed_report.csv")
	c.ok(append([]string{"export", "results", "Mayor", "--format", "csv", "--output", csvOut}, burlingtonRules...)...)
	if !strings.HasPrefix(readFile(t, csvOut), "Contest Information") {
		t.Errorf("CSV report starts %.40q", readFile(t, csvOut))
	}
	for _, format := range []string{"csv", "cdf"} {
		t.Run("RoundTrip_"+format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ballots."+format)
			if !strings.Contains(c.ok("export", "ballots", "Mayor", "--format", format, "--output", path), "wrote 8,984 ballots") {
				t.Error("export ballots did not say how many")
			}
			copyName := "Copy " + format
			c.ok("import", "cvr", copyName, path, "--format", map[string]string{"csv": "votedesk", "cdf": "cdf"}[format])
			got := c.ok(append([]string{"tally", copyName}, burlingtonRules...)...)
			if strip(got) != strip(tallied) {
				t.Errorf("the round trip counts\n%s\nnot\n%s", got, tallied)
			}
		})
	}
	t.Run("ExportLog", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "log.jsonl")
		c.ok("export", "log", "--output", path)
		if got, want := readFile(t, path), c.ok("log", "--json"); got != want {
			t.Errorf("export log differs from log --json")
		}
	})
	t.Run("ErrSameFileAgain", func(t *testing.T) {
		msg := c.refused(1, "import", "cvr", "Mayor", burlingtonBLT)
		if !strings.Contains(msg, "2009-Burlington-Mayor.blt: record 1") || !strings.Contains(msg, "already imported") {
			t.Errorf("message %q", msg)
		}
	})
	t.Run("ErrBadFilesImportNothing", func(t *testing.T) {
		dir := t.TempDir()
		good := filepath.Join(dir, "good.csv")
		os.WriteFile(good, []byte("ballot_id,rank_1\nn1,Bob Kiss\n"), 0o600)
		for _, tc := range []struct {
			name, content, want string
		}{
			{"unknown.csv", "ballot_id,rank_1,rank_2\nn2,Bob Kiss,\nn3,Kurt Wright,Bernie\n", `unknown.csv: line 3, column 3: unknown candidate "Bernie"`},
			{"short.csv", "ballot_id,rank_1,rank_2\nn2,Bob Kiss\n", "short.csv: line 2: the row has 2 fields, the header 3"},
			{"twice.csv", "ballot_id,rank_1\nn2,Bob Kiss\nn2,Dan Smith\n", `twice.csv: record 2: ballot id "n2" repeats record 1`},
			{"across.csv", "ballot_id,rank_1\nn1,Dan Smith\n", `across.csv: record 1: ballot id "n1" repeats record 1 of good.csv`},
		} {
			bad := filepath.Join(dir, tc.name)
			os.WriteFile(bad, []byte(tc.content), 0o600)
			if msg := c.refused(1, "import", "cvr", "Mayor", good, bad); !strings.Contains(msg, tc.want) {
				t.Errorf("%s: message %q, want %q", tc.name, msg, tc.want)
			}
		}
	})
	t.Run("ErrPDF", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "report.pdf")
		msg := c.refused(1, "export", "results", "Mayor", "--format", "pdf", "--output", path)
		if !strings.Contains(msg, "does not write PDF") || !strings.Contains(msg, "--format html") {
			t.Errorf("message %q", msg)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Error("a refused PDF export wrote a file")
		}
	})
	t.Run("ErrFailedExportWritesNothing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "report.html")
		os.WriteFile(path, []byte("previous report"), 0o644)
		c.refused(1, "export", "results", "Mayor", "--format", "html", "--output", path, "--rule", "winnerElectionMode=nonsense")
		c.refused(1, "export", "results", "Nope", "--format", "html", "--output", path)
		if readFile(t, path) != "previous report" {
			t.Error("a refused export changed the file")
		}
		c.refused(1, "export", "ballots", "Mayor", "--format", "csv", "--output", filepath.Join(t.TempDir(), "missing", "b.csv"))
		if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
			t.Errorf("refused exports left %d files", len(entries))
		}
	})
	t.Run("UsageExitsTwo", func(t *testing.T) {
		for _, args := range [][]string{
			{"import", "cvr", "Mayor"},
			{"import", "cvr", "Mayor", burlingtonBLT, "--format", "unisyn"},
			{"import", "cvr", "Mayor", burlingtonBLT, "--alias", "Kiss"},
			{"import", "voters", "Mayor"},
			{"export", "results", "Mayor", "--format", "html"},
			{"export", "results", "Mayor", "--format", "docx", "--output", "x"},
			{"export", "ballots", "Mayor", "--format", "xml", "--output", "x"},
			{"export", "log"},
		} {
			c.refused(2, args...)
		}
	})
}

// strip drops the lines of a tally's text that name the election or the
// log position, which differ between an election and its copy.
func strip(s string) string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if l := sc.Text(); !strings.Contains(l, "counted from log position") && !strings.Contains(l, " — ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestCLIImportAliasesAndConfig imports with aliases and with an RCTab
// config's sources and candidate aliases.
func TestCLIImportAliasesAndConfig(t *testing.T) {
	c := dataCLI(t, "Mayor")
	file := filepath.Join(t.TempDir(), "short.csv")
	os.WriteFile(file, []byte("ballot_id,rank_1,rank_2\na1,KISS,kurt WRIGHT\na2,bob  kiss,\n"), 0o600)
	out := c.ok("import", "cvr", "Mayor", file, "--alias", "KISS=Bob Kiss")
	for _, want := range []string{`"KISS" -> "Bob Kiss" (alias)`, `"kurt WRIGHT" -> "Kurt Wright" (case and spacing)`, `"bob  kiss" -> "Bob Kiss" (case and spacing)`} {
		if !strings.Contains(out, want) {
			t.Errorf("import output lacks %q:\n%s", want, out)
		}
	}
	c.ok("election", "create", "Vegetables")
	c.ok("candidate", "add", "Vegetables", "Lettuce", "Broccoli", "Cucumber", "Cauliflower", "Write-in")
	cfg := filepath.Join(shared, "rctab", "generic_csv_test", "generic_csv_test_config.json")
	out = c.ok("import", "cvr", "Vegetables", "--rctab", cfg, "--alias", "Undeclared Write-ins=Write-in", "--json")
	if !strings.Contains(out, `"ballots": 26`) {
		t.Errorf("import --rctab:\n%s", out)
	}
	out = c.ok("tally", "Vegetables", "--rule", "batchElimination=true", "--rule", "maxSkippedRanksAllowed=1")
	if !strings.Contains(out, "Winner(s): Cucumber") {
		t.Errorf("tally of the RCTab config's ballots:\n%s", out)
	}
	// With a config, the config says how to read its files.
	c.refused(2, "import", "cvr", "Vegetables", "--rctab", cfg, "--skipped-label", "XXX")

	// A county's file as published: its layout from its header, ES&S's
	// labels, the undeclared write-in stored as the election's write-in.
	c.ok("election", "create", "Ward 3")
	c.ok("candidate", "add", "Ward 3", "Ginger Jentzen", "Samantha Pree-Stinson", "Steve Fletcher", "Tim Bildsoe", "Write-in")
	ward3 := filepath.Join("..", "..", "tally", "cvr", "testdata", "real", "minneapolis-2017-ward-3-first-records.csv")
	out = c.ok("import", "cvr", "Ward 3", ward3, "--alias", "Undeclared Write-ins=Write-in")
	if !strings.Contains(out, `imported 237 ballots into "Ward 3"`) {
		t.Errorf("import of a county's CSV:\n%s", out)
	}
	if out := c.ok("tally", "Ward 3"); !strings.Contains(out, "237 ballots") {
		t.Errorf("tally of the county's ballots:\n%s", out)
	}
}

// TestCLIImportVoters imports a poll book: a dry run, the import, and a file
// with invalid rows.
func TestCLIImportVoters(t *testing.T) {
	c := dataCLI(t, "Mayor")
	c.ok("voter", "add", "Mayor", "Ann Lee")
	dir := t.TempDir()
	book := filepath.Join(dir, "voters.csv")
	os.WriteFile(book, []byte("Voter ID,Name,Email\n1,Ann Lee,ann@example.org\n2,Bob Ray,bob@example.org\n3,Cy Young,\n4,Bob Ray,\n"), 0o600)
	before := c.logLength()
	out := c.ok("import", "voters", "Mayor", book, "--dry-run")
	if !strings.Contains(out, `dry run: would add 2 voter(s) to the poll book of "Mayor"; 2 skipped, 0 invalid`) ||
		!strings.Contains(out, `skipped line 2: "Ann Lee" is already in the poll book`) || !strings.Contains(out, `skipped line 5: "Bob Ray" is listed twice (first on line 3)`) {
		t.Errorf("dry run:\n%s", out)
	}
	if c.logLength() != before {
		t.Error("a dry run wrote to the log")
	}
	c.ok("import", "voters", "Mayor", book)
	if got := c.ok("voter", "list", "Mayor"); !strings.Contains(got, "Bob Ray") || !strings.Contains(got, "Cy Young") {
		t.Errorf("voter list after the import:\n%s", got)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("Dee\n#nobody\n\nEve\n"), 0o600)
	msg := c.refused(1, "import", "voters", "Mayor", bad)
	if !strings.Contains(msg, `line 2: voter name "#nobody" may not start with '#'`) {
		t.Errorf("message %q", msg)
	}
	out = c.ok("import", "voters", "Mayor", bad, "--dry-run")
	if !strings.Contains(out, "would add 2") || !strings.Contains(out, "invalid line 2") {
		t.Errorf("dry run of a file with an invalid row:\n%s", out)
	}
	out = c.ok("import", "voters", "Mayor", bad, "--skip-invalid", "--json")
	if !strings.Contains(out, `"added": [`) || !strings.Contains(out, `"name": "Eve"`) {
		t.Errorf("import --skip-invalid --json:\n%s", out)
	}
	c.refused(1, "import", "voters", "Mayor", filepath.Join(dir, "missing.csv"))
}
