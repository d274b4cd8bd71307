package app

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"sync"

	"votedesk/tally"
)

// CountInput is what counting an election needs: the election, its
// candidates in ballot order, and every ballot as marks on candidate
// positions (candidate i of Candidates is tally candidate i).
type CountInput struct {
	Election   Election
	Candidates []Candidate
	Ballots    *tally.BallotSet
	// HeadSeq and HeadHash identify the log position the ballots were read
	// at, so a report can say what it was computed from.
	HeadSeq  uint64
	HeadHash string
	// Notes say what the small-group rule combined (MergeSmallGroups), for
	// every report that slices the count by precinct or batch.
	Notes []string
}

// CountInput loads an election's ballots for counting, reading only each
// ballot's rankings. Counting shows no voter, so VIEW_APPLICATION suffices,
// within the disclosure rule: a secret election is counted below AUDITOR
// only once its polls are closed.
func (s *Service) CountInput(ctx context.Context, actor, election string) (CountInput, error) {
	return s.countInput(ctx, actor, election, false)
}

// CountInputWithIDs is CountInput with each imported cast vote record's id
// from its voting system (BallotSet.IDs; empty for ballots cast here), for
// an audit trail that names the records as their files do; in a secret
// election only for AUDITOR and up.
func (s *Service) CountInputWithIDs(ctx context.Context, actor, election string) (CountInput, error) {
	return s.countInput(ctx, actor, election, true)
}

func (s *Service) countInput(ctx context.Context, actor, election string, ids bool) (CountInput, error) {
	in, keep, err := s.readCountInput(ctx, actor, election, ids)
	if keep != nil {
		keep()
	}
	return in, err
}

// readCountInput is countInput with the count cache's write (the first
// read of a closed election's ballots) left to the caller: keep, when not
// nil, writes it (see keepCount), at once or once the count is shown.
func (s *Service) readCountInput(ctx context.Context, actor, election string, ids bool) (in CountInput, keep func(), err error) {
	var kept []byte
	var stamp countStamp
	err = s.view(ctx, "load ballots of "+election, actor, PermViewApplication, func(tx Tx, u User) error {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return err
		}
		d := Disclose(e, u.Role)
		if !d.Contents {
			return withheld(e)
		}
		cands, err := candidatesOf(tx, election)
		if err != nil {
			return err
		}
		if len(cands) > tally.MaxCandidates {
			return Errorf(CodeInvalid, "election %q has %d candidates; counting handles at most %d", election, len(cands), tally.MaxCandidates)
		}
		if in.HeadSeq, in.HeadHash, err = tx.Head(); err != nil {
			return err
		}
		stamp = countStamp{election: e.ID, headSeq: in.HeadSeq, headHash: in.HeadHash, cands: candidateNames(cands)}
		var cols ballotColumns
		hit := false
		if cacheable(e) {
			if cols, hit, err = cachedBallots(tx, stamp, ids); err != nil {
				return err
			}
		}
		if !hit {
			// What is kept for later counts holds the record ids
			// whether this one shows them or not.
			if cols, err = readBallotColumns(tx, e, cands, ids || cacheable(e)); err != nil {
				return err
			}
			if cacheable(e) {
				kept = encodeCountCache(stamp, cols)
			}
		}
		set := &tally.BallotSet{Marks: cols.marks, Ends: cols.ends}
		var note string
		if set.Precincts, note = MergeSmallGroups(e, "precinct", cols.precincts); note != "" {
			in.Notes = append(in.Notes, note)
		}
		if set.Batches, note = MergeSmallGroups(e, "batch", cols.batches); note != "" {
			in.Notes = append(in.Notes, note)
		}
		// A secret election's record ids (Dominion's name the batch) are
		// withheld below AUDITOR, like voters: its slices are shown only as
		// the small-group rule merges them.
		if ids && (!d.Secret || d.Links) {
			set.IDs = cols.ids
		}
		in.Election, in.Candidates, in.Ballots = e, cands, set
		return nil
	})
	if err == nil && kept != nil {
		keep = func() { s.keepCount(ctx, stamp, kept) }
	}
	return in, keep, err
}

