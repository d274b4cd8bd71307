package cvr

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"

	"votedesk/tally"
)

// The NIST SP 1500-103 cast vote record model, as far as counting needs it.
// One set of types serves JSON (ids in "@id") and XML (ids in ObjectId
// attributes, elements in any namespace).

type cdfElection struct {
	Candidate []cdfCandidate `json:"Candidate" xml:"Candidate"`
	Contest   []cdfContest   `json:"Contest" xml:"Contest"`
}

type cdfCandidate struct {
	ID   string `json:"@id" xml:"ObjectId,attr"`
	Name string `json:"Name" xml:"Name"`
}

type cdfContest struct {
	ID               string                `json:"@id" xml:"ObjectId,attr"`
	Name             string                `json:"Name" xml:"Name"`
	ContestSelection []cdfContestSelection `json:"ContestSelection" xml:"ContestSelection"`
}

type cdfContestSelection struct {
	ID           string   `json:"@id" xml:"ObjectId,attr"`
	CandidateIDs []string `json:"CandidateIds" xml:"CandidateIds"`
	IsWriteIn    cdfBool  `json:"IsWriteIn" xml:"IsWriteIn"`
}

type cdfGpUnit struct {
	ID   string `json:"@id" xml:"ObjectId,attr"`
	Name string `json:"Name" xml:"Name"`
}

type cdfCVR struct {
	BallotPrePrintedID string        `json:"BallotPrePrintedId" xml:"BallotPrePrintedId"`
	UniqueID           string        `json:"UniqueId" xml:"UniqueId"`
	BallotStyleUnitID  string        `json:"BallotStyleUnitId" xml:"BallotStyleUnitId"`
	CurrentSnapshotID  string        `json:"CurrentSnapshotId" xml:"CurrentSnapshotId"`
	CVRSnapshot        []cdfSnapshot `json:"CVRSnapshot" xml:"CVRSnapshot"`
}

type cdfSnapshot struct {
	ID         string          `json:"@id" xml:"ObjectId,attr"`
	CVRContest []cdfCVRContest `json:"CVRContest" xml:"CVRContest"`
}

type cdfCVRContest struct {
	ContestID           string                   `json:"ContestId" xml:"ContestId"`
	CVRContestSelection []cdfCVRContestSelection `json:"CVRContestSelection" xml:"CVRContestSelection"`
}

type cdfCVRContestSelection struct {
	ContestSelectionID string                 `json:"ContestSelectionId" xml:"ContestSelectionId"`
	Rank               *cdfInt                `json:"Rank" xml:"Rank"`
	Status             string                 `json:"Status" xml:"Status"`
	SelectionPosition  []cdfSelectionPosition `json:"SelectionPosition" xml:"SelectionPosition"`
}

type cdfSelectionPosition struct {
	HasIndication string      `json:"HasIndication" xml:"HasIndication"`
	IsAllocable   string      `json:"IsAllocable" xml:"IsAllocable"`
	Rank          *cdfInt     `json:"Rank" xml:"Rank"`
	CVRWriteIn    cdfPresence `json:"CVRWriteIn" xml:"CVRWriteIn"`
}

// cdfBool is a CDF boolean, which files write as true, "true", 1 or "yes".
type cdfBool bool

func (b *cdfBool) UnmarshalJSON(data []byte) error {
	*b = cdfBool(isTrue(strings.Trim(string(data), `"`)))
	return nil
}

func (b *cdfBool) UnmarshalText(text []byte) error {
	*b = cdfBool(isTrue(string(bytes.TrimSpace(text))))
	return nil
}

func isTrue(s string) bool { return s == "true" || s == "1" || s == "yes" }

// cdfInt is a CDF integer, written as a number or a string.
type cdfInt int

func (n *cdfInt) UnmarshalJSON(data []byte) error {
	var v int
	if err := json.Unmarshal(bytes.Trim(data, `"`), &v); err != nil {
		return fmt.Errorf("expected a whole number, got %s", data)
	}
	*n = cdfInt(v)
	return nil
}

func (n *cdfInt) UnmarshalText(text []byte) error {
	return n.UnmarshalJSON(bytes.TrimSpace(text))
}

