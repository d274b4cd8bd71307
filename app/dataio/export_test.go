package dataio_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally"
	"votedesk/tally/cvr"
)

// castElection makes a launched election "Council" with voters who cast
// ballots (ties and skipped ranks among them), plus imported ballots.
func castElection(e *env, secret bool) {
	e.t.Helper()
	e.election("Council", secret, "Ada", "Grace", "Alan", "Edsger")
	voters := []string{"v01", "v02", "v03", "v04", "v05", "v06", "v07"}
	var entries []app.VoterEntry
	for _, v := range voters {
		entries = append(entries, app.VoterEntry{Name: v})
	}
	e.must(e.svc.AddVoters(e.ctx, clerk, "Council", entries...))
	file := writeFile(e.t, "paper.csv", "ballot_id,rank_1,rank_2,rank_3\np1,Alan,Ada,\np2,Edsger|Grace,,Ada\np3,,,\n")
	e.must2(dataio.ImportCVRs(e.ctx, e.svc, clerk, "Council", []cvr.Source{{FilePath: file}}, dataio.CVROptions{}))
	e.must(e.svc.LaunchElection(e.ctx, clerk, "Council"))
	rankings := [][]app.Ranking{
		{{Candidate: "Ada", Rank: 1}, {Candidate: "Grace", Rank: 2}},
		{{Candidate: "Grace", Rank: 1}, {Candidate: "Ada", Rank: 2}, {Candidate: "Alan", Rank: 3}},
		{{Candidate: "Alan", Rank: 1}, {Candidate: "Edsger", Rank: 1}},
		{{Candidate: "Grace", Rank: 1}, {Candidate: "Edsger", Rank: 3}},
		{{Candidate: "Ada", Rank: 1}},
		{{Candidate: "Edsger", Rank: 1}, {Candidate: "Grace", Rank: 2}},
		{{Candidate: "Grace", Rank: 1}},
	}
	for i, v := range voters {
		_, err := e.svc.CastBallot(e.ctx, clerk, app.Cast{Election: "Council", Voter: v, Rankings: rankings[i]})
		e.must(err)
	}
	// The polls close: a secret election's ballots are shown from then on.
	e.must(e.svc.CloseElection(e.ctx, clerk, "Council"))
}

// rankingsOf lists an election's ballots' rankings as text, sorted.
func rankingsOf(e *env, election string) []string {
	e.t.Helper()
	ballots, err := e.svc.Ballots(e.ctx, clerk, election)
	e.must(err)
	var out []string
	for _, b := range ballots {
		var parts []string
		for _, r := range b.Rankings {
			parts = append(parts, r.Candidate+"@"+string(rune('0'+r.Rank)))
		}
		out = append(out, strings.Join(parts, " "))
	}
	slices.Sort(out)
	return out
}

