package cvr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"votedesk/tally"
)

// The ballot image format: the ranked-choice export of WinEDS, which San
// Francisco (2004 to 2019) and Alameda County (Oakland, Berkeley, San
// Leandro, Albany; 2010 to 2018) published for every ranked contest. Two
// fixed-width text files:
//
//   - the ballot image: a line per rank of each voter's ballot, 45
//     characters: contest id (7 digits), voter id (9), ballot serial
//     number (7), tally type (3), precinct id (7), rank (3), candidate id
//     (7), overvote (1 digit, 0 or 1), undervote (1). A voter's ranks are
//     consecutive lines, rank 1 first. An overvoted rank has candidate 0
//     and overvote 1; a rank left blank, candidate 0 and undervote 1.
//   - the master lookup: a line per record, 83 characters: record type
//     (10: "Candidate", "Contest", "Precinct", "Tally Type"), id (7),
//     description (50), list order (7), contest id (7; a candidate's
//     contest), write-in (1), provisional (1). A candidate marked write-in
//     whose description is "Write-In" is the undeclared write-in; one with
//     a name is a qualified write-in candidate, counted by name.
const (
	imageLineLen  = 45
	masterLineLen = 83
)

// imageFields are the fixed columns of a ballot image line: start, end.
// (The serial number and tally type, columns 17 to 26, are not read.)
var imageFields = struct{ contest, voter, precinct, rank, candidate, over, under [2]int }{
	[2]int{0, 7}, [2]int{7, 16}, [2]int{26, 33}, [2]int{33, 36}, [2]int{36, 43}, [2]int{43, 44}, [2]int{44, 45},
}

// masterLookup is what a master lookup file says.
type masterLookup struct {
	contests   []ContestInfo             // in file order; ID without leading zeros
	candidates map[int][]masterCandidate // by contest id, in list order
	precincts  map[int]string            // precinct id: its name
}

// masterCandidate is a candidate of a master lookup.
type masterCandidate struct {
	id, order int
	name      string // UndeclaredWriteIn for the generic write-in
}

// isGenericWriteIn reports whether a write-in candidate's description
// names no one ("Write-In", "WRITE-IN", "Write In").
func isGenericWriteIn(name string) bool {
	n := strings.ToLower(strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == ' ' }), ""))
	return n == "writein" || n == "writeins"
}