// cdfPresence records that an element is present, whatever it holds.
type cdfPresence bool

func (p *cdfPresence) UnmarshalJSON(data []byte) error {
	*p = string(data) != "null"
	return nil
}

func (p *cdfPresence) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	*p = true
	return d.Skip()
}

// cdfContestReader turns CVRs into ballots of one contest. It is built from
// the report's Election and GpUnit lists before the CVRs are read.
type cdfContestReader struct {
	j          *job
	contestID  string
	selections map[string]cdfContestSelection
	candidates map[string]cdfCandidate
	precincts  map[string]string
	resolved   map[string]uint16
	marks      []tally.Mark
}

// newCDFContestReader finds the source's contest (by Name, as RCTab does, or
// else by @id) and indexes what the CVRs refer to.
func newCDFContestReader(j *job, elections []cdfElection, gpUnits []cdfGpUnit) (*cdfContestReader, error) {
	r := &cdfContestReader{
		j:          j,
		selections: map[string]cdfContestSelection{},
		candidates: map[string]cdfCandidate{},
		precincts:  map[string]string{},
		resolved:   map[string]uint16{},
	}
	var contest *cdfContest
	var all []*cdfContest
	for _, e := range elections {
		for i := range e.Contest {
			all = append(all, &e.Contest[i])
		}
	}
	if j.src.ContestID == "" {
		if len(all) != 1 {
			known := make([]string, len(all))
			for i, c := range all {
				known[i] = fmt.Sprintf("%s (%s)", c.ID, c.Name)
			}
			return nil, fmt.Errorf("no contestId is given; the file's %d contests are %s", len(all), strings.Join(known, ", "))
		}
		contest = all[0]
	}
	for _, e := range elections {
		for i := range e.Contest {
			if c := &e.Contest[i]; contest == nil && c.Name == j.src.ContestID {
				contest = c
			}
		}
		for _, c := range e.Candidate {
			if _, dup := r.candidates[c.ID]; dup {
				return nil, fmt.Errorf("Candidate %q appears twice", c.ID)
			}
			r.candidates[c.ID] = c
		}
	}
	for _, e := range elections {
		for i := range e.Contest {
			if c := &e.Contest[i]; contest == nil && c.ID == j.src.ContestID {
				contest = c
			}
		}
	}
	if contest == nil {
		return nil, fmt.Errorf("contest %q is not in the file", j.src.ContestID)
	}
	r.contestID = contest.ID
	var names []string
	for _, s := range contest.ContestSelection {
		if _, dup := r.selections[s.ID]; dup {
			return nil, fmt.Errorf("ContestSelection %q appears twice", s.ID)
		}
		r.selections[s.ID] = s
		if !s.IsWriteIn && len(s.CandidateIDs) > 0 {
			if c, ok := r.candidates[s.CandidateIDs[0]]; ok {
				names = append(names, c.Name)
			}
		}
	}
	for _, g := range gpUnits {
		if _, dup := r.precincts[g.ID]; dup {
			return nil, fmt.Errorf("GpUnit %q appears twice", g.ID)
		}
		r.precincts[g.ID] = g.Name
	}
	j.declare(names)
	return r, nil
}

