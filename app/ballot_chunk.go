package app

import (
	"encoding/json"
	"slices"
	"strconv"
)

// Imported ballots stored in chunks.
//
// An import event of format 3 (FormatChunked) stores its ballots as a few
// items of many ballots each, chunks, instead of an item each: a chunk is
// the import's ballots from its first to its last, in the form the event
// carries them (ImportedBallot.appendJSON: [source id, rankings, precinct,
// batch, tabulator]), at most chunkBytes of them. A million imported
// ballots were a million items (55 MB of keys, 215 MB of values repeating
// the election, the time and the source a ballot); as chunks they are some
// 500 items, written in a fraction of the time and pushed to the cloud
// projection in a fraction of the write units (a chunk of 256 KB costs
// 256 of them, where a ballot's item cost one for its 300 bytes).
//
// A chunk's sort key is its first ballot's, BALLOT##{event id}.{i}, and
// ballot j of it is ballot first+j of the import, whose key and code
// follow as an item's would. So a chunk sits where its ballots' items
// would, and every reader meets its ballots in the order and with the
// keys, codes and attributes their items would have: the functions below
// read chunks and ballot items alike (ballotAttrs, eachBallot,
// ballotGetter), and no other code reads ballots. Import events of format
// 2 keep an item a ballot, on every device and in every rebuild: the
// event decides, so the log replays to the same items everywhere.
//
// A chunk's attributes: entity_type BALLOTS, election_name, source,
// when_cast (shared by its ballots, as the event gives them), ballot_count
// and ballots (the list).

const (
	entityBallot = "BALLOT"
	entityChunk  = "BALLOTS"
)

// chunkBytes is the most bytes of ballots a chunk holds (one ballot
// larger than that is a chunk alone): under DynamoDB's 400 KB an item,
// which the cloud projection mirrors.
var chunkBytes = 256 << 10

// importedRows encodes the ballots of an import (rankings normalized) as
// chunks' rows: the rows one after another, and where each ends.
func importedRows(ballots []ImportedBallot) ([]byte, []int, error) {
	out := make([]byte, 0, ballotsSize(ballots))
	ends := make([]int, len(ballots))
	for i, b := range ballots {
		var err error
		if out, err = b.appendJSON(out); err != nil {
			return nil, nil, err
		}
		ends[i] = len(out)
	}
	return out, ends, nil
}

// chunkStarts cuts rows (ends as importedRows gives them) into chunks of
// at most chunkBytes and returns the index of each chunk's first row.
func chunkStarts(ends []int) []int {
	starts := []int{0}
	from := 0
	for i, end := range ends {
		if i > starts[len(starts)-1] && end-from > chunkBytes {
			starts = append(starts, i)
			from = ends[i-1]
		}
	}
	return starts
}

// chunkItem is the item of ballots lo to hi-1 of an import: rows and ends
// as importedRows gives them, sk the key of ballot lo.
func chunkItem(pk, sk string, e Election, source, when string, rows []byte, ends []int, lo, hi int) Item {
	from := 0
	if lo > 0 {
		from = ends[lo-1]
	}
	list := make([]byte, 0, ends[hi-1]-from+hi-lo+1)
	list = append(list, '[')
	for i := lo; i < hi; i++ {
		if i > lo {
			list = append(list, ',')
		}
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		list = append(list, rows[start:ends[i]]...)
	}
	list = append(list, ']')
	it := Item{{AttrPK, S(pk)}, {AttrSK, S(sk)}, {"ballot_count", N(int64(hi - lo))}, {"ballots", S(string(list))},
		{"election_name", S(e.Name)}, {"entity_type", S(entityChunk)}, {"source", S(source)}}
	if when != "" {
		it = append(it, Attr{"when_cast", S(when)})
	}
	return it
}

