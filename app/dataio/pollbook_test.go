package dataio_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"votedesk/app"
	"votedesk/app/dataio"
)

func TestReadPollBook(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       string
		entries  []string // name or name<email>
		repeated []int
		invalid  []string // line: reason
	}{
		{"OneNamePerLine", "\xEF\xBB\xBFAnn Lee\r\n\r\n\"Smith, Bob\"\nCy\n  Ann Lee  \n", []string{"Ann Lee", "Smith, Bob", "Cy"}, []int{5}, nil},
		{"HeaderNameEmail", "Email,Voter Name,Ward\nann@example.org,Ann,3\n,Bob,4\nBAD,Cy,5\n", []string{"Ann<ann@example.org>", "Bob"}, nil,
			[]string{`4: email "bad" is not an address like name@example.org`}},
		{"HeaderIDOnly", "voter_id\n1001\n1002\n1001\n", []string{"1001", "1002"}, []int{4}, nil},
		{"HeaderNameAndID", "id,name\n7,Ann\n8,Bob\n", []string{"Ann", "Bob"}, nil, nil},
		{"InvalidRows", "name,email\n\"Ann,x\n,b@example.org\n#hash\nZoë\n", []string{"Zoë"}, nil,
			[]string{`2: not a CSV row: extraneous or missing " in quoted-field`, "3: voter name is empty", `4: voter name "#hash" may not start with '#'`}},
		{"NoHeaderLooksLikeCSV", "Ann,ann@example.org\n", []string{"Ann,ann@example.org"}, nil, nil},
		// An e-pollbook's export: the name in parts, no name column.
		{"NameParts", "UID,PIN,Last Name,First Name,Middle Name,Street Address,City,State,Zip\n" +
			"100000,964,Richard,Katherine,Robert,764 Howard Forge,Augusta,GA,31267\n" +
			"100199,141,Lloyd, Vanessa ,,1157 Michael Island,Augusta,GA,31252\n" +
			"100300,100,,,,9 Main St,Augusta,GA,30000\n" +
			"100301,101,RICHARD,katherine,robert,1 Elm St,Augusta,GA,30000\n",
			[]string{"Katherine Robert Richard", "Vanessa Lloyd"}, []int{5}, []string{"4: voter name is empty"}},
		{"NamePartsAndEmail", "surname,given name,e-mail\nLee,Ann,ann@example.org\n", []string{"Ann Lee<ann@example.org>"}, nil, nil},
		{"NameColumnBeforeParts", "first name,name\nBob,Ann Lee\n", []string{"Ann Lee"}, nil, nil},
		// Washington's voter file: abbreviated name parts and a suffix,
		// which tells a son from his father of the same name.
		{"NamePartsAbbreviated", "StateVoterID,FName,MName,LName,NameSuffix,Birthyear,Gender\n" +
			"WA000000001,JOHN,A,SMITH,,1950,M\n" +
			"WA000000002,JOHN,A,SMITH,JR,1980,M\n" +
			"WA000000003,JOHN,A,SMITH,,1950,M\n",
			[]string{"JOHN A SMITH", "JOHN A SMITH JR"}, []int{4}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := dataio.ReadPollBook(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range f.Entries {
				s := e.Name
				if e.Email != "" {
					s += "<" + e.Email + ">"
				}
				got = append(got, s)
			}
			if strings.Join(got, "|") != strings.Join(tc.entries, "|") {
				t.Errorf("entries = %q, want %q", got, tc.entries)
			}
			var rep []int
			for _, r := range f.Repeated {
				rep = append(rep, r.Line)
			}
			if len(rep) != len(tc.repeated) || len(rep) > 0 && rep[0] != tc.repeated[0] {
				t.Errorf("repeated lines = %v, want %v", rep, tc.repeated)
			}
			var inv []string
			for _, r := range f.Invalid {
				inv = append(inv, strings.TrimSpace(strings.Split(r.Reason, "\n")[0]))
				inv[len(inv)-1] = strconv.Itoa(r.Line) + ": " + inv[len(inv)-1]
			}
			if strings.Join(inv, "|") != strings.Join(tc.invalid, "|") {
				t.Errorf("invalid = %q, want %q", inv, tc.invalid)
			}
		})
	}
	t.Run("ErrLineTooLong", func(t *testing.T) {
		_, err := dataio.ReadPollBook(strings.NewReader("Ann\n" + strings.Repeat("x", dataio.MaxPollBookLine+1)))
		if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(app.ErrorMessage(err), "line 2 is longer") {
			t.Errorf("long line: %v", err)
		}
	})
}

