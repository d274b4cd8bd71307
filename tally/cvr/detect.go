package cvr

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// utf8BOM is the byte order mark some files start with.
var utf8BOM = []byte("\xEF\xBB\xBF")

// ErrUnknownFormat is what DetectFormat and DetectFile answer for a file
// whose format neither its name nor its content tells.
var ErrUnknownFormat = errorf("cannot tell the format")

// FileKind is a file name ending DetectFormat reads, and what such a file
// holds, for a person choosing a file.
type FileKind struct {
	Ext, Label string
}

// FileKinds are the endings of the cast vote record files DetectFormat
// reads by name. (Dominion and Hart exports are folders; a file of any
// other name is read when its content tells its format.)
var FileKinds = []FileKind{
	{".csv", "Cast vote records (CSV)"},
	{".txt", "Cast vote records (CSV, or a ballot image)"},
	{".xlsx", "ES&S cast vote records (Excel)"},
	{".json", "CDF cast vote records (JSON)"},
	{".xml", "CDF cast vote records (XML)"},
	{".blt", "BLT ballots"},
	{".soi", "PrefLib ballots"},
	{".toi", "PrefLib ballots"},
	{".soc", "PrefLib ballots"},
	{".toc", "PrefLib ballots"},
}

// DetectFormat guesses a file's format from its name and its first bytes
// (4 KB hold any header). The extension decides where it is unambiguous (.blt,
// .soi/.toi/.soc/.toc, .xlsx, .xml); JSON is taken for CDF; a CSV is told
// apart by its first lines: VoteDesk's header or candidates line, Clear
// Ballot's RowNumber,BoxID,... header, an ES&S export's ranking columns,
// else RCTab's generic CSV.
func DetectFormat(path string, head []byte) (Format, error) {
	head = bytes.TrimPrefix(head, utf8BOM)
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".blt":
		return FormatBLT, nil
	case ".soi", ".toi", ".soc", ".toc":
		return FormatPrefLib, nil
	case ".xlsx":
		return FormatESS, nil
	case ".xml", ".json":
		return FormatCDF, nil
	case ".csv", ".txt":
		if looksLikeBallotImage(head) {
			return FormatBallotImage, nil
		}
		return csvFormat(head), nil
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return FormatESS, nil
	case len(t) > 0 && (t[0] == '{' || t[0] == '<'):
		return FormatCDF, nil
	case bytes.Contains(head, []byte("# DATA TYPE:")) || bytes.Contains(head, []byte("# ALTERNATIVE NAME")):
		return FormatPrefLib, nil
	case looksLikeBallotImage(head):
		return FormatBallotImage, nil
	case looksLikeBLT(t):
		return FormatBLT, nil
	case bytes.IndexByte(head, ',') >= 0:
		return csvFormat(head), nil
	}
	return "", fmt.Errorf("%w of %s", ErrUnknownFormat, filepath.Base(path))
}

// csvFormat tells VoteDesk, Clear Ballot, ES&S (a header naming ranks:
// "1st Choice", "Rank 1"...) and generic CSV files apart.
func csvFormat(head []byte) Format {
	switch {
	case bytes.HasPrefix(head, []byte(votedeskCandidatesPrefix)), bytes.HasPrefix(head, []byte("ballot_id,rank_1")):
		return FormatVoteDesk
	case bytes.HasPrefix(head, []byte("RowNumber,BoxID,BoxPosition,BallotID")):
		return FormatClearBallot
	}
	line, _, _ := bytes.Cut(head, []byte{'\n'})
	sc := newCSVScanner(bytes.NewReader(line))
	if sc.scan() && len(rankRuns(headerFields(sc.fields))) > 0 {
		return FormatESS
	}
	return FormatGenericCSV
}

// looksLikeBLT reports whether the first line that is not a comment holds
// just two numbers, the numbers of candidates and seats.
func looksLikeBLT(t []byte) bool {
	for len(t) > 0 {
		line, rest, _ := bytes.Cut(t, []byte{'\n'})
		line = bytes.TrimSpace(line)
		t = rest
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		f := bytes.Fields(line)
		if len(f) != 2 {
			return false
		}
		_, ok1 := parseUint(f[0], 1<<20)
		_, ok2 := parseUint(f[1], 1<<20)
		return ok1 && ok2
	}
	return false
}

// detectFolder tells which vendor's export folder path is: Dominion's has
// its manifests, Hart's XML files of <Cvr> elements.
func detectFolder(path string) (Format, error) {
	if _, err := os.Stat(filepath.Join(path, dominionCandidates)); err == nil {
		return FormatDominion, nil
	}
	if files, err := hartFiles(path); err == nil {
		if b, err := readWhole(files[0], maxHartFileBytes, "a Hart ballot file"); err == nil && bytes.Contains(b, []byte("<Cvr")) {
			return FormatHart, nil
		}
	}
	if _, _, err := ballotImageFiles(path); err == nil {
		return FormatBallotImage, nil
	}
	return "", &ParseError{File: baseName(path), Err: fmt.Errorf("%w: is a folder, but neither a Dominion CVR export (%s, %s, CvrExport*.json), a Hart one (XML files of <Cvr> elements) nor a ballot image with its master lookup: name a file, or an export folder", ErrUnknownFormat, dominionContests, dominionCandidates)}
}

// ContestInfo names one contest of a vendor export folder.
type ContestInfo struct {
	ID, Name string
}

// Contests lists the contests of a source that may hold several, so a
// person can choose the contestId to read: a Dominion export folder's
// (from its ContestManifest.json), a Hart one's (from its first ballot
// file), a ballot image's (from its master lookup) and an ES&S sheet's
// (from its headers, SheetContests).
func Contests(path string, format Format) ([]ContestInfo, error) {
	var out []ContestInfo
	switch format {
	case FormatESS:
		return SheetContests(path)
	case FormatDominion:
		var m dominionManifest
		if err := readManifest(filepath.Join(path, dominionContests), &m); err != nil {
			return nil, &ParseError{File: baseName(path), Err: err}
		}
		for _, c := range m.List {
			out = append(out, ContestInfo{ID: string(c.ID), Name: strings.TrimSpace(c.Description)})
		}
	case FormatBallotImage:
		return BallotImageContests(path)
	case FormatHart:
		files, err := hartFiles(path)
		if err != nil {
			return nil, &ParseError{File: baseName(path), Err: err}
		}
		c, _, err := readHartFile(files[0])
		if err != nil {
			return nil, err
		}
		for _, ct := range c.Contests {
			out = append(out, ContestInfo{ID: strings.TrimSpace(ct.ID), Name: strings.TrimSpace(ct.Name)})
		}
	default:
		return nil, errorf("%s files hold one contest each", format)
	}
	return out, nil
}