// chunkKey splits a chunk's sort key, BALLOT##{event id}.{i}, into its
// stem (up to the dot) and the index of its first ballot.
func chunkKey(sk string) (stem string, first int, ok bool) {
	const digits = 6
	if len(sk) < len(prefixUnlisted)+digits+2 || sk[:len(prefixUnlisted)] != prefixUnlisted || sk[len(sk)-digits-1] != '.' {
		return "", 0, false
	}
	n := 0
	for _, d := range []byte(sk[len(sk)-digits:]) {
		if d < '0' || d > '9' {
			return "", 0, false
		}
		n = n*10 + int(d-'0')
	}
	return sk[:len(sk)-digits], n, true
}

// appendImportedKey appends the sort key of ballot i of the import whose
// keys begin with stem (BALLOT##{event id}.): importedSK's.
func appendImportedKey(b []byte, stem string, i int) []byte {
	b = append(b, stem...)
	var d [6]byte
	for j := 5; j >= 0; j-- {
		d[j] = byte('0' + i%10)
		i /= 10
	}
	return append(b, d[:]...)
}

// chunkRow is one ballot of a chunk as stored: its source id, rankings
// (JSON, as a ballot item's rankings attribute holds them) and groups.
// Texts without escapes are slices of the chunk; others are decoded.
type chunkRow struct {
	id, rankings, precinct, batch, tabulator []byte
}

// eachChunkRow reads the list of a chunk's ballots (its ballots attribute)
// and calls fn with each row in order, n counting from 0, until fn
// answers false. A list that is not one it could have written is damaged.
func eachChunkRow(list []byte, fn func(n int, r *chunkRow) (bool, error)) error {
	s := rowScan{b: list, ok: true}
	s.want('[')
	if s.next(']') {
		return s.end()
	}
	var r chunkRow
	for n := 0; s.ok; n++ {
		s.want('[')
		r.id = s.text()
		s.want(',')
		r.rankings = s.list()
		r.precinct, r.batch, r.tabulator = nil, nil, nil
		for _, to := range []*[]byte{&r.precinct, &r.batch, &r.tabulator} {
			if !s.next(',') {
				break
			}
			*to = s.text()
		}
		s.want(']')
		if !s.ok {
			break
		}
		more, err := fn(n, &r)
		if err != nil || !more {
			return err
		}
		if s.next(']') {
			break
		}
		s.want(',')
	}
	return s.end()
}

// rowScan reads a chunk's list.
type rowScan struct {
	b  []byte
	i  int
	ok bool
}

func (s *rowScan) next(x byte) bool {
	if s.ok && s.i < len(s.b) && s.b[s.i] == x {
		s.i++
		return true
	}
	return false
}

func (s *rowScan) want(x byte) {
	if !s.next(x) {
		s.ok = false
	}
}

func (s *rowScan) end() error {
	if !s.ok || s.i != len(s.b) {
		return Errorf(CodeInternal, "a stored chunk of imported ballots is damaged near byte %d", s.i)
	}
	return nil
}

// text reads a JSON string: a slice of the list when it has no escape,
// else decoded.
func (s *rowScan) text() []byte {
	if !s.next('"') {
		s.ok = false
		return nil
	}
	start, escaped := s.i, false
	for ; s.i < len(s.b) && s.b[s.i] != '"'; s.i++ {
		switch {
		case s.b[s.i] < 0x20:
			s.ok = false // JSON escapes control characters
			return nil
		case s.b[s.i] == '\\':
			escaped = true
			s.i++
		}
	}
	if s.i >= len(s.b) {
		s.ok = false
		return nil
	}
	s.i++
	if !escaped {
		return s.b[start : s.i-1 : s.i-1]
	}
	var t string
	if err := json.Unmarshal(s.b[start-1:s.i], &t); err != nil {
		s.ok = false
		return nil
	}
	return []byte(t)
}

