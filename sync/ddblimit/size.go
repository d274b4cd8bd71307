package ddblimit

import (
	"encoding/base64"
	"encoding/json"
	"math"
)

// itemSize estimates the stored size of an item given as DynamoDB JSON the
// way DynamoDB sizes items: the names of its attributes plus their values
// (strings and binaries by length, numbers about one byte per two digits,
// lists and maps three bytes plus one per element).
func itemSize(item map[string]json.RawMessage) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(raw json.RawMessage) int {
	// Scalars, by far the most values, are sized without decoding them:
	// a load test reads megabytes of events a second through here.
	for _, p := range [...]struct {
		prefix string
		size   func(n int) int
	}{{`{"S":"`, func(n int) int { return n }}, {`{"B":"`, base64.StdEncoding.DecodedLen}, {`{"N":"`, func(n int) int { return n/2 + 1 }}} {
		if len(raw) >= len(p.prefix)+2 && string(raw[:len(p.prefix)]) == p.prefix && string(raw[len(raw)-2:]) == `"}` {
			if n, ok := rawStringLen(raw[len(p.prefix) : len(raw)-2]); ok {
				return p.size(n)
			}
		}
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return len(raw)
	}
	n := 0
	for typ, x := range v {
		switch typ {
		case "S":
			n += len(str(x))
		case "N":
			n += len(str(x))/2 + 1
		case "B":
			n += base64.StdEncoding.DecodedLen(len(str(x)))
		case "SS", "NS", "BS":
			var xs []string
			json.Unmarshal(x, &xs)
			for _, s := range xs {
				switch typ {
				case "SS":
					n += len(s)
				case "NS":
					n += len(s)/2 + 1
				default:
					n += base64.StdEncoding.DecodedLen(len(s))
				}
			}
		case "L":
			var xs []json.RawMessage
			json.Unmarshal(x, &xs)
			n += 3
			for _, e := range xs {
				n += 1 + valueSize(e)
			}
		case "M":
			var m map[string]json.RawMessage
			json.Unmarshal(x, &m)
			n += 3 + itemSize(m) + len(m)
		default: // BOOL, NULL
			n++
		}
	}
	return n
}

// rawStringLen returns the length of the string a JSON string's contents
// (without the quotes) decode to; ok is false when it holds an escape it
// does not size exactly (\u), or an unescaped quote.
func rawStringLen(b []byte) (n int, ok bool) {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			return 0, false
		case '\\':
			if i+1 >= len(b) || b[i+1] == 'u' {
				return 0, false
			}
			i++
		}
		n++
	}
	return n, true
}

func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// writeUnits is what writing an item of size bytes costs: one unit per KB
// or part of one.
func writeUnits(size int) float64 {
	return math.Max(1, math.Ceil(float64(size)/1024))
}

// readUnits is what reading size bytes costs: one unit per 4 KB or part of
// one, half that when eventually consistent.
func readUnits(size int, consistent bool) float64 {
	u := math.Max(1, math.Ceil(float64(size)/4096))
	if !consistent {
		u /= 2
	}
	return u
}