// TestExportBallotsRoundTrip exports an election's ballots in each format
// and imports them into a fresh election: the same ballots (with the
// confirmation codes as source ids) and the same count.
func TestExportBallotsRoundTrip(t *testing.T) {
	e := newEnv(t)
	castElection(e, true)
	want := rankingsOf(e, "Council")
	wantCount, _, err := e.svc.CountStored(e.ctx, clerk, "Council", "irv", nil, nil)
	e.must(err)
	wantJSON := resultJSON(t, e, "Council")
	ballots, err := e.svc.Ballots(e.ctx, clerk, "Council")
	e.must(err)
	for _, format := range []string{dataio.BallotsCSV, dataio.BallotsCDF} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ballots."+map[string]string{"csv": "csv", "cdf": "json"}[format])
			var n int
			e.must(dataio.WriteFileAtomic(path, 0o600, func(w io.Writer) error {
				var err error
				n, err = dataio.ExportBallots(e.ctx, e.svc, observer, "Council", format, w)
				return err
			}))
			if n != 10 {
				t.Errorf("exported %d ballots, want 10", n)
			}
			data, _ := os.ReadFile(path)
			for _, v := range []string{"v01", "v02", "v07"} {
				if bytes.Contains(data, []byte(v)) {
					t.Errorf("the export names voter %s", v)
				}
			}
			copyName := "Copy " + format
			e.election(copyName, false, "Ada", "Grace", "Alan", "Edsger")
			im, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, copyName, []cvr.Source{{FilePath: path}}, dataio.CVROptions{})
			e.must(err)
			if im.Ballots != 10 || len(im.Matches) != 0 {
				t.Errorf("import = %+v", im)
			}
			if got := rankingsOf(e, copyName); !slices.Equal(got, want) {
				t.Errorf("round trip gave ballots\n%q\nwant\n%q", got, want)
			}
			copied, err := e.svc.Ballots(e.ctx, clerk, copyName)
			e.must(err)
			var ids, codes []string
			for i := range copied {
				ids = append(ids, copied[i].SourceID)
				codes = append(codes, ballots[i].Confirmation)
			}
			slices.Sort(ids)
			slices.Sort(codes)
			if !slices.Equal(ids, codes) {
				t.Errorf("source ids %q are not the confirmation codes %q", ids, codes)
			}
			got, _, err := e.svc.CountStored(e.ctx, clerk, copyName, "irv", nil, nil)
			e.must(err)
			if !slices.Equal(got.Result.Winners, wantCount.Result.Winners) || len(got.Result.Passes[0].Rounds) != len(wantCount.Result.Passes[0].Rounds) {
				t.Errorf("round trip count = %+v, want %+v", got.Result.Winners, wantCount.Result.Winners)
			}
			// The copy is a draft, the original closed: the reports say so
			// and differ in nothing else.
			const unofficial, draft = `"UNOFFICIAL: the election is not finalized yet; these results may still change."`, `"PRELIMINARY: the election is a draft; these results are not final."`
			if !strings.Contains(wantJSON, unofficial) {
				t.Errorf("the closed election's results do not say they are unofficial:\n%s", wantJSON)
			}
			if gotJSON := resultJSON(t, e, copyName); gotJSON != strings.NewReplacer(`"Council"`, `"`+copyName+`"`, unofficial, draft).Replace(wantJSON) {
				t.Errorf("round trip results differ:\n%s\nwant\n%s", gotJSON, wantJSON)
			}
		})
	}
}

// resultJSON is an election's IRV results as RCTab JSON.
func resultJSON(t *testing.T, e *env, election string) string {
	t.Helper()
	var b bytes.Buffer
	_, err := dataio.ExportResults(e.ctx, e.svc, clerk, election, "irv", nil, dataio.ResultsJSON, &b)
	e.must(err)
	return b.String()
}

// TestExportBallotsSecret checks that every role gets the same file: no
// voters, confirmation-code order.
func TestExportBallotsSecret(t *testing.T) {
	e := newEnv(t)
	castElection(e, true)
	var files [][]byte
	for _, actor := range []string{observer, clerk, auditor, owner} {
		var b bytes.Buffer
		_, err := dataio.ExportBallots(e.ctx, e.svc, actor, "Council", dataio.BallotsCSV, &b)
		e.must(err)
		files = append(files, b.Bytes())
	}
	for i := range files {
		if !bytes.Equal(files[i], files[0]) {
			t.Errorf("export %d differs from the observer's:\n%s\n%s", i, files[i], files[0])
		}
	}
	lines := strings.Split(strings.TrimSpace(string(files[0])), "\n")[2:]
	var ids []string
	for _, l := range lines {
		ids = append(ids, strings.SplitN(l, ",", 2)[0])
	}
	if !slices.IsSorted(ids) || len(ids) != 10 {
		t.Errorf("ballot ids are not in confirmation-code order: %q", ids)
	}
	t.Run("ErrUnknownFormat", func(t *testing.T) {
		_, err := dataio.ExportBallots(e.ctx, e.svc, clerk, "Council", "xml", &bytes.Buffer{})
		if app.ErrorCode(err) != app.CodeInvalid {
			t.Errorf("export as xml: %v", err)
		}
	})
}