// list reads a JSON list of lists of strings (rankings) and returns it
// as written.
func (s *rowScan) list() []byte {
	start, depth := s.i, 0
	for s.ok && s.i < len(s.b) {
		switch s.b[s.i] {
		case '[':
			depth++
			s.i++
		case ']':
			depth--
			s.i++
			if depth == 0 {
				return s.b[start:s.i:s.i]
			}
		case '"':
			s.text()
		default:
			s.i++
		}
		if depth <= 0 {
			break
		}
	}
	s.ok = false
	return nil
}

// ballotOfRow is ballot n of a chunk (its item it, with stem and first
// from its key) as its own item would read.
func ballotOfRow(it Item, stem string, first, n int, r *chunkRow) (Ballot, error) {
	rk, err := DecodeRankings(string(r.rankings))
	if err != nil {
		return Ballot{}, err
	}
	key := appendImportedKey(nil, stem, first+n)
	return Ballot{
		Election:     it.Str("election_name"),
		Confirmation: string(key[len(prefixUnlisted):]),
		WhenCast:     it.TimeAttr("when_cast"),
		Rankings:     rk,
		Source:       it.Str("source"),
		SourceID:     string(r.id),
		Precinct:     string(r.precinct),
		Batch:        string(r.batch),
		Tabulator:    string(r.tabulator),
	}, nil
}

// chunkBallots is every ballot of chunk it.
func chunkBallots(it Item) ([]Ballot, error) {
	stem, first, ok := chunkKey(it.SK())
	if !ok {
		return nil, Errorf(CodeInternal, "a stored chunk of imported ballots has the key %q", it.SK())
	}
	out := make([]Ballot, 0, it.Int("ballot_count"))
	err := eachChunkRow([]byte(it.Str("ballots")), func(n int, r *chunkRow) (bool, error) {
		b, err := ballotOfRow(it, stem, first, n, r)
		out = append(out, b)
		return err == nil, err
	})
	return out, err
}

// eachBallot calls fn with every ballot of an election whose key begins
// with prefix (prefixBallot: all of them), in key order, until fn answers
// false: Query and ballotFromItem, with a chunk's ballots in turn.
func eachBallot(tx Tx, election, prefix string, fn func(Ballot) (bool, error)) error {
	return tx.Query(electionPK(election), prefix, func(it Item) (bool, error) {
		if it.Str("entity_type") != entityChunk {
			b, err := ballotFromItem(it)
			if err != nil {
				return false, err
			}
			return fn(b)
		}
		bs, err := chunkBallots(it)
		if err != nil {
			return false, err
		}
		for _, b := range bs {
			if more, err := fn(b); err != nil || !more {
				return false, err
			}
		}
		return true, nil
	})
}

// ballotAttrs is QueryAttrs over an election's ballots whose keys begin
// with prefix, a ballot at a time: fn gets each ballot's sort key and the
// raw values of attrs its item holds, a chunk's ballots in turn with the
// keys and values their own items would have. Values are valid only during
// the call, but a ballot's rankings (unlike a text decoded from an escape)
// are the stored bytes, valid during the transaction.
func ballotAttrs(tx Tx, election, prefix string, attrs []string, fn func(sk []byte, vals [][]byte) (bool, error)) error {
	q := append(slices.Clip(attrs), "entity_type", "ballots")
	row := make([][]byte, len(attrs))
	var key []byte
	return tx.QueryAttrs(electionPK(election), prefix, q, func(sk []byte, vals [][]byte) (bool, error) {
		if string(vals[len(attrs)]) != entityChunk {
			return fn(sk, vals[:len(attrs)])
		}
		stem, first, ok := chunkKey(string(sk))
		if !ok {
			return false, Errorf(CodeInternal, "a stored chunk of imported ballots has the key %q", sk)
		}
		more := true
		err := eachChunkRow(vals[len(attrs)+1], func(n int, r *chunkRow) (bool, error) {
			key = appendImportedKey(key[:0], stem, first+n)
			for i, a := range attrs {
				switch a {
				case "rankings":
					row[i] = r.rankings
				case "source_id":
					row[i] = r.id
				case "precinct":
					row[i] = r.precinct
				case "batch":
					row[i] = r.batch
				case "tabulator":
					row[i] = r.tabulator
				case "confirmation":
					row[i] = key[len(prefixUnlisted):]
				case "entity_type":
					row[i] = []byte(entityBallot)
				default: // the chunk's own: election_name, source, when_cast
					row[i] = vals[i]
				}
				if len(row[i]) == 0 {
					row[i] = nil // absent, as from an item
				}
			}
			var err error
			more, err = fn(key, row)
			return more && err == nil, err
		})
		return more && err == nil, err
	})
}