// ballotColumns is what a count reads of an election's ballots.
type ballotColumns struct {
	marks     []tally.Mark
	ends      []uint32
	precincts []string     // nil: no ballot names one
	batches   []string     // nil: no ballot names one
	ids       *tally.Texts // nil: no ballot has one, or not read
}

// readBallotColumns reads an election's ballots for a count from the
// projection: the rankings always, precincts and batches when some ballot
// was imported with them, record ids when ids is set.
func readBallotColumns(tx Tx, e Election, cands []Candidate, ids bool) (ballotColumns, error) {
	set := &tally.BallotSet{
		Marks: make([]tally.Mark, 0, int(e.Ballots)*min(len(cands), 8)),
		Ends:  make([]uint32, 0, e.Ballots),
	}
	if err := readRankings(tx, e.Name, newNameTable(markIndex(cands)), set); err != nil {
		return ballotColumns{}, err
	}
	c := ballotColumns{marks: set.Marks, ends: set.Ends}
	var err error
	if e.Grouped {
		// Imported cast vote records name precincts or batches, for
		// counts by precinct or batch: read them only then.
		if c.precincts, err = ballotColumn(tx, e.Name, "precinct", set.Len()); err != nil {
			return ballotColumns{}, err
		}
		if c.batches, err = ballotColumn(tx, e.Name, "batch", set.Len()); err != nil {
			return ballotColumns{}, err
		}
	}
	if ids {
		if c.ids, err = ballotIDs(tx, e.Name, set.Len()); err != nil {
			return ballotColumns{}, err
		}
	}
	return c, nil
}

// candidateNames returns the names of cands, in their order.
func candidateNames(cands []Candidate) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.Name
	}
	return out
}

// ballotColumn reads one string attribute of every ballot of an election,
// in ballot order, interning repeated values; nil when no ballot has it.
func ballotColumn(tx Tx, election, attr string, n int) ([]string, error) {
	out := make([]string, 0, n)
	seen := map[string]string{}
	any := false
	err := ballotAttr(tx, election, prefixBallot, attr, func(v []byte) (bool, error) {
		s, ok := seen[string(v)]
		if !ok {
			s = string(v)
			seen[s] = s
		}
		any = any || s != ""
		out = append(out, s)
		return true, nil
	})
	if err != nil || !any {
		return nil, err
	}
	if len(out) != n {
		return nil, Errorf(CodeInternal, "election %q has %d ballots but %d %s values", election, n, len(out), attr)
	}
	return out, nil
}

// ballotIDs reads every ballot's source_id, in ballot order, into a text
// column: unlike precincts, ids do not repeat, so they are not interned.
// It returns nil when no ballot has one.
func ballotIDs(tx Tx, election string, n int) (*tally.Texts, error) {
	ids := tally.NewTexts()
	ids.Grow(n, 0)
	any := false
	err := ballotAttr(tx, election, prefixBallot, "source_id", func(v []byte) (bool, error) {
		any = any || len(v) > 0
		return true, ids.AppendBytes(v)
	})
	if err != nil || !any {
		return nil, err
	}
	if ids.Len() != n {
		return nil, Errorf(CodeInternal, "election %q has %d ballots but %d source_id values", election, n, ids.Len())
	}
	return ids, nil
}

// markIndex maps what a stored ranking names to a tally mark's candidate:
// candidate i of cands is i, OvervoteLabel is tally.Overvote.
func markIndex(cands []Candidate) map[string]uint16 {
	return MarkIndex(candidateNames(cands))
}

