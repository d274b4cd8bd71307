package cvr

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"votedesk/tally"
)

// CDFReport describes the election a CDF export is for.
type CDFReport struct {
	ContestName   string    // the contest's Name, which Source.ContestID selects when reading
	Jurisdiction  string    // Name of the election-scope GpUnit
	Candidates    []string  // candidate names by index
	GeneratedDate time.Time // zero means now
}

// The fixed ids RCTab gives the parts of its CDF exports.
const (
	cdfContestID  = "contest-001"
	cdfElectionID = "election-001"
	cdfScopeID    = "gpu-election"
	cdfDeviceID   = "rd-001"
)

// WriteCDF writes ballots as a NIST SP 1500-103 cast vote record report in
// JSON, in the shape and layout of RCTab's CDF export ("generateCdfJson"):
// candidates sorted by name with ids c-<name> and selections cs-<name>, one
// CVR per ballot with an "original" snapshot, selections ordered by their
// best rank and then name, and a precinct GpUnit per precinct. RCTab adds a
// snapshot per tabulation round; a bare export, like RCTab's CVR
// conversion, has none. A ballot's id is its BallotPrePrintedId (with
// characters other than letters, digits, _ - . made _); ballots without ids
// are numbered from 1. A ballot counted n times is written n times, its
// copies' ids suffixed _1 to _n. Explicit overvotes are written as the
// candidate OvervoteName.
func WriteCDF(w io.Writer, r CDFReport, set *tally.BallotSet) error {
	names, err := cdfNames(r.Candidates, set)
	if err != nil {
		return fmt.Errorf("cvr: write CDF: %w", err)
	}
	gpUnits, gpUnitOf := cdfPrecincts(set)
	date := r.GeneratedDate
	if date.IsZero() {
		date = time.Now()
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	p := prettyWriter{bw}
	bw.WriteByte('{')
	p.open("@type", 1)
	p.string("CVR.CastVoteRecordReport")
	bw.WriteByte(',')
	p.open("CVR", 1)
	if set.Len() == 0 {
		bw.WriteString("[ ]")
	} else {
		bw.WriteString("[ ")
		n := 0
		for i := range set.Len() {
			marks, count := set.Ballot(i)
			for k := range count {
				n++
				id := cdfBallotID(set.ID(i), n, k, count)
				if n > 1 {
					bw.WriteString(", ")
				}
				cvr, err := cdfCVRObject(id, marks, r.Candidates, gpUnitOf(i))
				if err != nil {
					return fmt.Errorf("cvr: write CDF: ballot %d: %w", i+1, err)
				}
				p.object(cvr, 1)
			}
		}
		bw.WriteString(" ]")
	}
	rest := object{
		{"Election", []any{cdfElectionObject(r.ContestName, names)}},
		{"GeneratedDate", date.Format("2006-01-02T15:04:05Z07:00")},
		{"GpUnit", append([]any{object{
			{"@id", cdfScopeID}, {"@type", "GpUnit"}, {"Name", r.Jurisdiction},
			{"OtherType", "Election Scope Jurisdiction"}, {"Type", "other"},
		}}, gpUnits...)},
		{"ReportGeneratingDeviceIds", []any{cdfDeviceID}},
		{"ReportingDevice", []any{object{
			{"@id", cdfDeviceID}, {"@type", "CVR.ReportingDevice"}, {"Application", "RCTab"}, {"Manufacturer", "Bright Spots"},
		}}},
		{"Version", "1.0.0"},
	}
	for _, m := range rest {
		bw.WriteByte(',')
		p.open(m.key, 1)
		p.value(m.value, 1)
	}
	p.close(0)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("cvr: write CDF: %w", err)
	}
	return nil
}

// cdfNames returns the names of the report's candidates, sorted, with
// OvervoteName added when a ballot has an explicit overvote, and checks
// that their CDF ids are distinct.
func cdfNames(candidates []string, set *tally.BallotSet) ([]string, error) {
	names := slices.Clone(candidates)
	for _, m := range set.Marks {
		if m.Candidate == tally.Overvote {
			names = append(names, OvervoteName)
			break
		}
	}
	slices.Sort(names)
	byID := map[string]string{}
	for _, n := range names {
		if n == "" {
			return nil, errors.New("a candidate has an empty name")
		}
		id := cdfCandidateID(n)
		if other, dup := byID[id]; dup {
			return nil, fmt.Errorf("candidates %q and %q would share the CDF id %q", other, n, id)
		}
		byID[id] = n
	}
	return names, nil
}

