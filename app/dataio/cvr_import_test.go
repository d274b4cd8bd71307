package dataio_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally"
	"votedesk/tally/cvr"
)

var (
	burlingtonDir   = filepath.Join(shared, "real", "burlington_2009_mayor")
	burlingtonBLT   = filepath.Join(burlingtonDir, "2009-Burlington-Mayor.blt")
	burlingtonTOI   = filepath.Join(burlingtonDir, "00005-00000002.toi")
	burlingtonCands = []string{"Bob Kiss", "Andy Montroll", "James Simpson", "Dan Smith", "Kurt Wright", "Write-in"}
	burlingtonRules = map[string]string{"overvoteRule": "exhaustIfMultipleContinuing", "batchElimination": "true"}
)

// TestImportCVRBurlington imports the real Burlington 2009 ballots from BLT
// and from PrefLib, and counts them to the official result.
func TestImportCVRBurlington(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		ballots    int
		matches    []dataio.NameMatch
	}{
		{"BLT", burlingtonBLT, 8984, nil},
		{"PrefLib", burlingtonTOI, 8980, []dataio.NameMatch{{InFile: "Write-In", Candidate: "Write-in", How: dataio.MatchFolded}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.election("Mayor", false, burlingtonCands...)
			var stages []string
			im, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "Mayor", []cvr.Source{{FilePath: tc.file}}, dataio.CVROptions{
				Progress: func(p dataio.Progress) {
					if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
						stages = append(stages, p.Stage)
					}
					if p.Done > p.Total {
						t.Errorf("progress %+v is past its total", p)
					}
				},
			})
			e.must(err)
			if im.Ballots != tc.ballots || len(im.Files) != 1 || im.Files[0].WithoutIDs == 0 || len(im.Files[0].FileID) != 12 {
				t.Errorf("import = %+v", im)
			}
			if strings.Join(stages, ",") != "read,record" {
				t.Errorf("progress stages = %v", stages)
			}
			if len(im.Matches) != len(tc.matches) || len(tc.matches) > 0 && im.Matches[0] != tc.matches[0] {
				t.Errorf("matches = %+v, want %+v", im.Matches, tc.matches)
			}
			counted, _, err := e.svc.CountStored(e.ctx, clerk, "Mayor", "irv", burlingtonRules, nil)
			e.must(err)
			last := counted.Result.Passes[0].Rounds[len(counted.Result.Passes[0].Rounds)-1]
			got := map[string]string{}
			for _, v := range last.Tally {
				got[burlingtonCands[v.Candidate]] = v.Votes.String()
			}
			if got["Bob Kiss"] != "4313" || got["Kurt Wright"] != "4061" {
				t.Errorf("final round = %v, want Kiss 4313, Wright 4061", got)
			}
			t.Run("ErrSameFileAgain", func(t *testing.T) {
				before := e.logLength()
				_, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "Mayor", []cvr.Source{{FilePath: tc.file}}, dataio.CVROptions{})
				if app.ErrorCode(err) != app.CodeConflict || !strings.Contains(app.ErrorMessage(err), filepath.Base(tc.file)+": record 1") ||
					!strings.Contains(app.ErrorMessage(err), "already imported") {
					t.Errorf("second import: %v", err)
				}
				if e.logLength() != before {
					t.Error("a refused import wrote to the log")
				}
			})
		})
	}
}

