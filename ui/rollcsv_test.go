package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRollFile(t *testing.T) {
	for _, c := range []struct {
		name     string
		in       string
		entries  []string // name|email
		skipped  []int    // lines
		invalid  []int    // lines
		errorHas string
	}{
		{name: "OneNamePerLine", in: "Ann Lee\nBob Stone\n\n  Cid Park  \r\n",
			entries: []string{"Ann Lee|", "Bob Stone|", "Cid Park|"}},
		{name: "NameWithCommaStaysWhole", in: "Lee, Ann\n\"Stone, Bob\"\n",
			entries: []string{"Lee, Ann|", "Stone, Bob|"}},
		{name: "HeaderNameEmail", in: "\xef\xbb\xbfEmail,Name,Precinct\nann@example.org,Ann Lee,3\n,Bob Stone,4\n\"cid@example.org\",\"Park, Cid\",5\n",
			entries: []string{"Ann Lee|ann@example.org", "Bob Stone|", "Park, Cid|cid@example.org"}},
		{name: "HeaderNameOnly", in: "name\nAnn\nBob\n", entries: []string{"Ann|", "Bob|"}},
		{name: "DuplicatesSkipped", in: "Ann\nBob\nAnn\n", entries: []string{"Ann|", "Bob|"}, skipped: []int{3}},
		{name: "InvalidRows", in: "name,email\nAnn,not-an-email\n#hash,\n,x@y.org\nBob,bob@example.org\nCid,\"broken\n",
			entries: []string{"Bob|bob@example.org"}, invalid: []int{2, 3, 4, 6}},
		{name: "Empty", in: "\n\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := ReadRollFile(strings.NewReader(c.in))
			if c.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errorHas) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range f.Entries {
				got = append(got, e.Name+"|"+e.Email)
			}
			if strings.Join(got, "\n") != strings.Join(c.entries, "\n") {
				t.Errorf("entries\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.entries, "\n"))
			}
			lines := func(rows []RollRow) []int {
				var out []int
				for _, r := range rows {
					out = append(out, r.Line)
				}
				return out
			}
			if g := lines(f.Skipped); !equalInts(g, c.skipped) {
				t.Errorf("skipped lines %v, want %v (%v)", g, c.skipped, f.Skipped)
			}
			if g := lines(f.Invalid); !equalInts(g, c.invalid) {
				t.Errorf("invalid lines %v, want %v (%v)", g, c.invalid, f.Invalid)
			}
		})
	}
	t.Run("ErrLineTooLong", func(t *testing.T) {
		_, err := ReadRollFile(strings.NewReader("Ann\n" + strings.Repeat("x", maxRollLine+10) + "\n"))
		if err == nil || !strings.Contains(err.Error(), "line 2 is longer") {
			t.Errorf("err = %v", err)
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzReadRollFile checks that any input gives entries app accepts, never
// the same name twice, and every non-blank line accounted for once.
func FuzzReadRollFile(f *testing.F) {
	f.Add("Ann\nBob\n")
	f.Add("name,email\nAnn,ann@example.org\n")
	f.Add("\xef\xbb\xbfName\n\"a,b\"\n")
	if b, err := os.ReadFile(filepath.Join("..", "..", "shared", "testdata", "real", "burlington_2009_mayor", "README.md")); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, in string) {
		rf, err := ReadRollFile(strings.NewReader(in))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		lines := map[int]bool{}
		for _, e := range rf.Entries {
			if seen[e.Name] {
				t.Fatalf("%q twice", e.Name)
			}
			seen[e.Name] = true
			if e.Name == "" || strings.HasPrefix(e.Name, "#") {
				t.Fatalf("bad name %q accepted", e.Name)
			}
			lines[e.Line] = true
		}
		for _, r := range append(rf.Skipped, rf.Invalid...) {
			if lines[r.Line] {
				t.Fatalf("line %d counted twice", r.Line)
			}
			lines[r.Line] = true
		}
	})
}
