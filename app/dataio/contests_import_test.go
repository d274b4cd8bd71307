package dataio_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/rctab"
)

// TestImportContestsManyAtOnce imports every contest config of RCTab's test
// suites (both folders, tabulation and conversion cases) in one go: each
// becomes a draft election with the config's candidates, method and rules
// and its ballots as the config reads them, and counting the stored
// election as it is set up elects whom RCTab's count of the files elects.
// A contest whose name another took first is refused and changes nothing.
func TestImportContestsManyAtOnce(t *testing.T) {
	e := newEnv(t)
	configs, err := dataio.ExpandConfigs([]string{filepath.Join(shared, "rctab"), filepath.Join(shared, "rctab-more")})
	if err != nil {
		t.Fatal(err)
	}
	if len(configs) < 20 {
		t.Fatalf("found %d configs, want the 17 of rctab and the 6 of rctab-more", len(configs))
	}
	var last dataio.ContestsProgress
	results := dataio.ImportContests(e.ctx, e.svc, clerk, configs, func(p dataio.ContestsProgress) {
		if p.Contest < last.Contest {
			t.Errorf("progress went back from contest %d to %d", last.Contest, p.Contest)
		}
		last = p
	})
	if last.Contests != len(configs) || last.Contest != len(configs)-1 {
		t.Errorf("last progress %+v, want contest %d of %d", last, len(configs)-1, len(configs))
	}
	taken := map[string]string{}
	imported := 0
	for i, r := range results {
		name := filepath.Base(configs[i])
		if first, dup := taken[strings.ToLower(r.Contest)]; dup {
			if r.Err == nil || app.ErrorCode(r.Err) != app.CodeConflict || r.Election != "" {
				t.Errorf("%s: contest %q, imported already from %s: %v (election %q); want a refusal", name, r.Contest, first, r.Err, r.Election)
			}
			continue
		}
		if r.Err != nil {
			t.Errorf("%s: %v", name, r.Err)
			continue
		}
		taken[strings.ToLower(r.Contest)] = name
		imported++
		el, err := e.svc.Election(e.ctx, clerk, r.Election)
		if err != nil {
			t.Fatal(err)
		}
		if el.Ballots != int64(r.Import.Ballots) || el.Ballots == 0 {
			t.Errorf("%s: the election holds %d ballots, the import says %d", name, el.Ballots, r.Import.Ballots)
		}
		var outcome rctab.Outcome
		if err := rctab.RunConfig(context.Background(), configs[i], filepath.Join(t.TempDir(), "out"), rctab.WithOutcome(&outcome)); err != nil {
			continue // a conversion case RCTab does not count, or a tie left to a person
		}
		count, _, err := e.svc.CountStored(e.ctx, clerk, r.Election, "", nil, nil)
		if err != nil {
			t.Errorf("%s: count the stored election: %v", name, err)
			continue
		}
		var winners []string
		for _, w := range count.Result.Winners {
			winners = append(winners, count.Contest.Candidates[w].Name)
		}
		if !slices.Equal(winners, outcome.Winners) {
			t.Errorf("%s: the stored election elects %v, RCTab's count of the files %v", name, winners, outcome.Winners)
		}
	}
	if imported < 15 {
		t.Errorf("%d contests imported", imported)
	}
	t.Logf("%d configs, %d contests imported", len(configs), imported)
}

// TestImportContestsRefusalChangesNothing: a contest whose files cannot be
// read makes no election and the contests around it are imported.
func TestImportContestsRefusalChangesNothing(t *testing.T) {
	e := newEnv(t)
	good := filepath.Join(shared, "rctab", "test_set_1_exhaust_at_overvote", "test_set_1_exhaust_at_overvote_config.json")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(t.TempDir(), "broken_config.json")
	s := strings.Replace(string(data), `"test set 1"`, `"Broken contest"`, 1)
	s = strings.Replace(s, "test_set_1_exhaust_at_overvote_cvr.json", filepath.Join(t.TempDir(), "missing.json"), 1)
	writeAt(t, broken, s)
	before := e.logLength()
	results := dataio.ImportContests(e.ctx, e.svc, clerk, []string{broken, good}, nil)
	if results[0].Err == nil || results[0].Election != "" || !strings.Contains(results[0].Error, "missing.json") {
		t.Errorf("broken contest: %+v; want a refusal naming the missing file", results[0])
	}
	if _, err := e.svc.Election(e.ctx, clerk, "Broken contest"); app.ErrorCode(err) != app.CodeNotFound {
		t.Errorf("the refused contest made an election: %v", err)
	}
	if results[1].Err != nil || results[1].Election != "test set 1" {
		t.Errorf("the contest after a refused one: %+v", results[1])
	}
	if e.logLength() == before {
		t.Error("nothing was recorded")
	}
}
