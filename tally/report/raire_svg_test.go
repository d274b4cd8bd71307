package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"votedesk/app/apptest"
	"votedesk/tally/raire"
)

// raireGuide reads the example "A Guide to RAIRE" works through: its
// contest and RAIRE's assertions for it.
func raireGuide(t *testing.T) (raire.Contest, *raire.Solution) {
	t.Helper()
	dir := filepath.Join(apptest.SharedTestdata(), "raire")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("RAIRE examples absent: %v", err)
	}
	read := func(sub string) *os.File {
		f, err := os.Open(filepath.Join(dir, sub, "a_guide_to_RAIRE_eg_guide.json"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	c, err := raire.ReadContest(read("input"))
	if err != nil {
		t.Fatal(err)
	}
	_, sol, err := raire.ReadSolution(read("expected"))
	if err != nil {
		t.Fatal(err)
	}
	return c, sol
}

// treeSVGText parses an SVG, failing the test if it is not well-formed XML,
// and returns the text of its titles and of its text elements (a label's
// lines one by one).
func treeSVGText(t *testing.T, svg []byte) (titles, texts []string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var stack []string
	var cur strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 && tok.Name.Local != "svg" {
				t.Fatalf("root element %s", tok.Name.Local)
			}
			stack = append(stack, tok.Name.Local)
			if tok.Name.Local == "title" || tok.Name.Local == "text" {
				cur.Reset()
			}
		case xml.CharData:
			cur.Write(tok)
		case xml.EndElement:
			switch tok.Name.Local {
			case "title":
				titles = append(titles, cur.String())
			case "text":
				texts = append(texts, cur.String())
			}
			stack = stack[:len(stack)-1]
		}
	}
	return titles, texts
}

// TestEliminationTreesSVGGolden pins the picture of the Guide's example
// with RAIRE's assertions, and with one left out (orders not ruled out,
// in red) and names that need escaping.
func TestEliminationTreesSVGGolden(t *testing.T) {
	c, sol := raireGuide(t)
	t.Run("Guide", func(t *testing.T) {
		var buf bytes.Buffer
		if err := WriteEliminationTreesSVG(&buf, sol.Tree(), c.Candidates, nil); err != nil {
			t.Fatal(err)
		}
		titles, texts := treeSVGText(t, buf.Bytes())
		all := strings.Join(texts, " ")
		for _, want := range []string{"Alice wins", "Bob wins", "Diego wins", "NEB Chuan > Bob", "NEN Alice > Diego"} {
			if !strings.Contains(all, want) {
				t.Errorf("no text %q in %q", want, all)
			}
		}
		if slices.ContainsFunc(titles, func(s string) bool { return strings.Contains(s, "No assertion rules") }) {
			t.Error("an order is not ruled out")
		}
		golden(t, "raire_trees_guide.svg", buf.Bytes())
	})
	t.Run("GapAndEscaping", func(t *testing.T) {
		names := []string{`Alice "Al" <A&B>`, `Bob & O'Brien`, `Chuan <script>`, `Diego's`}
		// Without NEN(Chuan, Alice | {Alice, Chuan}), Alice can win the
		// final pair against Chuan.
		part := *sol
		part.Assertions = slices.Delete(slices.Clone(sol.Assertions), 1, 2)
		tr := part.Tree()
		var buf bytes.Buffer
		if err := WriteEliminationTreesSVG(&buf, tr, names, nil); err != nil {
			t.Fatal(err)
		}
		titles, texts := treeSVGText(t, buf.Bytes())
		if all := strings.Join(texts, " "); !strings.Contains(all, `<A&B> wins`) || !strings.Contains(all, "not ruled out") {
			t.Errorf("texts %q", all)
		}
		open := `The count: Diego's is eliminated, then Bob & O'Brien, then Chuan <script>, and Alice "Al" <A&B> wins. ` +
			`No assertion rules this order out, so the assertions do not show that Chuan <script> won.`
		if !slices.Contains(titles, open) {
			t.Errorf("no title %q in %q", open, titles)
		}
		if bytes.Contains(buf.Bytes(), []byte("<script>")) || bytes.Contains(buf.Bytes(), []byte("<A&B>")) {
			t.Error("a name is not escaped")
		}
		golden(t, "raire_trees_gap.svg", buf.Bytes())
	})
}

