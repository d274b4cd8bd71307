package cvr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"votedesk/tally"
)

// A Dominion Democracy Suite CVR export is a folder: manifests that name
// the contests, candidates, precincts and precinct portions by number, and
// the ballots in CvrExport.json or, in larger exports, CvrExport_1.json,
// CvrExport_2.json and so on (numbers may be missing; every file present is
// read, in number order). RCTab's dominion provider reads it; so does this
// reader, the same way:
//
//   - Each session (one scanned ballot) has an Original reading and, once
//     adjudicated, a Modified one; the one whose IsCurrent is true counts. A
//     session without a current reading is skipped.
//   - The ballot's contests are under Cards (one per sheet) or directly under
//     the reading. Each appearance of the contest is one cast vote record,
//     except where its OutstackConditionIds hold 7 (an "Invalid Contest", as
//     Alaska marks the contests of a partial-count ballot the voter may not
//     vote in), which is skipped.
//   - A mark is the CandidateId at its Rank; an ambiguous mark (IsAmbiguous)
//     is not read. CandidateIds are resolved like names, so an RCTab config
//     lists them as its candidates' codes or aliases; the source's
//     undeclaredWriteInLabel names the write-in candidate's id.
//   - The precinct is PrecinctManifest's Description of the PrecinctId (none
//     when the export has no PrecinctManifest.json), the batch the BatchId
//     and the tabulator the TabulatorId (batch ids repeat across
//     tabulators), and the record id TabulatorId-BatchId-RecordId.
const (
	dominionContests         = "ContestManifest.json"
	dominionCandidates       = "CandidateManifest.json"
	dominionPrecincts        = "PrecinctManifest.json"
	dominionPrecinctPortions = "PrecinctPortionManifest.json"
	dominionExport           = "CvrExport.json"
	// dominionInvalidContest is the OutstackConditionId of a contest that
	// must not count on this ballot.
	dominionInvalidContest = 7
	// maxManifestBytes bounds a manifest: real ones are kilobytes.
	maxManifestBytes = 256 << 20
	// maxSessionBytes bounds one session of a CvrExport file: a real one is
	// a few kilobytes even for a long ballot.
	maxSessionBytes = 16 << 20
)

// dominionID is a number of a Dominion export (an Id, CandidateId,
// BatchId...), kept as its decimal text. Exports write numbers; a string is
// taken too.
type dominionID string

func (d *dominionID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*d = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = dominionID(strings.TrimSpace(s))
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("%s is not a number", b)
		}
		*d = dominionID(n.String())
	}
	return nil
}

type dominionManifest struct {
	List []struct {
		ID          dominionID `json:"Id"`
		Description string     `json:"Description"`
		ContestID   dominionID `json:"ContestId"` // candidates only
		NumOfRanks  int        `json:"NumOfRanks"`
	} `json:"List"`
}

// descriptions maps each Id of the manifest to its Description.
func (m *dominionManifest) descriptions() map[dominionID]string {
	out := make(map[dominionID]string, len(m.List))
	for _, e := range m.List {
		out[e.ID] = e.Description
	}
	return out
}

type dominionSession struct {
	TabulatorID dominionID       `json:"TabulatorId"`
	BatchID     dominionID       `json:"BatchId"`
	RecordID    dominionID       `json:"RecordId"`
	Original    *dominionReading `json:"Original"`
	Modified    *dominionReading `json:"Modified"`
}

type dominionReading struct {
	IsCurrent         bool              `json:"IsCurrent"`
	PrecinctID        dominionID        `json:"PrecinctId"`
	PrecinctPortionID dominionID        `json:"PrecinctPortionId"`
	Cards             []dominionCard    `json:"Cards"`
	Contests          []dominionContest `json:"Contests"`
}

type dominionCard struct {
	Contests []dominionContest `json:"Contests"`
}

type dominionContest struct {
	ID                   dominionID     `json:"Id"`
	OutstackConditionIDs []int          `json:"OutstackConditionIds"`
	Marks                []dominionMark `json:"Marks"`
}

type dominionMark struct {
	CandidateID dominionID `json:"CandidateId"`
	Rank        int        `json:"Rank"`
	IsAmbiguous bool       `json:"IsAmbiguous"`
}

// dominionReader holds what the manifests say about the contest read.
type dominionReader struct {
	j         *job
	contest   dominionID
	precincts map[dominionID]string // nil when the export has no precinct manifest
	portions  map[dominionID]string
	// names are the contest's candidates: CandidateId to Description.
	names map[dominionID]string
	// byName, for a read without a config (ReadFile), resolves a CandidateId
	// by its Description; otherwise by the id, as RCTab does.
	byName bool
	marks  []tally.Mark
	resolv map[dominionID]resolution
}