// TestImportCVRFormats imports a file of each remaining format, detected
// from its name and content.
func TestImportCVRFormats(t *testing.T) {
	rctab := filepath.Join(shared, "rctab")
	for _, tc := range []struct {
		name       string
		file       string
		candidates []string
		ballots    int
		repeated   int
	}{
		{"CDF", filepath.Join(rctab, "test_set_1_exhaust_at_overvote", "test_set_1_exhaust_at_overvote_cvr.json"),
			[]string{"Candidate A Name", "Candidate B Name", "Candidate C Name", "Candidate D Name"}, 15, 0},
		{"GenericCSVIDFirst", writeFile(t, "plain.csv", "BallotID,A,B,C\nx1,1,,2\nx2,,1,\n"), []string{"A", "B", "C"}, 2, 0},
		{"GenericCSV", filepath.Join(rctab, "generic_csv_test", "generic_csv_test_cvr.csv"),
			[]string{"Lettuce", "Broccoli", "Cucumber", "Cauliflower", "Write-In"}, 26, 0},
		{"ClearBallot", filepath.Join(rctab, "clear_ballot_kansas_primary", "clear_ballot_kansas_primary.cvr.csv"),
			[]string{"Michael Bennet", "Joe Biden", "Cory Booker", "Steven Bullock", "Pete Buttigieg", "Julian Castro", "John Delaney",
				"Tulsi Gabbard", "Kamala Harris", "Amy Klobuchar", "Beto O'Rourke", "Bernie Sanders", "Tom Steyer", "Elizabeth Warren",
				"Marianne Williamson", "Andrew Yang", "UWI"}, 50, 2},
		{"ESS", filepath.Join(rctab, "exhaust_if_multiple_continuing", "exhaust_if_multiple_continuing_cvr.xlsx"),
			[]string{"A", "B", "C", "D"}, 9, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.election("E", false, tc.candidates...)
			src := cvr.Source{FilePath: tc.file}
			if tc.name == "ESS" {
				src.OvervoteDelimiter = "|"
			}
			im, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "E", []cvr.Source{src}, dataio.CVROptions{})
			e.must(err)
			if im.Ballots != tc.ballots || im.Files[0].Repeated != tc.repeated {
				t.Errorf("imported %d ballots (%d with repeated rankings), want %d (%d)", im.Ballots, im.Files[0].Repeated, tc.ballots, tc.repeated)
			}
			ballots, err := e.svc.Ballots(e.ctx, clerk, "E")
			e.must(err)
			repeated := 0
			for _, b := range ballots {
				seen := map[string]bool{}
				for _, r := range b.Rankings {
					if seen[r.Candidate] && r.Candidate != app.OvervoteLabel {
						repeated++
						break
					}
					seen[r.Candidate] = true
				}
			}
			if repeated != tc.repeated {
				t.Errorf("%d stored ballots rank a candidate twice, want %d kept as cast", repeated, tc.repeated)
			}
		})
	}
}

// TestImportCVRAliases matches names by alias and by case and spacing.
func TestImportCVRAliases(t *testing.T) {
	e := newEnv(t)
	e.election("E", false, "Alice Smith", "Bob Jones", "Carol King")
	file := writeFile(t, "ballots.csv", "ballot_id,rank_1,rank_2\n1,ALICE  smith,BJ\n2,Carol King,\n3,bj,Alice Smith\n")
	im, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "E", []cvr.Source{{FilePath: file}}, dataio.CVROptions{Aliases: map[string]string{"BJ": "bob jones"}})
	e.must(err)
	want := []dataio.NameMatch{{"ALICE  smith", "Alice Smith", dataio.MatchFolded}, {"BJ", "Bob Jones", dataio.MatchAlias}, {"bj", "Bob Jones", dataio.MatchFolded}}
	if len(im.Matches) != len(want) {
		t.Fatalf("matches = %+v", im.Matches)
	}
	for i := range want {
		if im.Matches[i] != want[i] {
			t.Errorf("match %d = %+v, want %+v", i, im.Matches[i], want[i])
		}
	}
	ballots, err := e.svc.Ballots(e.ctx, clerk, "E")
	e.must(err)
	if len(ballots) != 3 || ballots[0].SourceID != "1" || ballots[0].Rankings[1].Candidate != "Bob Jones" || ballots[0].Voter != "" || ballots[0].Source != app.SourceCVR {
		t.Errorf("ballots = %+v", ballots)
	}
	t.Run("ErrAliasToNobody", func(t *testing.T) {
		_, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "E", []cvr.Source{{FilePath: file}}, dataio.CVROptions{Aliases: map[string]string{"BJ": "Bobby"}})
		if !strings.Contains(app.ErrorMessage(err), `alias "BJ" names "Bobby", which is not a candidate`) {
			t.Errorf("alias to no candidate: %v", err)
		}
	})
	t.Run("ErrCandidatesDifferingInCase", func(t *testing.T) {
		// Names compare without letter case, so a name in a file can never
		// match two candidates: such candidates are refused.
		e := newEnv(t)
		e.must(e.svc.CreateElection(e.ctx, clerk, "F", "", false))
		if err := e.svc.AddCandidates(e.ctx, clerk, "F", "Lee", "LEE"); !app.IsCode(err, app.CodeInvalid) {
			t.Errorf("candidates Lee and LEE: %v, want refused", err)
		}
	})
}

