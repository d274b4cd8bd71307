package report

import (
	"encoding/json"
	"io"
	"sort"
	"strings"

	"votedesk/tally"
)

// Ranking is the JSON shape of a rank-order or pairwise result. Matrices
// are indexed by position in Candidates (names sorted); they are absent for
// methods that do not use them.
type Ranking struct {
	Method         string            `json:"method"`
	Candidates     []string          `json:"candidates"`
	Preferences    [][]int64         `json:"preferences,omitempty"`
	StrongestPaths [][]int64         `json:"strongestPaths,omitempty"`
	DefeatPaths    [][]int64         `json:"defeatPaths,omitempty"`
	Scores         map[string]string `json:"scores,omitempty"`
	Smith          []string          `json:"smith,omitempty"`
	Schwartz       []string          `json:"schwartz,omitempty"`
	Places         []RankingPlace    `json:"places"`
	// Status says how final the results are (Header.Status), when set.
	Status string `json:"status,omitempty"`
}

// RankingPlace is one place of a Ranking; tied candidates share it.
type RankingPlace struct {
	Place      int      `json:"place"`
	Candidates []string `json:"candidates"`
}

// NewRanking builds the JSON shape of a result that has places.
func NewRanking(c tally.Contest, res tally.Result) Ranking {
	name := func(i int) string { return c.Candidates[i].Name }
	r := Ranking{Method: string(res.Method)}
	if p := res.Pairwise; p != nil {
		names := func(pos []int) []string {
			out := make([]string, len(pos))
			for i, x := range pos {
				out[i] = name(p.Candidates[x])
			}
			return out
		}
		r.Candidates = names(identity(len(p.Candidates)))
		r.Preferences, r.StrongestPaths, r.DefeatPaths = p.Preferences, p.StrongestPaths, p.DefeatPaths
		r.Smith, r.Schwartz = names(p.Smith), names(p.Schwartz)
	} else {
		for _, pl := range res.Places {
			for _, x := range pl.Candidates {
				r.Candidates = append(r.Candidates, name(x))
			}
		}
		tally.JavaSortStrings(r.Candidates)
	}
	if res.Scores != nil {
		r.Scores = map[string]string{}
		for _, pl := range res.Places {
			for _, x := range pl.Candidates {
				r.Scores[name(x)] = res.Scores[x].String()
			}
		}
	}
	for _, pl := range res.Places {
		rp := RankingPlace{Place: pl.Place}
		for _, x := range pl.Candidates {
			rp.Candidates = append(rp.Candidates, name(x))
		}
		sort.SliceStable(rp.Candidates, func(i, j int) bool { return tally.JavaLess(rp.Candidates[i], rp.Candidates[j]) })
		r.Places = append(r.Places, rp)
	}
	return r
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// EncodeJSON writes a result as JSON: RCTab's detailed_report.json for a
// ranked-choice count (a JSON array of one report per pass for
// multiPassIrv), the Ranking shape for every other method.
func EncodeJSON(w io.Writer, h Header, c tally.Contest, rules tally.Rules, res tally.Result) error {
	if len(res.Passes) == 0 {
		r := NewRanking(c, res)
		r.Status = h.Status
		return r.write(w)
	}
	if res.Method == tally.STV && rules.WinnerElectionMode == tally.SingleWinnerMajority {
		// Tabulate counts STV with single-winner rules in this mode.
		rules.WinnerElectionMode = tally.MultiWinnerAllowMultipleWinnersPerRound
	}
	if len(res.Passes) == 1 {
		return WriteDetailedJSON(w, RCTab{Header: h, Contest: c, Rules: rules, Pass: res.Passes[0]})
	}
	rules.NumberOfWinners = 1
	var sb strings.Builder
	sb.WriteString("[ ")
	for i, p := range res.Passes {
		if i > 0 {
			sb.WriteString(", ")
		}
		if err := WriteDetailedJSON(&sb, RCTab{Header: h, Contest: c, Rules: rules, Pass: p}); err != nil {
			return err
		}
	}
	sb.WriteString(" ]")
	_, err := io.WriteString(w, sb.String())
	return err
}

// write prints the ranking as indented JSON with each matrix row on one
// line, so matrices read as tables.
func (r Ranking) write(w io.Writer) error {
	var sb strings.Builder
	str := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	fields := []string{`"method": ` + str(r.Method), `"candidates": ` + str(r.Candidates)}
	if r.Status != "" {
		fields = append([]string{`"status": ` + str(r.Status)}, fields...)
	}
	for _, m := range []struct {
		name string
		rows [][]int64
	}{{"preferences", r.Preferences}, {"strongestPaths", r.StrongestPaths}, {"defeatPaths", r.DefeatPaths}} {
		if m.rows == nil {
			continue
		}
		rows := make([]string, len(m.rows))
		for i, row := range m.rows {
			rows[i] = "    " + str(row)
		}
		fields = append(fields, `"`+m.name+`": [`+"\n"+strings.Join(rows, ",\n")+"\n  ]")
	}
	if r.Scores != nil {
		fields = append(fields, `"scores": `+str(r.Scores))
	}
	if r.Smith != nil {
		fields = append(fields, `"smith": `+str(r.Smith), `"schwartz": `+str(r.Schwartz))
	}
	places := make([]string, len(r.Places))
	for i, p := range r.Places {
		places[i] = "    " + str(p)
	}
	fields = append(fields, `"places": [`+"\n"+strings.Join(places, ",\n")+"\n  ]")
	sb.WriteString("{\n  " + strings.Join(fields, ",\n  ") + "\n}\n")
	_, err := io.WriteString(w, sb.String())
	return err
}