// ballotImageFiles finds the ballot image and master lookup a source
// names: a ballot image file, whose master lookup is the file beside it
// named the same with "master lookup" for "ballot image" (as San
// Francisco and Alameda County name them: BallotImage.txt and
// MasterLookup.txt, ballot_image_X.txt and master_lookup_X.txt), or the
// only one beside it; the master lookup, named the other way round; or a
// folder holding one of each.
func ballotImageFiles(path string) (image, master string, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", "", err
	}
	dir := path
	if !fi.IsDir() {
		image, dir = path, filepath.Dir(path)
		if imageFileKind(filepath.Base(path)) == "master" {
			image, master = "", path
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	var images, masters []string
	for _, e := range entries {
		switch imageFileKind(e.Name()) {
		case "image":
			images = append(images, filepath.Join(dir, e.Name()))
		case "master":
			masters = append(masters, filepath.Join(dir, e.Name()))
		}
	}
	if master != "" {
		for _, im := range images {
			if imagePartner(filepath.Base(im)) == strings.ToLower(filepath.Base(master)) {
				return im, master, nil
			}
		}
		if len(images) == 1 {
			return images[0], master, nil
		}
		return "", "", fmt.Errorf("%s is a master lookup; name its ballot image (%d are beside it)", filepath.Base(master), len(images))
	}
	if image == "" {
		if len(images) != 1 {
			return "", "", fmt.Errorf("the folder holds %d ballot image files; name the one to read", len(images))
		}
		image = images[0]
	}
	for _, m := range masters {
		if imagePartner(filepath.Base(image)) == strings.ToLower(filepath.Base(m)) {
			return image, m, nil
		}
	}
	if len(masters) == 1 {
		return image, masters[0], nil
	}
	return "", "", fmt.Errorf("no master lookup file beside %s (looked for %q): the candidates' names are in it", filepath.Base(image), imagePartner(filepath.Base(image)))
}

// imageFileKind tells a ballot image file ("image") or a master lookup
// ("master") by its name.
func imageFileKind(name string) string {
	n := strings.ToLower(strings.NewReplacer("_", "", " ", "", "-", "").Replace(name))
	switch {
	case !strings.HasSuffix(n, ".txt"):
		return ""
	case strings.Contains(n, "ballotimage"):
		return "image"
	case strings.Contains(n, "masterlookup"):
		return "master"
	}
	return ""
}

// imagePartner is the name (in lower case) of the master lookup that goes
// with a ballot image file.
func imagePartner(image string) string {
	n := strings.ToLower(image)
	for _, r := range [][2]string{{"ballot_image", "master_lookup"}, {"ballotimage", "masterlookup"}, {"ballot image", "master lookup"}, {"ballot-image", "master-lookup"}} {
		n = strings.ReplaceAll(n, r[0], r[1])
	}
	return n
}

// looksLikeBallotImage reports whether a file starts with a ballot image
// line, or is a master lookup (whose ballot image goes with it).
func looksLikeBallotImage(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte{'\n'})
	line = bytes.TrimRight(line, "\r")
	for _, kind := range []string{"Candidate ", "Contest   ", "Precinct  ", "Tally Type"} {
		if len(line) >= masterLineLen && bytes.HasPrefix(line, []byte(kind)) && looksNumeric(line[10:17]) {
			return true
		}
	}
	return len(line) == imageLineLen && looksNumeric(line)
}

