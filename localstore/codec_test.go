package localstore

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"votedesk/app"
)

var sampleKey = itemKey("ELECTION#Mayor", "BALLOT#ann")

func sampleItem() app.Item {
	var it app.Item
	for _, a := range []app.Attr{
		{Name: app.AttrPK, Value: app.S("ELECTION#Mayor")}, {Name: app.AttrSK, Value: app.S("BALLOT#ann")},
		{Name: "n", Value: app.N(-42)},
		{Name: "b", Value: app.Value{Kind: app.KindB, S: "\x00\x01\x02"}},
		{Name: "t", Value: app.Bool(true)},
		{Name: "f", Value: app.Bool(false)},
		{Name: "null", Value: app.Value{Kind: app.KindNull}},
		{Name: "l", Value: app.Value{Kind: app.KindL, L: []app.Value{app.S("x"), app.N(1), {Kind: app.KindM, M: map[string]app.Value{"k": app.S("v")}}}}},
		{Name: "m", Value: app.Value{Kind: app.KindM, M: map[string]app.Value{"z": app.S(""), "a": app.Bool(true)}}},
		{Name: "ss", Value: app.Value{Kind: app.KindSS, L: []app.Value{app.S("a"), app.S("b")}}},
		{Name: "ns", Value: app.Value{Kind: app.KindNS, L: []app.Value{{Kind: app.KindN, S: "1"}, {Kind: app.KindN, S: "2.5"}}}},
		{Name: "bs", Value: app.Value{Kind: app.KindBS, L: []app.Value{{Kind: app.KindB, S: "\x01"}, {Kind: app.KindB, S: "\x02\x03"}}}},
	} {
		it.Set(a.Name, a.Value)
	}
	return it
}

func TestItemCodecRoundTrip(t *testing.T) {
	in := sampleItem()
	b := encodeItem(nil, in)
	out, err := decodeItem(sampleKey, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip changed the item:\n in  %#v\n out %#v", in, out)
	}
	if b2 := encodeItem(nil, out); string(b2) != string(b) {
		t.Error("encoding is not deterministic")
	}
}

func TestItemDecodeRefusesCorruption(t *testing.T) {
	b := encodeItem(nil, sampleItem())
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"ErrTruncated", b[:len(b)/2]},
		{"ErrTrailingBytes", append(append([]byte{}, b...), 7)},
		{"ErrEmpty", nil},
		{"ErrHugeCount", []byte{0xff, 0xff, 0xff, 0xff, 0x0f}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeItem(sampleKey, tc.data); err == nil {
				t.Error("corrupt item decoded without error")
			}
		})
	}
}

func FuzzDecodeItem(f *testing.F) {
	f.Add(encodeItem(nil, sampleItem()))
	f.Add([]byte{1, 2, 'P', 'K', 1, 1, 'x'})
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := decodeItem(sampleKey, b)
		if err != nil {
			return
		}
		again, err := decodeItem(sampleKey, encodeItem(nil, it))
		if err != nil || !reflect.DeepEqual(it, again) {
			t.Errorf("decoded item does not round-trip: %v", err)
		}
	})
}

// indexOfDecoded is unindex's answer from the whole decoded item: the key
// write indexes an item under.
func indexOfDecoded(it app.Item) (pk, sk string) {
	if g, _ := it.Get(app.AttrGSI1PK); g.Kind == app.KindS && g.S != "" {
		return g.S, it.Str(app.AttrGSI1SK)
	}
	return "", ""
}

// TestIndexOfSkimsAsDecodingReads: whatever kinds GSI1PK and GSI1SK hold,
// or when either is missing, the skim gives the GSI-1 key the decoded item
// gives, or says it cannot skim.
func TestIndexOfSkimsAsDecodingReads(t *testing.T) {
	values := []*app.Value{nil, {Kind: app.KindS, S: ""}, {Kind: app.KindS, S: "EMAIL#ann@example.org"},
		{Kind: app.KindN, S: "12"}, {Kind: app.KindB, S: "\x00\x01"}, {Kind: app.KindBool, Bool: true},
		{Kind: app.KindNull}, {Kind: app.KindL, L: []app.Value{app.S("x")}}}
	skimmed := 0
	for _, pk := range values {
		for _, sk := range values {
			it := sampleItem()
			if pk != nil {
				it.Set(app.AttrGSI1PK, *pk)
			}
			if sk != nil {
				it.Set(app.AttrGSI1SK, *sk)
			}
			b := encodeItem(nil, it)
			gotPK, gotSK, ok := indexOf(b)
			if !ok {
				continue
			}
			skimmed++
			wantPK, wantSK := indexOfDecoded(it)
			if gotPK != wantPK || gotSK != wantSK {
				t.Errorf("GSI1PK %v, GSI1SK %v: skimmed (%q, %q), decoded (%q, %q)", pk, sk, gotPK, gotSK, wantPK, wantSK)
			}
		}
	}
	if skimmed < len(values)*len(values)/2 {
		t.Errorf("only %d of %d items were skimmed", skimmed, len(values)*len(values))
	}
}

