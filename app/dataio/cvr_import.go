package dataio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/cvr"
)

// The stages of an import that Progress reports.
const (
	StageRead   = "read"   // reading the files: Done and Total are bytes of all of them
	StageRecord = "record" // recording the ballots: Done and Total are ballots
)

// Progress says how far an import has got. Callbacks come from the
// goroutine doing the import; a GUI posts them to its own.
type Progress struct {
	Stage       string
	File        string // the file being read (base name), in StageRead
	Done, Total int64
}

// ContestReading is how a tabulator's contest reads its files: Candidates
// resolves the names, codes and aliases in them to candidate i of Names,
// with the read options Read. Each of Names must be a candidate of the
// election imported into.
type ContestReading struct {
	Names      []string
	Candidates cvr.Candidates
	Read       cvr.Options
	// RecordID, when set, gives a record the id the tabulator gives it
	// (RCTab's FILE(ID) for CDF: rctab.RecordID).
	RecordID func(src cvr.Source, id string) string
}

// MaxImportBallots is the most ballots one import of cast vote records may
// bring, all files together and records weighted by their counts: more than
// any county has cast in one election, and what fits in memory while the
// import is checked before it is recorded (some 100 bytes a ballot). A file
// weighting one record a billion times is refused at that record, naming it.
const MaxImportBallots uint64 = 20_000_000

// CVROptions tune an import of cast vote records.
type CVROptions struct {
	// Contest, when set, reads the files as a tabulator's definition of the
	// contest does (an RCTab config: see rctab.Config.Reader), instead of
	// matching names to the election's candidates: the same sources, names
	// and read options as counting the files, so the election holds the
	// ballots that count. Aliases is then not used.
	Contest *ContestReading
	// Aliases maps names the files use to candidate names of the election.
	Aliases  map[string]string
	Progress func(Progress)
}

// CVRImport is cast vote records read from files and checked against an
// election's candidates, ready to be recorded.
type CVRImport struct {
	Files   []CVRFileSummary `json:"files"`
	Matches []NameMatch      `json:"matches"` // names taken for a candidate other than by their exact name
	Ballots int              `json:"ballots"` // ballots to import (records weighted by their counts)

	ballots []app.ImportedBallot
	spans   []span
}

// CVRFileSummary says what was read from one file.
type CVRFileSummary struct {
	Name       string     `json:"name"` // base name
	Path       string     `json:"path"`
	Format     cvr.Format `json:"format"`
	Records    int        `json:"records"`    // cast vote records
	Ballots    int        `json:"ballots"`    // ballots (records weighted by their counts)
	Undervotes int        `json:"undervotes"` // records with no marks at all
	Skipped    int        `json:"skipped"`    // records with no ballot for the contest (CDF), blank spreadsheet rows
	Repeated   int        `json:"repeated"`   // records that rank a candidate more than once (kept as cast: the rules decide)
	// WithoutIDs counts records the file gives no id; their source ids are
	// made from the file's SHA-256 and the record's place (FileID/record),
	// so importing the same file again is refused like any repeated id.
	WithoutIDs int    `json:"without_ids"`
	FileID     string `json:"file_id,omitempty"` // the first 12 hex digits of the file's SHA-256, when WithoutIDs > 0
}

// span is where one file's ballots sit in the import: from start, with the
// records' counts (nil when every record counts once).
type span struct {
	start  int
	counts []uint32
}

// ImportCVRs reads cast vote record files and imports their ballots into an
// election, all or nothing (see ReadCVRs and CVRImport.Record).
func ImportCVRs(ctx context.Context, svc *app.Service, actor, election string, sources []cvr.Source, opts CVROptions) (*CVRImport, error) {
	// The ballots are recorded into the election whose candidates they
	// were read against, or not at all.
	ctx, _, err := svc.HoldElection(ctx, actor, election)
	if err != nil {
		return nil, err
	}
	cands, err := svc.Candidates(ctx, actor, election)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.Name
	}
	im, err := ReadCVRs(ctx, names, sources, opts)
	if err != nil {
		return nil, err
	}
	if err := im.Record(ctx, svc, actor, election, opts.Progress); err != nil {
		return nil, err
	}
	return im, nil
}

