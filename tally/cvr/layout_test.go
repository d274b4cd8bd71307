package cvr

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"votedesk/tally"
)

// TestRankHeaders: the headers ES&S exports, RCTab's conversion and
// counties' published files give their ranking columns name ranks; a
// number alone names one only beside the next ("1st,2nd,3rd"); other
// headers name none.
func TestRankHeaders(t *testing.T) {
	for h, want := range map[string]int{
		"1st Choice": 1, "2nd Choice": 2, "3rd Choice": 3, " 4th Choice": 4, "11th choice": 11,
		"1ST CHOICE": 1, "First Choice": 1, "Third Choice": 3, "Choice 1 of 5": 1, "Choice 3 of 5": 3,
		"Rank 1": 1, "rank_2": 2, "Cand Choice 1": 1, "Mayor - Rank 4": 4, "Preference 2": 2,
		"Rep. to Congress 1st Choice District 2": 1, "District 2 Rep. 3rd Choice": 3, "DEM Mayor Choice 2 of 5 Citywide (226916)": 2,
		"Choice": 0, "Rank": 0, "Count": 0, "Precinct": 0, "Ballot #": 0, "Candidate 1": 0,
		"1x Choice": 0, "Lettuce": 0, "": 0,
	} {
		got, named := rankHeader(h)
		if got != want || named != (want > 0) {
			t.Errorf("rankHeader(%q) = %d, %v; want %d", h, got, named, want)
		}
	}
	for header, want := range map[string][3]int{
		",1,2,3,4,5":               {1, 5, 1},
		"CVR ID,1st,2nd,3rd":       {1, 3, 1},
		"ID,1st Choice":            {1, 1, 1},
		"ID,1":                     {0, 0, 0},
		"ID,2,3":                   {0, 0, 0},
		"Alice,Bob,1":              {0, 0, 0},
		"Rank 2,Rank 1,Rank 2,x":   {1, 2, 1},
		"Choice 1,Choice 2,3rd,ID": {0, 2, 1},
	} {
		runs := rankRuns(strings.Split(header, ","))
		ok := len(runs) > 0
		var first, last int
		if ok {
			first, last = runs[0].first, runs[0].last
		}
		if got := [3]int{first, last, map[bool]int{true: 1}[ok]}; got != want {
			t.Errorf("the first run of ranking columns of %q = %v, want %v", header, got, want)
		}
	}
}

