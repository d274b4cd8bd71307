package localstore

import (
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
