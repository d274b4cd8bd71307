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
	Aliases map[string]string
	// NoMark and Overvote are names the files use for a rank left blank and
	// for an overvote (as a source's labels, but any number of them), as
	// an official matched them.
	NoMark, Overvote []string
	Progress         func(Progress)
}

// CVRImport is cast vote records read from files and checked against an
// election's candidates, ready to be recorded.
type CVRImport struct {
	Files   []CVRFileSummary `json:"files"`
	Matches []NameMatch      `json:"matches"` // names taken for a candidate other than by their exact name
	Ballots int              `json:"ballots"` // ballots to import (records weighted by their counts)

	names []string // the candidates a mark's index names
	spans []span   // one a file, in order
}

// CVRFileSummary says what was read from one file.
type CVRFileSummary struct {
	Name       string     `json:"name"` // base name
	Path       string     `json:"path"`
	Format     cvr.Format `json:"format"`
	Contest    string     `json:"contest,omitempty"` // the contest read, when the source names one
	Records    int        `json:"records"`           // cast vote records
	Ballots    int        `json:"ballots"`           // ballots (records weighted by their counts)
	Undervotes int        `json:"undervotes"`        // records with no marks at all
	Skipped    int        `json:"skipped"`           // records with no ballot for the contest (CDF), blank spreadsheet rows
	Repeated   int        `json:"repeated"`          // records that rank a candidate more than once (kept as cast: the rules decide)
	// WithoutIDs counts records the file gives no id; their source ids are
	// made from the file's SHA-256 and the record's place (FileID/record),
	// so importing the same file again is refused like any repeated id.
	WithoutIDs int    `json:"without_ids"`
	FileID     string `json:"file_id,omitempty"` // the first 12 hex digits of the file's SHA-256, when WithoutIDs > 0
}