// TestInferLayout lays files out by their headers, and tells their format
// by them: the ranking columns (and only those) are read as ranks, the
// fields around them by their names.
func TestInferLayout(t *testing.T) {
	for _, tc := range []struct {
		header                                  string
		format                                  Format
		first, last, id, precinct, batch, count Index
	}{
		// Minneapolis as published.
		{"Precinct,1st Choice,2nd Choice,3rd Choice,Count", FormatESS, 2, 4, 0, 1, 0, 5},
		{"W-P,First Choice,Second Choice,Third Choice,Count", FormatESS, 2, 4, 0, 0, 0, 5},
		// RCTab's ES&S test files, and its CVR-to-CSV conversion.
		{"Ballot #,1st Choice,2nd Choice,3rd Choice, 4th Choice", FormatESS, 2, 5, 1, 0, 0, 0},
		{"Source Filepath,CVR Provider,Contest Id,RCTab CVR Id,Tabulator Id,Batch Id,Vendor Id,Precinct,Precinct Portion,Rank 1,Rank 2,Rank 3", FormatESS, 10, 12, 4, 8, 6, 0},
		// ES&S's own columns.
		{"Cast Vote Record,Precinct,Ballot Style,Choice 1 of 3,Choice 2 of 3,Choice 3 of 3", FormatESS, 4, 6, 1, 2, 0, 0},
		// A column after the rankings that is no count is not read.
		{"CVR,Rank 1,Rank 2,Rank 3,Notes", FormatESS, 2, 4, 1, 0, 0, 0},
		// Ranks must run 1, 2, 3 in a row: the fourth column is not rank 3.
		{"ID,Choice 1,Choice 2,Choice 4", FormatESS, 2, 3, 1, 0, 0, 0},
		// RCTab's generic CSV: candidates in the columns, no ranks named.
		{"Response ID,precinct_id,batch_id,Lettuce,Broccoli,Cucumber,Cauliflower,Write-In", FormatGenericCSV, 4, 0, 1, 2, 3, 0},
		{"Alice,Bob,Carol", FormatGenericCSV, 1, 0, 0, 0, 0, 0},
		{"Ballot,Alice,Bob", FormatGenericCSV, 2, 0, 1, 0, 0, 0},
	} {
		path := writeTemp(t, "cvr.csv", tc.header+"\n")
		format, err := DetectFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if format != tc.format {
			t.Errorf("%q: detected %s, want %s", tc.header, format, tc.format)
			continue
		}
		src := Source{Provider: format, FilePath: path}
		if err := InferLayout(&src, nil); err != nil {
			t.Errorf("%q: %v", tc.header, err)
			continue
		}
		got := [6]Index{src.FirstVoteColumnIndex, src.LastVoteColumnIndex, src.IDColumnIndex, src.PrecinctColumnIndex, src.BatchColumnIndex, src.CountColumnIndex}
		if want := [6]Index{tc.first, tc.last, tc.id, tc.precinct, tc.batch, tc.count}; got != want {
			t.Errorf("%q: first, last, id, precinct, batch, count columns %v, want %v", tc.header, got, want)
		}
		if src.FirstVoteRowIndex != 2 {
			t.Errorf("%q: ballots from row %d, want 2", tc.header, src.FirstVoteRowIndex)
		}
		if err := src.Validate(); err != nil {
			t.Errorf("%q: the inferred layout does not validate: %v", tc.header, err)
		}
	}
	// A layout given (by a config) is kept as it is.
	src := Source{Provider: FormatESS, FilePath: writeTemp(t, "cvr.csv", "Precinct,1st Choice,Count\n"), FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2}
	if err := InferLayout(&src, nil); err != nil || src.LastVoteColumnIndex != 0 || src.CountColumnIndex != 0 || src.OvervoteLabel != "" {
		t.Errorf("a given layout was changed: %+v, %v", src, err)
	}
	// A generic CSV with a count column (after its candidates in FairVote's
	// copies of Cambridge's cast vote records: the number of rankings) is
	// refused, not read as a candidate nor passed over.
	src = Source{Provider: FormatGenericCSV, FilePath: writeTemp(t, "cambridge.csv", "ID,Benzan Dennis A.,Carlone Dennis J.,count\n\"001001-00-0003,10003,001,1)\", ,1,1\n")}
	if err := InferLayout(&src, nil); err == nil || !strings.Contains(err.Error(), `cambridge.csv: line 1: column 4, "count", counts something`) {
		t.Errorf("a count after the candidates: %v", err)
	}
	src = Source{Provider: FormatGenericCSV, FilePath: writeTemp(t, "weights.csv", "Weight,Alice,Bob\n3,1,2\n")}
	if err := InferLayout(&src, func(n string) bool { return n == "Alice" || n == "Bob" }); err == nil || !strings.Contains(err.Error(), `column 1, "Weight", counts something`) {
		t.Errorf("a weight before the candidates: %v", err)
	}
	// Generic CSV whose every header names a record field.
	src = Source{Provider: FormatGenericCSV, FilePath: writeTemp(t, "cvr.csv", "Ballot ID,Precinct\n")}
	var pe *ParseError
	if err := InferLayout(&src, nil); !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(err.Error(), "ballot columns are unknown") {
		t.Errorf("a header of record fields alone: %v", err)
	}
}

