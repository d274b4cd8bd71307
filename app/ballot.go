package app

import (
	"encoding/json"
	"slices"
	"time"
)

// Ranking places one candidate at one rank (1 = first choice). Two rankings
// with the same rank tie those candidates.
type Ranking struct {
	Candidate string `json:"candidate_name"`
	Rank      int    `json:"rank"`
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
}

func (b Ballot) key() string {
	if b.Voter == "" {
		return unlistedBallotSK(b.Confirmation)
	}
	return ballotSK(b.Voter)
}

func (b Ballot) item() Item {
	it := newItem(electionPK(b.Election), b.key(), "BALLOT")
	it["election_name"] = S(b.Election)
	if b.Voter != "" {
		it["voter_name"] = S(b.Voter)
	}
	it["confirmation"] = S(b.Confirmation)
	it.setTime("when_cast", b.WhenCast)
	it["rankings"] = S(EncodeRankings(b.Rankings))
	it["source"] = S(b.Source)
	if b.SourceID != "" {
		it["source_id"] = S(b.SourceID)
	}
	if b.Transcribed {
		it["transcribed"] = Bool(true)
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
	}, nil
}

// EncodeRankings writes rankings as the seed design stores them: a JSON list
// of {"candidate_name", "rank"} objects, in rank order.
func EncodeRankings(r []Ranking) string {
	b := make([]byte, 0, 32*len(r)+2)
	b = append(b, '[')
	for i, x := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"candidate_name":`...)
		b = appendJSONString(b, x.Candidate)
		b = append(b, `,"rank":`...)
		b = appendInt(b, x.Rank)
		b = append(b, '}')
	}
	return string(append(b, ']'))
}

func appendInt(b []byte, n int) []byte {
	q, _ := json.Marshal(n) // marshalling an int cannot fail
	return append(b, q...)
}

// DecodeRankings reads rankings written by EncodeRankings.
func DecodeRankings(s string) ([]Ranking, error) {
	if s == "" {
		return nil, nil
	}
	var r []Ranking
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return nil, Errorf(CodeInvalid, "rankings are not valid: %v", err)
	}
	return r, nil
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

// normalizeRankings checks rankings against the election's candidates and
// returns them sorted by rank (then candidate order): every candidate known,
// no candidate twice, ranks from 1 to the number of candidates.
func normalizeRankings(r []Ranking, order candidateOrder) ([]Ranking, error) {
	out := make([]Ranking, len(r))
	for i, x := range r {
		if _, ok := order[x.Candidate]; !ok {
			return nil, Errorf(CodeInvalid, "%q is not a candidate in this election", x.Candidate)
		}
		for _, y := range r[:i] {
			if y.Candidate == x.Candidate {
				return nil, Errorf(CodeInvalid, "candidate %q is ranked more than once", x.Candidate)
			}
		}
		if x.Rank < 1 {
			return nil, Errorf(CodeInvalid, "rank %d of %q is not a positive number", x.Rank, x.Candidate)
		}
		if x.Rank > len(order) {
			return nil, Errorf(CodeInvalid, "rank %d of %q is beyond the %d candidates", x.Rank, x.Candidate, len(order))
		}
		out[i] = x
	}
	slices.SortStableFunc(out, func(a, b Ranking) int {
		if a.Rank != b.Rank {
			return a.Rank - b.Rank
		}
		return int(order[a.Candidate] - order[b.Candidate])
	})
	return out, nil
}
