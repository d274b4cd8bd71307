package ui

import (
	"bytes"
	"encoding/csv"
	"regexp"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/report"
	"votedesk/ui/cli"
)

// TestEverySurfaceShowsTheSameShare counts one contest whose shares the old
// formatters disagreed on (fractional transfers; RCTab divides by the first
// round's active ballots and truncates) and checks that the results screen's
// round table, the CLI's table, the HTML report and RCTab's CSV show each
// candidate's share of each round as the same text.
func TestEverySurfaceShowsTheSameShare(t *testing.T) {
	c := tally.Contest{Name: "Capital", Candidates: []tally.Candidate{{Name: "Memphis"}, {Name: "Nashville"}, {Name: "Knoxville"}, {Name: "Chattanooga"}}}
	b := &tally.BallotSet{}
	for _, v := range []struct {
		n     uint32
		order []uint16
	}{{42, []uint16{0, 1, 3, 2}}, {26, []uint16{1, 3, 2, 0}}, {15, []uint16{3, 2, 1, 0}}, {17, []uint16{2, 3, 1, 0}}} {
		var marks []tally.Mark
		for r, cand := range v.order {
			marks = append(marks, tally.Mark{Rank: uint16(r + 1), Candidate: cand})
		}
		if err := b.Add("", v.n, marks); err != nil {
			t.Fatal(err)
		}
	}
	rules := tally.DefaultRules()
	rules.WinnerElectionMode, rules.NumberOfWinners = tally.MultiWinnerAllowMultipleWinnersPerRound, 2
	res, err := tally.Tabulate(c, b, tally.STV, rules)
	if err != nil {
		t.Fatal(err)
	}
	rounds := res.Passes[0].Rounds

	gui := newRoundsTable(app.Count{Contest: c, Ballots: b, Method: tally.STV, Rules: rules, Result: res})
	var cliOut, html, csvOut bytes.Buffer
	cli.WriteResultText(&cliOut, c, rules, res)
	if err := report.WriteHTML(&html, report.HTML{Contest: c, Rules: rules, Result: res, Ballots: b.Total()}); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteDetailedCSV(&csvOut, report.RCTab{Contest: c, Rules: rules, Pass: res.Passes[0]}); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(strings.NewReader(csvOut.String()))
	r.FieldsPerRecord = -1
	csvRows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	pct := regexp.MustCompile(`\((\d+(?:\.\d+)?%)\)`)
	htmlRow := regexp.MustCompile(`(?s)<th scope="row">([^<]*)(?:<span class="note">[^<]*</span>)?</th>(.*?)</tr>`)
	htmlPct := regexp.MustCompile(`<span class="pct">([^<]*)</span>|<span class="dash">`)
	htmlShares := map[string][]string{}
	for _, m := range htmlRow.FindAllStringSubmatch(html.String(), -1) {
		for _, cell := range htmlPct.FindAllStringSubmatch(m[2], -1) {
			htmlShares[strings.TrimSpace(m[1])] = append(htmlShares[strings.TrimSpace(m[1])], cell[1])
		}
	}
	checked := 0
	for ci, cand := range c.Candidates {
		guiRow := -1
		for r, title := range gui.rows {
			if title == cand.Name {
				guiRow = r
			}
		}
		var cliLine string
		for line := range strings.SplitSeq(cliOut.String(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), cand.Name+" ") {
				cliLine = line
			}
		}
		cliShares := pct.FindAllStringSubmatch(cliLine, -1)
		var csvRow []string
		for _, row := range csvRows {
			if len(row) > 0 && row[0] == cand.Name {
				csvRow = row
			}
		}
		for i := range rounds {
			want := report.Share(rules, rounds, i, ci)
			if want == "" {
				continue
			}
			checked++
			if guiRow < 0 || !strings.Contains(gui.cells[guiRow][i], "("+want+")") {
				t.Errorf("%s, round %d: the results screen shows %q, want the share %s", cand.Name, i+1, cellOf(gui, guiRow, i), want)
			}
			if i >= len(cliShares) || cliShares[i][1] != want {
				t.Errorf("%s, round %d: the CLI table row is %q, want the share %s", cand.Name, i+1, cliLine, want)
			}
			if 2+3*i >= len(csvRow) || csvRow[2+3*i] != want {
				t.Errorf("%s, round %d: RCTab's CSV row is %v, want the share %s", cand.Name, i+1, csvRow, want)
			}
			if s := htmlShares[cand.Name]; i >= len(s) || s[i] != want {
				t.Errorf("%s, round %d: the HTML report shows %v, want the share %s", cand.Name, i+1, s, want)
			}
		}
	}
	if checked < 8 {
		t.Fatalf("only %d shares checked", checked)
	}
}

func cellOf(t roundsTable, row, col int) string {
	if row < 0 || col >= len(t.cells[row]) {
		return ""
	}
	return t.cells[row][col]
}
