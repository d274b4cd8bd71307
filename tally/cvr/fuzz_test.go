package cvr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"votedesk/tally"
)

// Each reader is fuzzed with seeds from the shared test data, read in place,
// and a few written here. A fuzz run checks that no input panics, that a
// failed read leaves the set it was given untouched, and that a successful
// one keeps the BallotSet's invariants.

// fuzzSeed is one seed: a file's bytes and the reader's string argument
// (the contest, where the format needs one).
type fuzzSeed struct {
	data []byte
	arg  string
}

// seedFiles loads shared test data files matching a pattern as seeds.
func seedFiles(f *testing.F, pattern, arg string) []fuzzSeed {
	f.Helper()
	paths, _ := filepath.Glob(filepath.Join(sharedTestdata, pattern))
	if len(paths) == 0 {
		f.Fatalf("no shared test data matches %s", pattern)
	}
	var seeds []fuzzSeed
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, fuzzSeed{b, arg})
	}
	return seeds
}

// fuzzRead fuzzes the reader of one format: source makes the Source for the
// file written from the fuzzed bytes and the fuzzed argument.
func fuzzRead(f *testing.F, name string, source func(path, arg string) Source, seeds ...fuzzSeed) {
	for _, s := range seeds {
		f.Add(s.data, s.arg)
	}
	f.Fuzz(func(t *testing.T, data []byte, arg string) {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fuzzCheck(t, source(path, arg))
	})
}

// fuzzCheck reads a fuzzed source into a set holding a ballot already: a
// failed read must be a *ParseError and leave the set as it was, a
// successful one must keep the BallotSet's invariants.
func fuzzCheck(t *testing.T, src Source) {
	set := newSet()
	mustAdd(t, set, "before", 3, tally.Mark{Rank: 1, Candidate: 0})
	before := *set
	cands := &fileCandidates{index: map[string]uint16{}}
	_, err := Read(context.Background(), src, cands, set, Options{MaxRankings: 40})
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %v is not a *ParseError", err)
		}
		if !reflect.DeepEqual(*set, before) {
			t.Fatalf("failed read (%v) changed the set", err)
		}
		return
	}
	checkSet(t, set, len(cands.names))
}

// checkSet checks the BallotSet invariants the tally relies on.
func checkSet(t *testing.T, s *tally.BallotSet, candidates int) {
	t.Helper()
	n := s.Len()
	ids := 0
	if s.IDs != nil {
		ids = s.IDs.Len()
	}
	for _, col := range []int{len(s.Counts), ids, len(s.Precincts), len(s.Batches)} {
		if col != 0 && col != n {
			t.Fatalf("optional column has %d entries for %d ballots", col, n)
		}
	}
	start := uint32(0)
	for i, end := range s.Ends {
		if end < start || int(end) > len(s.Marks) {
			t.Fatalf("ballot %d ends at %d after %d", i, end, start)
		}
		for k := start; k < end; k++ {
			m := s.Marks[k]
			if m.Rank == 0 || k > start && m.Rank < s.Marks[k-1].Rank {
				t.Fatalf("ballot %d: marks not ranked from 1 in order: %v", i, s.Marks[start:end])
			}
			if m.Candidate != tally.Overvote && int(m.Candidate) >= max(candidates, 1) {
				t.Fatalf("ballot %d: candidate %d of %d", i, m.Candidate, candidates)
			}
			// At one rank: an overvote label alone, or each candidate once.
			for p := k + 1; p < end && s.Marks[p].Rank == m.Rank; p++ {
				if o := s.Marks[p]; o.Candidate == m.Candidate || o.Candidate == tally.Overvote || m.Candidate == tally.Overvote {
					t.Fatalf("ballot %d: rank %d marks %v, which the count refuses", i, m.Rank, s.Marks[start:end])
				}
			}
		}
		start = end
	}
	if s.Counts != nil {
		for i, c := range s.Counts {
			if c == 0 {
				t.Fatalf("ballot %d has count 0", i)
			}
		}
	}
}

func FuzzReadCDF(f *testing.F) {
	seeds := []fuzzSeed{{[]byte(cdfXML), "Mayor"}, {[]byte(`{"CVR":[],"Election":[{"Contest":[{"@id":"c","Name":"Mayor"}]}]}`), "Mayor"}}
	for i, name := range []string{"1_exhaust_at_overvote", "3_skipped_choice_exhaust", "multi_winner_whole_threshold"} {
		seeds = append(seeds, seedFiles(f, "rctab/test_set_"+name+"/*_cvr.json", []string{"test set 1", "test set 3", "test set multi winner whole"}[i])...)
	}
	fuzzRead(f, "report.cdf", func(path, arg string) Source {
		return Source{Provider: FormatCDF, FilePath: path, ContestID: arg, OvervoteLabel: "overvote"}
	}, seeds...)
}

func FuzzReadGenericCSV(f *testing.F) {
	seeds := append(seedFiles(f, "rctab/generic_csv_test/*_cvr.csv", ""),
		fuzzSeed{[]byte("id,p,b,A,\"B\",Write-In\n1,p,b,1,\"2\",3\n2,,,\"\n\",,1\n"), ""})
	fuzzRead(f, "g.csv", func(path, _ string) Source {
		return Source{Provider: FormatGenericCSV, FilePath: path, FirstVoteColumnIndex: 4, FirstVoteRowIndex: 2,
			IDColumnIndex: 1, PrecinctColumnIndex: 2, BatchColumnIndex: 3, UndeclaredWriteInLabel: "Write-In"}
	}, seeds...)
}

