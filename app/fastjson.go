package app

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// An import's sealed part holds its ballots, a million of them for a
// million-ballot import, and every device that applies the event reads it:
// through encoding/json that is a validating scan, reflection, and a
// nested Unmarshal per ballot and per rankings list, some 5 s a million
// ballots. readImported reads the compact form VoteDesk writes itself
// (appendJSON: no spaces, strings without escapes) in one pass, with the
// texts sliced out of one copy of the input, and answers ok = false for
// anything else, which the caller then hands to encoding/json. Whatever it
// accepts, encoding/json reads to the same ballots (fastjson_test.go checks
// both on written, random and mutated input).

// compactScan reads compact JSON from b at i.
type compactScan struct {
	b  []byte
	s  string // b as one string, texts sliced out of it; "": texts are copied
	i  int
	ok bool
}

func (c *compactScan) next(x byte) bool {
	if c.ok && c.i < len(c.b) && c.b[c.i] == x {
		c.i++
		return true
	}
	return false
}

func (c *compactScan) want(x byte) {
	if !c.next(x) {
		c.ok = false
	}
}

// text reads a string without escapes or control characters, whose bytes
// are valid UTF-8 (encoding/json would replace invalid ones).
func (c *compactScan) text() string {
	if !c.next('"') {
		c.ok = false
		return ""
	}
	start, ascii := c.i, true
	for c.i < len(c.b) {
		x := c.b[c.i]
		if x == '"' {
			break
		}
		if x < 0x20 || x == '\\' {
			c.ok = false
			return ""
		}
		if x >= 0x80 {
			ascii = false
		}
		c.i++
	}
	if c.i >= len(c.b) || !ascii && !utf8.Valid(c.b[start:c.i]) {
		c.ok = false
		return ""
	}
	c.i++
	if c.s == "" {
		return string(c.b[start : c.i-1])
	}
	return c.s[start : c.i-1]
}

// rankings reads [["A"],["B","C"],[]] into r, rank by rank from 1.
func (c *compactScan) rankings(r []Ranking) []Ranking {
	c.want('[')
	if c.next(']') {
		return r
	}
	for rank := 1; c.ok; rank++ {
		c.want('[')
		if !c.next(']') {
			for c.ok {
				r = append(r, Ranking{Candidate: c.text(), Rank: rank})
				if c.next(']') {
					break
				}
				c.want(',')
			}
		}
		if c.next(']') {
			break
		}
		c.want(',')
	}
	return r
}

// readImported reads {"ballots":[[id,rankings,precinct,batch,tabulator],
// ...]}, the last three as far as written, in VoteDesk's compact form.
func readImported(b []byte) ([]ImportedBallot, bool) {
	const pre = `{"ballots":[`
	if len(b) < len(pre)+2 || string(b[:len(pre)]) != pre {
		return nil, false
	}
	c := &compactScan{b: b, s: string(b), i: len(pre), ok: true}
	out := []ImportedBallot{}
	marks := make([]Ranking, 0, len(b)/16)
	if !c.next(']') {
		out = make([]ImportedBallot, 0, len(b)/64)
		for c.ok {
			var ib ImportedBallot
			c.want('[')
			ib.SourceID = c.text()
			c.want(',')
			from := len(marks)
			marks = c.rankings(marks)
			if len(marks) > from {
				ib.Rankings = marks[from:len(marks):len(marks)]
			}
			for _, to := range []*string{&ib.Precinct, &ib.Batch, &ib.Tabulator} {
				if !c.next(',') {
					break
				}
				*to = c.text()
			}
			c.want(']')
			out = append(out, ib)
			if c.next(']') {
				break
			}
			c.want(',')
		}
	}
	c.want('}')
	if !c.ok || c.i != len(b) {
		return nil, false
	}
	return out, true
}