// TestEliminationTreesSVGNames: characters XML cannot carry (a control
// character, invalid UTF-8) are replaced, and missing names are numbered
// as package raire numbers them.
func TestEliminationTreesSVGNames(t *testing.T) {
	_, sol := raireGuide(t)
	names := []string{"Al\x01ice", "Bob\xff", ""}
	var buf bytes.Buffer
	if err := WriteEliminationTreesSVG(&buf, sol.Tree(), names, nil); err != nil {
		t.Fatal(err)
	}
	titles, _ := treeSVGText(t, buf.Bytes())
	all := strings.Join(titles, "\n")
	for _, want := range []string{"Al\uFFFDice", "Bob\uFFFD", "candidate 2", "candidate 3"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the titles:\n%s", want, all)
		}
	}
}

// TestEliminationTreesSVGExplain: the tooltips take explain's words for
// each assertion, by its index, and name every assertion that rules the
// node out.
func TestEliminationTreesSVGExplain(t *testing.T) {
	c, sol := raireGuide(t)
	as := sol.Tree().Assertions
	tr := raire.Tree(c.NumCandidates, sol.Winner, append(as, as[0]))
	var buf bytes.Buffer
	explain := func(i int) string { return fmt.Sprintf("[assertion %d]", i) }
	if err := WriteEliminationTreesSVG(&buf, tr, c.Candidates, explain); err != nil {
		t.Fatal(err)
	}
	titles, _ := treeSVGText(t, buf.Bytes())
	want := "Bob wins. Ruled out by NEB Chuan > Bob: [assertion 0] Also by NEB Chuan > Bob: [assertion 5]"
	if !slices.Contains(titles, want) {
		t.Errorf("no title %q in %q", want, titles)
	}
}

// TestEliminationTreesSVGTruncated: trees cut at MaxTreeNodes say so, and
// the picture of 2,000 nodes stays a bounded size.
func TestEliminationTreesSVGTruncated(t *testing.T) {
	tr := raire.Tree(8, 0, nil)
	var buf bytes.Buffer
	if err := WriteEliminationTreesSVG(&buf, tr, nil, nil); err != nil {
		t.Fatal(err)
	}
	titles, texts := treeSVGText(t, buf.Bytes())
	if !slices.Contains(texts, "…") {
		t.Error("no … under the nodes left out")
	}
	cut := fmt.Sprintf("The orders that lead here are not drawn: the picture stops at %d tails.", raire.MaxTreeNodes)
	if !slices.ContainsFunc(titles, func(s string) bool { return strings.HasSuffix(s, cut) }) {
		t.Errorf("no title ends %q", cut)
	}
	if !bytes.Contains(buf.Bytes(), []byte("The trees are cut short at 2000 nodes")) {
		t.Error("the description does not say the trees were cut")
	}
	if buf.Len() > 2<<20 {
		t.Errorf("%d bytes", buf.Len())
	}
}

// TestTreeSurnames: a name's last word, or the part before a comma, when those
// tell every candidate apart and are at least three letters long.
func TestTreeSurnames(t *testing.T) {
	for _, tc := range []struct {
		name        string
		names, want []string
	}{
		{"LastWords", []string{"Bob Kiss", "Andy Montroll", "Write-in"}, []string{"Kiss", "Montroll", "Write-in"}},
		{"BeforeComma", []string{"Kiss, Bob", "Montroll, Andy"}, []string{"Kiss", "Montroll"}},
		{"SameSurname", []string{"Ann Smith", "Dan Smith"}, []string{"Ann Smith", "Dan Smith"}},
		{"SameUpToCase", []string{"Ann Smith", "Dan SMITH"}, []string{"Ann Smith", "Dan SMITH"}},
		{"TooShort", []string{"Bob Li", "Ann Kay"}, []string{"Bob Li", "Ann Kay"}},
		{"Blank", []string{"Bob Kiss", " "}, []string{"Bob Kiss", " "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Surnames(tc.names); !slices.Equal(got, tc.want) {
				t.Errorf("Surnames(%q) = %q, want %q", tc.names, got, tc.want)
			}
		})
	}
}

// TestTreeFit: a label cut to a width is no wider, and one that fits is kept.
func TestTreeFit(t *testing.T) {
	for _, s := range []string{"Montroll", "Wolfeschlegelsteinhausenbergerdorff", "北京市长候选人", "W"} {
		for _, width := range []float64{20, 50, 120} {
			got := treeFit(s, treeNameSize, width)
			if treeTextWidth(s, treeNameSize) <= width && got != s {
				t.Errorf("treeFit(%q, %v) = %q, but it fits", s, width, got)
			}
			if w := treeTextWidth(got, treeNameSize); w > width && utf8.RuneCountInString(got) > 2 {
				t.Errorf("treeFit(%q, %v) = %q, %v wide", s, width, got, w)
			}
		}
	}
}