// RankingsToMarks turns rankings into tally marks, for the election whose
// candidates are names in ballot order.
func RankingsToMarks(out []tally.Mark, r []Ranking, index map[string]uint16) ([]tally.Mark, error) {
	for _, x := range r {
		c, ok := index[x.Candidate]
		if !ok {
			return nil, Errorf(CodeInternal, "a ballot ranks %q, which is not a candidate", x.Candidate)
		}
		out = append(out, tally.Mark{Rank: uint16(x.Rank), Candidate: c})
	}
	return out, nil
}

// MarksToRankings turns tally marks into rankings: names[c] for candidate c,
// OvervoteLabel for tally.Overvote.
func MarksToRankings(out []Ranking, marks []tally.Mark, names []string) []Ranking {
	for _, m := range marks {
		name := OvervoteLabel
		if m.Candidate != tally.Overvote {
			name = names[m.Candidate]
		}
		out = append(out, Ranking{Candidate: name, Rank: int(m.Rank)})
	}
	return out
}

// MarkIndex is markIndex for names of candidates in ballot order.
func MarkIndex(names []string) map[string]uint16 {
	index := make(map[string]uint16, len(names)+1)
	for i, n := range names {
		index[n] = uint16(i)
	}
	index[OvervoteLabel] = tally.Overvote
	return index
}

// nameTable finds a candidate's mark index (MarkIndex) by name, faster than
// the map for the few names of an election, looked up once per stored mark:
// names are bucketed by their length and first and last bytes, and
// compared whole.
type nameTable struct {
	slots [256][]nameSlot
}

type nameSlot struct {
	name string
	c    uint16
}

func newNameTable(index map[string]uint16) *nameTable {
	t := &nameTable{}
	for name, c := range index {
		h := nameHash(name)
		t.slots[h] = append(t.slots[h], nameSlot{name, c})
	}
	return t
}

func nameHash[T string | []byte](b T) byte {
	if len(b) == 0 {
		return 0
	}
	return byte(len(b))*31 ^ b[0]*7 ^ b[len(b)-1]
}

// find returns the mark index of the candidate named b.
func (t *nameTable) find(b []byte) (uint16, bool) {
	for _, s := range t.slots[nameHash(b)] {
		if s.name == string(b) {
			return s.c, true
		}
	}
	return 0, false
}

// parseMarks reads compact rankings ([["A"],["B","C"]]) straight into marks,
// looking names up in names. Names with escapes take the slow path.
func parseMarks(out []tally.Mark, b []byte, names *nameTable) ([]tally.Mark, error) {
	n := len(b)
	if n == 0 {
		return out, nil
	}
	// Every byte read below is before the closing bracket checked here,
	// so only the reads of a name's end need a bound.
	if n < 2 || b[0] != '[' || b[n-1] != ']' {
		return nil, malformedRankings(b)
	}
	if n == 2 {
		return out, nil
	}
	i := 1
	for rank := uint16(1); ; rank++ {
		if b[i] != '[' {
			return nil, malformedRankings(b)
		}
		i++
		if b[i] == ']' {
			i++
		} else {
			for {
				if b[i] != '"' {
					return nil, malformedRankings(b)
				}
				i++
				end := bytes.IndexByte(b[i:n-1], '"')
				if end < 0 {
					return nil, malformedRankings(b)
				}
				name := b[i : i+end]
				var c uint16
				var ok bool
				if bytes.IndexByte(name, '\\') < 0 {
					c, ok = names.find(name)
					i += end + 1
				} else if c, ok, i = escapedName(b, i-1, names); i < 0 {
					return nil, malformedRankings(b)
				}
				if !ok {
					return nil, Errorf(CodeInternal, "a stored ballot ranks %q, which is not a candidate", name)
				}
				out = append(out, tally.Mark{Rank: rank, Candidate: c})
				if b[i] == ',' {
					i++
					continue
				}
				if b[i] != ']' {
					return nil, malformedRankings(b)
				}
				i++
				break
			}
		}
		if i == n {
			// The group took the rankings' closing bracket.
			return nil, malformedRankings(b)
		}
		if b[i] == ']' {
			if i != n-1 {
				return nil, malformedRankings(b)
			}
			return out, nil
		}
		if b[i] != ',' || i+1 >= n-1 {
			return nil, malformedRankings(b)
		}
		i++
	}
}