// readEvent reads an event in the layout EncodeEvent writes (fields in
// its order, no spaces, texts without escapes), the whole input copied
// once, with one validating scan of Data and one of Sealed where
// json.Unmarshal takes a validating scan of everything and a second to skip
// the raw parts. Anything else answers ok = false, for encoding/json.
//
// Data and Sealed are found by position: Data starts after the first
// `,"data":` (no text before it can hold an unescaped quote), and ends at
// the first `,"sealed":` after it (Data is small, Sealed may be 570 KB) or,
// without one, where the signature fields begin. A wrong split (the
// pattern inside Data) leaves Data unclosed: never valid JSON, so it falls
// back too.
func readEvent(in []byte) (Event, bool) {
	var e Event
	b := append([]byte(nil), in...)
	c := &compactScan{b: b, ok: true}
	seq, v, ok := c.eventHead()
	if !ok {
		return e, false
	}
	e.Seq, e.V = seq, v
	e.ID = c.text()
	if !c.field("when") || !c.ok {
		return e, false
	}
	start := c.i
	c.text()
	if !c.ok || e.When.UnmarshalJSON(b[start:c.i]) != nil || !c.field("actor") {
		return e, false
	}
	e.Actor = c.text()
	if c.field("actor_id") {
		e.ActorID = c.text()
	}
	if !c.field("type") {
		return e, false
	}
	e.Type = EventType(c.text())
	if !c.field("data") {
		return e, false
	}
	// The tail, read from the end: ,"prev_hash":"…","hash":"…"} after the
	// signature fields.
	end := len(b) - 1
	if !c.ok || b[end] != '}' {
		return e, false
	}
	if e.Hash, end, ok = tailField(b, end, "hash"); !ok {
		return e, false
	}
	if e.PrevHash, end, ok = tailField(b, end, "prev_hash"); !ok {
		return e, false
	}
	for _, f := range []struct {
		name string
		to   *string
	}{{"dsig", &e.DevSig}, {"dkey", &e.DevKey}, {"usig", &e.UserSig}, {"ukey", &e.UserKey}} {
		if v, before, ok := tailField(b, end, f.name); ok {
			*f.to, end = v, before
		}
	}
	if end < c.i {
		return e, false
	}
	mid := b[c.i:end]
	if k := bytes.Index(mid, []byte(`,"sealed":`)); k >= 0 {
		e.Data, e.Sealed = json.RawMessage(mid[:k]), json.RawMessage(mid[k+len(`,"sealed":`):])
		// In seal's layout the secret is the only part to check; the
		// check is remembered for OpenSealed.
		if _, secret, ok := sealedLayout(e.Sealed); ok {
			if !validJSON(secret) {
				return e, false
			}
			e.sealedDataValid = true
		} else if len(e.Sealed) == 0 || !validJSON(e.Sealed) {
			return e, false
		}
	} else {
		e.Data = json.RawMessage(mid)
	}
	if len(e.Data) == 0 || !validJSON(e.Data) || isJSONSpace(e.Data[0]) || isJSONSpace(e.Data[len(e.Data)-1]) ||
		len(e.Sealed) > 0 && (isJSONSpace(e.Sealed[0]) || isJSONSpace(e.Sealed[len(e.Sealed)-1])) {
		return e, false
	}
	return e, true
}

// field reads `,"name":` and says whether it was there.
func (c *compactScan) field(name string) bool {
	b := c.b
	if c.ok && c.i+len(name)+4 <= len(b) && b[c.i] == ',' && b[c.i+1] == '"' &&
		string(b[c.i+2:c.i+2+len(name)]) == name && b[c.i+2+len(name)] == '"' && b[c.i+3+len(name)] == ':' {
		c.i += len(name) + 4
		return true
	}
	return false
}

// number reads an unsigned integer as JSON writes it (no sign, no leading
// zero), below 2^63.
func (c *compactScan) number() (uint64, bool) {
	b, start := c.b, c.i
	var n uint64
	for c.i < len(b) && b[c.i] >= '0' && b[c.i] <= '9' {
		if n > (1<<63)/10 {
			return 0, false
		}
		n = n*10 + uint64(b[c.i]-'0')
		c.i++
	}
	digits := c.i - start
	return n, digits > 0 && (digits == 1 || b[start] != '0')
}

