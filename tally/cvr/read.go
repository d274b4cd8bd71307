package cvr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"votedesk/tally"
)

// Options tune a Read.
type Options struct {
	// MaxRankings is the contest's maxRankingsAllowed. A record ranking deeper
	// is refused; in ES&S spreadsheets it is instead the last ranking column
	// read, as in RCTab. 0 means no limit.
	MaxRankings int
	// Progress, when set, is called now and then on the reading goroutine,
	// and once at the end, so a GUI can show a progress bar.
	Progress func(Progress)
	// Check, when set, is called with each cast vote record before it is
	// added: its id (empty when it has none; valid only during the call), its
	// marks as read, and its count. An error refuses the file there, as a
	// *ParseError naming the record's line, row or CVR, so a caller can add
	// its own rules (ids unique across files, ballots its store can hold).
	Check func(id []byte, marks []tally.Mark, count uint32) error
}

// Progress says how far a Read has got. Done and Total count bytes for text
// files and rows for spreadsheets; Total is 0 when it is not known.
type Progress struct {
	Done, Total int64
	Records     int // cast vote records read so far
}

// Stats sums up what a Read took from a file.
type Stats struct {
	Records    int    // cast vote records added as ballots
	Ballots    uint64 // ballots added, weighted by their counts
	Undervotes int    // records added with no marks at all
	Skipped    int    // records with no ballot for the contest: CDF CVRs without it, blank spreadsheet rows
}

// readers maps each format to its reader.
var readers = map[Format]func(*job) error{
	FormatCDF:         readCDF,
	FormatGenericCSV:  readGenericCSV,
	FormatClearBallot: readClearBallot,
	FormatESS:         readESS,
	FormatBLT:         readBLT,
	FormatPrefLib:     readPrefLib,
	FormatVoteDesk:    readVoteDesk,
}

// Read reads the cast vote records of one source and appends them to into as
// ballots, resolving candidate names with cands. It is all or nothing: on any
// error into is left as it was. Errors about the file's content are
// *ParseError values naming the file, the line, row or record, and the column.
func Read(ctx context.Context, src Source, cands Candidates, into *tally.BallotSet, opts Options) (Stats, error) {
	if cands == nil || into == nil {
		return Stats{}, errors.New("cvr: Read needs the contest's Candidates and a BallotSet to append to")
	}
	j, err := run(ctx, src, cands, opts)
	if err != nil {
		return Stats{}, err
	}
	if err := appendSet(into, &j.out.set); err != nil {
		return Stats{}, j.located(err)
	}
	return j.stats, nil
}

// run reads a source into a fresh ballot set.
func run(ctx context.Context, src Source, cands Candidates, opts Options) (*job, error) {
	if err := src.Validate(); err != nil {
		return nil, err
	}
	j := newJob(ctx, src, cands, opts)
	if err := readers[src.Provider](j); err != nil {
		return nil, j.located(err)
	}
	if err := j.out.finish(); err != nil {
		return nil, j.located(err)
	}
	j.report(true)
	return j, nil
}

// open opens the source file and learns its size for progress reports.
func (j *job) open() (*os.File, error) {
	f, err := os.Open(j.src.FilePath)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil {
		if fi.IsDir() {
			f.Close()
			return nil, fmt.Errorf("is a directory, not a file")
		}
		j.total = fi.Size()
	}
	return f, nil
}

// baseName returns the file name errors show.
func baseName(path string) string { return filepath.Base(path) }