func readDominion(j *job) error {
	dir := j.src.FilePath
	if fi, err := os.Stat(dir); err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("is not a folder: the dominion provider reads a Dominion CVR export folder (%s, %s and CvrExport*.json)", dominionContests, dominionCandidates)
	}
	files, err := dominionExports(dir)
	if err != nil {
		return err
	}
	r := &dominionReader{j: j, resolv: map[dominionID]resolution{}}
	if err := r.manifests(dir); err != nil {
		return err
	}
	j.addSizes(files)
	for _, f := range files {
		j.file = filepath.Base(f)
		if err := r.export(f); err != nil {
			return err
		}
	}
	return nil
}

// dominionExports lists the folder's CvrExport.json, or else its
// CvrExport_N.json files in number order.
func dominionExports(dir string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(dir, dominionExport)); err == nil {
		return []string{filepath.Join(dir, dominionExport)}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type numbered struct {
		n    int
		path string
	}
	var found []numbered
	for _, e := range entries {
		name := e.Name()
		num, ok := strings.CutPrefix(name, "CvrExport_")
		if !ok {
			continue
		}
		num, ok = strings.CutSuffix(num, ".json")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 0 {
			continue
		}
		found = append(found, numbered{n, filepath.Join(dir, name)})
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("holds neither %s nor CvrExport_1.json, CvrExport_2.json...: not a Dominion CVR export folder", dominionExport)
	}
	sort.Slice(found, func(a, b int) bool { return found[a].n < found[b].n })
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.path
	}
	return out, nil
}

// manifests reads the contest, candidate and precinct manifests.
func (r *dominionReader) manifests(dir string) error {
	var contests, cands, portions dominionManifest
	for _, m := range []struct {
		name string
		into *dominionManifest
	}{{dominionContests, &contests}, {dominionCandidates, &cands}, {dominionPrecinctPortions, &portions}} {
		if err := readManifest(filepath.Join(dir, m.name), m.into); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, dominionPrecincts)); err == nil {
		// Older exports have precinct portions only.
		var precincts dominionManifest
		if err := readManifest(filepath.Join(dir, dominionPrecincts), &precincts); err != nil {
			return err
		}
		r.precincts = precincts.descriptions()
	}
	r.portions = portions.descriptions()
	r.contest = dominionID(strings.TrimSpace(r.j.src.ContestID))
	var known []string
	found := false
	for _, c := range contests.List {
		known = append(known, fmt.Sprintf("%s (%s)", c.ID, c.Description))
		found = found || c.ID == r.contest
	}
	if r.contest == "" && len(contests.List) == 1 {
		r.contest, found = contests.List[0].ID, true
	}
	if !found {
		what := "no contestId is given"
		if r.contest != "" {
			what = fmt.Sprintf("contest %q is not in %s", r.contest, dominionContests)
		}
		if len(known) > 12 {
			known = append(known[:12], "...")
		}
		return fmt.Errorf("%s; the export's contests are %s", what, strings.Join(known, ", "))
	}
	r.names = map[dominionID]string{}
	var declared []string
	for _, c := range cands.List {
		if c.ContestID == r.contest {
			r.names[c.ID] = strings.TrimSpace(c.Description)
			if c.ID != dominionID(r.j.src.UndeclaredWriteInLabel) {
				declared = append(declared, strings.TrimSpace(c.Description))
			}
		}
	}
	if _, ok := r.j.cands.(interface{ declare([]string) }); ok {
		r.byName = true
		r.j.declare(declared)
	}
	return nil
}

// readManifest reads one manifest file whole.
func readManifest(path string, into *dominionManifest) error {
	b, err := readWhole(path, maxManifestBytes, "a manifest")
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("has no %s: not a Dominion CVR export folder", filepath.Base(path))
	}
	if err != nil {
		return &ParseError{File: filepath.Base(path), Err: err}
	}
	if err := json.Unmarshal(bytes.TrimPrefix(b, utf8BOM), into); err != nil {
		return &ParseError{File: filepath.Base(path), Err: fmt.Errorf("malformed manifest: %v", err)}
	}
	return nil
}

// export reads one CvrExport file's sessions, one at a time.
func (r *dominionReader) export(path string) error {
	j := r.j
	f, _, err := openRegular(path)
	if err != nil {
		return &ParseError{File: j.file, Err: err}
	}
	defer f.Close()
	bounded := &boundedReader{r: j.counting(f), limit: maxSessionBytes}
	dec := json.NewDecoder(bufio.NewReaderSize(bounded, readBufferSize))
	fail := func(record int, err error) error {
		if errors.Is(err, errSessionTooLong) {
			err = fmt.Errorf("a session is longer than %d MiB", maxSessionBytes>>20)
		}
		return jsonError(j, dec.InputOffset(), record, err)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fail(0, orError(err, "the file is not a JSON object"))
	}
	sessions := false
	for dec.More() {
		bounded.reset()
		t, err := dec.Token()
		if err != nil {
			return fail(0, err)
		}
		if key, _ := t.(string); key != "Sessions" {
			if err := dec.Decode(&jsonSkip{}); err != nil {
				return fail(0, err)
			}
			continue
		}
		sessions = true
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return fail(0, orError(err, "Sessions is not an array"))
		}
		for k := 1; dec.More(); k++ {
			bounded.reset()
			var s dominionSession
			if err := dec.Decode(&s); err != nil {
				return fail(k, err)
			}
			if err := r.session(&s); err != nil {
				return fail(k, err)
			}
		}
		if _, err := dec.Token(); err != nil {
			return fail(0, err)
		}
	}
	if !sessions {
		return fail(0, errors.New("has no Sessions list: not a Dominion CvrExport file"))
	}
	return nil
}