// TestSheetOfSeveralContests: New York City publishes every contest of a
// primary in one sheet, five ranking columns each, every header with its
// own code. The contest named is read, by its name or a part of it that
// fits it alone; naming none, or a part that fits several, is refused with
// the contests listed.
func TestSheetOfSeveralContests(t *testing.T) {
	var header []string
	header = append(header, "Cast Vote Record", "Precinct", "Ballot Style")
	for i, contest := range []string{"DEM Mayor", "DEM Comptroller", "REP Mayor"} {
		for r := 1; r <= 5; r++ {
			header = append(header, contest+" Choice "+strconv.Itoa(r)+" of 5 Citywide ("+strconv.Itoa(r-1)+"2691"+strconv.Itoa(6+i)+")")
		}
	}
	row := []string{"c1", "MN 1", "BS1", "Eric", "Maya", "undervote", "undervote", "undervote", "Brad", "", "", "", "", "Curtis", "overvote", "", "", ""}
	path := writeTemp(t, "nyc.csv", strings.Join(header, ",")+"\n"+strings.Join(row, ",")+"\n")
	contests, err := SheetContests(path)
	if err != nil || len(contests) != 3 || contests[0].Name != "DEM Mayor Citywide" || contests[2].ID != "REP Mayor Citywide" {
		t.Fatalf("contests %+v, %v", contests, err)
	}
	for contest, want := range map[string]string{"DEM Mayor Citywide": "1:Eric 2:Maya", "dem comptroller": "1:Brad", "REP Mayor": "1:Curtis 2:#over"} {
		f, err := ReadFile(context.Background(), Source{FilePath: path, ContestID: contest}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", contest, err)
		}
		got := rankedNames(&f.Ballots, 0, f.Candidates)
		if got != want || f.Ballots.ID(0) != "c1" || f.Ballots.Precincts[0] != "MN 1" {
			t.Errorf("%s: read %q (id %q), want %q", contest, got, f.Ballots.ID(0), want)
		}
	}
	for contest, want := range map[string]string{
		"":         `the sheet holds 3 contests; name one with --contest: "DEM Mayor Citywide", "DEM Comptroller Citywide", "REP Mayor Citywide"`,
		"Mayor":    `contest "Mayor" could be any of "DEM Mayor Citywide", "REP Mayor Citywide"; name it in full`,
		"Governor": `no ranking columns are of contest "Governor"`,
	} {
		_, err := ReadFile(context.Background(), Source{FilePath: path, ContestID: contest}, Options{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nyc.csv") {
			t.Errorf("contest %q: %v, want %q", contest, err, want)
		}
	}
}

// minneapolisRows reads a Minneapolis cast vote record CSV with the
// standard library, independently of the readers: each row's rankings
// and count.
func minneapolisRows(t *testing.T, path string) (rows [][]string, counts []int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	for sc.Scan() {
		cells := strings.Split(sc.Text(), ",")
		n, err := strconv.ParseFloat(cells[len(cells)-1], 64)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, cells[1:len(cells)-1])
		counts = append(counts, int(n))
	}
	return rows, counts
}

