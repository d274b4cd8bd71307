package app_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"votedesk/app"
	"votedesk/tally"
)

// TestChunkedImportsReadAsItems: an import of format 3 stores its ballots
// in chunks, one of format 2 an item a ballot. Every reader must see the
// same ballots either way: the same list, codes, rows, source-id search,
// count input, count, audit manifest and refusals, whatever the chunks'
// size (a ballot a chunk, a few, all of them).
func TestChunkedImportsReadAsItems(t *testing.T) {
	legacy := readEverything(t, []int{app.FormatSigned, app.FormatSigned}, 1<<18)
	if !strings.Contains(legacy, "ballots 25\n") || !strings.Contains(legacy, "count: winners") {
		t.Fatalf("the legacy import's view:\n%s", legacy)
	}
	for _, chunk := range []int{1, 150, 1 << 18} {
		t.Run(fmt.Sprint(chunk), func(t *testing.T) {
			if got := readEverything(t, []int{app.FormatChunked, app.FormatChunked}, chunk); got != legacy {
				t.Errorf("chunks of %d bytes read otherwise than an item a ballot:\n%s", chunk, lineDiff(legacy, got))
			}
		})
	}
	// An election imported into before and after an upgrade holds both.
	for _, formats := range [][]int{{app.FormatSigned, app.FormatChunked}, {app.FormatChunked, app.FormatSigned}} {
		if got := readEverything(t, formats, 150); got != legacy {
			t.Errorf("imports of formats %v read otherwise than an item a ballot:\n%s", formats, lineDiff(legacy, got))
		}
	}
}

// readEverything imports ballots into "Open" in two imports, stored as
// formats (one each) and chunk say, around ballots of other kinds, and
// writes down what every reader of ballots makes of them.
func readEverything(t *testing.T, formats []int, chunk int) string {
	// Set before the database is opened, so that the verify after the
	// test cuts chunks as the imports did: the size is part of format 3.
	app.StoreImportsAs(t, formats[0], chunk)
	e := newEnv(t)
	var out strings.Builder
	say := func(f string, a ...any) { fmt.Fprintf(&out, f+"\n", a...) }
	// Voters' ballots beside them (a paper ballot's code, drawn at
	// random, would fall among the imports' differently in each run).
	_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Open", Voter: "v1", Rankings: rank("C", "A"), Source: app.SourcePaper, Transcribed: true})
	e.must(err)
	r := func(rank int, name string) app.Ranking { return app.Ranking{Candidate: name, Rank: rank} }
	rankings := [][]app.Ranking{
		{r(1, "A"), r(2, "B")},
		{r(1, app.OvervoteLabel), r(2, "B")},
		{r(1, "A"), r(1, "C"), r(3, "B")},
		{r(1, "B"), r(2, "B"), r(3, "A")},
		{r(2, "C"), r(3, "A")},
		{},
	}
	ids := []string{"plain", `quo"te`, `back\slash`, "ünï", "", "tab\u2028sep"}
	var batches [][]app.ImportedBallot
	n := 0
	for _, size := range []int{8, 15} {
		var bs []app.ImportedBallot
		for range size {
			b := app.ImportedBallot{SourceID: fmt.Sprintf("%s-%d", ids[n%len(ids)], n), Rankings: rankings[n%len(rankings)]}
			if n%len(ids) == 4 {
				b.SourceID = "" // no id
			}
			if n%3 == 0 {
				b.Precinct, b.Batch, b.Tabulator = fmt.Sprintf("P %d", n%2), fmt.Sprintf(`B"%d`, n%4), "T\\1"
			}
			bs = append(bs, b)
			n++
		}
		batches = append(batches, bs)
	}
	for i, bs := range batches {
		if i > 0 {
			app.StoreImportsAs(t, formats[i], chunk)
		}
		_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, bs, nil)
		e.must(err)
	}
	_, err = e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Open", Voter: "v2", Rankings: rank("B"), Source: app.SourceDirect})
	e.must(err)

	el, err := e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	say("ballots %d", el.Ballots)
	for _, byCode := range []bool{false, true} {
		l, err := e.svc.ListBallots(e.ctx, "user", "Open")
		if byCode {
			l, err = e.svc.ListBallotsByCode(e.ctx, "user", "Open")
		}
		e.must(err)
		say("list (by code %v) of %d", byCode, l.Len())
		// Whole, and a page at a time from odd places.
		whole, err := l.Rows(e.ctx, 0, l.Len())
		e.must(err)
		var lines []string
		for i, b := range whole {
			lines = append(lines, strings.ReplaceAll(fmt.Sprintf("%s %+v", l.Code(i), b), e.store.DeviceID(), "{device}"))
			if byCode && i > 0 && l.Code(i) < l.Code(i-1) {
				t.Errorf("by code, %s listed after %s", l.Code(i), l.Code(i-1))
			}
		}
		if byCode { // its order depends on the device's id, drawn at random
			slices.Sort(lines)
		}
		for i, line := range lines {
			say("%d %s", i, line)
		}
		for from := 3; from < l.Len(); from += 7 {
			page, err := l.Rows(e.ctx, from, from+5)
			e.must(err)
			if !slices.EqualFunc(page, whole[from:min(from+5, len(whole))], func(a, b app.Ballot) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
				say("page from %d differs: %+v", from, page)
			}
		}
		if !byCode {
			for _, b := range whole {
				at, err := l.FindSource(e.ctx, b.SourceID)
				say("find %q: %d %v", b.SourceID, at, err)
				say("find code %s: %d", b.Confirmation, l.Find(b.Confirmation))
			}
			at, err := l.FindSource(e.ctx, "none")
			say("find none: %d %v", at, err)
		}
	}
	in, err := e.svc.CountInputWithIDs(e.ctx, "user", "Open")
	e.must(err)
	for i := range in.Ballots.Len() {
		marks, count := in.Ballots.Ballot(i)
		say("count input %d: %v x%d %q", i, marks, count, in.Ballots.ID(i))
	}
	say("count input groups: %q %q %q", in.Ballots.Precincts, in.Ballots.Batches, in.Ballots.Tabulators)
	c, err := e.svc.Count(e.ctx, "user", "Open", tally.IRV, tally.DefaultRules())
	if err == nil {
		say("count: winners %v, places %+v, passes %+v", c.Result.Winners, c.Result.Places, c.Result.Passes)
	} else {
		say("count: %v", err)
	}
	m, err := e.svc.AuditManifest(e.ctx, "user", "Open")
	say("manifest %+v %v", m, err)
	_, err = e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, []app.ImportedBallot{{SourceID: batches[1][3].SourceID, Rankings: rank("A")}}, nil)
	say("import again: %v", err)
	// Each copy of the template is a device of its own, whose id the
	// imports' codes begin with.
	return strings.ReplaceAll(out.String(), e.store.DeviceID(), "{device}")
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(a), len(b)) {
		x, y := "", ""
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\nwant %s\n got %s", i+1, x, y)
		}
	}
	return "(the same)"
}

