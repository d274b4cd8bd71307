package dataio_test

import (
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/cvr"
)

// TestImportHeldToItsElection: an import reads the election's candidates,
// then the files (seconds, for a big export), then records the ballots. A
// sync in between that renames the election and gives its name to another
// with the same candidates (what the rules do to an election two laptops
// made offline under one name) leaves both untouched, and says so; before,
// the ballots went into the other election. (A poll book's import and a
// ballot export hold their election the same way.)
func TestImportHeldToItsElection(t *testing.T) {
	e := newEnv(t)
	e.election("Mayor", false, burlingtonCands...)
	renamed := false
	syncNow := func() {
		if renamed {
			return
		}
		renamed = true
		e.must(e.svc.RenameElection(e.ctx, clerk, "Mayor", "Mayor (laptop 2)"))
		e.election("Mayor", false, burlingtonCands...)
	}
	_, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "Mayor", []cvr.Source{{FilePath: burlingtonBLT}}, dataio.CVROptions{
		Progress: func(p dataio.Progress) {
			if p.Stage == dataio.StageRead {
				syncNow()
			}
		},
	})
	if !app.IsCode(err, app.CodeConflict) || !strings.Contains(app.ErrorMessage(err), `now called "Mayor (laptop 2)"`) {
		t.Errorf("import across a rename: %v", err)
	}
	for _, name := range []string{"Mayor", "Mayor (laptop 2)"} {
		if bs, err := e.svc.Ballots(e.ctx, clerk, name); err != nil || len(bs) != 0 {
			t.Errorf("%s holds %d ballots (%v)", name, len(bs), err)
		}
	}
}
