package dataio_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/rla"
)

// TestAuditFindsDominionBallotsByTabulator: Dominion numbers batches per
// tabulator, so two tabulators each have a batch 892. RCTab's multi-file
// Dominion export, with one tabulator's batch renumbered so, is imported
// into a stored election: the manifest the records imply lists batch 892
// twice, once per tabulator; an audit started with it finds each drawn
// ballot in its own tabulator's batch, its records in RecordId order (9
// before 10, which text order would not give); a line that does not say
// its tabulator takes the records of the batch no other line names; and
// one line for both tabulators' batch 892 is refused, saying why.
func TestAuditFindsDominionBallotsByTabulator(t *testing.T) {
	src := filepath.Join(shared, "rctab-more", "dominion_multi_file")
	dir := t.TempDir()
	copyDir(t, src, dir)
	export := filepath.Join(dir, "dominion_multi_file_input_data", "CvrExport_2.json")
	b, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"BatchId":504`) {
		t.Fatal("CvrExport_2.json no longer has batch 504 of tabulator 18")
	}
	writeAt(t, export, strings.ReplaceAll(string(b), `"BatchId":504`, `"BatchId":892`))

	e := newEnv(t)
	res := dataio.ImportContests(e.ctx, e.svc, clerk, []string{filepath.Join(dir, "dominion_multi_file_config.json")}, nil)
	if len(res) != 1 || res[0].Err != nil {
		t.Fatalf("import: %+v", res)
	}
	name := res[0].Election
	e.must(e.svc.LaunchElection(e.ctx, clerk, name))
	e.must(e.svc.CloseElection(e.ctx, clerk, name))

	m, err := e.svc.AuditManifest(e.ctx, clerk, name)
	e.must(err)
	var got []string
	for _, b := range m.Batches {
		got = append(got, b.Tabulator+"/"+b.Name+"="+strconv.Itoa(b.Ballots))
	}
	if want := "18/892=7 19/664=2 26/876=1 27/892=15"; strings.Join(got, " ") != want {
		t.Fatalf("manifest of the records: %s, want %s", strings.Join(got, " "), want)
	}

	// Batch 892 listed without its tabulator, beside the other 892 with
	// it: the records of tabulator 18 take the line that does not say.
	partly := append([]rla.Batch(nil), m.Batches...)
	partly[0].Tabulator = ""
	dup, err := rla.NewManifest(partly)
	e.must(err)
	au, err := e.svc.StartAudit(e.ctx, clerk, name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: "12345678901234567890", Manifest: dup})
	e.must(err)
	st, err := e.svc.AuditState(e.ctx, clerk, name, au.ID)
	e.must(err)
	if st.Problem != "" {
		t.Errorf("the audit with batch 892 once without its tabulator: %s", st.Problem)
	}
	// One line for both tabulators' batch 892 mixes two stacks of paper.
	merged, err := rla.NewManifest([]rla.Batch{{Name: "892", Ballots: 22}, {Name: "664", Ballots: 2}, {Name: "876", Ballots: 1}})
	e.must(err)
	_, err = e.svc.StartAudit(e.ctx, clerk, name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: "12345678901234567890", Manifest: merged})
	if err == nil || !strings.Contains(err.Error(), "different tabulators") {
		t.Errorf("one manifest line for batch 892 of two tabulators: %v; want a refusal", err)
	}

	au, err = e.svc.StartAudit(e.ctx, clerk, name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: "12345678901234567890", Manifest: m})
	e.must(err)
	st, err = e.svc.AuditState(e.ctx, clerk, name, au.ID)
	e.must(err)
	for _, d := range st.Draws {
		if d.Reading != nil || d.Repeat {
			continue
		}
		for pass := 1; pass <= 2; pass++ {
			e.must(e.svc.RecordAuditReading(e.ctx, clerk, name, au.ID, d.Draw.Index, pass, nil, false))
		}
	}
	st, err = e.svc.AuditState(e.ctx, clerk, name, au.ID)
	e.must(err)
	if len(st.Draws) < 5 {
		t.Fatalf("%d draws; the check below needs a few", len(st.Draws))
	}
	// Each drawn ballot's record is of its own tabulator and batch, and a
	// later position in a batch holds a higher RecordId.
	last := map[string][2]int{} // tabulator/batch -> position, record number
	for _, d := range st.Draws {
		prefix := d.Batch.Tabulator + "-" + d.Batch.Name + "-"
		rec, ok := strings.CutPrefix(d.RecordID, prefix)
		n, err := strconv.Atoi(rec)
		if !ok || err != nil {
			t.Errorf("draw %d (tabulator %s, batch %s): record %q", d.Draw.Index, d.Batch.Tabulator, d.Batch.Name, d.RecordID)
			continue
		}
		k := prefix
		if prev, seen := last[k]; seen && (d.Draw.Position > prev[0]) != (n > prev[1]) && d.Draw.Position != prev[0] {
			t.Errorf("batch %s: ballot %d is record %d but ballot %d is record %d", k, prev[0], prev[1], d.Draw.Position, n)
		}
		last[k] = [2]int{d.Draw.Position, n}
	}
	if len(last) < 2 {
		t.Errorf("the draws reach %d batches; the check wants both batches 892", len(last))
	}
}

// copyDir copies the files of folder src (and its folders) into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}
