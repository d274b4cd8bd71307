package app_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/tally/rla"
)

// TestAuditLayoutProperty: records spread over random tabulators ("" for
// a file that names none) and batch names, audited with a manifest that
// names each batch's tabulator or not, at random. Whenever the audit
// starts, every drawn ballot's record is one of its manifest line's batch
// (its name, and its tabulator where both say one), and the records of a
// line go in record-id order; when it does not start, the refusal is
// CodeInvalid and names a batch. With the manifest the records imply
// (AuditManifest) it always starts.
func TestAuditLayoutProperty(t *testing.T) {
	type key struct{ tab, batch string }
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			e := newEnv(t)
			name := "Layout"
			tabs := []string{"", "1", "2"}[:1+rng.IntN(3)]
			if rng.IntN(2) == 0 {
				tabs = tabs[1:] // every record names a tabulator
				if len(tabs) == 0 {
					tabs = []string{"1"}
				}
			}
			batches := []string{"7", "8", "10"}[:1+rng.IntN(3)]
			groups := map[key]int{}
			var in []app.ImportedBallot
			for i := range 40 {
				k := key{tabs[rng.IntN(len(tabs))], batches[rng.IntN(len(batches))]}
				groups[k]++
				r := rank("A")
				if i%4 == 0 {
					r = rank("B")
				}
				// The record id says where the record is, for the check below.
				id := fmt.Sprintf("%s-%s-%d", k.tab, k.batch, groups[k])
				in = append(in, app.ImportedBallot{SourceID: id, Rankings: r, Batch: k.batch, Tabulator: k.tab})
			}
			closedImport(e, name, false, in)
			implied, err := e.svc.AuditManifest(e.ctx, "user", name)
			e.must(err)
			// A manifest line per group, its tabulator kept or dropped at
			// random, with a spare ballot now and then.
			var lines []rla.Batch
			for _, b := range implied.Batches {
				if rng.IntN(3) == 0 {
					b.Tabulator = ""
				}
				b.Ballots += rng.IntN(2)
				lines = append(lines, b)
			}
			for _, m := range []struct {
				what  string
				lines []rla.Batch
			}{{"implied", implied.Batches}, {"random", lines}} {
				man, err := rla.NewManifest(m.lines)
				if err != nil {
					continue // a line listed twice as rla sees it
				}
				au, err := e.svc.StartAudit(e.ctx, "user", name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: auditSeed, Manifest: man})
				if err != nil {
					if m.what == "implied" || app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(err.Error(), "batch") {
						t.Fatalf("%s manifest %v refused: %v", m.what, m.lines, err)
					}
					continue
				}
				st, err := e.svc.AuditState(e.ctx, "user", name, au.ID)
				e.must(err)
				for _, d := range st.Draws {
					if d.Reading == nil && !d.Repeat {
						for pass := 1; pass <= 2; pass++ {
							e.must(e.svc.RecordAuditReading(e.ctx, "user", name, au.ID, d.Draw.Index, pass, rank("A"), false))
						}
					}
				}
				st, err = e.svc.AuditState(e.ctx, "user", name, au.ID)
				e.must(err)
				for _, d := range st.Draws {
					if d.Phantom {
						if d.RecordID != "" {
							t.Errorf("a phantom with record %q", d.RecordID)
						}
						continue
					}
					parts := strings.Split(d.RecordID, "-")
					if len(parts) != 3 || parts[1] != d.Batch.Name || d.Batch.Tabulator != "" && parts[0] != "" && parts[0] != d.Batch.Tabulator {
						t.Errorf("%s manifest: draw %d at line %+v found record %q", m.what, d.Draw.Index, d.Batch, d.RecordID)
					}
					// The n-th record of its group lies at position n, as
					// the groups' records are numbered in order (a line
					// holds one group).
					if parts[2] != fmt.Sprint(d.Draw.Position) {
						t.Errorf("%s manifest: ballot %d of line %+v is record %q", m.what, d.Draw.Position, d.Batch, d.RecordID)
					}
				}
			}
		})
	}
}

// TestAuditLayoutAmbiguous: records that name no tabulator, against a
// manifest listing their batch under two tabulators, could be either
// stack of paper: the audit is refused, saying so, and nothing changes.
func TestAuditLayoutAmbiguous(t *testing.T) {
	e := newEnv(t)
	var in []app.ImportedBallot
	for i := range 20 {
		in = append(in, app.ImportedBallot{SourceID: fmt.Sprint(i + 1), Rankings: rank("A"), Batch: "7"})
	}
	closedImport(e, "L", false, in)
	m, err := rla.NewManifest([]rla.Batch{{Tabulator: "1", Name: "7", Ballots: 10}, {Tabulator: "2", Name: "7", Ballots: 10}})
	e.must(err)
	before := e.snapshot()
	_, err = e.svc.StartAudit(e.ctx, "user", "L", app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.1, Seed: auditSeed, Manifest: m})
	if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(err.Error(), "could be the paper of line 2 or line 3") || e.snapshot() != before {
		t.Errorf("records without a tabulator against two tabulators' batch 7: %v", err)
	}
}

// closedImport stores an election of candidates A and B (secret or not)
// whose ballots are the cast vote records in, and closes its polls.
func closedImport(e *env, name string, secret bool, in []app.ImportedBallot) {
	e.t.Helper()
	e.must(e.svc.CreateElection(e.ctx, "user", name, "", secret))
	e.must(e.svc.AddCandidates(e.ctx, "user", name, "A", "B"))
	_, err := e.svc.ImportBallots(e.ctx, "user", name, app.SourceCVR, in, nil)
	e.must(err)
	e.must(e.svc.LaunchElection(e.ctx, "user", name))
	e.must(e.svc.CloseElection(e.ctx, "user", name))
}
