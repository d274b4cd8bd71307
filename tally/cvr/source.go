package cvr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Format names a cast vote record file format. The formats RCTab reads carry
// RCTab's provider names, so a Source unmarshalled from an RCTab config names
// its format directly.
type Format string

// The formats Read understands.
const (
	FormatCDF         Format = "cdf"         // NIST SP 1500-103 CVR, JSON or XML
	FormatGenericCSV  Format = "genericCsv"  // RCTab generic CSV: a column per candidate, cells hold ranks
	FormatClearBallot Format = "clearBallot" // Clear Ballot CSV: a 0/1 column per candidate and rank
	FormatESS         Format = "ess"         // ES&S xlsx: a column per rank, cells hold candidate names
	FormatBLT         Format = "blt"         // OpenSTV / ERS ballot file
	FormatPrefLib     Format = "preflib"     // PrefLib .soi, .toi, .soc, .toc
	FormatVoteDesk    Format = "votedesk"    // VoteDesk ranked-ballot CSV
	FormatDominion    Format = "dominion"    // Dominion Democracy Suite CVR export folder: manifests and CvrExport*.json
	FormatHart        Format = "hart"        // Hart Verity CVR export folder: one XML file per ballot
	FormatBallotImage Format = "ballotImage" // WinEDS ballot image and master lookup (San Francisco, Alameda County)
)

// Label names a format for a person: the vendor or the tool that writes it.
func (f Format) Label() string {
	switch f {
	case FormatCDF:
		return "NIST CDF"
	case FormatGenericCSV:
		return "RCTab generic CSV"
	case FormatClearBallot:
		return "Clear Ballot"
	case FormatESS:
		return "ES&S"
	case FormatBLT:
		return "BLT"
	case FormatPrefLib:
		return "PrefLib"
	case FormatVoteDesk:
		return "VoteDesk CSV"
	case FormatDominion:
		return "Dominion"
	case FormatHart:
		return "Hart"
	case FormatBallotImage:
		return "WinEDS ballot image"
	}
	return string(f)
}

// Source is one cast vote record file and how to read it: one entry of an
// RCTab config's cvrFileSources. The JSON field names are RCTab's, so the
// config loader can unmarshal straight into it. Indexes count from 1, as in
// RCTab; 0 means "not given".
type Source struct {
	Provider  Format `json:"provider"`
	FilePath  string `json:"filePath"`
	ContestID string `json:"contestId"` // CDF: the Contest's Name (or @id); Clear Ballot: the contest in the choice headers; may be empty when the file has one contest

	FirstVoteColumnIndex Index `json:"firstVoteColumnIndex"` // genericCsv, ess
	FirstVoteRowIndex    Index `json:"firstVoteRowIndex"`    // genericCsv, ess
	IDColumnIndex        Index `json:"idColumnIndex"`        // genericCsv, ess
	BatchColumnIndex     Index `json:"batchColumnIndex"`     // genericCsv, ess: the batch (BallotSet.Batches)
	PrecinctColumnIndex  Index `json:"precinctColumnIndex"`  // genericCsv, ess

	// Not RCTab's: an ess layout told by its header (InferLayout), never
	// by a config.
	LastVoteColumnIndex Index `json:"-"` // ess: the last ranking column (0: every column from the first)
	CountColumnIndex    Index `json:"-"` // ess: how many ballots the row stands for (0: one each)

	// inferred says InferLayout laid the source out, so RCTab's rules for
	// a config's settings do not bind it.
	inferred bool

	OvervoteDelimiter             string `json:"overvoteDelimiter"`             // ess: splits a cell naming several candidates
	OvervoteLabel                 string `json:"overvoteLabel"`                 // a name that means "this rank was overvoted"
	SkippedRankLabel              string `json:"skippedRankLabel"`              // a name that means "this rank was left blank"
	UndervoteLabel                string `json:"undervoteLabel"`                // RCTab's older name for SkippedRankLabel
	UndeclaredWriteInLabel        string `json:"undeclaredWriteInLabel"`        // a name that means an undeclared write-in
	TreatBlankAsUndeclaredWriteIn bool   `json:"treatBlankAsUndeclaredWriteIn"` // ess: a blank ranking cell is an undeclared write-in
}

// skippedRankLabel returns the label that marks a skipped rank, under either
// of the names RCTab has used for it.
func (s Source) skippedRankLabel() string {
	if s.SkippedRankLabel != "" {
		return s.SkippedRankLabel
	}
	return s.UndervoteLabel
}

// Validate checks that the source names a readable format and gives the
// settings that format needs, as RCTab's config validation does.
func (s Source) Validate() error {
	bad := func(format string, a ...any) error {
		return errorf("source %q: %s", s.FilePath, fmt.Sprintf(format, a...))
	}
	if s.FilePath == "" {
		return bad("filePath is required")
	}
	switch s.Provider {
	case FormatGenericCSV, FormatESS:
		if s.FirstVoteColumnIndex < 1 {
			return bad("firstVoteColumnIndex is required for provider %s", s.Provider)
		}
		if s.FirstVoteRowIndex < 1 {
			return bad("firstVoteRowIndex is required for provider %s", s.Provider)
		}
		if s.Provider == FormatGenericCSV && s.FirstVoteRowIndex < 2 {
			return bad("firstVoteRowIndex must be at least 2: row 1 holds the candidate names")
		}
	case FormatCDF, FormatClearBallot, FormatBLT, FormatPrefLib, FormatVoteDesk, FormatDominion, FormatHart, FormatBallotImage:
	case "":
		return bad("provider is required")
	default:
		return bad("provider %q is not supported", s.Provider)
	}
	if s.OvervoteDelimiter != "" && s.OvervoteLabel != "" && !s.inferred {
		return bad("overvoteDelimiter and overvoteLabel cannot both be set")
	}
	return nil
}

// Index is a 1-based row or column number from an RCTab config, where it may
// be written as a number or as a string ("" for none). 0 means none.
type Index int

// UnmarshalJSON accepts 3, "3", "" and null.
func (x *Index) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*x = 0
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*x = 0
			return nil
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return errorf("index %s is not a whole number from 1", b)
	}
	*x = Index(n)
	return nil
}

// MarshalJSON writes the index as RCTab does: a string, "" for none.
func (x Index) MarshalJSON() ([]byte, error) {
	if x == 0 {
		return []byte(`""`), nil
	}
	return []byte(`"` + strconv.Itoa(int(x)) + `"`), nil
}

// col returns the 0-based column of a 1-based index, or -1 for none.
func (x Index) col() int { return int(x) - 1 }
