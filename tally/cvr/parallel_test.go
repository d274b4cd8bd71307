package cvr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"votedesk/tally"
)

// orderedCandidates resolves names like fileCandidates and records the
// order it was asked in, which a resolver may depend on.
type orderedCandidates struct {
	fileCandidates
	asked   []string
	unknown string // a name it does not know
}

func (c *orderedCandidates) Candidate(name string) (uint16, bool) {
	c.asked = append(c.asked, name)
	if name == c.unknown {
		return 0, false
	}
	return c.fileCandidates.Candidate(name)
}

// stretchOutcome is everything a read gives back.
type stretchOutcome struct {
	set   tally.BallotSet
	stats Stats
	err   string
	asked []string
}

// readInStretches reads a CSV (generic or VoteDesk) in n stretches (1: one row after
// another), with stretches used from any size on when n > 1.
func readInStretches(t *testing.T, src Source, n int, aliases map[string]string, unknown string) stretchOutcome {
	t.Helper()
	oldBytes, oldStretches := parallelBytes, stretches
	defer func() { parallelBytes, stretches = oldBytes, oldStretches }()
	parallelBytes, stretches = 1, func() int { return n }
	cands := &orderedCandidates{fileCandidates: fileCandidates{index: map[string]uint16{}}, unknown: unknown}
	// Known in another order than the files' columns, so a column's
	// position is not its candidate's.
	for _, name := range []string{"Late", "Dee", "Cal", "Ben", "Ada"} {
		cands.fileCandidates.Candidate(name)
	}
	for alias, name := range aliases {
		i, _ := cands.fileCandidates.Candidate(name)
		cands.index[alias] = i
	}
	var o stretchOutcome
	st, err := Read(context.Background(), src, cands, &o.set, Options{MaxRankings: 40})
	o.stats, o.asked = st, cands.asked
	if err != nil {
		o.err = err.Error()
	}
	return o
}

// agree reads a file in one stretch and in 2 to 5 and fails on any
// difference: ballots, ids, precincts, batches, stats, the error, and the
// order in which names were resolved.
func agree(t *testing.T, src Source, aliases map[string]string, unknown string) stretchOutcome {
	t.Helper()
	want := readInStretches(t, src, 1, aliases, unknown)
	for n := 2; n <= 5; n++ {
		got := readInStretches(t, src, n, aliases, unknown)
		if got.err != want.err {
			t.Fatalf("%d stretches: error %q, one stretch %q", n, got.err, want.err)
		}
		if got.stats != want.stats {
			t.Fatalf("%d stretches: stats %+v, one stretch %+v", n, got.stats, want.stats)
		}
		if !reflect.DeepEqual(got.asked, want.asked) {
			t.Fatalf("%d stretches: resolved %q, one stretch %q", n, got.asked, want.asked)
		}
		if !reflect.DeepEqual(normal(got.set), normal(want.set)) {
			for i := range min(got.set.Len(), want.set.Len()) {
				g, w := render(&got.set, i, nil), render(&want.set, i, nil)
				if g != w || got.set.ID(i) != want.set.ID(i) {
					t.Fatalf("%d stretches: ballot %d is %s %q, one stretch %s %q", n, i+1, g, got.set.ID(i), w, want.set.ID(i))
				}
			}
			t.Fatalf("%d stretches: %d ballots, one stretch %d (or a column differs)", n, got.set.Len(), want.set.Len())
		}
	}
	return want
}

// normal is a set with empty columns as nil, since an empty slice and nil
// mean the same.
func normal(s tally.BallotSet) tally.BallotSet {
	if len(s.Marks) == 0 {
		s.Marks = nil
	}
	if len(s.Ends) == 0 {
		s.Ends = nil
	}
	return s
}

