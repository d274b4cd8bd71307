package report

import "testing"

func TestSpreadsheetSafeCells(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")",
		"@SUM(1+1)":                "'@SUM(1+1)",
		"+1-555":                   "'+1-555",
		"-cmd":                     "'-cmd",
		"\tx":                      "'\tx",
		"-12":                      "-12",
		"-0.5":                     "-0.5",
		"Kiss":                     "Kiss",
		"":                         "",
		"12.5%":                    "12.5%",
	} {
		if got := spreadsheetSafe(in); got != want {
			t.Errorf("spreadsheetSafe(%q) = %q, want %q", in, got, want)
		}
	}
	c := newCSV()
	c.record("=1+1", "A")
	if got := c.sb.String(); got != "'=1+1,A\n" {
		t.Errorf("record = %q", got)
	}
}
