package app

import (
	"encoding/json"
	"slices"
	"time"
	"unsafe"
)

// Ranking places one mark at one rank (1 = first choice): a candidate, or
// OvervoteLabel. A ballot is its rankings as cast: two rankings with the same
// rank are an overvote (or a tie), a rank without rankings was skipped, and a
// candidate may be ranked again at a later rank. What each of these means is
// decided by the counting rules when the ballot is counted, as RCTab does.
type Ranking struct {
	Candidate string `json:"candidate_name"`
	Rank      int    `json:"rank"`
}

// OvervoteLabel is the mark of a rank that a cast vote record says was
// overvoted without naming the candidates (ES&S's "overvote", BLT's "-=-").
// It is alone at its rank. No candidate can be named so: names may not start
// with '#'.
const OvervoteLabel = "#overvote"

// Label is how a ranking's mark is shown to people.
func (r Ranking) Label() string {
	if r.Candidate == OvervoteLabel {
		return "(overvote)"
	}
	return r.Candidate
}

// MarksByRank writes rankings rank by rank, for people: each rank's marks
// joined with sep, "" for a rank without a mark.
func MarksByRank(rs []Ranking, sep string) []string {
	var out []string
	for _, r := range rs {
		for len(out) < r.Rank {
			out = append(out, "")
		}
		if out[r.Rank-1] != "" {
			out[r.Rank-1] += sep
		}
		out[r.Rank-1] += r.Label()
	}
	return out
}

// Where a ballot came from.
const (
	SourceDirect = "direct" // cast by a signed-in user (CLI, GUI)
	SourceKiosk  = "kiosk"  // cast by a voter at a kiosk
	SourcePaper  = "paper"  // a paper ballot keyed in by an official
	SourceCVR    = "cvr"    // imported from a cast vote record file
)

// Ballot is one voter's ranking in one election. Voter is empty for ballots
// that belong to no poll-book voter (imported or transcribed ones).
type Ballot struct {
	Election     string
	Voter        string
	Confirmation string
	WhenCast     time.Time
	Rankings     []Ranking
	Source       string
	SourceID     string
	Transcribed  bool
	Precinct     string // imported cast vote records: the precinct, batch and tabulator they name (small groups merged for secret elections: BallotList)
	Batch        string
	Tabulator    string
}

func (b Ballot) key() string {
	if b.Voter == "" {
		return unlistedBallotSK(b.Confirmation)
	}
	return ballotSK(b.Voter)
}

func (b Ballot) item() Item {
	return b.fill(make(Item, 0, 10), electionPK(b.Election), b.key(), FormatTime(b.WhenCast))
}

// fill writes the ballot's item into it (reusing its storage) with the keys
// and when_cast already made: an import batch makes its partition key and
// time once, and reuses one item for all its ballots.
func (b Ballot) fill(it Item, pk, sk, whenCast string) Item {
	// Appended in name order, which Item keeps (ballot_test.go checks it
	// against Set): a million-ballot import fills a million items.
	it = append(it[:0], Attr{AttrPK, S(pk)}, Attr{AttrSK, S(sk)})
	add := func(name, v string) {
		if v != "" {
			it = append(it, Attr{name, S(v)})
		}
	}
	add("batch", b.Batch)
	it = append(it, Attr{"confirmation", S(b.Confirmation)}, Attr{"election_name", S(b.Election)}, Attr{"entity_type", S("BALLOT")})
	add("precinct", b.Precinct)
	it = append(it, Attr{"rankings", S(EncodeRankings(b.Rankings))}, Attr{"source", S(b.Source)})
	add("source_id", b.SourceID)
	add("tabulator", b.Tabulator)
	if b.Transcribed {
		it = append(it, Attr{"transcribed", Bool(true)})
	}
	add("voter_name", b.Voter)
	if !b.WhenCast.IsZero() {
		it = append(it, Attr{"when_cast", S(whenCast)})
	}
	return it
}

func ballotFromItem(it Item) (Ballot, error) {
	r, err := DecodeRankings(it.Str("rankings"))
	if err != nil {
		return Ballot{}, err
	}
	return Ballot{
		Election:     it.Str("election_name"),
		Voter:        it.Str("voter_name"),
		Confirmation: it.Str("confirmation"),
		WhenCast:     it.TimeAttr("when_cast"),
		Rankings:     r,
		Source:       it.Str("source"),
		SourceID:     it.Str("source_id"),
		Transcribed:  it.Flag("transcribed"),
		Precinct:     it.Str("precinct"),
		Batch:        it.Str("batch"),
		Tabulator:    it.Str("tabulator"),
	}, nil
}