// escapedName reads the JSON string with escapes that starts at b[q] (its
// opening quote) and finds its candidate; next is the index after its
// closing quote, or -1 when the string is malformed or runs into the
// rankings' closing bracket.
func escapedName(b []byte, q int, names *nameTable) (c uint16, ok bool, next int) {
	i := q + 1
	for i < len(b)-1 && b[i] != '"' {
		if b[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(b)-1 {
		return 0, false, -1
	}
	var s string
	if json.Unmarshal(b[q:i+1], &s) != nil {
		return 0, false, -1
	}
	c, ok = names.find([]byte(s))
	return c, ok, i + 1
}

func malformedRankings(b []byte) error {
	return Errorf(CodeInternal, "stored rankings %.60q are malformed", b)
}

// readRankings reads the rankings of every ballot of an election into set,
// in ballot order. This goroutine walks bbolt (the values it hands out stay
// valid while the transaction lasts), the cores parse blocks of them, and a
// joiner appends the blocks to set in order and hands their buffers back,
// so a few blocks are in flight at a time. An error is the first malformed
// ballot's, as a read one ballot after another would give.
func readRankings(tx Tx, election string, names *nameTable, set *tally.BallotSet) error {
	type block struct {
		vals [][]byte
		set  tally.BallotSet
		err  error
		done chan struct{}
	}
	free := make(chan *block, 2*rankingsInFlight)
	get := func() *block {
		select {
		case b := <-free:
			b.vals, b.set.Marks, b.set.Ends, b.err = b.vals[:0], b.set.Marks[:0], b.set.Ends[:0], nil
			b.done = make(chan struct{})
			return b
		default:
			return &block{vals: make([][]byte, 0, rankingsBlock), done: make(chan struct{})}
		}
	}
	todo := make(chan *block, rankingsInFlight)
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			var marks []tally.Mark
			for b := range todo {
				for _, v := range b.vals {
					var err error
					if marks, err = parseMarks(marks[:0], v, names); err == nil {
						err = b.set.Add("", 1, marks)
					}
					if err != nil {
						b.err = err
						break
					}
				}
				close(b.done)
			}
		}()
	}
	ordered := make(chan *block, rankingsInFlight)
	joined := make(chan error, 1)
	go func() {
		var err error
		for b := range ordered {
			<-b.done
			if err == nil {
				err = b.err
			}
			if err == nil {
				// A block holds plain ballots (count 1, no id): its marks
				// and ends, moved past the ballots before it.
				base := uint32(len(set.Marks))
				set.Marks = append(set.Marks, b.set.Marks...)
				for _, end := range b.set.Ends {
					set.Ends = append(set.Ends, base+end)
				}
			}
			select {
			case free <- b:
			default:
			}
		}
		joined <- err
	}()
	cur := get()
	send := func() {
		ordered <- cur
		todo <- cur
	}
	err := ballotAttr(tx, election, prefixBallot, "rankings", func(v []byte) (bool, error) {
		cur.vals = append(cur.vals, v)
		if len(cur.vals) == rankingsBlock {
			send()
			cur = get()
		}
		return true, nil
	})
	if len(cur.vals) > 0 {
		send()
	}
	close(todo)
	close(ordered)
	workers.Wait()
	if jerr := <-joined; err == nil {
		err = jerr
	}
	return err
}

// rankingsInFlight is how many blocks readRankings lets wait to be parsed
// or joined.
const rankingsInFlight = 8

// rankingsBlock is how many ballots readRankings parses as one piece.
const rankingsBlock = 8192
