package localstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"votedesk/app"
)

// An item is stored under its key (PK, a zero byte, SK; see doc.go) with its
// other attributes in a compact, deterministic binary form that keeps every
// DynamoDB attribute type apart, so decoding gives back exactly the
// attribute-value map that was stored:
//
//	value  = attrs                                    PK and SK live in the key
//	attrs  = uvarint(count) { name attr }             names in byte order
//	name   = string(name), or 0x00 index(1 byte): attrNames[index]
//	attr   = kind(1 byte) payload
//	  S, N, B       string(text or bytes)
//	  BOOL          1 byte (0 or 1)
//	  NULL          nothing
//	  L             uvarint(count) { attr }
//	  M             attrs
//	  SS, NS, BS    uvarint(count) { string(member) }
//	string = uvarint(length) bytes

// attrNames are the attribute names an item's value writes as two bytes,
// a zero (no name is empty) and the name's index here, instead of the
// name: the names of a ballot's item, which a million-ballot election
// holds a million times (75 of its 240 bytes), and the names most other
// items have. Since layout version 5; before it every name was written
// out, which the decoder still reads. The list only grows: a name's index
// never changes, and a name added is a new layout version (an older
// VoteDesk could not read it).
var attrNames = [...]string{
	1: "batch", "confirmation", "election_name", "entity_type", "precinct", "rankings", "source", "source_id",
	"tabulator", "transcribed", "voter_name", "when_cast", app.AttrGSI1PK, app.AttrGSI1SK, "name", "email",
	"created", "election_id", "user_id", "status", "seq", "when", "actor", "event_id", "kind", "description",
	"version", "event_type",
}

// attrIndex is attrNames' index of each name.
var attrIndex = func() map[string]byte {
	m := make(map[string]byte, len(attrNames))
	for i, n := range attrNames {
		if i > 0 {
			m[n] = byte(i)
		}
	}
	return m
}()

// appendName appends an attribute's name as a value writes it.
func appendName(b []byte, name string) []byte {
	if i, ok := attrIndex[name]; ok {
		return append(b, 0, i)
	}
	return appendString(b, name)
}

// maxDepth bounds the nesting of lists and maps a decoder follows.
const maxDepth = 32

// encodeItem appends the stored form of an item (all but PK and SK) to b.
// The item's attributes must be sorted (app.Item.Sorted).
func encodeItem(b []byte, it app.Item) []byte {
	n := len(it)
	for _, a := range it {
		if a.Name == app.AttrPK || a.Name == app.AttrSK {
			n--
		}
	}
	b = binary.AppendUvarint(b, uint64(n))
	for _, a := range it {
		if a.Name != app.AttrPK && a.Name != app.AttrSK {
			b = appendName(b, a.Name)
			b = encodeValue(b, a.Value)
		}
	}
	return b
}

// encodeMap appends an M value's attributes, sorted by name.
func encodeMap(b []byte, m map[string]app.Value) []byte {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, k := range names {
		b = appendString(b, k)
		b = encodeValue(b, m[k])
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func encodeValue(b []byte, v app.Value) []byte {
	b = append(b, byte(v.Kind))
	switch v.Kind {
	case app.KindS, app.KindN, app.KindB:
		b = appendString(b, v.S)
	case app.KindBool:
		if v.Bool {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	case app.KindL:
		b = binary.AppendUvarint(b, uint64(len(v.L)))
		for _, x := range v.L {
			b = encodeValue(b, x)
		}
	case app.KindM:
		b = encodeMap(b, v.M)
	case app.KindSS, app.KindNS, app.KindBS:
		b = binary.AppendUvarint(b, uint64(len(v.L)))
		for _, x := range v.L {
			b = appendString(b, x.S)
		}
	}
	return b
}

var errCorrupt = errors.New("corrupt item encoding")

// decoder reads the binary form, checking every length against what is left.
type decoder struct {
	b   []byte
	off int
	// s is b as one string when texts are sliced out of it ("": each
	// text is copied): one allocation per item instead of one per name
	// and text.
	s string
}

func (d *decoder) uvarint() (uint64, error) {
	// The one-byte case (every name, most texts) without a call.
	if d.off < len(d.b) && d.b[d.off] < 0x80 {
		d.off++
		return uint64(d.b[d.off-1]), nil
	}
	n, k := binary.Uvarint(d.b[d.off:])
	if k <= 0 {
		return 0, errCorrupt
	}
	d.off += k
	return n, nil
}

// count reads a count and checks it could fit in what is left (every element
// takes at least one byte).
func (d *decoder) count() (int, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.b)-d.off) {
		return 0, errCorrupt
	}
	return int(n), nil
}

// name reads an attribute's name (see attrNames).
func (d *decoder) name() (string, error) {
	if d.off < len(d.b) && d.b[d.off] == 0 {
		if d.off+1 >= len(d.b) {
			return "", errCorrupt
		}
		i := int(d.b[d.off+1])
		if i == 0 || i >= len(attrNames) {
			return "", errCorrupt
		}
		d.off += 2
		return attrNames[i], nil
	}
	s, err := d.str()
	if err == nil && s == "" {
		return "", errCorrupt // no name is empty (a zero starts an index)
	}
	return s, err
}

// nameIs reads an attribute's name, as name does, and reports whether it
// is want, without copying it.
func (d *decoder) nameIs(want string) (bool, error) {
	if d.off < len(d.b) && d.b[d.off] == 0 {
		got, err := d.name()
		return got == want, err
	}
	n, err := d.uvarint()
	if err != nil || n == 0 || n > uint64(len(d.b)-d.off) {
		return false, errCorrupt
	}
	same := string(d.b[d.off:d.off+int(n)]) == want
	d.off += int(n)
	return same, nil
}

func (d *decoder) str() (string, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.b)-d.off) {
		return "", errCorrupt
	}
	var s string
	if d.s != "" {
		s = d.s[d.off : d.off+int(n)]
	} else {
		s = string(d.b[d.off : d.off+int(n)])
	}
	d.off += int(n)
	return s, nil
}

