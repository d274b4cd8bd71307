package cvr

import (
	"context"
	"errors"

	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadCDFMatchesESS reads the CDF JSON test sets and compares them with
// the ES&S spreadsheets that hold the same ballots (the xlsx records an
// overvote without its candidates, so ranks with several marks compare as *).
func TestReadCDFMatchesESS(t *testing.T) {
	for _, name := range []string{
		"test_set_1_exhaust_at_overvote", "test_set_3_skipped_choice_exhaust", "test_set_4_skipped_choice_next",
		"test_set_5_two_skipped_choice_exhaust", "test_set_6_duplicate_exhaust", "test_set_7_duplicate_skip_to_next",
		"test_set_multi_winner_whole_threshold",
	} {
		t.Run(name, func(t *testing.T) {
			sources, names, _ := loadRCTab(t, filepath.Join(name, name+"_config.json"))
			set, _ := mustRead(t, sources[0], names, Options{})
			var got []string
			for _, b := range renderAll(set, names) {
				got = append(got, shortOvervotes(strings.NewReplacer("Candidate ", "", " Name", "").Replace(b)))
			}
			want := derivedBallots(t, filepath.Join(sharedTestdata, "rctab", name, name+"_cvr.xlsx.derived.csv"))
			if !slices.Equal(got, want) {
				t.Errorf("CDF ballots differ from the xlsx:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// shortOvervotes writes a rank with several marks as *.
func shortOvervotes(b string) string {
	ranks := strings.Split(b, " ")
	for i, r := range ranks {
		if strings.Contains(r, "=") {
			ranks[i] = "*"
		}
	}
	return strings.Join(ranks, " ")
}

// TestReadCDFExpectedExports reads RCTab's own CDF exports, whose CVRs carry
// one snapshot per round and point CurrentSnapshotId at the last.
func TestReadCDFExpectedExports(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedTestdata, "rctab", "*", "*_expected_cdf_cvr.json"))
	if len(files) == 0 {
		t.Fatal("no expected CDF exports in the shared test data")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := ReadFile(context.Background(), Source{Provider: FormatCDF, FilePath: path, ContestID: "contest-001"}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if n := f.Ballots.Len(); n != 15 && n != 30 {
				t.Errorf("read %d ballots, want 15 or 30", n)
			}
			if !strings.HasPrefix(f.Candidates[0], "Candidate A") {
				t.Errorf("candidates = %q", f.Candidates)
			}
		})
	}
}

// cdfXML is a small NIST CDF XML report: a contest "Mayor" (@id c1) with
// candidates A, B and a write-in selection, and another contest.
const cdfXML = `<?xml version="1.0" encoding="UTF-8"?>
<cdf:CastVoteRecordReport xmlns:cdf="http://itl.nist.gov/ns/voting/1500-103/v1">
  <cdf:CVR>
    <cdf:BallotStyleUnitId>p1</cdf:BallotStyleUnitId>
    <cdf:CurrentSnapshotId>s2</cdf:CurrentSnapshotId>
    <cdf:CVRSnapshot ObjectId="s1">
      <cdf:CVRContest><cdf:ContestId>c1</cdf:ContestId></cdf:CVRContest>
    </cdf:CVRSnapshot>
    <cdf:CVRSnapshot ObjectId="s2">
      <cdf:CVRContest>
        <cdf:ContestId>c1</cdf:ContestId>
        <cdf:CVRContestSelection>
          <cdf:ContestSelectionId>cs-b</cdf:ContestSelectionId>
          <cdf:SelectionPosition><cdf:HasIndication>yes</cdf:HasIndication><cdf:IsAllocable>yes</cdf:IsAllocable><cdf:Rank>1</cdf:Rank></cdf:SelectionPosition>
          <cdf:SelectionPosition><cdf:HasIndication>no</cdf:HasIndication><cdf:Rank>3</cdf:Rank></cdf:SelectionPosition>
        </cdf:CVRContestSelection>
        <cdf:CVRContestSelection>
          <cdf:ContestSelectionId>cs-wi</cdf:ContestSelectionId>
          <cdf:SelectionPosition><cdf:IsAllocable>unknown</cdf:IsAllocable><cdf:Rank>2</cdf:Rank></cdf:SelectionPosition>
        </cdf:CVRContestSelection>
        <cdf:CVRContestSelection>
          <cdf:ContestSelectionId>cs-a</cdf:ContestSelectionId>
          <cdf:Status>needs-adjudication</cdf:Status>
          <cdf:SelectionPosition><cdf:Rank>2</cdf:Rank></cdf:SelectionPosition>
        </cdf:CVRContestSelection>
      </cdf:CVRContest>
    </cdf:CVRSnapshot>
    <cdf:UniqueId>u-1</cdf:UniqueId>
  </cdf:CVR>
  <cdf:CVR>
    <cdf:CurrentSnapshotId>t1</cdf:CurrentSnapshotId>
    <cdf:CVRSnapshot ObjectId="t1">
      <cdf:CVRContest><cdf:ContestId>c2</cdf:ContestId></cdf:CVRContest>
    </cdf:CVRSnapshot>
  </cdf:CVR>
  <cdf:CVR>
    <cdf:CurrentSnapshotId>v1</cdf:CurrentSnapshotId>
    <cdf:CVRSnapshot ObjectId="v1">
      <cdf:CVRContest>
        <cdf:ContestId>c1</cdf:ContestId>
        <cdf:CVRContestSelection>
          <cdf:ContestSelectionId>cs-a</cdf:ContestSelectionId>
          <cdf:Rank>1</cdf:Rank>
        </cdf:CVRContestSelection>
        <cdf:CVRContestSelection>
          <cdf:ContestSelectionId>cs-b</cdf:ContestSelectionId>
          <cdf:SelectionPosition><cdf:CVRWriteIn><cdf:Text>Zed</cdf:Text></cdf:CVRWriteIn><cdf:Rank>2</cdf:Rank></cdf:SelectionPosition>
        </cdf:CVRContestSelection>
      </cdf:CVRContest>
    </cdf:CVRSnapshot>
    <cdf:UniqueId>u-3</cdf:UniqueId>
  </cdf:CVR>
  <cdf:Election ObjectId="e1">
    <cdf:Candidate ObjectId="ca"><cdf:Name>A</cdf:Name></cdf:Candidate>
    <cdf:Candidate ObjectId="cb"><cdf:Name>B</cdf:Name></cdf:Candidate>
    <cdf:Contest ObjectId="c1">
      <cdf:ContestSelection ObjectId="cs-a"><cdf:CandidateIds>ca</cdf:CandidateIds></cdf:ContestSelection>
      <cdf:ContestSelection ObjectId="cs-b"><cdf:CandidateIds>cb</cdf:CandidateIds></cdf:ContestSelection>
      <cdf:ContestSelection ObjectId="cs-wi"><cdf:IsWriteIn>true</cdf:IsWriteIn></cdf:ContestSelection>
      <cdf:Name>Mayor</cdf:Name>
    </cdf:Contest>
    <cdf:Contest ObjectId="c2"><cdf:Name>Clerk</cdf:Name></cdf:Contest>
  </cdf:Election>
  <cdf:GpUnit ObjectId="p1"><cdf:Name>Precinct 1</cdf:Name></cdf:GpUnit>
</cdf:CastVoteRecordReport>
`

// TestReadCDFXML checks current snapshots, contests, write-ins, indications,
// adjudication status, precincts and ids in CDF XML.
func TestReadCDFXML(t *testing.T) {
	path := writeTemp(t, "report.xml", cdfXML)
	names := []string{"A", "B", UndeclaredWriteIn}
	set, st := mustRead(t, Source{Provider: FormatCDF, FilePath: path, ContestID: "Mayor"}, names, Options{})
	got := renderAll(set, names)
	want := []string{"B Undeclared Write-ins", "A Undeclared Write-ins"}
	if !slices.Equal(got, want) {
		t.Errorf("ballots = %q, want %q", got, want)
	}
	if st.Skipped != 1 || st.Records != 2 {
		t.Errorf("stats = %+v, want 2 records and 1 skipped (the CVR without the contest)", st)
	}
	if set.ID(0) != "u-1" || set.Precincts[0] != "Precinct 1" || set.Precincts[1] != "" {
		t.Errorf("ids %q, precincts %q", set.IDs.Strings(), set.Precincts)
	}
}

// TestReadCDFErrors checks that malformed CDF reports are refused with the
// place and the reason.
func TestReadCDFErrors(t *testing.T) {
	names := []string{"A", "B", UndeclaredWriteIn}
	tests := []struct {
		name, file, content, contest, want string
	}{
		{"ErrContestNotFound", "r.xml", cdfXML, "Sheriff", `r.xml: contest "Sheriff" is not in the file`},
		{"ErrUnknownSelection", "r.xml", strings.Replace(cdfXML, "<cdf:ContestSelectionId>cs-a</cdf:ContestSelectionId>\n          <cdf:Rank>", "<cdf:ContestSelectionId>cs-x</cdf:ContestSelectionId>\n          <cdf:Rank>", 1), "Mayor",
			`r.xml: line 36, CVR 3: ContestSelection "cs-x" is not in the contest`},
		{"ErrBadSnapshot", "r.xml", strings.Replace(cdfXML, "<cdf:CurrentSnapshotId>s2<", "<cdf:CurrentSnapshotId>s9<", 1), "Mayor",
			`r.xml: line 3, CVR 1: CurrentSnapshotId "s9" names none of the CVR's 2 snapshots`},
		{"ErrMalformedXML", "r.xml", strings.Replace(cdfXML, "</cdf:UniqueId>", "</cdf:Unique>", 1), "Mayor",
			`r.xml: line 28: malformed XML: element <UniqueId> closed by </Unique>`},
		{"ErrNoRank", "r.json", `{"CVR":[{"CurrentSnapshotId":"s","CVRSnapshot":[{"@id":"s","CVRContest":[{"ContestId":"c1",
"CVRContestSelection":[{"ContestSelectionId":"cs-a","SelectionPosition":[{"HasIndication":"yes"}]}]}]}]}],
"Election":[{"Candidate":[{"@id":"ca","Name":"A"}],"Contest":[{"@id":"c1","Name":"Mayor","ContestSelection":[{"@id":"cs-a","CandidateIds":["ca"]}]}]}],"GpUnit":[]}`,
			"Mayor", `r.json: line 1, CVR 1: ContestSelection "cs-a" has a SelectionPosition without a Rank`},
		{"ErrRankNotANumber", "r.json", `{"CVR":[
{"CurrentSnapshotId":"s","CVRSnapshot":[{"@id":"s","CVRContest":[{"ContestId":"c1",
"CVRContestSelection":[{"ContestSelectionId":"cs-a","Rank":"first"}]}]}]}],
"Election":[{"Candidate":[{"@id":"ca","Name":"A"}],"Contest":[{"@id":"c1","Name":"Mayor","ContestSelection":[{"@id":"cs-a","CandidateIds":["ca"]}]}]}]}`,
			"Mayor", `r.json: line 2, CVR 1: expected a whole number, got "first"`},
		{"ErrMalformedJSON", "r.json", "{\"CVR\": [\n{\"CurrentSnapshotId\": }]}", "Mayor",
			`r.json: line 2: malformed JSON: invalid character '}' looking for beginning of value`},
		{"ErrNoCVRList", "r.json", `{"Election":[]}`, "Mayor", `r.json: the report has no CVR list`},
		{"ErrUnknownCandidate", "r.json", `{"CVR":[{"CurrentSnapshotId":"s","CVRSnapshot":[{"@id":"s","CVRContest":[{"ContestId":"c1",
"CVRContestSelection":[{"ContestSelectionId":"cs-z","Rank":1}]}]}]}],
"Election":[{"Candidate":[{"@id":"cz","Name":"Z"}],"Contest":[{"@id":"c1","Name":"Mayor","ContestSelection":[{"@id":"cs-z","CandidateIds":["cz"]}]}]}]}`,
			"Mayor", `r.json: line 1, CVR 1: unknown candidate "Z"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, tc.file, tc.content)
			set := newSet()
			_, err := Read(context.Background(), Source{Provider: FormatCDF, FilePath: path, ContestID: tc.contest}, IndexCandidates(names...), set, Options{})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v\nwant %s", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("err is %T, want *ParseError", err)
			}
			if set.Len() != 0 {
				t.Errorf("failed read left %d ballots", set.Len())
			}
		})
	}
}
