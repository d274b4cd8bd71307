package report

import (
	"encoding/json"
	"io"
	"time"

	"votedesk/tally/raire"
)

// Audit is everything a risk-limiting audit's report shows: the setup
// anyone needs to check it (the seed, the manifest, the assertions), the
// sample with what the audit board read beside each cast vote record, the
// risk measured per assertion after each round, and the conclusion. It is
// both the JSON report (its field names) and the HTML report's data.
type Audit struct {
	GeneratedBy string    `json:"generated_by"`
	Generated   time.Time `json:"generated"`
	Election    string    `json:"election"`
	ID          string    `json:"audit"`
	// Kind is "comparison" or "polling".
	Kind      string  `json:"kind"`
	RiskLimit float64 `json:"risk_limit"`
	Seed      string  `json:"seed"`
	// Sampler says in words how the draws follow from the seed.
	Sampler    string   `json:"sampler"`
	Candidates []string `json:"candidates"`
	Winner     string   `json:"reported_winner"`
	// Ballots is the manifest's total, Records the cast vote records.
	Batches    int              `json:"manifest_batches"`
	Ballots    int              `json:"manifest_ballots"`
	Records    int              `json:"cast_vote_records"`
	Assertions []AuditAssertion `json:"assertions"`
	Trees      raire.Trees      `json:"-"`
	Rounds     []AuditRound     `json:"rounds"`
	Draws      []AuditDraw      `json:"draws"`
	// Measured is how many draws the risk is measured over.
	Measured      int     `json:"measured_draws"`
	Risk          float64 `json:"risk"`
	Confirmed     bool    `json:"confirmed"`
	FullHandCount bool    `json:"full_hand_count"`
	NextRound     int     `json:"next_round_draws,omitempty"`
	Conclusion    string  `json:"conclusion"`
	Problem       string  `json:"problem,omitempty"`
	LogSeq        uint64  `json:"log_seq"`
	LogHash       string  `json:"log_hash"`
}

// AuditAssertion is one of RAIRE's assertions with where the audit stands
// on it.
type AuditAssertion struct {
	Type        string   `json:"type"`
	Winner      string   `json:"winner"`
	Loser       string   `json:"loser"`
	Continuing  []string `json:"continuing,omitempty"`
	Explanation string   `json:"explanation"`
	// Margin is the reported diluted margin.
	Margin    float64 `json:"diluted_margin"`
	Risk      float64 `json:"risk"`
	Confirmed bool    `json:"confirmed"`
	// Comparison audits: overstatements (O) and understatements (U) of one
	// and two votes; polling: sampled ballots for, against, neither.
	O1      int `json:"one_vote_overstatements"`
	O2      int `json:"two_vote_overstatements"`
	U1      int `json:"one_vote_understatements"`
	U2      int `json:"two_vote_understatements"`
	For     int `json:"for,omitempty"`
	Against int `json:"against,omitempty"`
	Neither int `json:"neither,omitempty"`
}

// AuditRound is a round: its total draws and, once every one is read, the
// risk of each assertion after it (in the order of Assertions).
type AuditRound struct {
	Draws int       `json:"draws"`
	Read  bool      `json:"read"`
	Risks []float64 `json:"risks,omitempty"`
}

// AuditDraw is one draw: where its paper ballot is, what the board read,
// the cast vote record beside it, and each assertion's overstatement.
type AuditDraw struct {
	Number    int    `json:"draw"`
	Ticket    string `json:"ticket"`
	Container string `json:"container,omitempty"`
	Tabulator string `json:"tabulator,omitempty"`
	Batch     string `json:"batch"`
	Position  int    `json:"position"`
	Repeat    bool   `json:"repeat,omitempty"`
	State     string `json:"state"`
	// Paper and Record are the marks rank by rank ("A", "A=B" for two
	// marks, "" for a skipped rank).
	Paper    []string `json:"paper,omitempty"`
	NotFound bool     `json:"not_found,omitempty"`
	Record   []string `json:"record,omitempty"`
	// RecordID is the record's id in its file (Dominion's
	// TabulatorId-BatchId-RecordId, imprinted on the paper).
	RecordID string `json:"record_id,omitempty"`
	Phantom  bool   `json:"phantom,omitempty"`
	// Overstatements per assertion (comparison audits, once read).
	Overstatements []float64 `json:"overstatements,omitempty"`
}

// Discrepant reports whether any assertion sees the draw's paper differ
// from its record.
func (d AuditDraw) Discrepant() bool {
	for _, o := range d.Overstatements {
		if o != 0 {
			return true
		}
	}
	return false
}

// WriteAuditJSON writes the audit report as indented JSON.
func WriteAuditJSON(w io.Writer, a Audit) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(a)
}
