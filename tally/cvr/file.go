package cvr

import (
	"context"
	"fmt"
	"io"
	"os"

	"votedesk/tally"
)

// File is a cast vote record file read on its own terms: its ballots, with
// candidate indexes into its own candidate list.
type File struct {
	Format     Format
	Candidates []string // the file's candidates: its own list (BLT, PrefLib, VoteDesk, CDF, CSV headers) in its order, then names first met in ballots
	Withdrawn  []string // BLT: candidates withdrawn from the count
	Title      string   // BLT or PrefLib title
	Seats      int      // BLT: seats to fill
	Ballots    tally.BallotSet
	Stats      Stats
}

// ReadFile reads a file without a contest to resolve names against: every
// candidate the file lists or marks becomes one of File.Candidates. When
// src.Provider is empty the format is detected from the file; a
// spreadsheet or CSV whose layout the source does not give is read as its
// header lays it out (InferLayout). The
// undeclared write-in label, when set, adds the candidate UndeclaredWriteIn.
func ReadFile(ctx context.Context, src Source, opts Options) (*File, error) {
	if src.Provider == "" {
		format, err := DetectFile(src.FilePath)
		if err != nil {
			return nil, err
		}
		src.Provider = format
	}
	if err := InferLayout(&src, nil); err != nil {
		return nil, err
	}
	cands := &fileCandidates{index: map[string]uint16{}}
	j, err := run(ctx, src, cands, opts)
	if err != nil {
		return nil, err
	}
	return &File{
		Format:     src.Provider,
		Candidates: cands.names,
		Withdrawn:  j.meta.withdrawn,
		Title:      j.meta.title,
		Seats:      j.meta.seats,
		Ballots:    j.out.set,
		Stats:      j.stats,
	}, nil
}

// DetectFile detects the format of the file at path from its name and
// start (DetectFormat), or of the vendor export folder at path. Only a
// regular file is opened (a pipe or device is refused, not waited on).
// A file whose format cannot be told gives an error that is ErrUnknownFormat.
func DetectFile(path string) (Format, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return detectFolder(path)
	}
	f, _, err := openRegular(path)
	if err != nil {
		return "", &ParseError{File: baseName(path), Err: err}
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", &ParseError{File: baseName(path), Err: fmt.Errorf("cannot read: %w", err)}
	}
	return DetectFormat(path, head[:n])
}
