package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"votedesk/tally"
)

// htmlFor counts the Tennessee example with a method and rules and writes
// its HTML report.
func htmlFor(t *testing.T, c tally.Contest, b *tally.BallotSet, m tally.Method, r tally.Rules) []byte {
	t.Helper()
	res, err := tally.Tabulate(c, b, m, r)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = WriteHTML(&buf, HTML{
		Header:       Header{GeneratedBy: "VoteDesk test", Contest: c.Name},
		Description:  "Where should the capital be?",
		Preliminary:  "voting is still open; these results are not final.",
		Generated:    time.Date(2026, 11, 3, 20, 0, 0, 0, time.UTC),
		Contest:      c,
		Rules:        r,
		Result:       res,
		Ballots:      b.Total(),
		RuleSettings: RuleText(m, [][2]string{{"numberOfWinners", "1"}, {"batchElimination", "false"}}),
		Inputs:       []Input{{Name: "Ballots", SHA256: strings.Repeat("ab", 32), Detail: "of the ballots", Command: "votedesk export ballots Capital --format csv --output FILE"}},
		LogSeq:       42,
		LogHash:      strings.Repeat("cd", 32),
	})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestHTMLGolden pins the HTML report of a single-winner count, a
// two-seat count with fractional transfers, and a pairwise method.
func TestHTMLGolden(t *testing.T) {
	c, b := tennessee()
	stv := tally.DefaultRules()
	stv.WinnerElectionMode, stv.NumberOfWinners = tally.MultiWinnerAllowMultipleWinnersPerRound, 2
	for _, tc := range []struct {
		name   string
		method tally.Method
		rules  tally.Rules
		want   []string
	}{
		{"irv", tally.IRV, tally.DefaultRules(), []string{"Knoxville", "Round 3", "How votes moved between rounds", "eliminated in round 1"}},
		{"stv", tally.STV, stv, []string{"Winners", "Seats", "Nashville"}},
		{"schulze", tally.Schulze, tally.DefaultRules(), []string{"Head-to-head preferences", "Strongest paths", "Nashville"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := htmlFor(t, c, b, tc.method, tc.rules)
			for _, w := range append(tc.want, "Preliminary", "SHA-256 "+strings.Repeat("ab", 32), "event 42, hash "+strings.Repeat("cd", 32), "method="+string(tc.method)) {
				if !bytes.Contains(got, []byte(w)) {
					t.Errorf("the report lacks %q", w)
				}
			}
			checkSelfContained(t, got)
			golden(t, "report_"+tc.name+".html", got)
		})
	}
}

// TestHTMLEscapes checks that names cannot inject markup, in the tables or
// in the charts.
func TestHTMLEscapes(t *testing.T) {
	c, b := tennessee()
	evil := `<script>alert("x")</script> & Co`
	c.Candidates[0].Name = evil
	c.Name = evil
	for _, m := range []tally.Method{tally.IRV, tally.Borda} {
		got := htmlFor(t, c, b, m, tally.DefaultRules())
		if bytes.Contains(got, []byte("<script")) {
			t.Errorf("%s: a candidate name put a script in the report", m)
		}
		checkSelfContained(t, got)
	}
}

// checkSelfContained checks that a report loads nothing from outside and
// that each inline SVG is well-formed XML.
func checkSelfContained(t *testing.T, page []byte) {
	t.Helper()
	for _, bad := range []string{"http://", "https://", "src=", "url(", "@import", "<script", "<link"} {
		if bytes.Contains(bytes.ToLower(page), []byte(bad)) && !(bad == "http://" && bytes.Count(page, []byte(bad)) == bytes.Count(page, []byte(`xmlns="http://`))) {
			t.Errorf("the report contains %q: it must load nothing from outside", bad)
		}
	}
	svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAll(page, -1)
	if len(svgs) == 0 && bytes.Contains(page, []byte("Tallies by round")) {
		t.Error("no inline SVG in a report with charts")
	}
	for _, svg := range svgs {
		d := xml.NewDecoder(bytes.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("an SVG is not well-formed: %v\n%.300s", err, svg)
				break
			}
		}
	}
}