// randomGeneric writes a generic CSV of random rows: ids, precincts and
// batches (some blank), blank lines, rows ranking nobody, CRLF endings,
// a column first ranked late, and, when asked, one bad thing in one row.
func randomGeneric(rng *rand.Rand, rows int, bad string) []byte {
	cands := []string{"Ada", "Ben", "Cal", "Dee", "Late"}
	return randomRows(rng, "id,precinct,batch,"+strings.Join(cands, ",")+"\n", rows, func(b *bytes.Buffer, i int, spoil bool) {
		fmt.Fprintf(b, "r%d,", i+1)
		if rng.IntN(4) > 0 {
			fmt.Fprintf(b, "p%d", rng.IntN(5))
		}
		b.WriteString(",")
		if rng.IntN(3) > 0 {
			fmt.Fprintf(b, "b%d", rng.IntN(3))
		}
		depth := rng.IntN(len(cands))
		ranks := make([]int, len(cands))
		for r, c := range rng.Perm(len(cands) - 1)[:depth] {
			ranks[c] = r + 1
		}
		if i > rows*2/3 && rng.IntN(5) == 0 {
			ranks[4] = 1 + rng.IntN(3) // "Late" is ranked only near the end, sometimes tied
		}
		for c, r := range ranks {
			b.WriteString(",")
			switch {
			case spoil && bad != "" && c == 1:
				b.WriteString(bad)
			case r > 0:
				fmt.Fprintf(b, "%d", r)
			}
		}
	})
}

// randomRows writes head, then rows lines that row writes (spoil marks
// the one row that gets the bad thing, if any), with LF or CRLF endings
// and a blank line now and then.
func randomRows(rng *rand.Rand, head string, rows int, row func(b *bytes.Buffer, i int, spoil bool)) []byte {
	var b bytes.Buffer
	b.WriteString(head)
	badRow := rng.IntN(rows)
	eol := "\n"
	if rng.IntN(3) == 0 {
		eol = "\r\n"
	}
	for i := range rows {
		if rng.IntN(40) == 0 {
			b.WriteString(eol)
		}
		row(&b, i, i == badRow)
		b.WriteString(eol)
	}
	return b.Bytes()
}

// TestGenericCSVStretchesAgree reads random files in several stretches
// and one after another, and wants the same outcome in every respect:
// files that read cleanly, and files with a bad rank, a quoted cell, a
// quoted cell holding a line break, or a row too wide in a random row,
// which the stretches hand back to the sequential read.
func TestGenericCSVStretchesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 16))
	dir := t.TempDir()
	src := Source{Provider: FormatGenericCSV, FirstVoteColumnIndex: 4, FirstVoteRowIndex: 2, IDColumnIndex: 1, PrecinctColumnIndex: 2, BatchColumnIndex: 3}
	for i := range 120 {
		bad := []string{"", "", "x", `"2"`, "\"1\n\"", "1,1"}[i%6]
		data := randomGeneric(rng, 1+rng.IntN(300), bad)
		src.FilePath = filepath.Join(dir, fmt.Sprintf("r%d.csv", i))
		if err := os.WriteFile(src.FilePath, data, 0o600); err != nil {
			t.Fatal(err)
		}
		o := agree(t, src, nil, "")
		if (bad == "" || bad == `"2"`) != (o.err == "") {
			t.Fatalf("file %d (bad cell %q): error %q", i, bad, o.err)
		}
	}
}

// TestGenericCSVStretchesRealFile reads RCTab's generic CSV test file, its
// rows repeated until stretches have whole rows to share, both ways.
func TestGenericCSVStretchesRealFile(t *testing.T) {
	data, err := os.ReadFile(shared(t, "rctab/generic_csv_test/generic_csv_test_cvr.csv"))
	if err != nil {
		t.Fatal(err)
	}
	head, rows, _ := bytes.Cut(data, []byte("\n"))
	if !bytes.HasSuffix(rows, []byte("\n")) {
		rows = append(rows, '\n')
	}
	big := append(append([]byte{}, head...), '\n')
	for range 50 {
		big = append(big, rows...)
	}
	path := writeTemp(t, "big_cvr.csv", string(big))
	src := Source{Provider: FormatGenericCSV, FilePath: path, FirstVoteColumnIndex: 4, FirstVoteRowIndex: 2,
		IDColumnIndex: 1, PrecinctColumnIndex: 2, BatchColumnIndex: 3, UndeclaredWriteInLabel: "Write-In"}
	o := agree(t, src, nil, "")
	if o.err != "" || o.stats.Records < 1000 {
		t.Fatalf("read %d records, error %q", o.stats.Records, o.err)
	}
}