func TestImportPollBook(t *testing.T) {
	e := newEnv(t)
	e.election("Council", false, "A", "B")
	e.must(e.svc.AddVoters(e.ctx, clerk, "Council", app.VoterEntry{Name: "Ann"}))
	read := func(s string) *dataio.PollBookFile {
		f, err := dataio.ReadPollBook(strings.NewReader(s))
		e.must(err)
		return f
	}
	file := read("name,email\nAnn,\nBob,bob@example.org\nCy,\nBob,\n")
	before := e.logLength()
	dry, err := dataio.ImportPollBook(e.ctx, e.svc, clerk, "Council", file, dataio.PollBookOptions{DryRun: true})
	e.must(err)
	if len(dry.Added) != 2 || len(dry.Skipped) != 2 || dry.Skipped[0].Line != 2 || dry.Skipped[1].Line != 5 || !dry.DryRun {
		t.Errorf("dry run = %+v", dry)
	}
	if e.logLength() != before {
		t.Error("a dry run wrote to the log")
	}
	done, err := dataio.ImportPollBook(e.ctx, e.svc, clerk, "Council", file, dataio.PollBookOptions{})
	e.must(err)
	if len(done.Added) != 2 || e.logLength() != before+1 {
		t.Errorf("import = %+v, log grew by %d", done, e.logLength()-before)
	}
	voters, err := e.svc.Voters(e.ctx, clerk, "Council")
	e.must(err)
	if len(voters) != 3 || voters[1].Email != "bob@example.org" {
		t.Errorf("voters = %+v", voters)
	}
	t.Run("ErrInvalidRows", func(t *testing.T) {
		bad := read("Dee\n#x\n\n")
		before := e.logLength()
		_, err := dataio.ImportPollBook(e.ctx, e.svc, clerk, "Council", bad, dataio.PollBookOptions{})
		if app.ErrorCode(err) != app.CodeInvalid || !strings.Contains(app.ErrorMessage(err), "line 2: voter name \"#x\" may not start with '#'") {
			t.Errorf("file with an invalid row: %v", err)
		}
		if e.logLength() != before {
			t.Error("a refused import wrote to the log")
		}
		done, err := dataio.ImportPollBook(e.ctx, e.svc, clerk, "Council", bad, dataio.PollBookOptions{SkipInvalid: true})
		e.must(err)
		if len(done.Added) != 1 || len(done.Invalid) != 1 {
			t.Errorf("import skipping invalid rows = %+v", done)
		}
	})
	t.Run("ErrDryRunForbidden", func(t *testing.T) {
		_, err := dataio.ImportPollBook(e.ctx, e.svc, observer, "Council", read("Eve\n"), dataio.PollBookOptions{DryRun: true})
		if app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("observer dry run: %v", err)
		}
	})
	t.Run("ErrLaunched", func(t *testing.T) {
		e.must(e.svc.LaunchElection(e.ctx, clerk, "Council"))
		_, err := dataio.ImportPollBook(e.ctx, e.svc, clerk, "Council", read("Fay\n"), dataio.PollBookOptions{DryRun: true})
		if app.ErrorCode(err) != app.CodeConflict || !strings.Contains(app.ErrorMessage(err), "does not allow edits") {
			t.Errorf("dry run on a locked election: %v", err)
		}
	})
}