// TestImportCVRRefused checks that bad files are refused with the file, the
// line or record, and why, and that nothing is imported.
func TestImportCVRRefused(t *testing.T) {
	e := newEnv(t)
	e.election("E", false, "A", "B", "C")
	good := writeFile(t, "good.csv", "ballot_id,rank_1,rank_2\ng1,A,B\ng2,B,\n")
	e.must2(dataio.ImportCVRs(e.ctx, e.svc, clerk, "E", []cvr.Source{{FilePath: good}}, dataio.CVROptions{}))
	for _, tc := range []struct {
		name  string
		files map[string]string
		code  app.Code
		want  string
	}{
		{"ErrUnknownCandidate", map[string]string{"a.csv": "ballot_id,rank_1\nx1,A\nx2,Zed\n"}, app.CodeInvalid,
			`a.csv: line 3, column 2: unknown candidate "Zed" (the election's candidates are A, B, C: add a missing one first)`},
		{"ErrMalformedRecord", map[string]string{"a.csv": "ballot_id,rank_1,rank_2\nx1,A\n"}, app.CodeInvalid,
			`a.csv: line 2: the row has 2 fields, the header 3`},
		{"ErrIDRepeatedInFile", map[string]string{"a.csv": "ballot_id,rank_1\nx1,A\nx2,B\nx1,C\n"}, app.CodeInvalid,
			`a.csv: record 3: ballot id "x1" repeats record 1`},
		{"ErrIDRepeatedAcrossFiles", map[string]string{"a.csv": "ballot_id,rank_1\nx1,A\nx2,B\n", "b.csv": "ballot_id,rank_1\nx3,A\nx2,C\n"}, app.CodeInvalid,
			`b.csv: record 2: ballot id "x2" repeats record 2 of a.csv`},
		{"ErrIDAlreadyImported", map[string]string{"a.csv": "ballot_id,rank_1\nx1,A\ng2,B\n"}, app.CodeConflict,
			`a.csv: record 2 (source id "g2"): a ballot with source id "g2" was already imported into "E"`},
		{"ErrSecondFileBad", map[string]string{"a.csv": "ballot_id,rank_1\nx1,A\n", "b.csv": "ballot_id,rank_1\nx2,\"A\n"}, app.CodeInvalid,
			`b.csv: line 2`},
		{"ErrUnknownFormat", map[string]string{"a.dat": "hello"}, app.CodeInvalid,
			`a.dat: cannot tell the format from its name or content`},
		{"ErrEmpty", map[string]string{"a.csv": "ballot_id,rank_1\n"}, app.CodeInvalid, `the files hold no ballots`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var srcs []cvr.Source
			for _, name := range []string{"a.csv", "a.blt", "a.dat", "b.csv"} {
				if content, ok := tc.files[name]; ok {
					p := filepath.Join(dir, name)
					writeAt(t, p, content)
					srcs = append(srcs, cvr.Source{FilePath: p})
				}
			}
			before := e.logLength()
			_, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "E", srcs, dataio.CVROptions{})
			if app.ErrorCode(err) != tc.code || !strings.HasPrefix(app.ErrorMessage(err), tc.want) {
				t.Errorf("err = %v (%s), want %s %q", app.ErrorMessage(err), app.ErrorCode(err), tc.code, tc.want)
			}
			if e.logLength() != before {
				t.Error("a refused import wrote to the log")
			}
		})
	}
	t.Run("ErrObserver", func(t *testing.T) {
		_, err := dataio.ImportCVRs(e.ctx, e.svc, observer, "E", []cvr.Source{{FilePath: good}}, dataio.CVROptions{})
		if app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("observer import: %v", err)
		}
	})
	t.Run("ErrNoCandidates", func(t *testing.T) {
		e.must(e.svc.CreateElection(e.ctx, clerk, "Empty", "", false))
		_, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "Empty", []cvr.Source{{FilePath: good}}, dataio.CVROptions{})
		if app.ErrorCode(err) != app.CodeConflict || !strings.Contains(app.ErrorMessage(err), "no candidates") {
			t.Errorf("import into an election without candidates: %v", err)
		}
	})
	var pe *cvr.ParseError
	_, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "E", []cvr.Source{{FilePath: writeFile(t, "z.csv", "ballot_id,rank_1\n1,Q\n")}}, dataio.CVROptions{})
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("the error does not carry the cvr.ParseError: %v", err)
	}
}