// FuzzIndexOf: on any value that decodes, the skim agrees with the decoded
// item, or says it cannot skim.
func FuzzIndexOf(f *testing.F) {
	it := sampleItem()
	it.Set(app.AttrGSI1PK, app.S("EMAIL#ann@example.org"))
	it.Set(app.AttrGSI1SK, app.S("USER#ann"))
	f.Add(encodeItem(nil, it))
	f.Add(encodeItem(nil, sampleItem()))
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := decodeItem(sampleKey, b)
		if err != nil {
			return
		}
		pk, sk, ok := indexOf(b)
		if wantPK, wantSK := indexOfDecoded(it); ok && (pk != wantPK || sk != wantSK) {
			t.Errorf("skimmed (%q, %q), decoded (%q, %q)", pk, sk, wantPK, wantSK)
		}
	})
}

// FuzzFindText: on any value that decodes, finding an attribute without
// decoding gives what the decoded item holds, for each of its names and a
// missing one; on a value that does not decode it does not panic.
func FuzzFindText(f *testing.F) {
	it := sampleItem()
	it.Set("long", app.S(strings.Repeat("x", 300)))
	it.Set("rankings", app.S(`[["a"],["b"]]`))
	f.Add(encodeItem(nil, it))
	f.Add(encodeItem(nil, sampleItem()))
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := decodeItem(sampleKey, b)
		if err != nil {
			_, _, _ = findText(b, "rankings")
			return
		}
		names := []string{"missing", ""}
		for _, a := range it {
			names = append(names, a.Name)
		}
		for _, name := range names {
			kind, text, err := findText(b, name)
			v, ok := it.Get(name)
			switch {
			case name == app.AttrPK || name == app.AttrSK:
			case !ok:
				if err != nil || kind != 0 || text != nil {
					t.Errorf("%q is missing, found %v %q %v", name, kind, text, err)
				}
			case v.Kind == app.KindS || v.Kind == app.KindN || v.Kind == app.KindB:
				if err != nil || kind != v.Kind || string(text) != v.S {
					t.Errorf("%q: found %v %q %v, decoded %v %q", name, kind, text, err, v.Kind, v.S)
				}
			default:
				if err == nil {
					t.Errorf("%q holds a %v, found as %v %q", name, v.Kind, kind, text)
				}
			}
		}
	})
}

// encodeItemSpelled writes an item as layout version 4 did: every name
// spelled out.
func encodeItemSpelled(it app.Item) []byte {
	n := 0
	for _, a := range it {
		if a.Name != app.AttrPK && a.Name != app.AttrSK {
			n++
		}
	}
	b := binary.AppendUvarint(nil, uint64(n))
	for _, a := range it {
		if a.Name != app.AttrPK && a.Name != app.AttrSK {
			b = appendString(b, a.Name)
			b = encodeValue(b, a.Value)
		}
	}
	return b
}

// TestItemNamesAsIndexes: the common names (a ballot's) are written as
// two bytes; an item reads back the same written either way, finding an
// attribute finds it either way, and an index no name has is refused.
func TestItemNamesAsIndexes(t *testing.T) {
	// An imported ballot's item, as app writes it.
	var it app.Item
	for name, v := range map[string]string{
		app.AttrPK: "ELECTION#Mayor", app.AttrSK: "BALLOT##957a446d02ad531a-0000000004.000001",
		"confirmation": "957a446d02ad531a-0000000004.000001", "election_name": "Mayor", "entity_type": "BALLOT",
		"precinct": "P-7", "rankings": `[["Ada Lovelace"],["Ken Thompson"]]`, "source": "cvr", "source_id": "cvr-1",
		"when_cast": "2026-11-27T23:29:14.280942673Z", "zz_not_common": "kept spelled out",
	} {
		it.Set(name, app.S(v))
	}
	k := itemKey(it.PK(), it.SK())
	short, spelled := encodeItem(nil, it), encodeItemSpelled(it)
	if len(spelled)-len(short) < 60 {
		t.Errorf("a ballot's item takes %d bytes, %d with its names spelled out: want the common names as indexes", len(short), len(spelled))
	}
	for name, enc := range map[string][]byte{"indexed": short, "spelled": spelled} {
		got, err := decodeItem(k, enc)
		if err != nil || !reflect.DeepEqual(got, it) {
			t.Errorf("%s: decoded %v (%v), want %v", name, got, err, it)
		}
		for _, attr := range []string{"rankings", "source_id", "zz_not_common"} {
			kind, text, err := findText(enc, attr)
			if v, _ := it.Get(attr); err != nil || kind != app.KindS || string(text) != v.S {
				t.Errorf("%s: found %s as %v %q (%v), want %q", name, attr, kind, text, err, v.S)
			}
		}
		if kind, text, err := findText(enc, "missing"); kind != 0 || text != nil || err != nil {
			t.Errorf("%s: found a missing name: %v %q %v", name, kind, text, err)
		}
	}
	if !bytes.Equal(encodeItem(nil, it), short) {
		t.Error("encoding is not deterministic")
	}
	for _, bad := range [][]byte{{1, 0, 0, byte(app.KindNull)}, {1, 0, byte(len(attrNames)), byte(app.KindNull)}, {1, 0}} {
		if _, err := decodeItem(k, bad); err == nil {
			t.Errorf("%v decoded: an index no name has", bad)
		}
		if _, _, err := findText(bad, "rankings"); err == nil {
			t.Errorf("%v: findText took an index no name has", bad)
		}
	}
}