// EncodeRankings writes rankings compactly as JSON: a list with one entry per
// rank, first choice first, each the list of candidates marked at that rank
// (several = a tie; none = a skipped rank), e.g. [["Kiss"],["Wright","Montroll"]].
// The rankings must be sorted by rank, as normalizeRankings leaves them, and
// ranks must be positive.
func EncodeRankings(r []Ranking) string {
	b := appendRankings(make([]byte, 0, rankingsSize(r)), r)
	if len(b) == 0 {
		return ""
	}
	// The bytes are never written again: the string shares them, as
	// strings.Builder does, instead of copying them.
	return unsafe.String(&b[0], len(b))
}

// rankingsSize is the room the compact form of r takes when no name needs
// an escape: the brackets, and per name its quotes and a separator.
func rankingsSize(r []Ranking) int {
	n := 2
	if len(r) > 0 {
		last := min(max(r[len(r)-1].Rank, 0), MaxRank)
		n += 3 * last // [..] per rank and the commas between
	}
	for _, x := range r {
		n += len(x.Candidate) + 3
	}
	return n
}

func appendRankings(b []byte, r []Ranking) []byte {
	b = append(b, '[')
	rank := 1
	for i, x := range r {
		if i == 0 {
			b = append(b, '[')
		} else if x.Rank == r[i-1].Rank {
			b = append(b, ',')
		}
		for ; rank < x.Rank; rank++ {
			b = append(b, "],["...)
		}
		b = appendJSONString(b, x.Candidate)
	}
	if len(r) > 0 {
		b = append(b, ']')
	}
	return append(b, ']')
}

// DecodeRankings reads rankings written by EncodeRankings: in one pass
// when they are in the compact form EncodeRankings writes (compactScan,
// the candidates' names sliced out of s), else through encoding/json,
// which reads the compact form to the same rankings (FuzzDecodeRankings).
// A million ballots listed or exported spent half their time in
// encoding/json here.
func DecodeRankings(s string) ([]Ranking, error) {
	if s == "" {
		return nil, nil
	}
	c := compactScan{b: []byte(s), s: s, ok: true}
	if r := c.rankings(nil); c.ok && c.i == len(c.b) {
		return r, nil
	}
	return decodeRankingsJSON(s)
}

// decodeRankingsJSON is DecodeRankings through encoding/json.
func decodeRankingsJSON(s string) ([]Ranking, error) {
	var ranks [][]string
	if err := json.Unmarshal([]byte(s), &ranks); err != nil {
		return nil, Errorf(CodeInvalid, "rankings %.40q are not a list of ranks: %v", s, err)
	}
	var out []Ranking
	for i, names := range ranks {
		for _, n := range names {
			out = append(out, Ranking{Candidate: n, Rank: i + 1})
		}
	}
	return out, nil
}

// rankList is []Ranking that travels in events in the compact form of
// EncodeRankings.
type rankList []Ranking

// MarshalJSON writes the compact form.
func (r rankList) MarshalJSON() ([]byte, error) {
	if err := checkRankOrder(r); err != nil {
		return nil, err
	}
	return appendRankings(nil, r), nil
}

// checkRankOrder checks that rankings are sorted by rank from 1, as the
// compact form needs.
func checkRankOrder(r []Ranking) error {
	for i, x := range r {
		if x.Rank < 1 || i > 0 && x.Rank < r[i-1].Rank {
			return Errorf(CodeInvalid, "rankings must be sorted by rank from 1")
		}
	}
	return nil
}

// UnmarshalJSON reads the compact form.
func (r *rankList) UnmarshalJSON(b []byte) error {
	out, err := DecodeRankings(string(b))
	*r = out
	return err
}

// candidateOrder maps candidate names to their order, for normalizeRankings.
type candidateOrder map[string]int64

func orderOf(cands []Candidate) candidateOrder {
	order := make(candidateOrder, len(cands))
	for _, c := range cands {
		order[c.Name] = c.Order
	}
	return order
}