// FuzzChunk: a chunk reads back to the ballots it was made of, whatever
// their texts hold (quotes, backslashes, control characters, any
// Unicode); and a chunk whose lengths or columns were damaged is refused
// or read within its bytes, never with a panic.
func FuzzChunk(f *testing.F) {
	f.Add(uint64(1), "id", "P", "B", "T", []byte{3, 2, 0, 0, 0}, "")
	f.Add(uint64(7), `a"b\c`, "", "", "t", []byte{}, "x")
	f.Add(uint64(9), "\x00\u2028", "é", `\`, "", []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, `[["A"]]`)
	f.Fuzz(func(t *testing.T, seed uint64, id, precinct, batch, tabulator string, ends []byte, column string) {
		for _, s := range []string{id, precinct, batch, tabulator} {
			if !utf8.ValidString(s) {
				return // not text: an import refuses it
			}
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		var in []app.ImportedBallot
		for i := range 1 + rng.IntN(6) {
			b := app.ImportedBallot{SourceID: id + fmt.Sprint(i)}
			if rng.IntN(2) == 0 {
				b.Precinct, b.Batch, b.Tabulator = precinct, batch, tabulator
			}
			rank := 1
			for range rng.IntN(4) {
				rank += rng.IntN(2)
				b.Rankings = append(b.Rankings, app.Ranking{Candidate: []string{"A", `B"`, "C\\", id}[rng.IntN(4)], Rank: rank})
			}
			in = append(in, b)
		}
		it, err := app.ChunkOf(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := app.ChunkBallots(it)
		if err != nil {
			t.Fatalf("%v: %v", it, err)
		}
		if len(got) != len(in) {
			t.Fatalf("%d ballots read back of %d", len(got), len(in))
		}
		for i, b := range got {
			want := in[i]
			if b.SourceID != want.SourceID || b.Precinct != want.Precinct || b.Batch != want.Batch || b.Tabulator != want.Tabulator ||
				fmt.Sprint(b.Rankings) != fmt.Sprint(want.Rankings) && len(b.Rankings)+len(want.Rankings) > 0 {
				t.Fatalf("ballot %d read back as %+v, made of %+v", i, b, want)
			}
		}
		// Damaged: other lengths, or another column.
		bad := slices.Clone(it)
		bad.Set("ends", app.Value{Kind: app.KindB, S: string(ends)})
		if rows, err := app.ChunkBallots(bad); err == nil && len(rows) != len(in) {
			t.Fatalf("damaged lengths %v read as %d ballots of %d", ends, len(rows), len(in))
		}
		bad = slices.Clone(it)
		bad.Set([]string{"rankings", "source_id", "precinct"}[rng.IntN(3)], app.S(column))
		_, _ = app.ChunkBallots(bad)
	})
}