// looksNumeric reports whether b is digits only.
func looksNumeric(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// readMasterLookup reads a master lookup file.
func readMasterLookup(path string) (*masterLookup, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, &ParseError{File: baseName(path), Err: err}
	}
	defer f.Close()
	m := &masterLookup{candidates: map[int][]masterCandidate{}, precincts: map[int]string{}}
	lines := newLineReader(f)
	bad := func(err error) error { return &ParseError{File: baseName(path), Line: lines.line, Err: err} }
	for {
		line, err := lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, bad(err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(line) < masterLineLen {
			// A line whose description's trailing spaces were trimmed:
			// padded in a copy (line is the read buffer's).
			line = append(append(make([]byte, 0, masterLineLen), line...), bytes.Repeat([]byte{' '}, masterLineLen-len(line))...)
		}
		kind := string(bytes.TrimSpace(line[0:10]))
		id, ok := fixedNumber(line[10:17])
		if !ok {
			return nil, bad(fmt.Errorf("expected a record id of 7 digits in columns 11 to 17, got %q", line[10:17]))
		}
		desc := strings.TrimSpace(string(line[17:67]))
		switch kind {
		case "Contest":
			m.contests = append(m.contests, ContestInfo{ID: strconv.Itoa(id), Name: desc})
		case "Candidate":
			order, ok1 := fixedNumber(line[67:74])
			contest, ok2 := fixedNumber(line[74:81])
			if !ok1 || !ok2 {
				return nil, bad(fmt.Errorf("candidate %d: expected its list order and contest id as 7 digits each in columns 68 to 81, got %q", id, line[67:81]))
			}
			if desc == "" {
				return nil, bad(fmt.Errorf("candidate %d has no name", id))
			}
			if line[81] == '1' && isGenericWriteIn(desc) {
				desc = UndeclaredWriteIn
			}
			m.candidates[contest] = append(m.candidates[contest], masterCandidate{id: id, order: order, name: desc})
		case "Precinct":
			m.precincts[id] = desc
		}
	}
	for c := range m.candidates {
		slices.SortStableFunc(m.candidates[c], func(a, b masterCandidate) int { return a.order - b.order })
	}
	if len(m.contests) == 0 {
		return nil, &ParseError{File: baseName(path), Err: errors.New("no Contest record: is this a master lookup file?")}
	}
	return m, nil
}

// fixedNumber reads a fixed-width field of digits.
func fixedNumber(b []byte) (int, bool) {
	n, ok := parseUint(b, 1<<40)
	return int(n), ok
}

// contest picks the contest a source names (its id, or its name or a part
// of it that fits it alone, as contestsNamed reads them), or the only one.
func (m *masterLookup) contest(name string) (int, error) {
	name = strings.TrimSpace(name)
	list := func() string {
		out := make([]string, len(m.contests))
		for i, c := range m.contests {
			out[i] = fmt.Sprintf("%s (%s)", c.ID, c.Name)
		}
		return strings.Join(out, ", ")
	}
	if name == "" {
		if len(m.contests) == 1 {
			id, _ := strconv.Atoi(m.contests[0].ID)
			return id, nil
		}
		return 0, fmt.Errorf("no contest is named; the master lookup lists %s: name one with --contest", list())
	}
	if n, err := strconv.Atoi(name); err == nil {
		for _, c := range m.contests {
			if c.ID == strconv.Itoa(n) {
				return n, nil
			}
		}
	}
	names := make([]string, len(m.contests))
	for i, c := range m.contests {
		names[i] = c.Name
	}
	if fits := contestsNamed(names, name); len(fits) == 1 {
		id, _ := strconv.Atoi(m.contests[fits[0]].ID)
		return id, nil
	}
	return 0, fmt.Errorf("contest %q is not one of the master lookup's, or fits several: %s", name, list())
}

// BallotImageContests lists the contests of a ballot image's master
// lookup, so a person can choose the contestId to read.
func BallotImageContests(path string) ([]ContestInfo, error) {
	_, master, err := ballotImageFiles(path)
	if err != nil {
		return nil, &ParseError{File: baseName(path), Err: err}
	}
	m, err := readMasterLookup(master)
	if err != nil {
		return nil, err
	}
	return m.contests, nil
}

// readBallotImage reads a ballot image with its master lookup: each voter's
// lines for the contest become a ballot, its id the voter id (without its
// leading zeros), its precinct the master lookup's name for it. Lines of
// other contests are passed over.
func readBallotImage(j *job) error {
	image, master, err := ballotImageFiles(j.src.FilePath)
	if err != nil {
		return err
	}
	m, err := readMasterLookup(master)
	if err != nil {
		return err
	}
	contest, err := m.contest(j.src.ContestID)
	if err != nil {
		return &ParseError{File: baseName(master), Err: err}
	}
	cands := map[int]masterCandidate{}
	var names []string
	for _, c := range m.candidates[contest] {
		cands[c.id] = c
		names = append(names, c.name)
	}
	j.declare(names)
	j.file = baseName(image)
	f, fi, err := openRegular(image)
	if err != nil {
		return err
	}
	defer f.Close()
	j.total = fi.Size()
	r := imageReader{j: j, cands: cands, precincts: m.precincts, contest: contest, resolved: map[int]resolution{}, seen: map[int]int{}}
	lines := newLineReader(j.counting(f))
	for {
		line, err := lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return j.at(lines.line, 0, err)
		}
		if len(line) == 0 {
			continue
		}
		if err := r.line(lines.line, line); err != nil {
			return err
		}
	}
	return r.flush()
}

// imageReader gathers a ballot image's lines into ballots.
type imageReader struct {
	j         *job
	cands     map[int]masterCandidate
	precincts map[int]string
	contest   int
	resolved  map[int]resolution
	seen      map[int]int // voter id: the line its ballot started on

	open                         bool // a ballot is being gathered:
	voter, rank, start, precinct int  // its voter, last rank, first line and precinct
	marks                        []tally.Mark
}

