package app

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
)

// Imported ballots stored in chunks.
//
// An import event of format 3 (FormatChunked) stores its ballots as a few
// items of many ballots each, chunks, instead of an item each. A million
// imported ballots were a million items (55 MB of keys, 215 MB of values
// repeating the election, the time and the source a ballot); as chunks
// they are some 800 items, written in a fraction of the time and pushed
// to the cloud projection in a fraction of the write units (a chunk of
// 256 KB costs 256 of them, where a ballot's item cost one for its 300
// bytes).
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
// A chunk is stored by columns: each of a ballot's own attributes
// (chunkColumns: rankings as its item would hold them, source id,
// precinct, batch, tabulator) is one attribute of the same name holding
// the chunk's ballots' values one after another (absent when all are
// empty), and ends holds, ballot by ballot, the length of each (uvarints,
// five a ballot). A reader slices a ballot's values out without scanning
// them: a count reads the rankings column alone, as it read the rankings
// attribute of each item. What the ballots share is the chunk's own:
// entity_type BALLOTS, election_name, source, when_cast (as the event
// gives them), and ballot_count.

const (
	entityBallot = "BALLOT"
	entityChunk  = "BALLOTS"
)

// MaxImportedBallotBytes is the most room one imported ballot may take as
// stored (importedSize: its rankings, source id and groups). A real cast
// vote record takes a few hundred bytes; one of megabytes (a candidate
// ranked again at every one of 65,535 ranks, an id of a million
// characters) compresses small enough to travel in an event, but its
// chunk would be over DynamoDB's 400 KB an item, and the cloud projection
// would stop at it on every device, every sync. So format 3 refuses it.
const MaxImportedBallotBytes = 64 << 10

// importedSize is the room an imported ballot takes as stored, as
// MaxImportedBallotBytes counts it: its rankings written without escapes,
// its source id and its groups.
func importedSize(b ImportedBallot) int {
	return rankingsSize(b.Rankings) + len(b.SourceID) + len(b.Precinct) + len(b.Batch) + len(b.Tabulator)
}

// tooBig is why ballot b may not be imported, or "".
func tooBig(b ImportedBallot) string {
	if n := importedSize(b); n > MaxImportedBallotBytes {
		return fmt.Sprintf("it takes %d KB as stored (its rankings, source id and groups); a ballot takes at most %d KB", (n+1023)/1024, MaxImportedBallotBytes/1024)
	}
	return ""
}

// isChunk reports whether item it is a chunk of imported ballots, not a
// ballot's own item. (ballotAttrs, which reads no whole items, tells a
// chunk by its ends.)
func isChunk(it Item) bool { return it.Str("entity_type") == entityChunk }

// chunkColumns are a ballot's own attributes, each a column of a chunk.
var chunkColumns = [...]string{"rankings", "source_id", "precinct", "batch", "tabulator"}

// chunkColumn is the place of attribute name in chunkColumns, or -1.
func chunkColumn(name string) int {
	for i, c := range chunkColumns {
		if c == name {
			return i
		}
	}
	return -1
}

// chunkBytes is the most bytes of ballots a chunk holds (one ballot
// larger than that is a chunk alone): under DynamoDB's 400 KB an item,
// which the cloud projection mirrors. It is part of format 3: every
// device, and every later version, must cut an import's ballots where it
// was cut, or its projection and state hash would differ from the others'
// and verify's rebuild; another size needs another format. A variable
// only for tests (StoreImportsAs).
var chunkBytes = 256 << 10

// importColumns is an import's ballots (rankings normalized) as chunks
// store them: each column's values one after another, and each ballot's
// lengths.
type importColumns struct {
	cols [len(chunkColumns)][]byte
	lens [][len(chunkColumns)]int
}