// ballotAttr is ballotAttrs for one attribute.
func ballotAttr(tx Tx, election, prefix, attr string, fn func(v []byte) (bool, error)) error {
	return ballotAttrs(tx, election, prefix, []string{attr}, func(_ []byte, vals [][]byte) (bool, error) {
		return fn(vals[0])
	})
}

// CountBallots is how many ballots election's partition (pk) holds, a
// chunk's each counted: what its ballot_count must say (verify).
func CountBallots(tx Tx, pk string) (int, error) {
	n := 0
	err := tx.QueryAttrs(pk, prefixBallot, []string{"entity_type", "ballot_count"}, func(_ []byte, vals [][]byte) (bool, error) {
		if string(vals[0]) != entityChunk {
			n++
			return true, nil
		}
		c, err := strconv.Atoi(string(vals[1]))
		if err != nil || c < 1 {
			return false, Errorf(CodeInternal, "a stored chunk of imported ballots says it holds %q ballots", vals[1])
		}
		n += c
		return true, nil
	})
	return n, err
}

// ballotGetter reads ballots of one election by key, as Get and
// ballotFromItem would read their items: a chunk's ballots from the chunk,
// the last one read kept for the next ballots of a page.
type ballotGetter struct {
	tx    Tx
	pk    string
	stem  string // the kept chunk's
	first int
	rows  []Ballot
}

// get reads the ballot whose sort key is sk; ok is false when there is
// none.
func (g *ballotGetter) get(sk string) (Ballot, bool, error) {
	stem, i, chunked := chunkKey(sk)
	if chunked && stem == g.stem && i >= g.first && i < g.first+len(g.rows) {
		return g.rows[i-g.first], true, nil
	}
	it, ok, err := g.tx.Get(g.pk, sk)
	if err != nil {
		return Ballot{}, false, err
	}
	if ok && it.Str("entity_type") != entityChunk {
		b, err := ballotFromItem(it)
		return b, err == nil, err
	}
	if !chunked {
		return Ballot{}, false, nil
	}
	// The chunk holding it: the last of the import's that starts at or
	// before it.
	var holder Item
	err = g.tx.Query(g.pk, stem, func(c Item) (bool, error) {
		_, first, ok := chunkKey(c.SK())
		switch {
		case !ok || c.Str("entity_type") != entityChunk:
			return true, nil // a ballot item among them (a code taken again: freeUnlistedSK)
		case first > i:
			return false, nil
		}
		holder = c
		return true, nil
	})
	if err != nil || holder == nil {
		return Ballot{}, false, err
	}
	rows, err := chunkBallots(holder)
	if err != nil {
		return Ballot{}, false, err
	}
	_, first, _ := chunkKey(holder.SK())
	if i >= first+len(rows) {
		return Ballot{}, false, nil
	}
	g.stem, g.first, g.rows = stem, first, rows
	return rows[i-first], true, nil
}

// unlistedTaken reports whether election partition pk holds a ballot of
// no voter under sort key sk: as an item, or in a chunk.
func unlistedTaken(tx Tx, pk, sk string) (bool, error) {
	g := ballotGetter{tx: tx, pk: pk}
	_, ok, err := g.get(sk)
	return ok, err
}
