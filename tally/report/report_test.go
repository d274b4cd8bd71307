package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"votedesk/tally"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s", name, got)
	}
}

// tennessee is the Wikipedia Tennessee capital example.
func tennessee() (tally.Contest, *tally.BallotSet) {
	c := tally.Contest{Name: "Capital", Candidates: []tally.Candidate{{Name: "Memphis"}, {Name: "Nashville"}, {Name: "Knoxville"}, {Name: "Chattanooga"}}}
	b := &tally.BallotSet{}
	for _, v := range []struct {
		n     uint32
		order []uint16
	}{{42, []uint16{0, 1, 3, 2}}, {26, []uint16{1, 3, 2, 0}}, {15, []uint16{3, 2, 1, 0}}, {17, []uint16{2, 3, 1, 0}}} {
		var marks []tally.Mark
		for r, c := range v.order {
			marks = append(marks, tally.Mark{Rank: uint16(r + 1), Candidate: c})
		}
		b.Add("", v.n, marks)
	}
	return c, b
}

// TestEncodeJSONGolden pins the JSON of each kind of result.
func TestEncodeJSONGolden(t *testing.T) {
	c, b := tennessee()
	h := Header{GeneratedBy: "VoteDesk test", Contest: "Capital"}
	for _, m := range []tally.Method{tally.Schulze, tally.Copeland, tally.Kemeny, tally.IRV} {
		t.Run(string(m), func(t *testing.T) {
			r := tally.DefaultRules()
			res, err := tally.Tabulate(c, b, m, r)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := EncodeJSON(&buf, h, c, r, res); err != nil {
				t.Fatal(err)
			}
			golden(t, "encode_"+string(m)+".json", buf.Bytes())
		})
	}
}

// TestAuditGolden pins the audit log of a small multi-seat count with
// fractional transfers.
func TestAuditGolden(t *testing.T) {
	c, b := tennessee()
	r := tally.DefaultRules()
	r.WinnerElectionMode = tally.MultiWinnerAllowMultipleWinnersPerRound
	r.NumberOfWinners = 2
	res, err := tally.Tabulate(c, b, tally.STV, r, tally.WithAudit())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteAudit(&buf, c, b, res); err != nil {
		t.Fatal(err)
	}
	golden(t, "audit_stv.log", buf.Bytes())
}

// TestCSVQuoting follows Commons CSV's minimal quoting.
func TestCSVQuoting(t *testing.T) {
	cases := []struct {
		name  string
		cells []string
		want  string
	}{
		{"PlainCells", []string{"Round 1 Votes", "% of vote", "-0.7499"}, "Round 1 Votes,% of vote,-0.7499\n"},
		{"CommaQuoted", []string{"Winner(s)", "A, B"}, "Winner(s),\"A, B\"\n"},
		{"EmptyFirstQuoted", []string{"", "x"}, "\"\",x\n"},
		{"EmptyLaterBare", []string{"x", ""}, "x,\n"},
		{"QuoteDoubled", []string{`say "hi"`}, "\"say \"\"hi\"\"\"\n"},
		{"LeadingHashQuoted", []string{"#1"}, "\"#1\"\n"},
		{"TrailingSpaceQuoted", []string{"x "}, "\"x \"\n"},
		{"AsteriskBare", []string{"*Tie resolved in accordance with election law"}, "*Tie resolved in accordance with election law\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCSV()
			c.record(tc.cells...)
			if got := c.sb.String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPercent follows RCTab's percentages: seven significant digits,
// truncated to hundredths of a percent, printed as a Java double.
func TestPercent(t *testing.T) {
	cases := []struct {
		name         string
		votes, total tally.Decimal
		want         string
	}{
		{"Truncated", tally.DecimalInt(6), tally.DecimalInt(14), "42.85%"},
		{"WholeGetsPointZero", tally.DecimalInt(1), tally.DecimalInt(4), "25.0%"},
		{"Zero", tally.DecimalInt(0), tally.DecimalInt(9), "0.0%"},
		{"SmallShare", tally.DecimalInt(1), tally.DecimalInt(27), "3.7%"},
		{"Fractional", tally.NewDecimal(44994, 4), tally.DecimalInt(9), "49.99%"},
		{"All", tally.DecimalInt(9), tally.DecimalInt(9), "100.0%"},
		{"RoundingUpAtSeventhDigit", tally.DecimalInt(2), tally.DecimalInt(3), "66.66%"},
		{"NoTotal", tally.DecimalInt(1), tally.DecimalInt(0), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Percent(tc.votes, tc.total); got != tc.want {
				t.Errorf("Percent(%s, %s) = %q, want %q", tc.votes, tc.total, got, tc.want)
			}
		})
	}
}

// TestJacksonLayout checks the pretty printer's shapes.
func TestJacksonLayout(t *testing.T) {
	var buf bytes.Buffer
	v := object{"b": array{object{"x": "1"}, object{}}, "a": array{}, "c": "q\"\n\x01"}
	if err := writeJSON(&buf, v); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\" : [ ],\n  \"b\" : [ {\n    \"x\" : \"1\"\n  }, { } ],\n  \"c\" : \"q\\\"\\n\\u0001\"\n}"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