// line reads one ballot image line.
func (r *imageReader) line(n int, line []byte) error {
	j, f := r.j, imageFields
	if len(line) != imageLineLen {
		return j.at(n, 0, fmt.Errorf("a ballot image line has %d characters, not %d", imageLineLen, len(line)))
	}
	field := func(at [2]int) (int, error) {
		v, ok := fixedNumber(line[at[0]:at[1]])
		if !ok {
			return 0, j.at(n, at[0]+1, fmt.Errorf("expected %d digits in columns %d to %d, got %q", at[1]-at[0], at[0]+1, at[1], line[at[0]:at[1]]))
		}
		return v, nil
	}
	contest, err := field(f.contest)
	if err != nil {
		return err
	}
	if contest != r.contest {
		return r.flush()
	}
	var v [6]int
	for i, at := range [][2]int{f.voter, f.precinct, f.rank, f.candidate, f.over, f.under} {
		if v[i], err = field(at); err != nil {
			return err
		}
	}
	voter, precinct, rank, cand, over, under := v[0], v[1], v[2], v[3], v[4], v[5]
	if !r.open || voter != r.voter {
		if err := r.flush(); err != nil {
			return err
		}
		if first, ok := r.seen[voter]; ok {
			return j.at(n, f.voter[0]+1, fmt.Errorf("voter %d's ranks are not together: the ballot began on line %d", voter, first))
		}
		r.seen[voter] = n
		r.open, r.voter, r.rank, r.start, r.precinct = true, voter, 0, n, precinct
	}
	switch {
	case rank <= r.rank || rank > 0xFFFF:
		return j.at(n, f.rank[0]+1, fmt.Errorf("voter %d: rank %d follows rank %d; a voter's ranks come in order from 1", voter, rank, r.rank))
	case over > 1 || under > 1 || over+under == 2:
		return j.at(n, f.over[0]+1, fmt.Errorf("voter %d, rank %d: overvote %d and undervote %d; each is 0 or 1, and not both 1", voter, rank, over, under))
	case precinct != r.precinct:
		return j.at(n, f.precinct[0]+1, fmt.Errorf("voter %d: rank %d is in precinct %d, rank 1 in %d", voter, rank, precinct, r.precinct))
	}
	r.rank = rank
	switch {
	case under == 1:
	case over == 1:
		r.marks = append(r.marks, tally.Mark{Rank: uint16(rank), Candidate: tally.Overvote})
	case cand == 0:
		return j.at(n, f.candidate[0]+1, fmt.Errorf("voter %d, rank %d names no candidate and is marked neither overvote nor undervote", voter, rank))
	default:
		res, ok := r.resolved[cand]
		if !ok {
			c, known := r.cands[cand]
			if !known {
				return j.at(n, f.candidate[0]+1, fmt.Errorf("candidate %d is not a candidate of contest %d in the master lookup", cand, r.contest))
			}
			var err error
			if c.name == UndeclaredWriteIn {
				res.cand, err = j.candidate(UndeclaredWriteIn)
			} else {
				res, err = j.resolve([]byte(c.name))
			}
			if err != nil {
				return j.at(n, f.candidate[0]+1, err)
			}
			r.resolved[cand] = res
		}
		if !res.skip {
			r.marks = append(r.marks, tally.Mark{Rank: uint16(rank), Candidate: res.cand})
		}
	}
	return nil
}

// flush adds the ballot gathered, if any.
func (r *imageReader) flush() error {
	if !r.open {
		return nil
	}
	id := strconv.Itoa(r.voter)
	precinct, ok := r.precincts[r.precinct]
	if !ok {
		precinct = strconv.Itoa(r.precinct)
	}
	err := r.j.add(r.marks, []byte(id), 1, []byte(precinct))
	r.open, r.marks = false, r.marks[:0]
	if err != nil {
		return r.j.at(r.start, 0, err)
	}
	return nil
}
