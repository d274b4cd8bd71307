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
// without loss. S carries the text of S and the decimal text of N; Set carries
// SS and NS members.
type Value struct {
	Kind Kind
	S    string
	B    []byte
	Bool bool
	L    []Value
	M    map[string]Value
	Set  []string
	BS   [][]byte
}

// Item is one record of the projection: a map of attribute names to values
// that always holds the string attributes PK and SK.
type Item map[string]Value

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
func (it Item) PK() string { return it[AttrPK].S }

// SK returns the item's sort key.
func (it Item) SK() string { return it[AttrSK].S }

// Str returns a string attribute, or "" when absent.
func (it Item) Str(name string) string { return it[name].S }

// Int returns a number attribute as an integer, or 0 when absent or not an
// integer.
func (it Item) Int(name string) int64 {
	n, _ := strconv.ParseInt(it[name].S, 10, 64)
	return n
}

// Flag returns a boolean attribute, or false when absent.
func (it Item) Flag(name string) bool { return it[name].Bool }

// TimeAttr returns a time attribute, or the zero time when absent.
func (it Item) TimeAttr(name string) time.Time {
	v, ok := it[name]
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
	return Item{AttrPK: S(pk), AttrSK: S(sk), "entity_type": S(entity)}
}

// setTime stores t, or leaves the attribute out when t is zero.
func (it Item) setTime(name string, t time.Time) {
	if !t.IsZero() {
		it[name] = Time(t)
	}
}
