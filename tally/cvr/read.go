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
	// MaxBallots is the most ballots a read may add, records weighted by
	// their counts; 0 means DefaultMaxBallots. A caller that turns each
	// ballot into a stored record sets it lower.
	MaxBallots uint64
	// Record, when set, is called after each cast vote record is added with
	// what its file says of it besides its marks (for conversions that keep
	// every column, such as RCTab's CVR-to-CSV).
	Record func(RecordInfo)
}

// RecordInfo is what a cast vote record's file says of it besides its marks:
// its id as read (empty when it has none), its precinct, and what only
// some vendors record. Fields a format lacks are empty.
type RecordInfo struct {
	ID, Precinct, Batch string
	// Dominion: the tabulator, the record number within its batch and the
	// precinct portion's description.
	Tabulator, RecordID, PrecinctPortion string
}

// The limits every read keeps, so that a small crafted file cannot make it
// exhaust memory, disk or time: each is refused with a *ParseError naming
// the file, the place and the limit.
const (
	// DefaultMaxBallots is more ballots than any single contest has had
	// (a presidential election has about 160 million).
	DefaultMaxBallots = 1_000_000_000
	// MaxFileBytes is the largest file read.
	MaxFileBytes = 64 << 30
	// MaxLineBytes is the longest line (or CSV record) of a text file.
	MaxLineBytes = 4 << 20
	// MaxXLSXBytes caps what a spreadsheet may decompress to: its parts
	// together, by the sizes the zip declares (and Go's zip reader enforces).
	MaxXLSXBytes = 4 << 30
	// MaxXLSXRatio caps it again at this many times the file's own size;
	// real CVR spreadsheets compress some 10 to 30 times.
	MaxXLSXRatio = 200
	// minXLSXBytes is what any spreadsheet may decompress to, whatever its size.
	minXLSXBytes = 64 << 20
)

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
	FormatDominion:    readDominion,
	FormatHart:        readHart,
	FormatBallotImage: readBallotImage,
}

// Read reads the cast vote records of one source and appends them to into as
// ballots, resolving candidate names with cands. It is all or nothing: on any
// error into is left as it was. Errors about the file's content are
// *ParseError values naming the file, the line, row or record, and the column.
func Read(ctx context.Context, src Source, cands Candidates, into *tally.BallotSet, opts Options) (Stats, error) {
	if cands == nil || into == nil {
		return Stats{}, errorf("Read needs the contest's Candidates and a BallotSet to append to")
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
	f, fi, err := openRegular(j.src.FilePath)
	if err != nil {
		return nil, err
	}
	j.total = fi.Size()
	return f, nil
}

// openRegular opens a file to read cast vote records from. A directory, a
// device (/dev/zero), a pipe or a socket is refused, as is a file larger
// than MaxFileBytes, so every read has an end.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	// Look before opening: opening a named pipe waits for a writer.
	if fi, err := os.Stat(path); err == nil {
		if err := checkRegular(fi); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkRegular(fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// checkRegular refuses what is not a regular file of a readable size.
func checkRegular(fi os.FileInfo) error {
	switch {
	case fi.IsDir():
		return errors.New("is a directory, not a file")
	case !fi.Mode().IsRegular():
		return fmt.Errorf("is not a regular file (%s): name a file of cast vote records", fileKind(fi.Mode()))
	case fi.Size() > MaxFileBytes:
		return fmt.Errorf("is %d bytes, more than the %d GiB a cast vote record file may have", fi.Size(), MaxFileBytes>>30)
	}
	return nil
}

// fileKind names a mode that is not a regular file's.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

// baseName returns the file name errors show.
func baseName(path string) string { return filepath.Base(path) }
