package app

// validJSON is encoding/json.Valid, in one pass of plain code: every event
// read from a log has its data checked (a million imported ballots are
// 110 MB of it), and json.Valid's scanner, a function call a byte, took a
// fifth of a verify. FuzzValidJSON holds it to json.Valid: the same
// grammar, strings not checked for UTF-8 (as json.Valid does not), and at
// most maxJSONDepth arrays and objects one inside another.
func validJSON(b []byte) bool {
	v := jsonValidator{b: b}
	v.space()
	if !v.value(0) {
		return false
	}
	v.space()
	return v.i == len(b)
}

// maxJSONDepth is encoding/json's limit on nesting.
const maxJSONDepth = 10000

type jsonValidator struct {
	b []byte
	i int
}

func (v *jsonValidator) space() {
	for v.i < len(v.b) {
		switch v.b[v.i] {
		case ' ', '\t', '\n', '\r':
			v.i++
		default:
			return
		}
	}
}

// at reports whether the next byte is c, and if so passes it.
func (v *jsonValidator) at(c byte) bool {
	if v.i < len(v.b) && v.b[v.i] == c {
		v.i++
		return true
	}
	return false
}

// value reads one value inside depth arrays and objects.
func (v *jsonValidator) value(depth int) bool {
	if v.i >= len(v.b) {
		return false
	}
	switch c := v.b[v.i]; {
	case c == '{' || c == '[':
		if depth >= maxJSONDepth {
			return false
		}
		v.i++
		v.space()
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		if v.at(end) {
			return true
		}
		for {
			if c == '{' {
				if !v.at('"') || !v.str() {
					return false
				}
				v.space()
				if !v.at(':') {
					return false
				}
				v.space()
			}
			if !v.value(depth + 1) {
				return false
			}
			v.space()
			if v.at(end) {
				return true
			}
			if !v.at(',') {
				return false
			}
			v.space()
		}
	case c == '"':
		v.i++
		return v.str()
	case c == '-' || '0' <= c && c <= '9':
		return v.number()
	case c == 't':
		return v.word("true")
	case c == 'f':
		return v.word("false")
	case c == 'n':
		return v.word("null")
	}
	return false
}

// str reads the rest of a string, its opening quote read.
func (v *jsonValidator) str() bool {
	b := v.b
	for v.i < len(b) {
		c := b[v.i]
		switch {
		case c == '"':
			v.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if v.i+1 >= len(b) {
				return false
			}
			switch b[v.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				v.i += 2
			case 'u':
				if v.i+6 > len(b) {
					return false
				}
				for _, h := range b[v.i+2 : v.i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				v.i += 6
			default:
				return false
			}
		default:
			v.i++
		}
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (v *jsonValidator) number() bool {
	v.at('-')
	switch {
	case v.at('0'):
	case v.digits() == 0:
		return false
	}
	if v.at('.') && v.digits() == 0 {
		return false
	}
	if v.at('e') || v.at('E') {
		if !v.at('+') {
			v.at('-')
		}
		if v.digits() == 0 {
			return false
		}
	}
	return true
}

// digits passes a run of digits and says how long it was.
func (v *jsonValidator) digits() int {
	start := v.i
	for v.i < len(v.b) && '0' <= v.b[v.i] && v.b[v.i] <= '9' {
		v.i++
	}
	return v.i - start
}

func (v *jsonValidator) word(w string) bool {
	if len(v.b)-v.i >= len(w) && string(v.b[v.i:v.i+len(w)]) == w {
		v.i += len(w)
		return true
	}
	return false
}
