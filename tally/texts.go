package tally

import (
	"math"
	"unsafe"
)

// Texts is a column of short strings, such as ballot ids, kept end to end:
// entry i is the text from ends[i-1] (0 for the first) to ends[i]. Beyond
// the text an entry costs 4 bytes, where a []string costs 16, and the
// column holds no pointer per entry for the garbage collector to follow:
// a million ids are one allocation, not a million. Entries never change
// once appended (Map makes a new column), so At hands out the text itself.
// The column grows by doubling: append grows a big slice by a quarter at a
// time, copying it over and over.
type Texts struct {
	data []byte
	ends []uint32
}

// NewTexts returns a column holding ss.
func NewTexts(ss ...string) *Texts {
	t := &Texts{ends: make([]uint32, 0, len(ss))}
	for _, s := range ss {
		push(t, s)
	}
	return t
}

// Size returns the length of all the entries' text together.
func (t *Texts) Size() int { return len(t.data) }

// Len returns the number of entries.
func (t *Texts) Len() int { return len(t.ends) }

// At returns entry i.
func (t *Texts) At(i int) string {
	start := uint32(0)
	if i > 0 {
		start = t.ends[i-1]
	}
	b := t.data[start:t.ends[i]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Append adds an entry. It fails, adding nothing, when the column's text
// would pass 4 GiB.
func (t *Texts) Append(s string) error { return appendText(t, s) }

// AppendBytes is Append for text in a byte slice, which it copies.
func (t *Texts) AppendBytes(b []byte) error { return appendText(t, b) }

func appendText[T string | []byte](t *Texts, s T) error {
	if !t.fits(len(s)) {
		return errorf("the column's texts add up to more than 4 GiB")
	}
	push(t, s)
	return nil
}

// AppendEmpty adds n empty entries.
func (t *Texts) AppendEmpty(n int) {
	t.Grow(n, 0)
	for range n {
		t.ends = append(t.ends, uint32(len(t.data)))
	}
}

// AppendAll adds o's entries, or fails, adding nothing, as Append does.
func (t *Texts) AppendAll(o *Texts) error {
	if !t.fits(len(o.data)) {
		return errorf("the column's texts add up to more than 4 GiB")
	}
	t.Grow(len(o.ends), len(o.data))
	base := uint32(len(t.data))
	t.data = append(t.data, o.data...)
	for _, e := range o.ends {
		t.ends = append(t.ends, base+e)
	}
	return nil
}

// Raw returns the column as it is kept: all the text end to end, and
// where each entry ends in it. They are the column's own and must not be
// changed.
func (t *Texts) Raw() (data []byte, ends []uint32) { return t.data, t.ends }

// TextsFromRaw is a column made of Raw's parts, which it keeps. It checks
// that the ends stay in order and within the text.
func TextsFromRaw(data []byte, ends []uint32) (*Texts, error) {
	if len(data) > math.MaxUint32 {
		return nil, errorf("the column's texts add up to more than 4 GiB")
	}
	prev := uint32(0)
	for i, e := range ends {
		if e < prev || int(e) > len(data) {
			return nil, errorf("entry %d of the column ends at %d, outside %d..%d", i, e, prev, len(data))
		}
		prev = e
	}
	return &Texts{data: data, ends: ends}, nil
}

// Grow makes room for at least n more entries of size bytes of text in all.
func (t *Texts) Grow(n, size int) {
	if cap(t.ends)-len(t.ends) < n {
		t.ends = grown(t.ends, n)
	}
	if cap(t.data)-len(t.data) < size {
		t.data = grown(t.data, size)
	}
}

// grown returns v with room for n more elements, doubling at least.
func grown[T any](v []T, n int) []T {
	w := make([]T, len(v), len(v)+max(n, len(v), 1024))
	copy(w, v)
	return w
}

// fits reports whether n more bytes of text can be appended.
func (t *Texts) fits(n int) bool { return len(t.data)+n <= math.MaxUint32 }

// push appends s, which fits.
func push[T string | []byte](t *Texts, s T) {
	t.Grow(1, len(s))
	t.data = append(t.data, s...)
	t.ends = append(t.ends, uint32(len(t.data)))
}

// Strings returns the entries as a slice.
func (t *Texts) Strings() []string {
	out := make([]string, t.Len())
	for i := range out {
		out[i] = t.At(i)
	}
	return out
}

// Map returns a column whose entries from from on are f of t's, the
// earlier ones unchanged: t itself when f changes none of them.
func (t *Texts) Map(from int, f func(string) string) (*Texts, error) {
	first := -1
	for i := from; i < t.Len() && first < 0; i++ {
		if s := t.At(i); f(s) != s {
			first = i
		}
	}
	if first < 0 {
		return t, nil
	}
	out := &Texts{data: make([]byte, 0, len(t.data)), ends: make([]uint32, 0, len(t.ends))}
	for i := range t.Len() {
		s := t.At(i)
		if i >= first {
			s = f(s)
		}
		if err := out.Append(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}