// ReadCVRs reads cast vote record files for an election whose candidates are
// names, in ballot order. Each source needs only its FilePath: an empty
// Provider is detected from the file's name and content, and a genericCsv or
// ess file without its layout gets the usual one (DefaultLayout). Names are
// matched to candidates exactly, else by opts.Aliases, else ignoring letter
// case and spacing when that leaves one candidate. Ballot ids must be unique
// across the files. Records are kept as cast, overvotes, skipped ranks and
// repeated candidates included. Every refusal names the file and the line,
// row or record; nothing is kept of a refused read.
func ReadCVRs(ctx context.Context, names []string, sources []cvr.Source, opts CVROptions) (*CVRImport, error) {
	if len(sources) == 0 {
		return nil, app.Errorf(app.CodeInvalid, "no cast vote record files given")
	}
	if len(names) == 0 {
		return nil, app.Errorf(app.CodeConflict, "the election has no candidates yet; add them before importing ballots")
	}
	m, err := newMatcher(names, opts.Aliases)
	if err != nil {
		return nil, err
	}
	var resolve cvr.Candidates = m
	var read cvr.Options
	if c := opts.Contest; c != nil {
		for _, n := range c.Names {
			if !slices.Contains(names, n) {
				return nil, app.Errorf(app.CodeInvalid, "%q, a candidate of the contest the files are read for, is not a candidate of the election (it has %s); add it first", n, strings.Join(names, ", "))
			}
		}
		resolve, read, names = c.Candidates, c.Read, c.Names
	}
	sources = slices.Clone(sources)
	sizes := make([]int64, len(sources))
	var total int64
	for i := range sources {
		src := &sources[i]
		if opts.Contest != nil {
			if err := src.Validate(); err != nil {
				return nil, &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
			}
		} else if err := completeSource(src, m); err != nil {
			return nil, err
		}
		sizes[i] = sourceBytes(src.FilePath)
		total += sizes[i]
	}
	ids := map[string]place{}
	im := &CVRImport{}
	var before int64
	var ballots uint64
	sets := make([]*tally.BallotSet, 0, len(sources))
	for i, src := range sources {
		var set tally.BallotSet
		ro := read
		ro.MaxBallots = MaxImportBallots - ballots
		if opts.Progress != nil {
			name, size := filepath.Base(src.FilePath), sizes[i]
			ro.Progress = func(p cvr.Progress) {
				done := before
				if p.Total > 0 {
					done += int64(float64(size) * float64(p.Done) / float64(p.Total))
				}
				opts.Progress(Progress{Stage: StageRead, File: name, Done: done, Total: total})
			}
		}
		st, err := cvr.Read(ctx, src, resolve, &set, ro)
		if errors.Is(err, cvr.ErrUnknownCandidate) {
			// Say what the file's names are matched against, so the
			// official sees a misspelling or a missing candidate.
			of := "the election's candidates are %s: add a missing one first"
			if opts.Contest != nil {
				of = "the contest's candidates are %s"
			}
			return nil, &app.Error{Code: app.CodeInvalid, Err: err,
				Message: fmt.Sprintf("%v ("+of+")", err, strings.Join(names, ", "))}
		}
		if err != nil {
			return nil, readError(err)
		}
		before += sizes[i]
		if opts.Contest != nil && opts.Contest.RecordID != nil {
			if set.IDs != nil {
				ids, err := set.IDs.Map(0, func(id string) string { return opts.Contest.RecordID(src, id) })
				if err != nil {
					return nil, readError(err)
				}
				set.IDs = ids
			}
		}
		sum := CVRFileSummary{Name: filepath.Base(src.FilePath), Path: src.FilePath, Format: src.Provider,
			Records: st.Records, Ballots: int(st.Ballots), Undervotes: st.Undervotes, Skipped: st.Skipped, Repeated: repeatedCandidates(&set)}
		if err := im.checkIDs(ids, &set, i); err != nil {
			return nil, app.Errorf(app.CodeInvalid, "%s: %v", sum.Name, err)
		}
		ballots += st.Ballots
		im.Files = append(im.Files, sum)
		sets = append(sets, &set)
	}
	// Every file is read and within the limits before ballots are expanded.
	im.ballots = make([]app.ImportedBallot, 0, ballots)
	for i, set := range sets {
		if err := im.add(set, &im.Files[i], names); err != nil {
			return nil, err
		}
	}
	if im.Ballots == 0 {
		return nil, app.Errorf(app.CodeInvalid, "the files hold no ballots")
	}
	im.Matches = m.matches()
	return im, nil
}

// readError makes a read error a domain error, keeping the cvr.ParseError's
// message (file, line or record, and why).
func readError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &app.Error{Code: app.CodeUnavailable, Message: "import cancelled", Err: err}
	}
	return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
}