// TestGenericCSVStretchesHandBack covers what only the sequential read
// handles: two columns standing for one candidate (marks at one rank are
// merged), a column that is the skipped-rank label, an unknown candidate
// ranked first late in the file, and a BOM before the header.
func TestGenericCSVStretchesHandBack(t *testing.T) {
	rows := strings.Repeat("1,2,1,\n2,,1,2\n3,1,,\n", 40)
	src := Source{Provider: FormatGenericCSV, FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2, IDColumnIndex: 1}
	src.FilePath = writeTemp(t, "alias.csv", "id,Ada,Ada Smith,Ben\n"+rows)
	o := agree(t, src, map[string]string{"Ada Smith": "Ada"}, "")
	if o.err != "" || o.set.Len() != 120 {
		t.Fatalf("aliases: %d ballots, error %q", o.set.Len(), o.err)
	}
	src.FilePath, src.SkippedRankLabel = writeTemp(t, "skip.csv", "id,Ada,skipped,Ben\n"+rows), "skipped"
	if o := agree(t, src, nil, ""); !strings.Contains(o.err, "skipped-rank label") {
		t.Fatalf("skipped-rank column: error %q", o.err)
	}
	src.SkippedRankLabel = ""
	src.FilePath = writeTemp(t, "bom.csv", "\xEF\xBB\xBFid,Ada,Ben,Cal\n"+rows)
	if o := agree(t, src, nil, ""); o.err != "" || o.set.Len() != 120 {
		t.Fatalf("BOM: %d ballots, error %q", o.set.Len(), o.err)
	}
	early := strings.Repeat("1,2,1,\n2,,1,\n3,1,,\n", 40)
	src.FilePath = writeTemp(t, "unknown.csv", "id,Ada,Ben,Zed\n"+early+"4,,,1\n"+rows)
	if o := agree(t, src, nil, "Zed"); !strings.Contains(o.err, "line 122, column 4") || !strings.Contains(o.err, "Zed") {
		t.Fatalf("unknown candidate: error %q", o.err)
	}
}

// FuzzGenericCSVStretches reads fuzzed generic CSVs both ways and wants
// the same outcome.
func FuzzGenericCSVStretches(f *testing.F) {
	for _, s := range seedFiles(f, "rctab/generic_csv_test/*_cvr.csv", "") {
		f.Add(s.data)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, bad := range []string{"", "x", "\"1\n\""} {
		f.Add(randomGeneric(rng, 60, bad))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "g.csv")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		agree(t, Source{Provider: FormatGenericCSV, FilePath: path, FirstVoteColumnIndex: 4, FirstVoteRowIndex: 2,
			IDColumnIndex: 1, PrecinctColumnIndex: 2, BatchColumnIndex: 3, UndeclaredWriteInLabel: "Write-In"}, nil, "")
	})
}