// cvr adds the ballot of one CVR: the marks of the contest in its current
// snapshot. A CVR whose current snapshot lacks the contest is skipped.
func (r *cdfContestReader) cvr(c *cdfCVR) error {
	var snap *cdfSnapshot
	for i := range c.CVRSnapshot {
		if c.CVRSnapshot[i].ID == c.CurrentSnapshotID {
			snap = &c.CVRSnapshot[i]
			break
		}
	}
	if snap == nil && c.CurrentSnapshotID == "" && len(c.CVRSnapshot) == 1 {
		snap = &c.CVRSnapshot[0]
	}
	if snap == nil {
		return fmt.Errorf("CurrentSnapshotId %q names none of the CVR's %d snapshots", c.CurrentSnapshotID, len(c.CVRSnapshot))
	}
	var contest *cdfCVRContest
	for i := range snap.CVRContest {
		if snap.CVRContest[i].ContestID == r.contestID {
			contest = &snap.CVRContest[i]
			break
		}
	}
	if contest == nil {
		r.j.stats.Skipped++
		return nil
	}
	r.marks = r.marks[:0]
	for _, sel := range contest.CVRContestSelection {
		if sel.Status == "needs-adjudication" {
			continue
		}
		cand, err := r.candidate(sel.ContestSelectionID)
		if err != nil {
			return err
		}
		if sel.Rank != nil {
			if err := r.mark(*sel.Rank, cand); err != nil {
				return err
			}
			continue
		}
		for _, pos := range sel.SelectionPosition {
			if pos.HasIndication == "no" || pos.IsAllocable == "no" {
				continue
			}
			if pos.Rank == nil {
				return fmt.Errorf("ContestSelection %q has a SelectionPosition without a Rank", sel.ContestSelectionID)
			}
			c := cand
			if pos.CVRWriteIn {
				if c, err = r.j.candidate(UndeclaredWriteIn); err != nil {
					return fmt.Errorf("a write-in is marked, but the contest has no %q candidate", UndeclaredWriteIn)
				}
			}
			if err := r.mark(*pos.Rank, c); err != nil {
				return err
			}
		}
	}
	var precinct string
	if c.BallotStyleUnitID != "" {
		p, ok := r.precincts[c.BallotStyleUnitID]
		if !ok {
			return fmt.Errorf("GpUnit %q is not in the file", c.BallotStyleUnitID)
		}
		precinct = p
	}
	id := c.BallotPrePrintedID
	if id == "" {
		id = c.UniqueID
	}
	return r.j.add(r.marks, []byte(id), 1, []byte(precinct))
}

// mark adds one mark, checking the rank.
func (r *cdfContestReader) mark(rank cdfInt, cand uint16) error {
	if rank < 1 || rank > 0xFFFF {
		return fmt.Errorf("rank %d is not from 1 to 65535", rank)
	}
	r.marks = append(r.marks, tally.Mark{Rank: uint16(rank), Candidate: cand})
	return nil
}

// candidate resolves a ContestSelectionId to the contest's candidate.
func (r *cdfContestReader) candidate(selectionID string) (uint16, error) {
	if c, ok := r.resolved[selectionID]; ok {
		return c, nil
	}
	sel, ok := r.selections[selectionID]
	if !ok {
		return 0, fmt.Errorf("ContestSelection %q is not in the contest", selectionID)
	}
	var c uint16
	if sel.IsWriteIn {
		u, err := r.j.candidate(UndeclaredWriteIn)
		if err != nil {
			return 0, fmt.Errorf("ContestSelection %q is a write-in, but the contest has no %q candidate", selectionID, UndeclaredWriteIn)
		}
		c = u
	} else {
		if len(sel.CandidateIDs) == 0 {
			return 0, fmt.Errorf("ContestSelection %q has no CandidateIds", selectionID)
		}
		cand, ok := r.candidates[sel.CandidateIDs[0]]
		if !ok {
			return 0, fmt.Errorf("Candidate %q of ContestSelection %q is not in the file", sel.CandidateIDs[0], selectionID)
		}
		res, err := r.j.resolve([]byte(cand.Name))
		if err != nil {
			return 0, err
		}
		if res.skip {
			return 0, fmt.Errorf("Candidate %q is the skipped-rank label", cand.Name)
		}
		c = res.cand
	}
	r.resolved[selectionID] = c
	return c, nil
}

// readCDF reads a NIST CDF cast vote record report, JSON or XML, in two
// passes so that the CVRs are streamed and never all held in memory: the
// first pass reads the Election and GpUnit lists, wherever they are; the
// second reads the CVRs one at a time.
func readCDF(j *job) error {
	f, err := j.open()
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	if _, err := f.Seek(0, 0); err != nil {
		return err
	}
	j.total *= 2
	if t := bytes.TrimLeft(head[:n], " \t\r\n\xEF\xBB\xBF"); len(t) > 0 && t[0] == '<' {
		return readCDFXML(j, f)
	}
	return readCDFJSON(j, f)
}

// errNoCVRList is the error for a report without its CVR list.
var errNoCVRList = errors.New("the report has no CVR list")