// MaxRank is the deepest rank a ballot may have: the count's limit.
const MaxRank = 0xFFFF

// normalizeCast checks the rankings of a cast vote record against the
// election's candidates and returns them sorted by rank (then candidate
// order). The record is kept as cast: skipped ranks, candidates ranked again
// and overvotes stay for the counting rules to judge. Every mark must be a
// candidate or OvervoteLabel, the label alone at its rank, no candidate twice
// at one rank, and ranks from 1 to maxRank.
func normalizeCast(r []Ranking, order candidateOrder, maxRank int) ([]Ranking, error) {
	sorted := true
	for i, x := range r {
		if _, ok := order[x.Candidate]; !ok && x.Candidate != OvervoteLabel {
			return nil, Errorf(CodeInvalid, "%q is not a candidate in this election", x.Candidate)
		}
		if x.Rank < 1 || x.Rank > maxRank {
			return nil, Errorf(CodeInvalid, "rank %d of %q is not from 1 to %d", x.Rank, x.Label(), maxRank)
		}
		for _, y := range r[:i] {
			switch {
			case y.Rank != x.Rank:
			case y.Candidate == x.Candidate:
				return nil, Errorf(CodeInvalid, "rank %d marks %q twice", x.Rank, x.Label())
			case x.Candidate == OvervoteLabel || y.Candidate == OvervoteLabel:
				return nil, Errorf(CodeInvalid, "rank %d has an overvote label beside candidates", x.Rank)
			}
		}
		if i > 0 && (x.Rank < r[i-1].Rank || x.Rank == r[i-1].Rank && order[x.Candidate] < order[r[i-1].Candidate]) {
			sorted = false
		}
	}
	return sortRankings(r, order, sorted), nil
}

// CheckCast checks rankings of a cast vote record as an election whose
// candidates are names (in ballot order) would on import (normalizeCast).
func CheckCast(r []Ranking, names []string) error {
	order := make(candidateOrder, len(names))
	for i, n := range names {
		order[n] = int64(i)
	}
	_, err := normalizeCast(r, order, MaxRank)
	return err
}

// sortRankings returns rankings sorted by rank, then candidate order; r
// itself when sorted says they already are.
func sortRankings(r []Ranking, order candidateOrder, sorted bool) []Ranking {
	if sorted {
		return r
	}
	out := slices.Clone(r)
	slices.SortStableFunc(out, func(a, b Ranking) int {
		if a.Rank != b.Rank {
			return a.Rank - b.Rank
		}
		return int(order[a.Candidate] - order[b.Candidate])
	})
	return out
}

// normalizeRankings checks the rankings of a ballot cast in VoteDesk (by a
// voter, at a kiosk, or keyed in from paper) against the election's
// candidates and returns them sorted by rank (then candidate order): every
// candidate known, no candidate twice, ranks from 1 to the number of
// candidates. Cast vote records keep more of what was marked (normalizeCast).
func normalizeRankings(r []Ranking, order candidateOrder) ([]Ranking, error) {
	sorted := true
	var seen map[string]bool // for long ballots; short ones are scanned
	if len(r) > 16 {
		seen = make(map[string]bool, len(r))
	}
	for i, x := range r {
		if _, ok := order[x.Candidate]; !ok {
			return nil, Errorf(CodeInvalid, "%q is not a candidate in this election", x.Candidate)
		}
		if seen != nil && seen[x.Candidate] || seen == nil && slices.ContainsFunc(r[:i], func(y Ranking) bool { return y.Candidate == x.Candidate }) {
			return nil, Errorf(CodeInvalid, "candidate %q is ranked more than once", x.Candidate)
		}
		if seen != nil {
			seen[x.Candidate] = true
		}
		if x.Rank < 1 {
			return nil, Errorf(CodeInvalid, "rank %d of %q is not a positive number", x.Rank, x.Candidate)
		}
		if x.Rank > len(order) {
			return nil, Errorf(CodeInvalid, "rank %d of %q is beyond the %d candidates", x.Rank, x.Candidate, len(order))
		}
		if i > 0 && (x.Rank < r[i-1].Rank || x.Rank == r[i-1].Rank && order[x.Candidate] < order[r[i-1].Candidate]) {
			sorted = false
		}
	}
	return sortRankings(r, order, sorted), nil
}