// cdfPrecincts returns a precinct GpUnit for each precinct, in the order
// the ballots first name them, and a function giving a ballot's GpUnit id.
func cdfPrecincts(set *tally.BallotSet) ([]any, func(int) string) {
	if set.Precincts == nil {
		return nil, func(int) string { return "" }
	}
	ids := map[string]string{}
	var units []any
	for _, p := range set.Precincts {
		if _, ok := ids[p]; ok || p == "" {
			continue
		}
		id := "gpu-" + strconv.Itoa(len(ids)+1)
		ids[p] = id
		units = append(units, object{{"@id", id}, {"@type", "GpUnit"}, {"Name", p}, {"Type", "precinct"}})
	}
	return units, func(i int) string { return ids[set.Precincts[i]] }
}

// cdfBallotID returns the sanitized id of copy k (0-based) of a ballot
// counted count times that is the n-th CVR written.
func cdfBallotID(id string, n int, k, count uint32) string {
	if id == "" {
		return strconv.Itoa(n)
	}
	if count > 1 {
		id += "_" + strconv.Itoa(int(k)+1)
	}
	return sanitizeCDFID(id)
}

// cdfCVRObject returns one ballot's CVR.
func cdfCVRObject(id string, marks []tally.Mark, names []string, gpUnit string) (object, error) {
	type selection struct {
		name  string
		first uint16
		ranks []any
	}
	var sels []*selection
	byCand := map[uint16]*selection{}
	for _, m := range marks {
		s, ok := byCand[m.Candidate]
		if !ok {
			name := OvervoteName
			if m.Candidate != tally.Overvote {
				if int(m.Candidate) >= len(names) {
					return nil, fmt.Errorf("candidate %d has no name", m.Candidate)
				}
				name = names[m.Candidate]
			}
			s = &selection{name: name, first: m.Rank}
			byCand[m.Candidate] = s
			sels = append(sels, s)
		}
		s.ranks = append(s.ranks, object{
			{"@type", "CVR.SelectionPosition"}, {"HasIndication", "yes"}, {"IsAllocable", "unknown"},
			{"NumberVotes", 1}, {"Rank", int(m.Rank)},
		})
	}
	slices.SortStableFunc(sels, func(a, b *selection) int {
		if a.first != b.first {
			return int(a.first) - int(b.first)
		}
		return strings.Compare(a.name, b.name)
	})
	selections := make([]any, len(sels))
	for i, s := range sels {
		selections[i] = object{
			{"@type", "CVR.CVRContestSelection"}, {"ContestSelectionId", cdfSelectionID(s.name)}, {"SelectionPosition", s.ranks},
		}
	}
	snapshot := object{
		{"@id", "ballot-" + id}, {"@type", "CVR.CVRSnapshot"},
		{"CVRContest", []any{object{{"@type", "CVR.CVRContest"}, {"CVRContestSelection", selections}, {"ContestId", cdfContestID}}}},
		{"Type", "original"},
	}
	cvr := object{{"@type", "CVR"}, {"BallotPrePrintedId", id}}
	if gpUnit != "" {
		cvr = append(cvr, member{"BallotStyleUnitId", gpUnit})
	}
	return append(cvr,
		member{"CVRSnapshot", []any{snapshot}},
		member{"CurrentSnapshotId", "ballot-" + id},
		member{"ElectionId", cdfElectionID},
	), nil
}

// cdfElectionObject returns the Election with its candidates and contest.
func cdfElectionObject(contest string, names []string) object {
	cands := make([]any, len(names))
	sels := make([]any, len(names))
	for i, n := range names {
		cands[i] = object{{"@id", cdfCandidateID(n)}, {"Name", n}}
		sels[i] = object{{"@id", cdfSelectionID(n)}, {"@type", "ContestSelection"}, {"CandidateIds", []any{cdfCandidateID(n)}}}
	}
	return object{
		{"@id", cdfElectionID}, {"@type", "Election"}, {"Candidate", cands},
		{"Contest", []any{object{{"@id", cdfContestID}, {"@type", "CandidateContest"}, {"ContestSelection", sels}, {"Name", contest}}}},
		{"ElectionScopeId", cdfScopeID},
	}
}

func cdfCandidateID(name string) string { return "c-" + strings.ToLower(sanitizeCDFID(name)) }
func cdfSelectionID(name string) string { return "cs-" + strings.ToLower(sanitizeCDFID(name)) }

// sanitizeCDFID replaces every character but letters, digits, _, - and .
// with _, as RCTab does for ids and file names.
func sanitizeCDFID(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return r
		}
		return '_'
	}, s)
}