// FuzzReadPollBook checks that no input makes the poll-book reader panic,
// and that every row it reads is filed once: entries are clean names (and
// emails) app accepts, unique, and lines ascend.
func FuzzReadPollBook(f *testing.F) {
	for _, s := range []string{"Ann\nBob\n", "name,email\nAnn,a@b.c\n", "voter_id\n1\n1\n", "\xEF\xBB\xBF\"a,\"\"b\"\"\"\n", "id,name\n,\n\"x\n",
		"Last Name,First Name,Middle Name,City\nLee,Ann,,X\nLEE,ANN,,Y\n,,,Z\n"} {
		f.Add(s)
	}
	for _, s := range sharedPollBooks(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		pb, err := dataio.ReadPollBook(strings.NewReader(in))
		if err != nil {
			if app.ErrorCode(err) != app.CodeInvalid {
				t.Fatalf("error %v is not a refusal", err)
			}
			return
		}
		seen := map[string]bool{}
		lines := strings.Count(in, "\n") + 1
		last := 0
		for _, e := range pb.Entries {
			if n, err := app.CleanName("voter name", e.Name); err != nil || n != e.Name {
				t.Fatalf("entry %q is not a clean name", e.Name)
			}
			if e.Email != "" {
				if m, err := app.CleanEmail(e.Email); err != nil || m != e.Email {
					t.Fatalf("entry email %q is not clean", e.Email)
				}
			}
			// No two entries name one voter as the domain compares names.
			key := app.NameKey(e.Name)
			if seen[key] || e.Line <= last || e.Line > lines {
				t.Fatalf("entry %+v repeats or is out of order", e)
			}
			seen[key], last = true, e.Line
		}
		for _, rows := range [][]dataio.PollBookRow{pb.Repeated, pb.Invalid} {
			for _, r := range rows {
				if r.Line < 1 || r.Line > lines || r.Reason == "" || !utf8.ValidString(r.Reason) && utf8.ValidString(in) {
					t.Fatalf("row %+v", r)
				}
			}
		}
	})
}

// sharedPollBooks makes poll-book files from the shared test data, read in
// place: the eligible voters of the seed-vote inputs, one per line, and the
// scenario voters with their emails as CSV.
func sharedPollBooks(t testing.TB) []string {
	var out []string
	inputs, _ := filepath.Glob(filepath.Join(shared, "seed-vote", "schulze", "*", "input.txt"))
	for _, p := range inputs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, _ := strings.Cut(string(b), "eligible-to-vote (name)\n")
		names, _, _ := strings.Cut(rest, "ballots")
		out = append(out, names)
	}
	scenarios, _ := filepath.Glob(filepath.Join(shared, "seed-vote", "scenarios", "*.json"))
	for _, p := range scenarios {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var sc struct {
			Voters []struct{ DisplayName, Email string }
		}
		if err := json.Unmarshal(b, &sc); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var csv strings.Builder
		csv.WriteString("Voter Name,Email\n")
		for _, v := range sc.Voters {
			csv.WriteString(`"` + strings.ReplaceAll(v.DisplayName, `"`, `""`) + `",` + v.Email + "\n")
		}
		out = append(out, csv.String())
	}
	if len(out) < 9 {
		t.Fatalf("found %d poll books in the shared test data", len(out))
	}
	return out
}

func TestPollBookHeaderWithoutNames(t *testing.T) {
	for _, in := range []string{"email\nann@example.org\n", "E-Mail, mail\nx@example.org,y@example.org\n", "Email,Phone,City\nann@example.org,555 0100,Augusta\n",
		"UID,PIN,Street Address,City\n100000,964,764 Howard Forge,Augusta\n"} {
		f, err := dataio.ReadPollBook(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), "line 1 is a header") {
			t.Errorf("%q: %+v, %v; want a refusal of a header without names", in, f, err)
		}
	}
	// A one-name-per-line file still reads, a voter named like a column
	// too, and commas in a name.
	f, err := dataio.ReadPollBook(strings.NewReader("Ann Lee\nBob\n"))
	if err != nil || len(f.Entries) != 2 {
		t.Errorf("names: %+v, %v", f, err)
	}
	f, err = dataio.ReadPollBook(strings.NewReader("Ward\nSmith, John, Jr.\n"))
	if err != nil || len(f.Entries) != 2 {
		t.Errorf("names: %+v, %v", f, err)
	}
}