func (e *env) must2(_ any, err error) {
	e.t.Helper()
	e.must(err)
}

// TestImportCVRWeightBomb: a 50-byte BLT weighting two records a billion
// times each (once 40 GB and a crash) is refused at the record that passes
// MaxImportBallots, within a second, naming the file and line, with nothing
// written; so is a set of files that passes it together.
func TestImportCVRWeightBomb(t *testing.T) {
	e := newEnv(t)
	e.election("Mayor", false, "A", "B")
	bomb := writeFile(t, "bomb.blt", "2 1\n1000000000 1 0\n1000000000 2 0\n0\n\"A\"\n\"B\"\n")
	half := writeFile(t, "half.blt", "2 1\n15000000 1 0\n0\n\"A\"\n\"B\"\n")
	before := e.logLength()
	for _, files := range [][]string{{bomb}, {half, half}} {
		start := time.Now()
		var sources []cvr.Source
		for _, f := range files {
			sources = append(sources, cvr.Source{FilePath: f})
		}
		_, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "Mayor", sources, dataio.CVROptions{})
		if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(app.ErrorMessage(err), "line 2: the file holds more than") {
			t.Errorf("%v: %v", files, err)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("%v: refused after %v", files, took)
		}
	}
	if e.logLength() != before {
		t.Error("a refused import wrote to the log")
	}
}

// TestImportCVRCountyFiles imports real cast vote records as their
// counties published them (tally/cvr/testdata/real): Minneapolis 2009 Ward
// 1, rows weighted by a count column with "XXX" for a blank rank; the
// first records of Minneapolis 2017 Ward 3 with ES&S's labels and a
// precinct per ballot; and Oakland's 2018 ballot image with its master
// lookup, three ranks for two candidates and a write-in.
// Each stored election holds every ballot the file counts, and counting it
// gives, round by round, what counting the file directly gives.
func TestImportCVRCountyFiles(t *testing.T) {
	real := filepath.Join("..", "..", "tally", "cvr", "testdata", "real")
	for _, tc := range []struct {
		file    string
		src     cvr.Source
		ballots int
	}{
		{"minneapolis-2009-ward-1.csv", cvr.Source{SkippedRankLabel: "XXX"}, 4016},
		{"minneapolis-2017-ward-3-first-records.csv", cvr.Source{}, 237},
		{"oakland-2018-school-director-6", cvr.Source{}, 40},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src := tc.src
			src.FilePath = filepath.Join(real, tc.file)
			direct, err := cvr.ReadFile(context.Background(), src, cvr.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e := newEnv(t)
			e.election("Council", false, direct.Candidates...)
			im, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "Council", []cvr.Source{src}, dataio.CVROptions{})
			e.must(err)
			if im.Ballots != tc.ballots {
				t.Fatalf("imported %d ballots, want %d", im.Ballots, tc.ballots)
			}
			ballots, err := e.svc.Ballots(e.ctx, clerk, "Council")
			e.must(err)
			if len(ballots) != tc.ballots {
				t.Fatalf("%d ballots stored, want %d", len(ballots), tc.ballots)
			}
			if direct.Ballots.Precincts != nil && ballots[0].Precinct == "" {
				t.Error("the stored ballots lost their precincts")
			}
			stored, _, err := e.svc.CountStored(e.ctx, clerk, "Council", "irv", nil, nil)
			e.must(err)
			contest := tally.Contest{Candidates: make([]tally.Candidate, len(direct.Candidates))}
			for i, n := range direct.Candidates {
				contest.Candidates[i] = tally.Candidate{Name: n, UndeclaredWriteIn: n == cvr.UndeclaredWriteIn}
			}
			rules := tally.DefaultRules()
			rules.MaxRankingsAllowed = max(direct.Ballots.Positions(), contest.DeclaredCount())
			fromFile, err := tally.Tabulate(contest, &direct.Ballots, tally.IRV, rules)
			e.must(err)
			if got, want := roundsByName(stored.Result, direct.Candidates), roundsByName(fromFile, direct.Candidates); got != want {
				t.Errorf("the stored election counts\n%s\nthe file\n%s", got, want)
			}
		})
	}
}