// TestGenericCSVStretchesProgressAndCancel: a read in stretches reports
// progress from the reading goroutine up to the file's size and no
// further, and a cancel during it ends the read with context.Canceled,
// adding nothing.
func TestGenericCSVStretchesProgressAndCancel(t *testing.T) {
	oldBytes, oldStretches, oldEvery := parallelBytes, stretches, progressEvery
	defer func() { parallelBytes, stretches, progressEvery = oldBytes, oldStretches, oldEvery }()
	parallelBytes, stretches, progressEvery = 1, func() int { return 2 }, time.Microsecond
	var b strings.Builder
	b.WriteString("id,A,B\n")
	for i := range 300_000 {
		fmt.Fprintf(&b, "%d,1,2\n", i)
	}
	src := Source{Provider: FormatGenericCSV, FilePath: writeTemp(t, "p.csv", b.String()), FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2, IDColumnIndex: 1}
	var last Progress
	calls := 0
	set := newSet()
	if _, err := Read(context.Background(), src, IndexCandidates("A", "B"), set, Options{Progress: func(p Progress) {
		if p.Done > p.Total {
			t.Errorf("progress %d of %d", p.Done, p.Total)
		}
		last = p
		calls++
	}}); err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last.Done != last.Total || last.Total != int64(b.Len()) || set.Len() != 300_000 {
		t.Errorf("%d calls, last %+v, %d ballots", calls, last, set.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	set = newSet()
	_, err := Read(ctx, src, IndexCandidates("A", "B"), set, Options{Progress: func(p Progress) {
		if p.Done > 3<<19 { // past the first read's 1 MiB: the stretches are reading
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || set.Len() != 0 {
		t.Errorf("cancelled read: err = %v, %d ballots", err, set.Len())
	}
}

// TestGenericCSVStretchesQuoteLate: a quoted id holding line breaks past
// the first megabyte, where the stretches' edge falls inside it, hands the
// read back to the sequential reader, which reads it as one record.
func TestGenericCSVStretchesQuoteLate(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,A,B\n")
	rows := func(n int) {
		for i := range n {
			fmt.Fprintf(&b, "r%d,1,2\n", i)
		}
	}
	rows(150_000)
	b.WriteString("\"a long note\n")
	for range 30_000 {
		b.WriteString("x,1\n")
	}
	b.WriteString("end of note\",2,1\n")
	rows(150_000)
	src := Source{Provider: FormatGenericCSV, FilePath: writeTemp(t, "late.csv", b.String()), FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2, IDColumnIndex: 1}
	o := agree(t, src, nil, "")
	if o.err != "" || o.set.Len() != 300_001 {
		t.Fatalf("%d ballots, error %q", o.set.Len(), o.err)
	}
}

// randomVoteDesk writes a VoteDesk CSV of random rows: ids, ties, the
// overvote and skipped-rank labels, an alias of a candidate, blank lines,
// rows ranking nobody, CRLF endings, a name first met late, sometimes the
// candidates line, and, when asked, one bad thing in one row.
func randomVoteDesk(rng *rand.Rand, rows int, bad string) []byte {
	names := []string{"Ada", "Ben", "Cal", "Dee", "#overvote", "skipped"}
	if rng.IntN(3) == 0 {
		// An alias, which stretches hand back when one meets both names.
		names = append(names, "Ada Smith")
	}
	head := ""
	if rng.IntN(2) == 0 {
		head = "# candidates: Ada,Ben,Cal,Dee,Late,Ada Smith\n"
	}
	return randomRows(rng, head+"ballot_id,rank_1,rank_2,rank_3,rank_4\n", rows, func(b *bytes.Buffer, i int, spoil bool) {
		fmt.Fprintf(b, "v%d", i+1)
		for c := range 4 {
			b.WriteString(",")
			switch {
			case spoil && bad != "" && c == 1:
				b.WriteString(bad)
			case rng.IntN(3) == 0: // no mark
			case i > rows*2/3 && rng.IntN(6) == 0:
				b.WriteString("Late")
			case len(names) > 6 && rng.IntN(20) == 0:
				b.WriteString("Ada|Ada Smith") // one candidate twice at a rank: one mark
			case rng.IntN(8) == 0:
				b.WriteString(names[rng.IntN(4)] + "|" + names[rng.IntN(4)])
			default:
				b.WriteString(names[rng.IntN(len(names))])
			}
		}
	})
}

// TestVoteDeskCSVStretchesAgree reads random VoteDesk CSVs in several
// stretches and one after another, and wants the same outcome in every
// respect: clean files (the labels and ties read as such), and files with
// an unknown name, an alias ranked beside its candidate, a quoted cell, a
// quoted line break, a row too wide or an empty name in a tie in a random
// row, which the stretches hand back to the sequential read.
func TestVoteDeskCSVStretchesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 27))
	dir := t.TempDir()
	src := Source{Provider: FormatVoteDesk, SkippedRankLabel: "skipped"}
	aliases := map[string]string{"Ada Smith": "Ada"}
	for i := range 140 {
		bad := []string{"", "", "Zed", `"Ben"`, "\"Ben\nCal\"", "Ben,Cal", "Ben|"}[i%7]
		data := randomVoteDesk(rng, 1+rng.IntN(300), bad)
		src.FilePath = filepath.Join(dir, fmt.Sprintf("v%d.csv", i))
		if err := os.WriteFile(src.FilePath, data, 0o600); err != nil {
			t.Fatal(err)
		}
		o := agree(t, src, aliases, "Zed")
		if bad == "Zed" || bad == "Ben,Cal" || bad == "Ben|" {
			if o.err == "" {
				t.Fatalf("file %d (bad cell %q): no error", i, bad)
			}
		}
	}
}

// TestVoteDeskCSVStretchesRead: a big clean VoteDesk CSV is read in
// stretches (not handed back), with its labels, ties and a name met only
// late, as one after another reads it.
func TestVoteDeskCSVStretchesRead(t *testing.T) {
	var b strings.Builder
	b.WriteString("ballot_id,rank_1,rank_2,rank_3\n")
	for i := range 3000 {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "v%d,Ada,Ben|Cal,\n", i)
		case 1:
			fmt.Fprintf(&b, "v%d,#overvote,Ben,skipped\n", i)
		case 2:
			fmt.Fprintf(&b, "v%d,,,\n", i)
		case 3:
			fmt.Fprintf(&b, "v%d,Dee,Ada,Ben\n", i)
		default:
			late := "Cal"
			if i > 2500 {
				late = "Late"
			}
			fmt.Fprintf(&b, "v%d,%s,,Ada\n", i, late)
		}
	}
	src := Source{Provider: FormatVoteDesk, SkippedRankLabel: "skipped", FilePath: writeTemp(t, "clean.csv", b.String())}
	o := agree(t, src, nil, "")
	if o.err != "" || o.set.Len() != 3000 {
		t.Fatalf("%d ballots, error %q", o.set.Len(), o.err)
	}
	// The stretches did read it: a read that hands back resolves every
	// name where the sequential read meets it, so both orders agree
	// anyway; the number of goroutines that ran tells them apart.
	oldBytes, oldStretches := parallelBytes, stretches
	defer func() { parallelBytes, stretches = oldBytes, oldStretches }()
	parallelBytes, stretches = 1, func() int { return 3 }
	j := newJob(context.Background(), src, &orderedCandidates{fileCandidates: fileCandidates{index: map[string]uint16{}}}, Options{})
	f, err := j.open()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := int64(len("ballot_id,rank_1,rank_2,rank_3\n"))
	if !j.readParallel(f, head, nil, votedeskRows(j.src, 4)) {
		t.Fatal("a clean file was handed back to the sequential read")
	}
	if j.out.set.Len() != 3000 {
		t.Fatalf("the stretches read %d ballots", j.out.set.Len())
	}
}

// FuzzVoteDeskCSVStretches reads fuzzed VoteDesk CSVs both ways and wants
// the same outcome.
func FuzzVoteDeskCSVStretches(f *testing.F) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, bad := range []string{"", "Zed", "\"Ben\nCal\"", "Ben|"} {
		f.Add(randomVoteDesk(rng, 60, bad))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "v.csv")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		agree(t, Source{Provider: FormatVoteDesk, FilePath: path, SkippedRankLabel: "skipped"}, map[string]string{"Ada Smith": "Ada"}, "Zed")
	})
}