// TestExportLog checks the JSON Lines log and its redaction per role.
func TestExportLog(t *testing.T) {
	e := newEnv(t)
	castElection(e, true)
	for _, tc := range []struct {
		actor      string
		seesRanked bool
	}{{observer, false}, {auditor, true}} {
		var b bytes.Buffer
		n, err := dataio.ExportLog(e.ctx, e.svc, tc.actor, &b)
		e.must(err)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if n != len(lines) || n != e.logLength() {
			t.Errorf("%s: %d events in %d lines, log has %d", tc.actor, n, len(lines), e.logLength())
		}
		ranked := false
		for i, l := range lines {
			var ev app.Event
			if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Seq != uint64(i+1) {
				t.Fatalf("%s: line %d is not event %d: %v", tc.actor, i+1, i+1, err)
			}
			if ev.Type == app.EvBallotCast && (bytes.Contains(ev.Data, []byte(`"rankings"`)) || bytes.Contains(ev.Sealed, []byte(`"rankings"`))) {
				ranked = true
			}
			if bytes.Contains(ev.Data, []byte("$argon2")) || bytes.Contains(ev.Data, []byte("$2a$")) {
				t.Errorf("%s: a password hash is in the log export", tc.actor)
			}
		}
		if ranked != tc.seesRanked {
			t.Errorf("%s sees secret rankings: %v, want %v", tc.actor, ranked, tc.seesRanked)
		}
	}
}