// roundsByName writes a count's rounds with candidates by name.
func roundsByName(r tally.Result, names []string) string {
	var b strings.Builder
	for _, round := range r.Passes[0].Rounds {
		for _, v := range round.Tally {
			fmt.Fprintf(&b, "%s=%s ", names[v.Candidate], v.Votes)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestImportMatchingNames: Minneapolis 2009 Ward 1 as published names
// 48 write-ins by what voters wrote and "XXX" for a rank left blank. Its
// import is refused until an official matches them: UnknownNames lists
// them, in the order the file first names them; with "XXX" matched to a
// blank rank and the others to the election's write-in, all 4,016 ballots
// are imported and count as the file does. A name matched to an overvote
// is stored as one.
func TestImportMatchingNames(t *testing.T) {
	e := newEnv(t)
	cands := []string{"ALE", "FOX", "HAN", "RAN", "REI", "Write-in"}
	e.election("Ward 1", false, cands...)
	src := cvr.Source{FilePath: filepath.Join("..", "..", "tally", "cvr", "testdata", "real", "minneapolis-2009-ward-1.csv")}
	_, err := dataio.ReadCVRs(e.ctx, cands, []cvr.Source{src}, dataio.CVROptions{})
	if !errors.Is(err, cvr.ErrUnknownCandidate) {
		t.Fatalf("unmatched names: %v", err)
	}
	unknown, err := dataio.UnknownNames(e.ctx, cands, []cvr.Source{src}, dataio.CVROptions{})
	e.must(err)
	if len(unknown) != 49 || unknown[0] != "ART CLARK" || unknown[1] != "XXX" || slices.Contains(unknown, "REI") {
		t.Fatalf("unknown names %q", unknown)
	}
	opts := dataio.CVROptions{NoMark: []string{"XXX"}, Aliases: map[string]string{}}
	for _, n := range unknown[2:] {
		opts.Aliases[n] = "Write-in"
	}
	if left, err := dataio.UnknownNames(e.ctx, cands, []cvr.Source{src}, opts); err != nil || len(left) != 1 || left[0] != "ART CLARK" {
		t.Fatalf("left unmatched: %q, %v", left, err)
	}
	opts.Aliases["ART CLARK"] = "Write-in"
	im, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, "Ward 1", []cvr.Source{src}, opts)
	e.must(err)
	if im.Ballots != 4016 || !slices.Contains(im.Matches, dataio.NameMatch{InFile: "XXX", Candidate: dataio.MatchNoMark, How: dataio.MatchNoMark}) {
		t.Fatalf("imported %d ballots, matches %+v", im.Ballots, im.Matches)
	}
	stored, _, err := e.svc.CountStored(e.ctx, clerk, "Ward 1", "irv", nil, nil)
	e.must(err)
	if w := stored.Result.Winners; len(w) != 1 || cands[w[0]] != "REI" || len(stored.Result.Passes[0].Rounds) != 1 {
		t.Errorf("winners %v after %d rounds, want REI in round 1", w, len(stored.Result.Passes[0].Rounds))
	}

	e.election("Overvotes", false, "A", "B")
	ov := writeFile(t, "ov.csv", "ballot_id,rank_1,rank_2\nb1,OV,A\nb2,B,BLANK\n")
	_, err = dataio.ImportCVRs(e.ctx, e.svc, clerk, "Overvotes", []cvr.Source{{FilePath: ov}}, dataio.CVROptions{Overvote: []string{"OV"}, NoMark: []string{"BLANK"}})
	e.must(err)
	ballots, err := e.svc.Ballots(e.ctx, clerk, "Overvotes")
	e.must(err)
	if len(ballots) != 2 || ballots[0].Rankings[0].Candidate != app.OvervoteLabel || len(ballots[1].Rankings) != 1 {
		t.Errorf("stored %+v", ballots)
	}
}
