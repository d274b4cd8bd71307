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

	// MarkNames, when set, names the ballots' marks instead of Candidates:
	// a mark of c is the selection MarkNames[c], the string the CVR file
	// wrote before aliases were resolved, as RCTab names them.
	// MarkCandidates[c] is the candidate (index into Candidates) that
	// string stands for, which Allocations speak of.
	MarkNames      []string
	MarkCandidates []uint16
	// ListOvervote lists OvervoteName among the candidates even when no
	// ballot has an explicit overvote (RCTab does so when a source has an
	// overvote label).
	ListOvervote bool
	// Rounds is the number of tabulation rounds, each written as an
	// "interpreted" snapshot after the "original" one, with what
	// Allocations says of the ballot in that round; 0 for a bare export.
	Rounds      int
	Allocations func(ballot, round int) []CDFAllocation
}

// CDFAllocation is part of a ballot's vote counting for a candidate in a
// round: the part kept by a candidate it helped elect, or what counts for
// the candidate it counts for now.
type CDFAllocation struct {
	Candidate uint16 // index into CDFReport.Candidates
	Value     tally.Decimal
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
	names, err := cdfNames(r.Candidates, set, r.ListOvervote)
	if err != nil {
		return errorf("write CDF: %w", err)
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
				cvr, err := r.cvrObject(id, i, marks, gpUnitOf(i))
				if err != nil {
					return errorf("write CDF: ballot %d: %w", i+1, err)
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
		return errorf("write CDF: %w", err)
	}
	return nil
}

// cdfNames returns the names of the report's candidates, sorted, with
// OvervoteName added when asked or when a ballot has an explicit overvote,
// and checks that their CDF ids are distinct.
func cdfNames(candidates []string, set *tally.BallotSet, overvote bool) ([]string, error) {
	names := slices.Clone(candidates)
	overvote = overvote || slices.ContainsFunc(set.Marks, func(m tally.Mark) bool { return m.Candidate == tally.Overvote })
	if overvote && !slices.Contains(names, OvervoteName) {
		names = append(names, OvervoteName)
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

// cvrObject returns ballot i's CVR, written with id.
func (r CDFReport) cvrObject(id string, i int, marks []tally.Mark, gpUnit string) (object, error) {
	type selection struct {
		name  string
		cand  int // the candidate the name stands for, -1 for an overvote
		first uint16
		ranks []uint16
	}
	names := r.Candidates
	if r.MarkNames != nil {
		names = r.MarkNames
	}
	var sels []*selection
	byCand := map[uint16]*selection{}
	for _, m := range marks {
		s, ok := byCand[m.Candidate]
		if !ok {
			s = &selection{name: OvervoteName, cand: -1, first: m.Rank}
			if m.Candidate != tally.Overvote {
				if int(m.Candidate) >= len(names) {
					return nil, fmt.Errorf("candidate %d has no name", m.Candidate)
				}
				s.name, s.cand = names[m.Candidate], int(m.Candidate)
				if r.MarkCandidates != nil {
					s.cand = int(r.MarkCandidates[m.Candidate])
				}
			}
			byCand[m.Candidate] = s
			sels = append(sels, s)
		}
		s.ranks = append(s.ranks, m.Rank)
	}
	slices.SortStableFunc(sels, func(a, b *selection) int {
		if a.first != b.first {
			return int(a.first) - int(b.first)
		}
		return strings.Compare(a.name, b.name)
	})
	// snapshot returns the CVR's snapshot: "original" (round 0), or a
	// round's, each selection saying whether and how much of the vote it
	// holds that round (only the first of a candidate's repeated ranks).
	snapshot := func(sid string, round int) object {
		var allocs []CDFAllocation
		if round > 0 && r.Allocations != nil {
			allocs = r.Allocations(i, round)
		}
		selections := make([]any, len(sels))
		for k, s := range sels {
			allocable, votes, fraction := "unknown", 1, ""
			if round > 0 {
				allocable = "no"
				for _, a := range allocs {
					if int(a.Candidate) == s.cand {
						allocable = "yes"
						votes, fraction = cdfVotes(a.Value)
						break
					}
				}
			}
			positions := make([]any, len(s.ranks))
			for n, rank := range s.ranks {
				pos := object{{"@type", "CVR.SelectionPosition"}}
				if fraction != "" {
					pos = append(pos, member{"FractionalVotes", fraction})
				}
				positions[n] = append(pos,
					member{"HasIndication", "yes"}, member{"IsAllocable", allocable},
					member{"NumberVotes", votes}, member{"Rank", int(rank)})
				if allocable == "yes" {
					allocable = "no"
				}
			}
			selections[k] = object{
				{"@type", "CVR.CVRContestSelection"}, {"ContestSelectionId", cdfSelectionID(s.name)}, {"SelectionPosition", positions},
			}
		}
		typ := "original"
		if round > 0 {
			typ = "interpreted"
		}
		return object{
			{"@id", sid}, {"@type", "CVR.CVRSnapshot"},
			{"CVRContest", []any{object{{"@type", "CVR.CVRContest"}, {"CVRContestSelection", selections}, {"ContestId", cdfContestID}}}},
			{"Type", typ},
		}
	}
	snapshots := []any{snapshot("ballot-"+id, 0)}
	current := "ballot-" + id
	for round := 1; round <= r.Rounds; round++ {
		current = "ballot-" + id + "-round-" + strconv.Itoa(round)
		snapshots = append(snapshots, snapshot(current, round))
	}
	cvr := object{{"@type", "CVR"}, {"BallotPrePrintedId", id}}
	if gpUnit != "" {
		cvr = append(cvr, member{"BallotStyleUnitId", gpUnit})
	}
	return append(cvr,
		member{"CVRSnapshot", snapshots},
		member{"CurrentSnapshotId", current},
		member{"ElectionId", cdfElectionID},
	), nil
}

// cdfVotes returns how RCTab writes a vote's value: its whole part as
// NumberVotes and, when it has a fractional part, that part without its
// leading 0 (".9063") as FractionalVotes.
func cdfVotes(v tally.Decimal) (int, string) {
	whole := v.SetScale(0, tally.RoundDown)
	n, err := strconv.Atoi(whole.String())
	if err != nil {
		n = 0
	}
	rest := v.Sub(whole)
	if rest.Sign() <= 0 {
		return n, ""
	}
	return n, strings.TrimPrefix(rest.String(), "0")
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