// add appends one file's ballots, expanding records counted n times into n
// ballots with ids ID_1 ... ID_n.
func (im *CVRImport) add(set *tally.BallotSet, sum *CVRFileSummary, names []string) error {
	for i := range set.Len() {
		if set.ID(i) == "" {
			sum.WithoutIDs++
		}
	}
	if sum.WithoutIDs > 0 {
		h, err := fileSHA256(sum.Path)
		if err != nil {
			return app.Errorf(app.CodeInvalid, "%s: %v", sum.Name, err)
		}
		sum.FileID = h[:12]
	}
	im.spans = append(im.spans, span{start: len(im.ballots), counts: set.Counts})
	ranks := app.MarksToRankings(make([]app.Ranking, 0, len(set.Marks)), set.Marks, names)
	start := 0
	for i := range set.Len() {
		count := uint32(1)
		if set.Counts != nil {
			count = set.Counts[i]
		}
		end := int(set.Ends[i])
		r := ranks[start:end:end]
		start = end
		id := set.ID(i)
		if id == "" {
			id = sum.FileID + "/" + strconv.Itoa(i+1)
		}
		b := app.ImportedBallot{SourceID: id, Rankings: r}
		if set.Precincts != nil {
			b.Precinct = set.Precincts[i]
		}
		if set.Batches != nil {
			b.Batch = set.Batches[i]
		}
		if set.Tabulators != nil {
			b.Tabulator = set.Tabulators[i]
		}
		if count == 1 {
			im.ballots = append(im.ballots, b)
			continue
		}
		for k := range count {
			b.SourceID = id + "_" + strconv.Itoa(int(k)+1)
			im.ballots = append(im.ballots, b)
		}
	}
	im.Ballots = len(im.ballots)
	return nil
}

// Record imports the ballots read into the election, all or nothing, and
// tells progress (StageRecord) how many are recorded. A ballot the election
// refuses (its id already imported, say) is named by file and record.
func (im *CVRImport) Record(ctx context.Context, svc *app.Service, actor, election string, progress func(Progress)) error {
	var report func(int)
	if progress != nil {
		total := int64(len(im.ballots))
		report = func(done int) { progress(Progress{Stage: StageRecord, Done: int64(done), Total: total}) }
	}
	_, err := svc.ImportBallots(ctx, actor, election, app.SourceCVR, im.ballots, report)
	var be *app.BallotError
	if errors.As(err, &be) {
		return &app.Error{Code: app.ErrorCode(err), Message: im.where(be.Index) + ": " + be.Reason, Err: err}
	}
	return err
}

// where says which file and record ballot i of the import came from.
func (im *CVRImport) where(i int) string {
	f := sort.Search(len(im.spans), func(k int) bool { return im.spans[k].start > i }) - 1
	if f < 0 || f >= len(im.Files) {
		return fmt.Sprintf("ballot %d", i+1)
	}
	sp, rec, off := im.spans[f], i-im.spans[f].start+1, ""
	if sp.counts != nil {
		n := i - sp.start
		for rec = 1; n >= int(sp.counts[rec-1]); rec++ {
			n -= int(sp.counts[rec-1])
		}
		off = fmt.Sprintf(", copy %d of %d", n+1, sp.counts[rec-1])
	}
	return fmt.Sprintf("%s: record %d%s (source id %q)", im.Files[f].Name, rec, off, im.ballots[i].SourceID)
}

// repeatedCandidates counts the records of a set that rank a candidate
// more than once. Every record the readers produce is a ballot as cast,
// which the election keeps; the count is only reported. It is taken from
// the set after the read, not record by record during it, so a big file
// can be read on every core.
func repeatedCandidates(set *tally.BallotSet) int {
	n := 0
	for i := range set.Len() {
		marks, _ := set.Ballot(i)
		for j, m := range marks {
			if m.Candidate != tally.Overvote && slices.ContainsFunc(marks[:j], func(p tally.Mark) bool { return p.Candidate == m.Candidate }) {
				n++
				break
			}
		}
	}
	return n
}

// place is where a ballot id was first seen: a file and a record in it.
type place struct{ file, record int32 }

// checkIDs refuses ballot ids that repeat within the files read so far.
func (im *CVRImport) checkIDs(ids map[string]place, set *tally.BallotSet, file int) error {
	for i := range set.Len() {
		id := set.ID(i)
		if id == "" {
			continue
		}
		if first, dup := ids[id]; dup {
			where := fmt.Sprintf("record %d", first.record)
			if int(first.file) != file {
				where += " of " + im.Files[first.file].Name
			}
			return fmt.Errorf("record %d: ballot id %q repeats %s", i+1, id, where)
		}
		ids[id] = place{int32(file), int32(i + 1)}
	}
	return nil
}

// sourceBytes is the size of a cast vote record source for progress: a
// file's size, or the files of an export folder together.
func sourceBytes(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if !fi.IsDir() {
		return fi.Size()
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}