// TestStretchesHandBackANameForAnOvervote: a contest may map a name to an
// overvote (an alias of the label); the sequential read then refuses a
// rank holding it beside a candidate, and the stretches, whose own numbers
// hide what a name stands for, hand such a file back so that it does.
func TestStretchesHandBackANameForAnOvervote(t *testing.T) {
	var b strings.Builder
	b.WriteString("ballot_id,rank_1,rank_2\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "v%d,Ada,Ben\n", i)
	}
	b.WriteString("v2000,Ada|OV,Ben\n")
	src := Source{Provider: FormatVoteDesk, FilePath: writeTemp(t, "ov.csv", b.String())}
	read := func(n int) (tally.BallotSet, string) {
		oldBytes, oldStretches := parallelBytes, stretches
		defer func() { parallelBytes, stretches = oldBytes, oldStretches }()
		parallelBytes, stretches = 1, func() int { return n }
		var set tally.BallotSet
		_, err := Read(context.Background(), src, CandidateIndex{"Ada": 0, "Ben": 1, "OV": tally.Overvote}, &set, Options{})
		if err != nil {
			return set, err.Error()
		}
		return set, ""
	}
	_, want := read(1)
	if !strings.Contains(want, "overvote label beside candidates") {
		t.Fatalf("one stretch: error %q", want)
	}
	for n := 2; n <= 4; n++ {
		if _, got := read(n); got != want {
			t.Errorf("%d stretches: error %q, one stretch %q", n, got, want)
		}
	}
}
