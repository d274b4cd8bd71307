package dataio

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"votedesk/app"
	"votedesk/tally/cvr"
)

// completeSource detects a source's format when it has none and gives a
// genericCsv or ess source without a layout the usual one.
func completeSource(src *cvr.Source, m *candidateMatcher) error {
	if src.FilePath == "" {
		return app.Errorf(app.CodeInvalid, "a cast vote record source has no file")
	}
	if src.Provider == "" {
		f, err := DetectCVRFormat(src.FilePath)
		if err != nil {
			return err
		}
		src.Provider = f
	}
	if err := DefaultLayout(src, m.Candidate); err != nil {
		return err
	}
	if err := src.Validate(); err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	return nil
}

// DetectCVRFormat tells a cast vote record file's format from its name and
// its first bytes (cvr.DetectFormat).
func DetectCVRFormat(path string) (cvr.Format, error) {
	format, err := cvr.DetectFile(path)
	switch {
	case errors.Is(err, cvr.ErrUnknownFormat):
		return "", app.Errorf(app.CodeInvalid, "%s: cannot tell the format from its name or content; give it with --format (%s)", filepath.Base(path), FormatList)
	case errors.Is(err, os.ErrNotExist):
		return "", app.Errorf(app.CodeInvalid, "%s: no such file or folder", filepath.Base(path))
	case err != nil:
		return "", &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	return format, nil
}

// FormatList names every format an import reads, as --format takes them.
const FormatList = "cdf, genericCsv, clearBallot, ess, dominion, hart, blt, preflib, votedesk"

// DefaultLayout gives a genericCsv or ess source that names no first vote
// column the usual layout, as RCTab's own test files have it: ballots from
// row 2, and
//   - genericCsv: candidate columns from the first column whose header names
//     a candidate (isCandidate), the ballot id in column 1 when that is
//     before them;
//   - ess: a ranking per column from column 2, the ballot id in column 1.
//
// Other layouts are given in an RCTab config's cvrFileSources.
func DefaultLayout(src *cvr.Source, isCandidate func(name string) (uint16, bool)) error {
	if src.FirstVoteColumnIndex != 0 {
		return nil
	}
	switch src.Provider {
	case cvr.FormatESS:
		src.FirstVoteColumnIndex, src.IDColumnIndex = 2, 1
	case cvr.FormatGenericCSV:
		header, err := csvHeader(src.FilePath)
		if err != nil {
			return err
		}
		first := -1
		for i, h := range header {
			if _, ok := isCandidate(string(bytes.TrimSpace([]byte(h)))); ok {
				first = i
				break
			}
		}
		if first < 0 {
			return app.Errorf(app.CodeInvalid, "%s: line 1: no column header names a candidate of the election, so the ballot columns are unknown (header: %.80q)",
				filepath.Base(src.FilePath), header)
		}
		src.FirstVoteColumnIndex = cvr.Index(first + 1)
		if first > 0 {
			src.IDColumnIndex = 1
		}
	default:
		return nil
	}
	if src.FirstVoteRowIndex == 0 {
		src.FirstVoteRowIndex = 2
	}
	return nil
}

// csvHeader reads the first row of a CSV file.
func csvHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, app.Errorf(app.CodeInvalid, "%s: %v", filepath.Base(path), errors.Unwrap(err))
	}
	defer f.Close()
	r := csv.NewReader(io.LimitReader(f, 1<<20))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	rec, err := r.Read()
	if err != nil {
		return nil, app.Errorf(app.CodeInvalid, "%s: line 1: expected a header row naming the candidates: %v", filepath.Base(path), err)
	}
	if len(rec) > 0 {
		rec[0] = string(bytes.TrimPrefix([]byte(rec[0]), []byte("\xEF\xBB\xBF")))
	}
	return rec, nil
}

// fileSHA256 returns the hex SHA-256 of a file.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