// TestMinneapolis2009Ward1: the whole cast vote record of a real election,
// as the city published it (aggregated rows with a count written "4.0", a
// ward-precinct column, "XXX" for a rank left blank, write-ins by the names
// voters wrote), read with only the skipped-rank label given. Every row is
// a record weighted by its count, its ballots rank what the row says, and
// the count elects Kevin Reich (REI) in round 1 with 1,997 of the 3,969
// ballots that rank anyone, 50.3%.
func TestMinneapolis2009Ward1(t *testing.T) {
	path := "testdata/real/minneapolis-2009-ward-1.csv"
	f, err := ReadFile(context.Background(), Source{FilePath: path, SkippedRankLabel: "XXX"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatESS {
		t.Errorf("read as %s, want %s", f.Format, FormatESS)
	}
	rows, counts := minneapolisRows(t, path)
	if f.Stats.Records != len(rows) || f.Ballots.Len() != len(rows) || f.Ballots.Total() != 4016 || f.Stats.Ballots != 4016 {
		t.Fatalf("%d records, %d ballots (stats %+v); want %d rows, 4,016 ballots", f.Ballots.Len(), f.Ballots.Total(), f.Stats, len(rows))
	}
	for i, row := range rows {
		var want []string
		for r, name := range row {
			if name != "XXX" {
				want = append(want, strconv.Itoa(r+1)+":"+name)
			}
		}
		_, count := f.Ballots.Ballot(i)
		got := rankedNames(&f.Ballots, i, f.Candidates)
		if got != strings.Join(want, " ") || int(count) != counts[i] {
			t.Fatalf("row %d read as %q × %d, want %q × %d", i+2, got, count, want, counts[i])
		}
	}
	contest := tally.Contest{Candidates: make([]tally.Candidate, len(f.Candidates))}
	for i, n := range f.Candidates {
		contest.Candidates[i].Name = n
	}
	res, err := tally.Tabulate(contest, &f.Ballots, tally.IRV, tally.DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Winners) != 1 || f.Candidates[res.Winners[0]] != "REI" || len(res.Passes) != 1 || len(res.Passes[0].Rounds) != 1 {
		t.Fatalf("winners %v after %v, want REI in round 1", res.Winners, res.Passes)
	}
}

// TestMinneapolis2017Ward3: a real county file with ES&S's own labels,
// read with nothing given: "undervote" is no mark, "overvote" an
// overvote, "UWI" the undeclared write-in, a candidate ranked three times
// is kept three times, and each ballot keeps its precinct.
func TestMinneapolis2017Ward3(t *testing.T) {
	path := "testdata/real/minneapolis-2017-ward-3-first-records.csv"
	f, err := ReadFile(context.Background(), Source{FilePath: path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := minneapolisRows(t, path)
	if f.Ballots.Len() != len(rows) || f.Ballots.Total() != uint64(len(rows)) {
		t.Fatalf("%d records, %d ballots; want %d of each", f.Ballots.Len(), f.Ballots.Total(), len(rows))
	}
	names := map[string]bool{}
	for _, c := range f.Candidates {
		names[c] = true
	}
	for _, want := range []string{"Ginger Jentzen", "Samantha Pree-Stinson", "Steve Fletcher", "Tim Bildsoe", UndeclaredWriteIn} {
		if !names[want] {
			t.Errorf("candidate %q missing from %q", want, f.Candidates)
		}
	}
	if len(f.Candidates) != 5 {
		t.Errorf("candidates %q: a label was read as a name", f.Candidates)
	}
	for i, row := range rows {
		var want []string
		for r, name := range row {
			switch name {
			case "undervote":
			case "overvote":
				want = append(want, strconv.Itoa(r+1)+":#over")
			case "UWI":
				want = append(want, strconv.Itoa(r+1)+":"+UndeclaredWriteIn)
			default:
				want = append(want, strconv.Itoa(r+1)+":"+name)
			}
		}
		if got := rankedNames(&f.Ballots, i, f.Candidates); got != strings.Join(want, " ") {
			t.Fatalf("row %d read as %q, want %q", i+2, got, want)
		}
		if p := f.Ballots.Precincts[i]; !strings.HasPrefix(p, "MINNEAPOLIS W-3 P-") {
			t.Fatalf("row %d: precinct %q", i+2, p)
		}
	}
}

// TestCountColumn: a count column weights its row; a count that is not a
// whole number is refused with its line and column, a row counting 0 is
// skipped, and a row with an id stands for one ballot.
func TestCountColumn(t *testing.T) {
	ctx := context.Background()
	f, err := ReadFile(ctx, Source{FilePath: writeTemp(t, "cvr.csv", "Precinct,1st Choice,2nd Choice,Count\nP1,A,B,3\nP1,B,undervote,0\nP2,B,A,2.00\n")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Ballots.Len() != 2 || f.Ballots.Total() != 5 || f.Stats.Skipped != 1 {
		t.Errorf("%d records, %d ballots, %d skipped; want 2, 5, 1", f.Ballots.Len(), f.Ballots.Total(), f.Stats.Skipped)
	}
	for body, want := range map[string]string{
		"Precinct,1st Choice,Count\nP1,A,1.5\n":         "line 2, column 3: expected a count of ballots",
		"Precinct,1st Choice,Count\nP1,A,-1\n":          "line 2, column 3: expected a count of ballots",
		"Precinct,1st Choice,Count\nP1,A,\n":            "line 2, column 3: expected a count of ballots",
		"Precinct,1st Choice,Count\nP1,A,99999999999\n": "line 2, column 3: expected a count of ballots",
		"Ballot ID,1st Choice,Count\nb1,A,2\n":          "line 2, column 3: a record with an id stands for one ballot",
	} {
		_, err := ReadFile(ctx, Source{FilePath: writeTemp(t, "cvr.csv", body)}, Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// TestESSAsCSVReadsAsTheSpreadsheet: RCTab's ES&S test spreadsheets and
// the same sheets saved as CSV (the shared data's .derived.csv) give the
// same ballots, with the layout read from each one's header.
func TestESSAsCSVReadsAsTheSpreadsheet(t *testing.T) {
	derived, err := filepath.Glob(filepath.Join(sharedTestdata, "rctab", "*", "*.xlsx.derived.csv"))
	if err != nil || len(derived) < 8 {
		t.Fatalf("%d derived CSV files in the shared data: %v", len(derived), err)
	}
	for _, csvPath := range derived {
		name := filepath.Base(csvPath)
		xlsx := strings.TrimSuffix(csvPath, ".derived.csv")
		fromSheet, err := ReadFile(context.Background(), Source{FilePath: xlsx}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		fromCSV, err := ReadFile(context.Background(), Source{FilePath: csvPath}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, b := renderAll(&fromSheet.Ballots, fromSheet.Candidates), renderAll(&fromCSV.Ballots, fromCSV.Candidates)
		if strings.Join(a, "\n") != strings.Join(b, "\n") || len(a) == 0 {
			t.Errorf("%s: the sheet reads as %q, its CSV as %q", name, a, b)
		}
		for _, c := range fromSheet.Candidates {
			if c == "overvote" || c == "undervote" {
				t.Errorf("%s: label %q read as a candidate", name, c)
			}
		}
	}
}

// TestESSSheetsAloneReadAsTheirConfigs: every ES&S spreadsheet of RCTab's
// cases, named alone (its layout and labels from its header), reads as its
// config reads it: the same ballots, in order, by candidate name.
func TestESSSheetsAloneReadAsTheirConfigs(t *testing.T) {
	for _, name := range []string{"continue_until_two_with_batch_elimination_test", "exhaust_if_multiple_continuing",
		"multi_seat_bottoms_up_with_dynamic_threshold", "sequential_with_continue_until_two",
		"test_set_allow_only_one_winner_per_round", "tiebreak_previous_round_counts_then_random_test"} {
		sources, names, _ := loadRCTab(t, filepath.Join(name, name+"_config.json"))
		for _, src := range sources {
			set, _ := mustRead(t, src, names, Options{})
			alone, err := ReadFile(context.Background(), Source{FilePath: src.FilePath}, Options{})
			if err != nil {
				t.Fatalf("%s alone: %v", src.FilePath, err)
			}
			want, got := renderAll(set, names), renderAll(&alone.Ballots, alone.Candidates)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s alone reads\n%q\nits config\n%q", filepath.Base(src.FilePath), got, want)
			}
		}
	}
}

// TestESSCSVWithByteOrderMark: a sheet saved as CSV by a spreadsheet
// program starts with a byte order mark; its header still lays it out.
func TestESSCSVWithByteOrderMark(t *testing.T) {
	p := writeTemp(t, "b.csv", "\xEF\xBB\xBFPrecinct,1st Choice,2nd Choice\nP1,A,B\n")
	f, err := ReadFile(context.Background(), Source{FilePath: p}, Options{})
	if err != nil || f.Format != FormatESS || f.Ballots.Len() != 1 || f.Ballots.Precincts[0] != "P1" {
		t.Fatalf("%+v, %v", f, err)
	}
}
