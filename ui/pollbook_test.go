package ui

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"votedesk/app"
)

// openPollBook signs the owner in and shows the poll book of a draft
// election "Vote".
func openPollBook(t testing.TB, h *harness) *PollBookScreen {
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Vote", "", false))
	h.signIn("Olivia")
	h.sh.OpenElection("Vote", tabPollBook)
	h.wait()
	return h.sh.Election.PollBook
}

func voterNames(t testing.TB, h *harness) []string {
	vs, err := h.svc.Voters(h.ctx, "Olivia", "Vote")
	h.must(err)
	var out []string
	for _, v := range vs {
		out = append(out, v.Name+"|"+v.Email)
	}
	return out
}

func TestPollBook(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	pb := openPollBook(t, h)

	t.Run("Added", func(t *testing.T) {
		test.Type(pb.Name, "Ann Lee")
		test.Type(pb.Email, "Ann@Example.org")
		test.Tap(pb.Add)
		h.wait()
		test.Type(pb.Name, "Bob Stone")
		pb.Name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		h.wait()
		if got := strings.Join(voterNames(t, h), ","); got != "Ann Lee|ann@example.org,Bob Stone|" {
			t.Errorf("poll book %s", got)
		}
		if len(pb.shown) != 2 || pb.Summary.Text != "2 voters, 0 voted" {
			t.Errorf("shows %d rows, summary %q", len(pb.shown), pb.Summary.Text)
		}
	})
	t.Run("ErrDuplicate", func(t *testing.T) {
		test.Type(pb.Name, "Ann Lee")
		test.Tap(pb.Add)
		h.wait()
		h.assertDialog("Cannot add the voter", `"Ann Lee" is already in the poll book`)
		h.closeDialogs()
		pb.Name.SetText("")
	})
	t.Run("Search", func(t *testing.T) {
		test.Type(pb.Search, "EXAMPLE")
		if len(pb.shown) != 1 || pb.voters[pb.shown[0]].Name != "Ann Lee" {
			t.Errorf("search by email shows %v", pb.shown)
		}
		if pb.Summary.Text != "1 match of 2 voters, 0 voted" {
			t.Errorf("summary %q", pb.Summary.Text)
		}
		pb.Search.SetText("")
	})
	t.Run("Removed", func(t *testing.T) {
		pb.Table.Select(widgetCell(1))
		test.Tap(pb.Remove)
		h.tapDialogButton("Yes")
		if got := strings.Join(voterNames(t, h), ","); got != "Ann Lee|ann@example.org" {
			t.Errorf("poll book %s", got)
		}
	})
	t.Run("ImportSummary", func(t *testing.T) {
		csv := "name,email\nAnn Lee,ann@example.org\nCid Park,cid@example.org\nDee Ross,\nCid Park,\nEve,not-an-email\n#Fay,\n"
		pb.ImportFrom(io.NopCloser(strings.NewReader(csv)))
		h.wait()
		h.assertDialog("Added: 2", "Skipped: 2", "Invalid: 2", "line 2: \"Ann Lee\" is already in the poll book", "line 5: \"Cid Park\" is listed twice", "line 6:")
		h.assertGolden("poll_book_import.xml")
		h.closeDialogs()
		if got := strings.Join(voterNames(t, h), ","); got != "Ann Lee|ann@example.org,Cid Park|cid@example.org,Dee Ross|" {
			t.Errorf("poll book %s", got)
		}
		if s := pb.LastImport; s == nil || len(s.Added) != 2 {
			t.Errorf("import summary %+v", s)
		}
	})
	t.Run("LockedAfterLaunch", func(t *testing.T) {
		h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Vote", "Yes", "No"))
		h.must(h.svc.LaunchElection(h.ctx, "Olivia", "Vote"))
		h.sh.Election.refresh()
		h.wait()
		if !pb.Add.Disabled() || !pb.Import.Disabled() || !strings.Contains(pb.Note.Text, "poll book is locked") {
			t.Errorf("a launched election's poll book is editable (%q)", pb.Note.Text)
		}
	})
}

func TestPollBookHundredThousand(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Vote", "", false))
	addVoters(h, "Vote", 100000)
	pb := openPollBookOf(h, "Vote")
	if len(pb.voters) != 100000 || len(pb.shown) != 100000 {
		t.Fatalf("loaded %d voters, shows %d", len(pb.voters), len(pb.shown))
	}
	test.Type(pb.Search, "voter 0421")
	if len(pb.shown) != 10 {
		t.Errorf("search shows %d rows, want 10 (04210..04219)", len(pb.shown))
	}
	if !strings.HasPrefix(pb.Summary.Text, "10 match of 100,000 voters") {
		t.Errorf("summary %q", pb.Summary.Text)
	}
}

// addVoters adds n voters "Voter 00000".. in batches.
func addVoters(h *harness, election string, n int) {
	batch := make([]app.VoterEntry, 0, 10000)
	for i := range n {
		batch = append(batch, app.VoterEntry{Name: fmt.Sprintf("Voter %05d", i)})
		if len(batch) == cap(batch) || i == n-1 {
			h.must(h.svc.AddVoters(h.ctx, "Olivia", election, batch...))
			batch = batch[:0]
		}
	}
}

func openPollBookOf(h *harness, election string) *PollBookScreen {
	if h.sh.sess == nil {
		h.signIn("Olivia")
	}
	h.sh.OpenElection(election, tabPollBook)
	h.wait()
	return h.sh.Election.PollBook
}

// BenchmarkPollBookSearch measures one keystroke of search over 100,000
// voters: filtering the in-memory book and refreshing the table once.
func BenchmarkPollBookSearch(b *testing.B) {
	h := newHarness(b, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Vote", "", false))
	addVoters(h, "Vote", 100000)
	pb := openPollBookOf(h, "Vote")
	b.ResetTimer()
	for i := range b.N {
		pb.Search.SetText(fmt.Sprintf("%04d", i%10000))
	}
}

// BenchmarkPollBookOpen measures loading a 100,000-voter poll book and
// showing it.
func BenchmarkPollBookOpen(b *testing.B) {
	h := newHarness(b, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Vote", "", false))
	addVoters(h, "Vote", 100000)
	pb := openPollBookOf(h, "Vote")
	b.ResetTimer()
	for range b.N {
		pb.refresh()
		h.wait()
	}
}
