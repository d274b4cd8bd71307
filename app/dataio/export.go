package dataio

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/cvr"
)

// The ballot export formats.
const (
	BallotsCDF = "cdf" // NIST SP 1500-103 cast vote records, JSON (cvr.WriteCDF)
	BallotsCSV = "csv" // VoteDesk's ranked-ballot CSV (cvr.WriteVoteDesk)
)

// WriteFileAtomic writes the file at path through write: into a temporary
// file in the same folder, synced to disk, then renamed over path. On any
// error the temporary file is removed and path is untouched, so a reader
// never sees half a file and a refused export leaves nothing.
//
// It refuses, naming the path, a target that must not be replaced: a
// folder, a symbolic link, or an existing VoteDesk database or backup (a
// bbolt file, whatever its name: the open database by any path, relative,
// hard-linked or not, and every backup of it), so one mistyped --output
// cannot replace an election's records.
func WriteFileAtomic(path string, perm os.FileMode, write func(io.Writer) error) error {
	if err := CheckOutputPath(path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write %s: %v", path, unwrapPath(err))
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write %s: %v", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write %s: %v", path, err)
	}
	if err := f.Sync(); err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write %s: %v", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write %s: %v", path, unwrapPath(err))
	}
	done = true
	return nil
}

// CheckOutputPath says why a file the user named must not be written over,
// or nil when it may be: it does not exist yet, or it is a regular file
// that is not a VoteDesk database.
func CheckOutputPath(path string) error {
	if path == "" {
		return app.Errorf(app.CodeInvalid, "no output file named")
	}
	if strings.HasSuffix(path, string(os.PathSeparator)) {
		return app.Errorf(app.CodeInvalid, "%s names a folder; name the file to write", path)
	}
	fi, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return app.Errorf(app.CodeInvalid, "cannot write %s: %v", path, unwrapPath(err))
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return app.Errorf(app.CodeInvalid, "%s is a symbolic link; name the file itself (nothing was written)", path)
	case fi.IsDir():
		return app.Errorf(app.CodeInvalid, "%s is a folder; name the file to write (nothing was written)", path)
	case !fi.Mode().IsRegular():
		return app.Errorf(app.CodeInvalid, "%s is not a regular file (nothing was written)", path)
	}
	if isDatabase(path) {
		return app.Errorf(app.CodeInvalid, "%s is a VoteDesk database or backup; an export never replaces one: choose another file name (nothing was written)", path)
	}
	return nil
}

// isDatabase reports whether the file at path is a bbolt database: its
// first page is a meta page with bbolt's magic number.
func isDatabase(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [20]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	// page header: id (8), flags (2), count (2), overflow (4); then the
	// meta's magic, little-endian on the machines VoteDesk runs on.
	const metaFlag, magic = 0x04, 0xED0CDAED
	flags := uint16(head[8]) | uint16(head[9])<<8
	m := uint32(head[16]) | uint32(head[17])<<8 | uint32(head[18])<<16 | uint32(head[19])<<24
	return flags == metaFlag && m == magic
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

// ElectionBallots returns an election's candidates (in ballot order) and its
// ballots as a ballot set: one record per ballot, in confirmation-code order,
// each with its confirmation code as its id and its precinct (as
// app.Service.Ballots gives it: small precincts of a secret election
// combined). No voter is in it, whatever the actor's role;
// app.Service.ListBallotsByCode checks that the actor may see ballots.
func ElectionBallots(ctx context.Context, svc *app.Service, actor, election string) ([]string, *tally.BallotSet, error) {
	ctx, _, err := svc.HoldElection(ctx, actor, election) // candidates and ballots of one election
	if err != nil {
		return nil, nil, err
	}
	cands, err := svc.Candidates(ctx, actor, election)
	if err != nil {
		return nil, nil, err
	}
	// Read a page at a time into the set, which holds a ballot in a few
	// bytes: a million ballots read whole took 1.5 GB.
	l, err := svc.ListBallotsByCode(ctx, actor, election)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.Name
	}
	index := app.MarkIndex(names)
	set := &tally.BallotSet{Ends: make([]uint32, 0, l.Len())}
	var marks []tally.Mark
	for from := 0; from < l.Len(); from += exportPage {
		ballots, err := l.Rows(ctx, from, from+exportPage)
		if err != nil {
			return nil, nil, err
		}
		for _, b := range ballots {
			marks, err = app.RankingsToMarks(marks[:0], b.Rankings, index)
			if err != nil {
				return nil, nil, fmt.Errorf("ballot %s: %w", b.Confirmation, err)
			}
			if err := set.Add(b.Confirmation, 1, marks); err != nil {
				return nil, nil, err
			}
			if b.Precinct != "" || set.Precincts != nil {
				set.SetPrecinct(b.Precinct)
			}
		}
	}
	return names, set, nil
}

// exportPage is how many ballots an export reads at a time.
const exportPage = 4096

// ExportBallots writes an election's ballots as cast vote records: format
// BallotsCDF or BallotsCSV. The records carry each ballot's confirmation
// code as its id and its rankings, in confirmation-code order, and never a
// voter, for every role: a cast vote record file is what an election
// publishes, and in a secret election the order of confirmation codes says
// nothing about who voted when. It returns the number of ballots written.
func ExportBallots(ctx context.Context, svc *app.Service, actor, election, format string, w io.Writer) (int, error) {
	if format != BallotsCDF && format != BallotsCSV {
		return 0, app.Errorf(app.CodeInvalid, "ballots are exported as %s or %s, not %q", BallotsCDF, BallotsCSV, format)
	}
	names, set, err := ElectionBallots(ctx, svc, actor, election)
	if err != nil {
		return 0, err
	}
	if err := WriteBallots(w, format, election, names, set, svc.Now()); err != nil {
		return 0, err
	}
	return set.Len(), nil
}

// WriteBallots writes ballots of an election as cast vote records in a
// format (BallotsCDF, dated generated, or BallotsCSV).
func WriteBallots(w io.Writer, format, election string, names []string, set *tally.BallotSet, generated time.Time) error {
	var err error
	switch format {
	case BallotsCDF:
		err = cvr.WriteCDF(w, cvr.CDFReport{ContestName: election, Candidates: names, GeneratedDate: generated}, set)
	case BallotsCSV:
		err = cvr.WriteVoteDesk(w, names, set)
	default:
		return app.Errorf(app.CodeInvalid, "ballots are exported as %s or %s, not %q", BallotsCDF, BallotsCSV, format)
	}
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
	}
	return nil
}

// ExportLog writes the event log as JSON Lines, one event per line in log
// order, as the actor may see it (app.Service.Log hides password hashes
// always, and secret ballots' rankings and confirmation codes below
// AUDITOR). It returns the number of events written.
func ExportLog(ctx context.Context, svc *app.Service, actor string, w io.Writer) (int, error) {
	n := 0
	err := svc.Log(ctx, actor, 1, func(ev *app.Event) error {
		b, err := app.EncodeEvent(ev)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
			return err
		}
		n++
		return nil
	})
	return n, err
}
