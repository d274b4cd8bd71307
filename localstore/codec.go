package localstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"votedesk/app"
)

// Items are stored in a compact, deterministic binary form that keeps every
// DynamoDB attribute type apart, so decoding gives back exactly the
// attribute-value map that was stored:
//
//	item  = uvarint(count) { string(name) value }      names in byte order
//	value = kind(1 byte) payload
//	  S, N, B       string(bytes)
//	  BOOL          1 byte (0 or 1)
//	  NULL          nothing
//	  L             uvarint(count) { value }
//	  M             uvarint(count) { string(name) value }  names in byte order
//	  SS, NS, BS    uvarint(count) { string(bytes) }
//	string = uvarint(length) bytes

// maxDepth bounds the nesting of lists and maps a decoder follows.
const maxDepth = 32

// encodeItem appends the binary form of an item to b.
func encodeItem(b []byte, it app.Item) []byte {
	return encodeMap(b, it)
}

func encodeMap(b []byte, m map[string]app.Value) []byte {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
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
	case app.KindS, app.KindN:
		b = appendString(b, v.S)
	case app.KindB:
		b = appendString(b, string(v.B))
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
	case app.KindSS, app.KindNS:
		b = binary.AppendUvarint(b, uint64(len(v.Set)))
		for _, s := range v.Set {
			b = appendString(b, s)
		}
	case app.KindBS:
		b = binary.AppendUvarint(b, uint64(len(v.BS)))
		for _, x := range v.BS {
			b = appendString(b, string(x))
		}
	}
	return b
}

var errCorrupt = errors.New("corrupt item encoding")

// decoder reads the binary form, checking every length against what is left.
type decoder struct {
	b   []byte
	off int
}

func (d *decoder) uvarint() (uint64, error) {
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

func (d *decoder) str() (string, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.b)-d.off) {
		return "", errCorrupt
	}
	s := string(d.b[d.off : d.off+int(n)])
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
	case app.KindS, app.KindN:
		v.S, err = d.str()
	case app.KindB:
		var s string
		s, err = d.str()
		v.B = []byte(s)
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
	case app.KindSS, app.KindNS:
		var n int
		if n, err = d.count(); err == nil {
			v.Set = make([]string, n)
			for i := range v.Set {
				if v.Set[i], err = d.str(); err != nil {
					break
				}
			}
		}
	case app.KindBS:
		var n int
		if n, err = d.count(); err == nil {
			v.BS = make([][]byte, n)
			for i := range v.BS {
				var s string
				if s, err = d.str(); err != nil {
					break
				}
				v.BS[i] = []byte(s)
			}
		}
	default:
		return v, errCorrupt
	}
	return v, err
}

// decodeItem reads an item written by encodeItem.
func decodeItem(b []byte) (app.Item, error) {
	d := decoder{b: b}
	m, err := d.mapOf(0)
	if err != nil {
		return nil, err
	}
	if d.off != len(b) {
		return nil, errCorrupt
	}
	if m[app.AttrPK].Kind != app.KindS || m[app.AttrSK].Kind != app.KindS {
		return nil, fmt.Errorf("%w: item without string PK and SK", errCorrupt)
	}
	return app.Item(m), nil
}