// span is one file's ballots in the import, as read: from ballot start
// of the import, its records, and the id of the file for records without
// one. A record counted n times is n ballots (ids ID_1 ... ID_n); ends then
// says how many ballots the file's records up to each make.
type span struct {
	start  int
	set    *tally.BallotSet
	fileID string
	ends   []int
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
	m, err := newMatcher(names, opts)
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
	im := &CVRImport{}
	sets := make([]*tally.BallotSet, 0, len(sources)) // the files' records as read
	ids := app.NewIDSet(0, func(p place) string { return sets[p.file].ID(int(p.record) - 1) })
	var before int64
	var ballots uint64
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
		sum := CVRFileSummary{Name: filepath.Base(src.FilePath), Path: src.FilePath, Format: src.Provider, Contest: src.ContestID,
			Records: st.Records, Ballots: int(st.Ballots), Undervotes: st.Undervotes, Skipped: st.Skipped, Repeated: repeatedCandidates(&set)}
		sets = append(sets, &set)
		if err := im.checkIDs(ids, &set, i); err != nil {
			return nil, app.Errorf(app.CodeInvalid, "%s: %v", sum.Name, err)
		}
		ballots += st.Ballots
		im.Files = append(im.Files, sum)
	}
	// Every file is read and within the limits before its ballots count.
	im.names = names
	for i, set := range sets {
		if err := im.add(set, &im.Files[i]); err != nil {
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

// add appends one file's ballots to the import. Its records are kept as
// read, and made into ballots a batch at a time as they are recorded
// (Batch): a million ballots take about 40 MB as read, and 230 MB as
// ImportedBallot values.
func (im *CVRImport) add(set *tally.BallotSet, sum *CVRFileSummary) error {
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
	sp := span{start: im.Ballots, set: set, fileID: sum.FileID}
	n := set.Len()
	if set.Counts != nil {
		sp.ends = make([]int, set.Len())
		n = 0
		for i, c := range set.Counts {
			n += int(c)
			sp.ends[i] = n
		}
	}
	im.spans = append(im.spans, sp)
	im.Ballots += n
	return nil
}

// Len is how many ballots the import holds (app.ImportSource).
func (im *CVRImport) Len() int { return im.Ballots }

// locate says where ballot i of the import comes from: its file's span,
// the record, and which of the record's count of copies it is.
func (im *CVRImport) locate(i int) (f, rec, copyOf int) {
	f = sort.Search(len(im.spans), func(k int) bool { return im.spans[k].start > i }) - 1
	sp := im.spans[f]
	j := i - sp.start
	if sp.ends == nil {
		return f, j, 0
	}
	rec = sort.Search(len(sp.ends), func(r int) bool { return sp.ends[r] > j })
	if rec > 0 {
		j -= sp.ends[rec-1]
	}
	return f, rec, j
}

// sourceID is the source id of copy k of record rec of span sp: the
// record's id, or the file's and the record's place when it has none, and
// for a record counted more than once, _1, _2, ... after it.
func (sp span) sourceID(rec, k int) string {
	id := sp.set.ID(rec)
	if id == "" {
		id = sp.fileID + "/" + strconv.Itoa(rec+1)
	}
	if sp.set.Counts != nil && sp.set.Counts[rec] != 1 {
		id += "_" + strconv.Itoa(k+1)
	}
	return id
}

// SourceID is ballot i's source id (app.ImportSource).
func (im *CVRImport) SourceID(i int) string {
	f, rec, k := im.locate(i)
	return im.spans[f].sourceID(rec, k)
}

// Batch makes ballots lo to hi-1 of the import (app.ImportSource).
func (im *CVRImport) Batch(lo, hi int) []app.ImportedBallot {
	out := make([]app.ImportedBallot, 0, hi-lo)
	if lo >= hi {
		return out
	}
	f, rec, k := im.locate(lo)
	var ranks []app.Ranking
	for len(out) < hi-lo {
		sp := im.spans[f]
		set := sp.set
		if rec == set.Len() {
			f, rec, k = f+1, 0, 0
			continue
		}
		marks, count := set.Ballot(rec)
		if count == 0 {
			rec, k = rec+1, 0
			continue
		}
		if cap(ranks)-len(ranks) < len(marks) {
			ranks = make([]app.Ranking, 0, max(4096, len(marks)))
		}
		at := len(ranks)
		ranks = app.MarksToRankings(ranks, marks, im.names)
		b := app.ImportedBallot{SourceID: sp.sourceID(rec, k), Rankings: ranks[at:len(ranks):len(ranks)]}
		if set.Precincts != nil {
			b.Precinct = set.Precincts[rec]
		}
		if set.Batches != nil {
			b.Batch = set.Batches[rec]
		}
		if set.Tabulators != nil {
			b.Tabulator = set.Tabulators[rec]
		}
		out = append(out, b)
		if k++; k >= int(count) {
			rec, k = rec+1, 0
		}
	}
	return out
}

// Record imports the ballots read into the election, all or nothing, and
// tells progress (StageRecord) how many are recorded. A ballot the election
// refuses (its id already imported, say) is named by file and record.
func (im *CVRImport) Record(ctx context.Context, svc *app.Service, actor, election string, progress func(Progress)) error {
	var report func(int)
	if progress != nil {
		total := int64(im.Ballots)
		report = func(done int) { progress(Progress{Stage: StageRecord, Done: int64(done), Total: total}) }
	}
	_, err := svc.ImportBallotsFrom(ctx, actor, election, app.SourceCVR, im, report)
	var be *app.BallotError
	if errors.As(err, &be) {
		return &app.Error{Code: app.ErrorCode(err), Message: im.where(be.Index) + ": " + be.Reason, Err: err}
	}
	return err
}

// where says which file and record ballot i of the import came from.
func (im *CVRImport) where(i int) string {
	if i < 0 || i >= im.Ballots {
		return fmt.Sprintf("ballot %d", i+1)
	}
	f, rec, k := im.locate(i)
	sp, off := im.spans[f], ""
	if sp.set.Counts != nil {
		off = fmt.Sprintf(", copy %d of %d", k+1, sp.set.Counts[rec])
	}
	return fmt.Sprintf("%s: record %d%s (source id %q)", im.Files[f].Name, rec+1, off, sp.sourceID(rec, k))
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
func (im *CVRImport) checkIDs(ids *app.IDSet[place], set *tally.BallotSet, file int) error {
	for i := range set.Len() {
		id := set.ID(i)
		if id == "" {
			continue
		}
		if first, dup := ids.Add(id, place{int32(file), int32(i + 1)}); dup {
			where := fmt.Sprintf("record %d", first.record)
			if int(first.file) != file {
				where += " of " + im.Files[first.file].Name
			}
			return fmt.Errorf("record %d: ballot id %q repeats %s", i+1, id, where)
		}
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