func (d *decoder) mapOf(depth int) (map[string]app.Value, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	m := make(map[string]app.Value, n)
	for range n {
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

func (d *decoder) value(depth int) (app.Value, error) {
	if depth > maxDepth || d.off >= len(d.b) {
		return app.Value{}, errCorrupt
	}
	v := app.Value{Kind: app.Kind(d.b[d.off])}
	d.off++
	var err error
	switch v.Kind {
	case app.KindS, app.KindN, app.KindB:
		v.S, err = d.str()
	case app.KindBool:
		if d.off >= len(d.b) || d.b[d.off] > 1 {
			return v, errCorrupt
		}
		v.Bool = d.b[d.off] == 1
		d.off++
	case app.KindNull:
	case app.KindL:
		var n int
		if n, err = d.count(); err == nil {
			v.L = make([]app.Value, n)
			for i := range v.L {
				if v.L[i], err = d.value(depth + 1); err != nil {
					break
				}
			}
		}
	case app.KindM:
		v.M, err = d.mapOf(depth + 1)
	case app.KindSS, app.KindNS, app.KindBS:
		member := map[app.Kind]app.Kind{app.KindSS: app.KindS, app.KindNS: app.KindN, app.KindBS: app.KindB}[v.Kind]
		var n int
		if n, err = d.count(); err == nil {
			v.L = make([]app.Value, n)
			for i := range v.L {
				v.L[i].Kind = member
				if v.L[i].S, err = d.str(); err != nil {
					break
				}
			}
		}
	default:
		return v, errCorrupt
	}
	return v, err
}

// decodeItem reads the item stored under key k with value b.
func decodeItem(k, b []byte) (app.Item, error) {
	sep := bytes.IndexByte(k, 0)
	if sep < 0 {
		return nil, errCorrupt
	}
	d := decoder{b: b, s: string(b)}
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	it := make(app.Item, 0, n+2)
	key := string(k)
	it.Set(app.AttrPK, app.S(key[:sep]))
	it.Set(app.AttrSK, app.S(key[sep+1:]))
	prev := ""
	for i := range n {
		name, err := d.name()
		if err != nil || i > 0 && name <= prev || name == app.AttrPK || name == app.AttrSK {
			return nil, errCorrupt
		}
		prev = name
		v, err := d.value(1)
		if err != nil {
			return nil, err
		}
		it.Set(name, v)
	}
	if d.off != len(b) {
		return nil, errCorrupt
	}
	return it, nil
}

// findString returns the text of the S, N or B attribute name in a stored
// item value, skipping the other attributes undecoded; nil when absent.
func findString(b []byte, name string) ([]byte, error) {
	_, v, err := findText(b, name)
	return v, err
}

// findText is findString that also says the attribute's kind (0 when
// absent).
func findText(b []byte, name string) (app.Kind, []byte, error) {
	d := decoder{b: b}
	n, err := d.count()
	if err != nil {
		return 0, nil, err
	}
	for range n {
		found, err := d.nameIs(name)
		if err != nil {
			return 0, nil, err
		}
		if d.off >= len(b) {
			return 0, nil, errCorrupt
		}
		if found {
			switch kind := app.Kind(b[d.off]); kind {
			case app.KindS, app.KindN, app.KindB:
				d.off++
				ln, err := d.uvarint()
				if err != nil || ln > uint64(len(b)-d.off) {
					return 0, nil, errCorrupt
				}
				return kind, b[d.off : d.off+int(ln)], nil
			}
			return 0, nil, fmt.Errorf("%w: attribute %s is not a string", errCorrupt, name)
		}
		if err := d.skip(1); err != nil {
			return 0, nil, err
		}
	}
	return 0, nil, nil
}

// skip moves past one value without decoding it.
// skipStr passes over a string.
func (d *decoder) skipStr() error {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.b)-d.off) {
		return errCorrupt
	}
	d.off += int(n)
	return nil
}

func (d *decoder) skip(depth int) error {
	if depth > maxDepth || d.off >= len(d.b) {
		return errCorrupt
	}
	kind := app.Kind(d.b[d.off])
	d.off++
	switch kind {
	case app.KindS, app.KindN, app.KindB:
		return d.skipStr()
	case app.KindBool:
		if d.off >= len(d.b) {
			return errCorrupt
		}
		d.off++
	case app.KindNull:
	case app.KindL:
		n, err := d.count()
		for i := 0; err == nil && i < n; i++ {
			err = d.skip(depth + 1)
		}
		return err
	case app.KindM:
		n, err := d.count()
		for i := 0; err == nil && i < n; i++ {
			if err = d.skipStr(); err == nil {
				err = d.skip(depth + 1)
			}
		}
		return err
	case app.KindSS, app.KindNS, app.KindBS:
		n, err := d.count()
		for i := 0; err == nil && i < n; i++ {
			err = d.skipStr()
		}
		return err
	default:
		return errCorrupt
	}
	return nil
}