func columnsOf(ballots []ImportedBallot) (importColumns, error) {
	var c importColumns
	c.lens = make([][len(chunkColumns)]int, len(ballots))
	c.cols[0] = make([]byte, 0, ballotsSize(ballots))
	for i, b := range ballots {
		if err := checkRankOrder(b.Rankings); err != nil {
			return c, err
		}
		from := len(c.cols[0])
		c.cols[0] = appendRankings(c.cols[0], b.Rankings)
		c.lens[i][0] = len(c.cols[0]) - from
		for j, v := range []string{b.SourceID, b.Precinct, b.Batch, b.Tabulator} {
			c.cols[j+1] = append(c.cols[j+1], v...)
			c.lens[i][j+1] = len(v)
		}
	}
	return c, nil
}

// starts cuts the ballots into chunks of at most chunkBytes and returns
// the index of each chunk's first ballot.
func (c importColumns) starts() []int {
	starts := []int{0}
	size := 0
	for i, l := range c.lens {
		n := l[0] + l[1] + l[2] + l[3] + l[4] + len(l)
		if i > starts[len(starts)-1] && size+n > chunkBytes {
			starts, size = append(starts, i), 0
		}
		size += n
	}
	return starts
}

// item is the chunk of ballots lo to hi-1, sk the key of ballot lo.
func (c importColumns) item(pk, sk string, e Election, source, when string, lo, hi int) Item {
	var from, to [len(chunkColumns)]int
	for i := range lo {
		for j, l := range c.lens[i] {
			from[j] += l
		}
	}
	to = from
	var ends []byte
	for _, l := range c.lens[lo:hi] {
		for j, n := range l {
			ends = binary.AppendUvarint(ends, uint64(n))
			to[j] += n
		}
	}
	it := Item{{AttrPK, S(pk)}, {AttrSK, S(sk)}, {"ballot_count", N(int64(hi - lo))}, {"election_name", S(e.Name)},
		{"ends", Value{Kind: KindB, S: string(ends)}}, {"entity_type", S(entityChunk)}, {"source", S(source)}}
	if when != "" {
		it = append(it, Attr{"when_cast", S(when)})
	}
	for j, name := range chunkColumns {
		if to[j] > from[j] {
			it.Set(name, S(string(c.cols[j][from[j]:to[j]])))
		}
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
// keys begin with stem (BALLOT##{event id}.), i in six digits.
func appendImportedKey(b []byte, stem string, i int) []byte {
	b = append(b, stem...)
	var d [6]byte
	for j := 5; j >= 0; j-- {
		d[j] = byte('0' + i%10)
		i /= 10
	}
	return append(b, d[:]...)
}

// chunkRows calls fn with each ballot of a chunk of n ballots (n < 0: as
// many as ends gives lengths for), in order, until fn answers false: cols
// holds the columns read (by chunkColumns; read[j] says column j was, nil
// when absent), and fn gets the ballot's slice of each (nil for a column
// not read). Lengths that do not add up to the columns are a damaged
// chunk.
func chunkRows(n int, ends []byte, cols *[len(chunkColumns)][]byte, read *[len(chunkColumns)]bool, fn func(i int, f *[len(chunkColumns)][]byte) (bool, error)) error {
	damaged := Errorf(CodeInternal, "a stored chunk of imported ballots is damaged")
	var off [len(chunkColumns)]int
	var f [len(chunkColumns)][]byte
	for i := 0; i < n || n < 0 && len(ends) > 0; i++ {
		for j := range chunkColumns {
			l, k := binary.Uvarint(ends)
			if k <= 0 || l > 1<<30 {
				return damaged
			}
			ends = ends[k:]
			if read[j] {
				if l > uint64(len(cols[j])-off[j]) {
					return damaged
				}
				f[j] = cols[j][off[j] : off[j]+int(l) : off[j]+int(l)]
				if l == 0 {
					f[j] = nil // absent, as from an item
				}
				off[j] += int(l)
			}
		}
		if more, err := fn(i, &f); err != nil || !more {
			return err
		}
	}
	for j := range chunkColumns {
		if read[j] && off[j] != len(cols[j]) {
			return damaged
		}
	}
	if len(ends) != 0 {
		return damaged
	}
	return nil
}

// chunkBallots is every ballot of chunk it, as their items would read.
func chunkBallots(it Item) ([]Ballot, error) {
	stem, first, ok := chunkKey(it.SK())
	n := it.Int("ballot_count")
	if !ok || n < 1 || n > maxImportBatch {
		return nil, Errorf(CodeInternal, "a stored chunk of imported ballots (%q) is damaged", it.SK())
	}
	var cols [len(chunkColumns)][]byte
	read := [len(chunkColumns)]bool{true, true, true, true, true}
	for j, name := range chunkColumns {
		cols[j] = []byte(it.Str(name))
	}
	out := make([]Ballot, 0, n)
	when, election, source := it.TimeAttr("when_cast"), it.Str("election_name"), it.Str("source")
	err := chunkRows(int(n), []byte(it.Str("ends")), &cols, &read, func(i int, f *[len(chunkColumns)][]byte) (bool, error) {
		rk, err := DecodeRankings(string(f[0]))
		if err != nil {
			return false, err
		}
		key := appendImportedKey(nil, stem, first+i)
		out = append(out, Ballot{
			Election:     election,
			Confirmation: string(key[len(prefixUnlisted):]),
			WhenCast:     when,
			Rankings:     rk,
			Source:       source,
			SourceID:     string(f[1]),
			Precinct:     string(f[2]),
			Batch:        string(f[3]),
			Tabulator:    string(f[4]),
		})
		return true, nil
	})
	return out, err
}

// eachBallot calls fn with every ballot of an election whose key begins
// with prefix (prefixBallot: all of them), in key order, until fn answers
// false: Query and ballotFromItem, with a chunk's ballots in turn.
func eachBallot(tx Tx, election, prefix string, fn func(Ballot) (bool, error)) error {
	return tx.Query(electionPK(election), prefix, func(it Item) (bool, error) {
		if !isChunk(it) {
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
// keys and values their own items would have. The values are the stored
// bytes, valid during the transaction (a chunk's ballot's are slices of
// its columns); the key only during the call.
func ballotAttrs(tx Tx, election, prefix string, attrs []string, fn func(sk []byte, vals [][]byte) (bool, error)) error {
	// A chunk is told by its ends, which no ballot item has: one more
	// attribute looked for in each item (a million items of a format 2
	// import counted 25% slower when three were).
	q := append(slices.Clip(attrs), "ends")
	row := make([][]byte, len(attrs))
	var key []byte
	return tx.QueryAttrs(electionPK(election), prefix, q, func(sk []byte, vals [][]byte) (bool, error) {
		if vals[len(attrs)] == nil {
			return fn(sk, vals[:len(attrs)])
		}
		stem, first, ok := chunkKey(string(sk))
		if !ok {
			return false, Errorf(CodeInternal, "a stored chunk of imported ballots (%q) is damaged", sk)
		}
		var cols [len(chunkColumns)][]byte
		var read [len(chunkColumns)]bool
		for i, a := range attrs {
			if j := chunkColumn(a); j >= 0 {
				cols[j], read[j] = vals[i], true
			}
		}
		more := true
		err := chunkRows(-1, vals[len(attrs)], &cols, &read, func(i int, f *[len(chunkColumns)][]byte) (bool, error) {
			key = appendImportedKey(key[:0], stem, first+i)
			for k, a := range attrs {
				switch j := chunkColumn(a); {
				case j >= 0:
					row[k] = f[j]
				case a == "confirmation":
					row[k] = key[len(prefixUnlisted):]
				case a == "entity_type":
					row[k] = []byte(entityBallot)
				default: // the chunk's own: election_name, source, when_cast
					row[k] = vals[k]
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
	if ok && !isChunk(it) {
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
		case !ok || !isChunk(c):
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
