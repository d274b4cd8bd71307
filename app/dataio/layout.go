package dataio

import (
	"crypto/sha256"
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
const FormatList = "cdf, genericCsv, clearBallot, ess, dominion, hart, ballotImage, blt, preflib, votedesk"

// DefaultLayout gives a genericCsv or ess source that names no first vote
// column the layout its header shows (cvr.InferLayout): a genericCsv's
// candidate columns start at the first column whose header is a candidate
// of the election. Other layouts are given in an RCTab config's
// cvrFileSources.
func DefaultLayout(src *cvr.Source, isCandidate func(name string) (uint16, bool)) error {
	err := cvr.InferLayout(src, func(name string) bool {
		_, ok := isCandidate(name)
		return ok
	})
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	return nil
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