// eventHead reads the start EncodeEvent writes, {"seq":N, then ,"v":N
// when the event has a format, then ,"id":, leaving the id to read.
func (c *compactScan) eventHead() (seq uint64, v int, ok bool) {
	if len(c.b) < 8 || string(c.b[:7]) != `{"seq":` {
		return 0, 0, false
	}
	c.i = 7
	if seq, ok = c.number(); !ok {
		return 0, 0, false
	}
	if c.field("v") {
		n, ok := c.number()
		if !ok || n > 1<<31 {
			return 0, 0, false
		}
		v = int(n)
	}
	return seq, v, c.field("id")
}

// tailField reads ,"name":"value" ending at b[end] (exclusive), a value
// without a quote, escape or non-ASCII byte, and returns it and where the
// field starts (the end of the field before it).
func tailField(b []byte, end int, name string) (string, int, bool) {
	if end < 1 || end > len(b) || b[end-1] != '"' {
		return "", 0, false
	}
	q := bytes.LastIndexByte(b[:end-1], '"')
	pre := `,"` + name + `":`
	if q < len(pre) || string(b[q-len(pre):q]) != pre {
		return "", 0, false
	}
	for _, x := range b[q+1 : end-1] {
		if x < 0x20 || x == '\\' || x >= 0x80 {
			return "", 0, false
		}
	}
	return string(b[q+1 : end-1]), q - len(pre), true
}

// EventIDHash returns the id and the hash of an event in EncodeEvent's
// layout without reading the rest (for a caller that only compares them);
// ok is false for any other layout, which DecodeEvent then reads. It
// checks nothing else: the event's hash covers its content.
func EventIDHash(b []byte) (id, hash string, ok bool) {
	c := &compactScan{b: b, ok: true}
	if _, _, ok := c.eventHead(); !ok {
		return "", "", false
	}
	id = c.text()
	if !c.ok || len(b) < 2 || b[len(b)-1] != '}' {
		return "", "", false
	}
	hash, start, ok := tailField(b, len(b)-1, "hash")
	if !ok || start < c.i {
		return "", "", false
	}
	return id, hash, true
}

// Events' open data and sealed parts are small objects, read for every
// event a device applies: through encoding/json a validating scan and
// reflection each time, and for the ballots of a close of polls (every
// kiosk applying every other kiosk's ballots) a few per cent of a sync's
// CPU. The payloads below read themselves from VoteDesk's compact form
// (readCompact) and leave anything else to encoding/json, which reads
// what they accept to the same values (fastjson_test.go).

// compactReader is a payload that can read the compact form itself. It
// reads b over what it holds, as json.Unmarshal does, and on false leaves
// itself unchanged.
type compactReader interface {
	readCompact(b []byte) bool
}

// unmarshalPayload reads b into v: by v's own reader when it has one and b
// is in the compact form, by encoding/json otherwise.
func unmarshalPayload(b []byte, v any) error {
	if r, ok := v.(compactReader); ok && r.readCompact(b) {
		return nil
	}
	return json.Unmarshal(b, v)
}

// maxSkipDepth bounds the nesting skip follows; deeper input is left to
// encoding/json.
const maxSkipDepth = 16

// object reads a compact object, {"key":value,...}, the whole of b: member
// reads the value of each key (or skips it) and answers false for a key it
// does not take, which gives up. Keys are read as text reads them, so one
// that encoding/json would match to a field only by folding case, or with
// an escape, is a key member does not know.
func (c *compactScan) object(member func(key string) bool) bool {
	c.want('{')
	if !c.next('}') {
		for c.ok {
			k := c.text()
			c.want(':')
			if !c.ok || !member(k) {
				return false
			}
			if c.next('}') {
				break
			}
			c.want(',')
		}
	}
	return c.ok && c.i == len(c.b)
}

