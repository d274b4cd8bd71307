package cvr

import (
	"context"
	"fmt"
	"io"

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
// src.Provider is empty the format is detected from the file. The
// undeclared write-in label, when set, adds the candidate UndeclaredWriteIn.
func ReadFile(ctx context.Context, src Source, opts Options) (*File, error) {
	if src.Provider == "" {
		format, err := detectFile(src.FilePath)
		if err != nil {
			return nil, err
		}
		src.Provider = format
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

// detectFile detects the format of the file at path from its name and start.
func detectFile(path string) (Format, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return "", &ParseError{File: baseName(path), Err: err}
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", &ParseError{File: baseName(path), Err: fmt.Errorf("cannot read: %w", err)}
	}
	return DetectFormat(path, head[:n])
}
