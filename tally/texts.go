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
type Texts struct {
	data []byte
	ends []uint32
}

// NewTexts returns a column holding ss.
func NewTexts(ss ...string) *Texts {
	t := &Texts{ends: make([]uint32, 0, len(ss))}
	for _, s := range ss {
		t.data = append(t.data, s...)
		t.ends = append(t.ends, uint32(len(t.data)))
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
func (t *Texts) Append(s string) error {
	if !t.fits(s) {
		return errorf("the column's texts add up to more than 4 GiB")
	}
	t.push(s)
	return nil
}

// fits reports whether s can be appended.
func (t *Texts) fits(s string) bool { return len(t.data)+len(s) <= math.MaxUint32 }

// push appends s, which fits.
func (t *Texts) push(s string) {
	t.data = append(t.data, s...)
	t.ends = append(t.ends, uint32(len(t.data)))
}

// AppendEmpty adds n empty entries.
func (t *Texts) AppendEmpty(n int) {
	for range n {
		t.ends = append(t.ends, uint32(len(t.data)))
	}
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

// TextsOf is for a reader that gathers a column's text itself: the column
// of data cut at ends (each entry's end in data, in order), both taken
// over.
func TextsOf(data []byte, ends []uint32) *Texts { return &Texts{data: data, ends: ends} }
