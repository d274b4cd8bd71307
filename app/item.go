package app

import (
	"strconv"
	"time"
)

// Kind is the type of an attribute value, one for each DynamoDB type.
type Kind uint8

// The attribute kinds, matching DynamoDB's S, N, B, BOOL, NULL, L, M, SS, NS
// and BS.
const (
	KindS Kind = iota + 1
	KindN
	KindB
	KindBool
	KindNull
	KindL
	KindM
	KindSS
	KindNS
	KindBS
)

// Value is one attribute value. It holds exactly what a DynamoDB attribute
// value holds, so an Item converts to and from DynamoDB's attribute-value map
// without loss. S carries the text of S, the decimal text of N and the bytes
// of B; L carries the elements of L and the members of SS, NS and BS (as S, N
// and B values); M carries the attributes of M.
type Value struct {
	Kind Kind
	Bool bool
	S    string
	L    []Value
	M    map[string]Value
}

// Attr is one named attribute of an item.
type Attr struct {
	Name  string
	Value Value
}

// Item is one record of the projection: attributes sorted by name, each name
// once, always with the string attributes PK and SK. It is DynamoDB's
// attribute-value map kept as a sorted list, which is cheaper to build, store
// and read than a Go map for items of a dozen attributes.
type Item []Attr

// Get returns the named attribute.
func (it Item) Get(name string) (Value, bool) {
	for _, a := range it {
		if a.Name == name {
			return a.Value, true
		}
	}
	return Value{}, false
}

// Set sets the named attribute, keeping the attributes sorted by name.
func (it *Item) Set(name string, v Value) {
	s := *it
	i := len(s)
	for i > 0 && s[i-1].Name >= name {
		i--
	}
	if i < len(s) && s[i].Name == name {
		s[i].Value = v
		return
	}
	s = append(s, Attr{})
	copy(s[i+1:], s[i:])
	s[i] = Attr{Name: name, Value: v}
	*it = s
}

// Remove deletes the named attribute, if present.
func (it *Item) Remove(name string) {
	s := *it
	for i, a := range s {
		if a.Name == name {
			*it = append(s[:i], s[i+1:]...)
			return
		}
	}
}

// Sorted reports whether the attributes are sorted by name without repeats,
// as Set keeps them.
func (it Item) Sorted() bool {
	for i := 1; i < len(it); i++ {
		if it[i-1].Name >= it[i].Name {
			return false
		}
	}
	return true
}

// The key attributes of every item, and the attributes of GSI-1 (email -> user).
const (
	AttrPK     = "PK"
	AttrSK     = "SK"
	AttrGSI1PK = "GSI1PK"
	AttrGSI1SK = "GSI1SK"
)

// S returns a string value.
func S(s string) Value { return Value{Kind: KindS, S: s} }

// N returns a number value.
func N(n int64) Value { return Value{Kind: KindN, S: strconv.FormatInt(n, 10)} }

// Bool returns a boolean value.
func Bool(b bool) Value { return Value{Kind: KindBool, Bool: b} }

// Time returns a time as an RFC 3339 string value in UTC with nanoseconds, so
// that string order is time order.
func Time(t time.Time) Value { return S(FormatTime(t)) }

// FormatTime writes a time the way items and events store it.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// TimeLayout is RFC 3339 with fixed-width nanoseconds, so that stored times
// sort as strings in time order.
const TimeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// PK returns the item's partition key.
func (it Item) PK() string { return it.Str(AttrPK) }

// SK returns the item's sort key.
func (it Item) SK() string { return it.Str(AttrSK) }

// Str returns a string attribute, or "" when absent.
func (it Item) Str(name string) string {
	v, _ := it.Get(name)
	return v.S
}

// Int returns a number attribute as an integer, or 0 when absent or not an
// integer.
func (it Item) Int(name string) int64 {
	n, _ := strconv.ParseInt(it.Str(name), 10, 64)
	return n
}

// Flag returns a boolean attribute, or false when absent.
func (it Item) Flag(name string) bool {
	v, _ := it.Get(name)
	return v.Bool
}

// TimeAttr returns a time attribute, or the zero time when absent.
func (it Item) TimeAttr(name string) time.Time {
	v, ok := it.Get(name)
	if !ok || v.Kind != KindS || v.S == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v.S)
	if err != nil {
		return time.Time{}
	}
	return t
}

// newItem starts an item with its keys and entity type.
func newItem(pk, sk, entity string) Item {
	it := make(Item, 0, 12)
	it.Set(AttrPK, S(pk))
	it.Set(AttrSK, S(sk))
	it.Set("entity_type", S(entity))
	return it
}

// setTime stores t, or leaves the attribute out when t is zero.
func (it *Item) setTime(name string, t time.Time) {
	if !t.IsZero() {
		it.Set(name, Time(t))
	}
}
