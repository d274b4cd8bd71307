package cli_test

import (
	"strings"
	"testing"
)

// TestCLICastStdinExitStatus: `ballot cast --stdin` is a feed, each line
// cast as it comes; its exit status says truly what happened: 0 all cast,
// 3 some cast (codes printed) and some refused or stopped by a line that is
// not CSV, 1 none cast.
func TestCLICastStdinExitStatus(t *testing.T) {
	c := pollingPlace(t, 10)
	before := c.logLength()
	r := c.runStdin(voterName(0)+",A\n"+voterName(1)+",B\n"+`"unterminated,A`+"\n"+voterName(2)+",C\n", "ballot", "cast", "Poll", "--stdin")
	if r.code != 3 || len(strings.Fields(r.out)) != 2 || !strings.Contains(r.err, "line 3") || !strings.Contains(r.err, "the 2 ballot(s) before it were") {
		t.Errorf("a feed broken at line 3: exit %d, out %q, err %q", r.code, r.out, r.err)
	}
	r = c.runStdin(voterName(3)+",A\nnobody,B\n", "ballot", "cast", "Poll", "--stdin")
	if r.code != 3 || len(strings.Fields(r.out)) != 1 || !strings.Contains(r.err, "1 of 2 ballot(s) refused") {
		t.Errorf("one good line, one unknown voter: exit %d, out %q, err %q", r.code, r.out, r.err)
	}
	mid := c.logLength()
	if mid <= before {
		t.Error("the cast lines were not stored")
	}
	r = c.runStdin(`"broken`+"\n", "ballot", "cast", "Poll", "--stdin")
	if r.code != 1 || r.out != "" || !strings.Contains(r.err, "nothing from it on was cast") {
		t.Errorf("a feed broken at line 1: exit %d, out %q, err %q", r.code, r.out, r.err)
	}
	r = c.runStdin("nobody,A\n", "ballot", "cast", "Poll", "--stdin")
	if r.code != 1 || c.logLength() != mid {
		t.Errorf("all refused: exit %d, log grew", r.code)
	}
	r = c.runStdin(voterName(4)+",A\n"+voterName(5)+",B\n", "ballot", "cast", "Poll", "--stdin")
	if r.code != 0 || len(strings.Fields(r.out)) != 2 {
		t.Errorf("all cast: exit %d, out %q, err %q", r.code, r.out, r.err)
	}
}