func FuzzReadClearBallot(f *testing.F) {
	fuzzRead(f, "cb.csv", func(path, arg string) Source {
		return Source{Provider: FormatClearBallot, FilePath: path, ContestID: arg, UndeclaredWriteInLabel: "UWI"}
	}, seedFiles(f, "rctab/clear_ballot_kansas_primary/*.cvr.csv", "Democratic Primary")...)
}

func FuzzReadESS(f *testing.F) {
	seeds := append(seedFiles(f, "rctab/exhaust_if_multiple_continuing/*.xlsx", "|"),
		seedFiles(f, "rctab/tiebreak_previous_round_counts_then_random_test/*.xlsx", "")...)
	fuzzRead(f, "e.xlsx", func(path, arg string) Source {
		return Source{Provider: FormatESS, FilePath: path, FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2, IDColumnIndex: 1,
			OvervoteDelimiter: arg, SkippedRankLabel: "undervote", TreatBlankAsUndeclaredWriteIn: arg == ""}
	}, seeds...)
}

// FuzzReadESSCSV fuzzes an ES&S export saved as CSV, laid out by its own
// header (InferLayout) as a file named alone on the command line is: the
// layout is refused with a *ParseError or read as any source is.
func FuzzReadESSCSV(f *testing.F) {
	seeds := seedFiles(f, "rctab/*/*.xlsx.derived.csv", "")
	for _, name := range []string{"minneapolis-2009-ward-1.csv", "minneapolis-2017-ward-3-first-records.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", "real", name))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, fuzzSeed{b, "XXX"})
	}
	seeds = append(seeds, fuzzSeed{[]byte("Source Filepath,CVR Provider,Contest Id,RCTab CVR Id,Tabulator Id,Batch Id,Vendor Id,Precinct,Precinct Portion,Rank 1,Rank 2\n" +
		"f.json,cdf,,f(1),,,1,,,\"A\nB\",undervote\nf.json,cdf,,f(2),,,2,P1,,overvote,B\n"), ""})
	for _, s := range seeds {
		f.Add(s.data, s.arg)
	}
	f.Fuzz(func(t *testing.T, data []byte, skipped string) {
		src := Source{Provider: FormatESS, FilePath: filepath.Join(t.TempDir(), "county.csv"), SkippedRankLabel: skipped}
		if err := os.WriteFile(src.FilePath, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := InferLayout(&src, nil); err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("layout error %v is not a *ParseError", err)
			}
			return
		}
		fuzzCheck(t, src)
	})
}

// FuzzReadBallotImage fuzzes a ballot image and its master lookup
// together, from the real Oakland excerpt and a master of two contests.
func FuzzReadBallotImage(f *testing.F) {
	image, err := os.ReadFile(filepath.Join("testdata", "real", "oakland-2018-school-director-6", "ballot_image.txt"))
	if err != nil {
		f.Fatal(err)
	}
	master, err := os.ReadFile(filepath.Join("testdata", "real", "oakland-2018-school-director-6", "master_lookup.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(image, master, "")
	f.Add(image[:200], master, "107")
	f.Add([]byte("000000700000000100000010020000001001000001100\n000000700000000100000010020000001002000000010\n"),
		[]byte("Candidate 0000011ALICE                                             0000001000000700\nContest   0000007Mayor                                             0000001000000000\n"), "Mayor")
	f.Fuzz(func(t *testing.T, image, master []byte, contest string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "ballot_image.txt"), image, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "master_lookup.txt"), master, 0o600); err != nil {
			t.Fatal(err)
		}
		fuzzCheck(t, Source{Provider: FormatBallotImage, FilePath: dir, ContestID: contest})
	})
}

func FuzzReadBLT(f *testing.F) {
	seeds := append(seedFiles(f, "real/burlington_2009_mayor/*.blt", ""),
		fuzzSeed{[]byte("3 1\n-2\n2 1 - 3 0\n(x) 1 2=3 -=- 0\n0\n\"A\" \"B\"\n\"C\"\n\"T\"\n"), ""})
	fuzzRead(f, "e.blt", func(path, _ string) Source { return Source{Provider: FormatBLT, FilePath: path} }, seeds...)
}

func FuzzReadPrefLib(f *testing.F) {
	seeds := append(seedFiles(f, "real/burlington_2009_mayor/*.toi", ""),
		fuzzSeed{[]byte("# DATA TYPE: toi\n# ALTERNATIVE NAME 1: A\n# ALTERNATIVE NAME 2: B\n2: {1,2}\n1: 2\n"), ""})
	fuzzRead(f, "e.toi", func(path, _ string) Source { return Source{Provider: FormatPrefLib, FilePath: path} }, seeds...)
}

func FuzzReadVoteDesk(f *testing.F) {
	fuzzRead(f, "v.csv", func(path, arg string) Source {
		return Source{Provider: FormatVoteDesk, FilePath: path, OvervoteLabel: arg}
	}, fuzzSeed{[]byte("# candidates: A,B,\"C, D\"\nballot_id,rank_1,rank_2\nb1,A|B,\"C, D\"\nb2,,OV\n"), "OV"},
		fuzzSeed{[]byte("ballot_id,rank_1\n\"x\ny\",A\n"), ""})
}