// boolean reads true or false.
func (c *compactScan) boolean() bool {
	rest := c.b[min(c.i, len(c.b)):]
	switch {
	case !c.ok:
	case bytes.HasPrefix(rest, []byte("true")):
		c.i += 4
		return true
	case bytes.HasPrefix(rest, []byte("false")):
		c.i += 5
		return false
	}
	c.ok = false
	return false
}

// skip passes over one value: a text as text reads it, true, false, null,
// an unsigned integer, or an array or object of these.
func (c *compactScan) skip(depth int) {
	if !c.ok || c.i >= len(c.b) || depth > maxSkipDepth {
		c.ok = false
		return
	}
	switch x := c.b[c.i]; {
	case x == '"':
		c.text()
	case x == 't' || x == 'f':
		c.boolean()
	case x == 'n':
		if !bytes.HasPrefix(c.b[c.i:], []byte("null")) {
			c.ok = false
			return
		}
		c.i += 4
	case '0' <= x && x <= '9':
		if _, ok := c.number(); !ok {
			c.ok = false
		}
	case x == '[':
		c.i++
		if c.next(']') {
			return
		}
		for c.ok {
			c.skip(depth + 1)
			if c.next(']') {
				return
			}
			c.want(',')
		}
	case x == '{':
		c.i++
		if c.next('}') {
			return
		}
		for c.ok {
			c.text()
			c.want(':')
			c.skip(depth + 1)
			if c.next('}') {
				return
			}
			c.want(',')
		}
	default:
		c.ok = false
	}
}

// openKeys answers, for compact open data, the first of names that is
// among its keys ("" for none) and whether it has a commit; ok is false for
// any other form.
func openKeys(data []byte, names []string) (found string, commit, ok bool) {
	c := &compactScan{b: data, s: string(data), ok: true}
	first := len(names)
	ok = c.object(func(k string) bool {
		if k == "commit" {
			commit = true
		} else if i := slices.Index(names, k); i >= 0 && i < first {
			first = i
		}
		c.skip(0)
		return true
	})
	if first < len(names) {
		found = names[first]
	}
	return found, commit, ok
}

// ballotFields points at the fields of a ballot payload; nil for a key
// the payload does not have.
type ballotFields struct {
	election, electionID, voter, confirmation *string
	rankings                                  *rankList
	source                                    *string
	transcribed, secret                       *bool
	commit                                    *string
}

// readBallotFields reads a compact ballot payload into f, and gives up at
// a key f does not have.
func readBallotFields(b []byte, f ballotFields) bool {
	c := &compactScan{b: b, s: string(b), ok: true}
	text := func(to *string) bool {
		if to != nil {
			*to = c.text()
		}
		return to != nil
	}
	flag := func(to *bool) bool {
		if to != nil {
			*to = c.boolean()
		}
		return to != nil
	}
	return c.object(func(k string) bool {
		switch k {
		case "election":
			return text(f.election)
		case "election_id":
			return text(f.electionID)
		case "voter":
			return text(f.voter)
		case "confirmation":
			return text(f.confirmation)
		case "rankings":
			if f.rankings != nil {
				*f.rankings = c.rankings(nil)
			}
			return f.rankings != nil
		case "source":
			return text(f.source)
		case "transcribed":
			return flag(f.transcribed)
		case "secret_ballot":
			return flag(f.secret)
		case "commit":
			return text(f.commit)
		}
		return false
	})
}

func (d *ballotCast) readCompact(b []byte) bool {
	x := *d
	if !readBallotFields(b, ballotFields{election: &x.Election, electionID: &x.ElectionID, voter: &x.Voter,
		confirmation: &x.Confirmation, rankings: &x.Rankings, source: &x.Source, transcribed: &x.Transcribed,
		secret: &x.Secret, commit: &x.Commit}) {
		return false
	}
	*d = x
	return true
}

func (d *ballotRankingsChanged) readCompact(b []byte) bool {
	x := *d
	if !readBallotFields(b, ballotFields{election: &x.Election, electionID: &x.ElectionID, voter: &x.Voter,
		rankings: &x.Rankings, secret: &x.Secret, commit: &x.Commit}) {
		return false
	}
	*d = x
	return true
}