// TestExportResults checks the formats of a results export and what the
// HTML report states.
func TestExportResults(t *testing.T) {
	e := newEnv(t)
	castElection(e, false)
	var csvBallots bytes.Buffer
	_, err := dataio.ExportBallots(e.ctx, e.svc, clerk, "Council", dataio.BallotsCSV, &csvBallots)
	e.must(err)
	sum := sha256.Sum256(csvBallots.Bytes())
	var page bytes.Buffer
	res, err := dataio.ExportResults(e.ctx, e.svc, observer, "Council", "", map[string]string{"batchElimination": "true"}, dataio.ResultsHTML, &page)
	e.must(err)
	head, hash, err := e.svc.LogHead(e.ctx, clerk)
	e.must(err)
	if res.BallotsSHA256 != hex.EncodeToString(sum[:]) || res.HeadSeq != head || res.HeadHash != hash {
		t.Errorf("results digest %s at %d %s, want %x at %d %s", res.BallotsSHA256, res.HeadSeq, res.HeadHash, sum, head, hash)
	}
	rulesSum := sha256.Sum256([]byte(res.RuleText))
	for _, want := range []string{res.BallotsSHA256, hex.EncodeToString(rulesSum[:]), hash, "batchElimination=true", "Unofficial</strong> — the election is not finalized yet", "Round-by-round count"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	var csvOut bytes.Buffer
	_, err = dataio.ExportResults(e.ctx, e.svc, clerk, "Council", "irv", nil, dataio.ResultsCSV, &csvOut)
	e.must(err)
	if !strings.HasPrefix(csvOut.String(), "Contest Information") {
		t.Errorf("CSV results start %.60q", csvOut.String())
	}
	var rank bytes.Buffer
	_, err = dataio.ExportResults(e.ctx, e.svc, clerk, "Council", "schulze", nil, dataio.ResultsJSON, &rank)
	e.must(err)
	if !strings.Contains(rank.String(), `"strongestPaths"`) {
		t.Errorf("Schulze JSON = %s", rank.String())
	}
	for _, tc := range []struct {
		name, method, format, want string
	}{
		{"ErrCSVForPairwise", "schulze", dataio.ResultsCSV, "RCTab's CSV report is for ranked-choice counts"},
		{"ErrPDF", "", dataio.ResultsPDF, "VoteDesk does not write PDF"},
		{"ErrFormat", "", "docx", `not "docx"`},
		{"ErrMethod", "coinflip", dataio.ResultsJSON, `unknown counting method "coinflip"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dataio.ExportResults(e.ctx, e.svc, clerk, "Council", tc.method, nil, tc.format, &bytes.Buffer{})
			if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(app.ErrorMessage(err), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestWriteFileAtomic checks that a failed write leaves the old file and
// no temporary file behind.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	e := os.WriteFile(path, []byte("old"), 0o644)
	if e != nil {
		t.Fatal(e)
	}
	boom := errors.New("boom")
	err := dataio.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		w.Write(bytes.Repeat([]byte("x"), 1<<20))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("a failed write changed the file to %.20q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed write left %d files", len(entries))
	}
	if err := dataio.WriteFileAtomic(path, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file = %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", fi.Mode())
	}
	if err := dataio.WriteFileAtomic(filepath.Join(dir, "missing", "x"), 0o600, func(io.Writer) error { return nil }); app.ErrorCode(err) != app.CodeInvalid {
		t.Errorf("write into a missing folder: %v", err)
	}
}

// TestExportBallotsInPages: an export reads an election's ballots a page
// at a time (a million read whole took 1.5 GB) and writes, byte for byte,
// what the ballots read whole give, in confirmation-code order.
func TestExportBallotsInPages(t *testing.T) {
	e := newEnv(t)
	castElection(e, false)
	n := 2*4096 + 5
	cvrs := make([]app.ImportedBallot, n)
	for i := range cvrs {
		cvrs[i] = app.ImportedBallot{SourceID: fmt.Sprintf("cvr-%05d", i), Precinct: fmt.Sprintf("P%d", i%7),
			Rankings: []app.Ranking{{Candidate: []string{"Ada", "Grace", "Alan"}[i%3], Rank: 1}, {Candidate: "Edsger", Rank: 2 + i%2}}}
	}
	_, err := e.svc.ImportBallots(e.ctx, clerk, "Council", app.SourceCVR, cvrs, nil)
	e.must(err)

	// The set made from every ballot at once, as the export made it.
	ballots, err := e.svc.Ballots(e.ctx, clerk, "Council")
	e.must(err)
	slices.SortFunc(ballots, func(a, b app.Ballot) int { return strings.Compare(a.Confirmation, b.Confirmation) })
	cands, err := e.svc.Candidates(e.ctx, clerk, "Council")
	e.must(err)
	var names []string
	for _, c := range cands {
		names = append(names, c.Name)
	}
	want := &tally.BallotSet{}
	for _, b := range ballots {
		marks, err := app.RankingsToMarks(nil, b.Rankings, app.MarkIndex(names))
		e.must(err)
		e.must(want.Add(b.Confirmation, 1, marks))
		want.SetPrecinct(b.Precinct)
	}
	for _, format := range []string{dataio.BallotsCSV, dataio.BallotsCDF} {
		var got, wantOut bytes.Buffer
		count, err := dataio.ExportBallots(e.ctx, e.svc, clerk, "Council", format, &got)
		e.must(err)
		e.must(dataio.WriteBallots(&wantOut, format, "Council", names, want, e.svc.Now()))
		// The CDF says when it was generated, by the clock, which may
		// have turned a second between the two.
		generated := regexp.MustCompile(`"GeneratedDate" : "[^"]*"`)
		g, w := generated.ReplaceAll(got.Bytes(), nil), generated.ReplaceAll(wantOut.Bytes(), nil)
		if count != len(ballots) || !bytes.Equal(g, w) {
			t.Errorf("%s: exported %d ballots (%d bytes); whole, %d (%d bytes)", format, count, got.Len(), len(ballots), wantOut.Len())
		}
	}
}