// session adds the cast vote records of one scanned ballot.
func (r *dominionReader) session(s *dominionSession) error {
	reading := s.Original
	if reading == nil || !reading.IsCurrent {
		reading = s.Modified
	}
	if reading == nil {
		r.j.stats.Skipped++ // no current reading: RCTab skips it too
		return nil
	}
	var precinct []byte
	if reading.PrecinctID != "" {
		name, ok := r.precincts[reading.PrecinctID]
		if !ok {
			return fmt.Errorf("PrecinctId %s is not in %s", reading.PrecinctID, dominionPrecincts)
		}
		precinct = []byte(name)
	}
	r.j.extra = RecordInfo{Tabulator: string(s.TabulatorID), Batch: string(s.BatchID), RecordID: string(s.RecordID)}
	if reading.PrecinctPortionID != "" {
		portion, ok := r.portions[reading.PrecinctPortionID]
		if !ok {
			return fmt.Errorf("PrecinctPortionId %s is not in %s", reading.PrecinctPortionID, dominionPrecinctPortions)
		}
		r.j.extra.PrecinctPortion = portion
	}
	id := []byte(string(s.TabulatorID) + "-" + string(s.BatchID) + "-" + string(s.RecordID))
	cards := reading.Cards
	if cards == nil {
		cards = []dominionCard{{Contests: reading.Contests}}
	}
	found := false
	for _, card := range cards {
		for i := range card.Contests {
			c := &card.Contests[i]
			if c.ID != r.contest {
				continue
			}
			found = true
			if slices.Contains(c.OutstackConditionIDs, dominionInvalidContest) {
				r.j.stats.Skipped++
				continue
			}
			marks, err := r.contestMarks(c)
			if err != nil {
				return err
			}
			if err := r.j.add(marks, id, 1, precinct); err != nil {
				return err
			}
			r.j.out.setBatch([]byte(s.BatchID))
			r.j.out.setTabulator([]byte(s.TabulatorID))
		}
	}
	if !found {
		r.j.stats.Skipped++
	}
	return nil
}

// contestMarks returns the marks of one contest of a ballot, by rank.
func (r *dominionReader) contestMarks(c *dominionContest) ([]tally.Mark, error) {
	r.marks = r.marks[:0]
	for _, m := range c.Marks {
		if m.IsAmbiguous {
			continue
		}
		if m.Rank < 1 || m.Rank > 0xFFFF {
			return nil, fmt.Errorf("CandidateId %s has rank %d; ranks run from 1 to 65535", m.CandidateID, m.Rank)
		}
		res, err := r.candidate(m.CandidateID)
		if err != nil {
			return nil, err
		}
		if !res.skip {
			r.marks = append(r.marks, tally.Mark{Rank: uint16(m.Rank), Candidate: res.cand})
		}
	}
	slices.SortStableFunc(r.marks, func(a, b tally.Mark) int { return int(a.Rank) - int(b.Rank) })
	return r.marks, nil
}

// candidate resolves a CandidateId of the contest.
func (r *dominionReader) candidate(id dominionID) (resolution, error) {
	if res, ok := r.resolv[id]; ok {
		return res, nil
	}
	name, inContest := r.names[id]
	if !inContest {
		return resolution{}, fmt.Errorf("CandidateId %s is not a candidate of contest %s in %s", id, r.contest, dominionCandidates)
	}
	key := string(id)
	if r.byName && key != r.j.src.UndeclaredWriteInLabel {
		key = name
	}
	res, err := r.j.resolve([]byte(key))
	if err != nil && !r.byName {
		// A config may name the candidate as the export describes it.
		if res2, err2 := r.j.resolve([]byte(name)); err2 == nil {
			res, err = res2, nil
		} else {
			err = fmt.Errorf("CandidateId %s: %w", id, err2)
		}
	}
	if err != nil {
		return resolution{}, err
	}
	r.resolv[id] = res
	return res, nil
}

// errSessionTooLong is boundedReader's error.
var errSessionTooLong = errorf("value too long")

// boundedReader fails once more than limit bytes are read since its last
// reset, so one JSON value of a stream cannot fill memory.
type boundedReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (b *boundedReader) reset() { b.n = 0 }

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.n >= b.limit {
		return 0, errSessionTooLong
	}
	if int64(len(p)) > b.limit-b.n {
		p = p[:b.limit-b.n]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}
