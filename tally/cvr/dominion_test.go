package cvr

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"votedesk/tally"
)

// dominionFolder writes a small Dominion export: contest 5 with candidates
// 1 (Ann), 2 (Bo) and 9 (write-in), contest 6 with candidate 3, one
// precinct and one precinct portion, and the given CvrExport files.
func dominionFolder(t testing.TB, exports map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		dominionContests:         `{"Version":"5.10","List":[{"Description":"Mayor","Id":5,"VoteFor":1,"NumOfRanks":3},{"Description":"Clerk","Id":6,"VoteFor":1,"NumOfRanks":0}]}`,
		dominionCandidates:       `{"List":[{"Description":"Ann","Id":1,"ContestId":5},{"Description":"Bo","Id":2,"ContestId":5},{"Description":"Write-in","Id":9,"ContestId":5},{"Description":"Cy","Id":3,"ContestId":6}]}`,
		dominionPrecincts:        `{"List":[{"Description":"PCT 1101","Id":11}]}`,
		dominionPrecinctPortions: `{"List":[{"Description":"PCT 1101 A","Id":110}]}`,
	}
	for name, text := range exports {
		files[name] = text
	}
	for name, text := range files {
		if text == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// session writes one Dominion session as JSON.
func session(tab, batch, rec int, original, modified string) string {
	s := `{"TabulatorId":` + itoa(tab) + `,"BatchId":` + itoa(batch) + `,"RecordId":` + itoa(rec) + `,"CountingGroupId":2,"Original":` + original
	if modified != "" {
		s += `,"Modified":` + modified
	}
	return s + `}`
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// reading writes a reading (Original or Modified) with one card.
func reading(current bool, contests ...string) string {
	c := "false"
	if current {
		c = "true"
	}
	return `{"PrecinctPortionId":110,"PrecinctId":11,"BallotTypeId":1,"IsCurrent":` + c + `,"Cards":[{"Id":1,"Contests":[` + strings.Join(contests, ",") + `]}]}`
}

// contest writes a contest of a card: marks as "candidate:rank", a leading
// "?" for an ambiguous one.
func contest(id int, outstack string, marks ...string) string {
	var ms []string
	for _, m := range marks {
		amb := "false"
		if strings.HasPrefix(m, "?") {
			amb, m = "true", m[1:]
		}
		cand, rank, _ := strings.Cut(m, ":")
		ms = append(ms, `{"CandidateId":`+cand+`,"Rank":`+rank+`,"IsAmbiguous":`+amb+`,"IsVote":true,"OutstackConditionIds":[]}`)
	}
	return `{"Id":` + itoa(id) + `,"Undervotes":0,"Overvotes":0,"OutstackConditionIds":[` + outstack + `],"Marks":[` + strings.Join(ms, ",") + `]}`
}

func sessions(s ...string) string {
	return `{"Version":"5.10","ElectionId":"x","Sessions":[` + strings.Join(s, ",") + `]}`
}

// TestDominionReadsAsRCTab: the current reading counts (Modified once
// adjudicated), ambiguous marks are not read, marks come in rank order, an
// "Invalid Contest" (outstack condition 7) and a ballot without the contest
// are skipped, a card's other contests are ignored, numbered exports are
// all read in number order whatever the gaps, and the record keeps its
// precinct, batch and tabulator-batch-record id.
func TestDominionReadsAsRCTab(t *testing.T) {
	dir := dominionFolder(t, map[string]string{
		"CvrExport_1.json": sessions(
			session(1, 7, 1, reading(true, contest(5, "", "2:2", "1:1"), contest(6, "", "3:1")), ""),
			session(1, 7, 2, reading(false, contest(5, "", "1:1")), reading(true, contest(5, "", "2:1", "?1:2"))),
			session(1, 7, 3, reading(false, contest(5, "", "1:1")), ""),
		),
		"CvrExport_4.json": sessions(
			session(2, 8, 1, reading(true, contest(5, "7", "1:1")), ""),
			session(2, 8, 2, reading(true, contest(6, "", "3:1")), ""),
			session(2, 8, 3, reading(true, contest(5, "", "9:1", "1:1", "2:3")), ""),
		),
		"CvrExport_10.json": sessions(session(3, 9, 1, reading(true, contest(5, "")), "")),
		"CvrExport_x.json":  "not read",
	})
	cands := CandidateIndex{"1": 0, "2": 1, UndeclaredWriteIn: 2}
	set := &tally.BallotSet{}
	st, err := Read(context.Background(), Source{Provider: FormatDominion, FilePath: dir, ContestID: "5", UndeclaredWriteInLabel: "9"}, cands, set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]tally.Mark{
		{{Rank: 1, Candidate: 0}, {Rank: 2, Candidate: 1}},
		{{Rank: 1, Candidate: 1}},
		{{Rank: 1, Candidate: 2}, {Rank: 1, Candidate: 0}, {Rank: 3, Candidate: 1}},
		nil,
	}
	if set.Len() != len(want) {
		t.Fatalf("%d ballots, want %d", set.Len(), len(want))
	}
	for i, w := range want {
		got, _ := set.Ballot(i)
		if len(got) != len(w) || len(w) > 0 && !reflect.DeepEqual(got, w) {
			t.Errorf("ballot %d: %v, want %v", i+1, got, w)
		}
	}
	if ids := []string{set.ID(0), set.ID(1), set.ID(2), set.ID(3)}; !reflect.DeepEqual(ids, []string{"1-7-1", "1-7-2", "2-8-3", "3-9-1"}) {
		t.Errorf("ids %v", ids)
	}
	if set.Precincts[0] != "PCT 1101" || set.Batches[2] != "8" {
		t.Errorf("precincts %v, batches %v", set.Precincts, set.Batches)
	}
	if st.Records != 4 || st.Skipped != 3 || st.Undervotes != 1 {
		t.Errorf("stats %+v, want 4 records, 3 skipped (no current reading, invalid contest, contest not on the ballot), 1 undervote", st)
	}
}

// TestDominionByDescription: without a config (a file counted directly),
// candidates are the manifest's descriptions, and a config may name them
// by description as well as by id.
func TestDominionByDescription(t *testing.T) {
	dir := dominionFolder(t, map[string]string{dominionExport: sessions(session(1, 1, 1, reading(true, contest(5, "", "2:1", "1:2")), ""))})
	f, err := ReadFile(context.Background(), Source{FilePath: dir, ContestID: "5"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatDominion || !reflect.DeepEqual(f.Candidates, []string{"Ann", "Bo", "Write-in"}) {
		t.Fatalf("format %s, candidates %v", f.Format, f.Candidates)
	}
	if got, _ := f.Ballots.Ballot(0); !reflect.DeepEqual(got, []tally.Mark{{Rank: 1, Candidate: 1}, {Rank: 2, Candidate: 0}}) {
		t.Errorf("ballot %v", got)
	}
	set := &tally.BallotSet{}
	if _, err := Read(context.Background(), Source{Provider: FormatDominion, FilePath: dir, ContestID: "5"}, CandidateIndex{"Ann": 0, "Bo": 1}, set, Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestDominionRefusals: each bad export is refused with a message naming the
// file and the session, and adds nothing.
func TestDominionRefusals(t *testing.T) {
	good := sessions(session(1, 1, 1, reading(true, contest(5, "", "1:1")), ""))
	for _, tc := range []struct {
		name    string
		files   map[string]string
		contest string
		want    string
	}{
		{"no exports", nil, "5", "holds neither CvrExport.json nor CvrExport_1.json"},
		{"no contest", map[string]string{dominionExport: good}, "", "no contestId is given; the export's contests are 5 (Mayor), 6 (Clerk)"},
		{"unknown contest", map[string]string{dominionExport: good}, "77", `contest "77" is not in ContestManifest.json`},
		{"no candidate manifest", map[string]string{dominionExport: good, dominionCandidates: ""}, "5", "has no CandidateManifest.json"},
		{"bad manifest", map[string]string{dominionExport: good, dominionContests: "{"}, "5", "ContestManifest.json: malformed manifest"},
		{"unknown candidate", map[string]string{dominionExport: sessions(session(1, 1, 1, reading(true, contest(5, "", "3:1")), ""))}, "5", "CvrExport.json: line 1, CVR 1: CandidateId 3 is not a candidate of contest 5"},
		{"candidate not in config", map[string]string{dominionExport: sessions(session(1, 1, 1, reading(true, contest(5, "", "9:1")), ""))}, "5", `CandidateId 9: unknown candidate "Write-in"`},
		{"bad rank", map[string]string{dominionExport: sessions(good[len(`{"Version":"5.10","ElectionId":"x","Sessions":[`):len(good)-2], session(1, 1, 2, reading(true, contest(5, "", "1:0")), ""))}, "5", "CVR 2: CandidateId 1 has rank 0"},
		{"bad precinct", map[string]string{dominionExport: strings.Replace(good, `"PrecinctId":11`, `"PrecinctId":12`, 1)}, "5", "PrecinctId 12 is not in PrecinctManifest.json"},
		{"truncated", map[string]string{dominionExport: good[:len(good)-20]}, "5", "CvrExport.json"},
		{"not dominion", map[string]string{dominionExport: `{"CVR":[]}`}, "5", "has no Sessions list"},
		{"wrong type", map[string]string{dominionExport: strings.Replace(good, `"Rank":1`, `"Rank":"one"`, 1)}, "5", "CVR 1: Original.Cards.Contests.Marks.Rank must be a JSON number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := dominionFolder(t, tc.files)
			set := &tally.BallotSet{}
			_, err := Read(context.Background(), Source{Provider: FormatDominion, FilePath: dir, ContestID: tc.contest}, CandidateIndex{"1": 0, "2": 1}, set, Options{})
			var pe *ParseError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *ParseError containing %q", err, tc.want)
			}
			if set.Len() != 0 {
				t.Error("a refused read added ballots")
			}
		})
	}
	t.Run("a file, not a folder", func(t *testing.T) {
		path := filepath.Join(dominionFolder(t, map[string]string{dominionExport: good}), dominionExport)
		_, err := Read(context.Background(), Source{Provider: FormatDominion, FilePath: path, ContestID: "5"}, CandidateIndex{"1": 0}, &tally.BallotSet{}, Options{})
		if err == nil || !strings.Contains(err.Error(), "is not a folder") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("a session too long", func(t *testing.T) {
		long := sessions(session(1, 1, 1, reading(true, contest(5, "", "1:1")), `{"IsCurrent":false,"Pad":"`+strings.Repeat("x", maxSessionBytes+2*readBufferSize)+`"}`))
		dir := dominionFolder(t, map[string]string{dominionExport: long})
		_, err := Read(context.Background(), Source{Provider: FormatDominion, FilePath: dir, ContestID: "5"}, CandidateIndex{"1": 0}, &tally.BallotSet{}, Options{})
		if err == nil || !strings.Contains(err.Error(), "a session is longer than 16 MiB") {
			t.Fatalf("error %v", err)
		}
	})
}

// FuzzReadDominion fuzzes a CvrExport.json beside the manifests of RCTab's
// Wyoming Dominion case, with the contest id.
func FuzzReadDominion(f *testing.F) {
	real := filepath.Join(sharedTestdata, "rctab-more", "dominion_no_precinct_data", "dominion_no_precinct_data_input_data")
	b, err := os.ReadFile(filepath.Join(real, dominionExport))
	if err != nil {
		f.Fatal(err)
	}
	var export struct{ Sessions []json.RawMessage }
	if err := json.Unmarshal(b, &export); err != nil {
		f.Fatal(err)
	}
	var parts []string
	for _, s := range export.Sessions[:8] {
		parts = append(parts, string(s))
	}
	f.Add([]byte(sessions(parts...)), "1")
	f.Add([]byte(sessions(session(1, 7, 1, reading(true, contest(1, "", "4:2", "1:1", "?3:3")), reading(false)))), "1")
	f.Add([]byte(sessions(session(1, 7, 1, `{"IsCurrent":true,"PrecinctPortionId":1,"Contests":[`+contest(1, "7", "12:1")+`]}`, ""))), "1")
	manifests := map[string][]byte{}
	for _, name := range []string{dominionContests, dominionCandidates, dominionPrecinctPortions} {
		m, err := os.ReadFile(filepath.Join(real, name))
		if err != nil {
			f.Fatal(err)
		}
		manifests[name] = m
	}
	f.Fuzz(func(t *testing.T, data []byte, contest string) {
		dir := t.TempDir()
		for name, m := range manifests {
			os.WriteFile(filepath.Join(dir, name), m, 0o600)
		}
		os.WriteFile(filepath.Join(dir, dominionExport), data, 0o600)
		fuzzCheck(t, Source{Provider: FormatDominion, FilePath: dir, ContestID: contest, UndeclaredWriteInLabel: "12"})
	})
}
