package cvr

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rctabCases lists every RCTab config in the shared test data, with some
// ballots checked against their source files by hand: ballot index (0-based,
// over all of the config's sources) to its rendering.
var rctabCases = []struct {
	name string
	spot map[int]string
}{
	{"generic_csv_test", map[int]string{
		0:  "Cucumber Broccoli",                                          // R_3QEQ85E7gV2DuyG: ,2,1,,
		2:  "Cauliflower Cucumber Lettuce Undeclared Write-ins Broccoli", // 3,5,2,1,4
		25: "Cucumber Broccoli Cauliflower Lettuce",                      // R_33dwoHsyajiIzbF: 4,2,1,3,
	}},
	{"clear_ballot_kansas_primary", map[int]string{
		0:  "Amy Klobuchar Julian Castro Tulsi Gabbard Joe Biden Steven Bullock",   // ED-004+10003
		1:  "Amy Klobuchar Pete Buttigieg Tulsi Gabbard Joe Biden Michael Bennet",  // ED-004+10005
		49: "Michael Bennet Amy Klobuchar Pete Buttigieg Cory Booker John Delaney", // ED-004+10101
	}},
	{"test_set_1_exhaust_at_overvote", map[int]string{
		0: "Candidate A Name=Candidate B Name - Candidate C Name Candidate D Name",
		1: "Candidate B Name Candidate A Name Candidate D Name Candidate C Name",
	}},
	{"test_set_2_overvote_skip_to_next", nil},
	{"test_set_3_skipped_choice_exhaust", map[int]string{0: "- Candidate B Name Candidate C Name"}},
	{"test_set_4_skipped_choice_next", map[int]string{0: "- Candidate B Name Candidate C Name"}},
	{"test_set_5_two_skipped_choice_exhaust", nil},
	{"test_set_6_duplicate_exhaust", map[int]string{0: "Candidate D Name Candidate D Name Candidate A Name"}},
	{"test_set_7_duplicate_skip_to_next", map[int]string{0: "Candidate D Name Candidate D Name Candidate A Name"}},
	{"test_set_multi_winner_fractional_threshold", nil},
	{"test_set_multi_winner_whole_threshold", map[int]string{
		0: "Candidate D Name - Candidate C Name Candidate E Name Candidate F Name Candidate A Name",
		9: "- - - - - Candidate E Name",
	}},
	{"exhaust_if_multiple_continuing", map[int]string{0: "A=D B C", 6: "C D=A A", 8: "D"}},
	{"continue_until_two_with_batch_elimination_test", map[int]string{0: "A"}},
	{"sequential_with_continue_until_two", map[int]string{4: "A B", 8: "D"}},
	{"multi_seat_bottoms_up_with_dynamic_threshold", map[int]string{0: "A B C D E", 10: "C D E F G"}},
	{"tiebreak_previous_round_counts_then_random_test", map[int]string{0: "Happy Grumpy", 8: "Dopey"}},
	{"test_set_allow_only_one_winner_per_round", map[int]string{6: "C D"}},
}

// TestReadRCTabConfigs reads every CVR file the RCTab configs use and checks
// the ballot count against RCTab's expected report, and some ballots by hand.
func TestReadRCTabConfigs(t *testing.T) {
	for _, tc := range rctabCases {
		t.Run(tc.name, func(t *testing.T) {
			sources, names, maxRank := loadRCTab(t, filepath.Join(tc.name, tc.name+"_config.json"))
			var got []string
			total := uint64(0)
			for _, src := range sources {
				set, st := mustRead(t, src, names, Options{MaxRankings: maxRank})
				got = append(got, renderAll(set, names)...)
				total += st.Ballots
			}
			if want := expectedBallots(t, tc.name); total != want {
				t.Errorf("read %d ballots, RCTab's report counts %d", total, want)
			}
			for i, want := range tc.spot {
				if i >= len(got) || got[i] != want {
					t.Errorf("ballot %d = %q, want %q", i, at(got, i), want)
				}
			}
		})
	}
}

// expectedBallots returns totalNumBallots from a case's expected report (the
// first one, for cases with several).
func expectedBallots(t *testing.T, name string) uint64 {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(sharedTestdata, "rctab", name, "*expected_detailed_report.json"))
	if len(matches) == 0 {
		t.Fatalf("no expected report for %s", name)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Summary struct {
			TotalNumBallots json.Number `json:"totalNumBallots"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	n, err := r.Summary.TotalNumBallots.Int64()
	if err != nil {
		t.Fatalf("totalNumBallots %q: %v", r.Summary.TotalNumBallots, err)
	}
	return uint64(n)
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return "<none>"
}

// TestReadGenericCSVIDsAndPrecincts checks the id and precinct columns of
// RCTab's generic CSV test, including rows whose precinct is blank.
func TestReadGenericCSVIDsAndPrecincts(t *testing.T) {
	sources, names, _ := loadRCTab(t, "generic_csv_test/generic_csv_test_config.json")
	set, _ := mustRead(t, sources[0], names, Options{})
	if got := set.ID(0); got != "R_3QEQ85E7gV2DuyG" {
		t.Errorf("first id = %q", got)
	}
	count := map[string]int{}
	for _, p := range set.Precincts {
		count[p]++
	}
	if count["p1"] != 13 || count["p2"] != 10 || count[""] != 3 {
		t.Errorf("precincts = %v, want p1:13 p2:10 blank:3", count)
	}
	if !strings.HasPrefix(set.ID(25), "R_33dw") {
		t.Errorf("last id = %q", set.ID(25))
	}
}

// TestReadClearBallotIDsAndPrecincts checks that Clear Ballot's BallotID and
// PrecinctID columns become ids and precincts.
func TestReadClearBallotIDsAndPrecincts(t *testing.T) {
	sources, names, _ := loadRCTab(t, "clear_ballot_kansas_primary/clear_ballot_kansas_primary_config.json")
	set, _ := mustRead(t, sources[0], names, Options{})
	if set.ID(0) != "ED-004+10003" || set.Precincts[0] != "1" {
		t.Errorf("first ballot id %q precinct %q, want ED-004+10003 and 1", set.ID(0), set.Precincts[0])
	}
}
