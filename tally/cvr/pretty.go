package cvr

import (
	"bufio"
	"strconv"
	"strings"
)

// The CDF writer lays JSON out as RCTab's Jackson DefaultPrettyPrinter does,
// so exports diff cleanly against RCTab's: objects one entry per line,
// indented two spaces per object level, "key" : value; arrays inline,
// "[ a, b ]", with objects in them opening on the same line ("[ {"); empty
// ones as "[ ]" and "{ }"; keys in the order given (callers sort them, as
// Jackson's ORDER_MAP_ENTRIES_BY_KEYS does).

// object is a JSON object with its keys in order.
type object []member

// member is one key and value of an object.
type member struct {
	key   string
	value any // string, int, object or []any
}

// prettyWriter writes JSON values in Jackson's layout.
type prettyWriter struct{ w *bufio.Writer }

// value writes v as the value of an entry at object depth depth.
func (p prettyWriter) value(v any, depth int) {
	switch v := v.(type) {
	case string:
		p.string(v)
	case int:
		p.w.WriteString(strconv.Itoa(v))
	case object:
		p.object(v, depth)
	case []any:
		if len(v) == 0 {
			p.w.WriteString("[ ]")
			return
		}
		p.w.WriteString("[ ")
		for i, e := range v {
			if i > 0 {
				p.w.WriteString(", ")
			}
			p.value(e, depth)
		}
		p.w.WriteString(" ]")
	}
}

// object writes an object whose closing brace sits at depth.
func (p prettyWriter) object(o object, depth int) {
	if len(o) == 0 {
		p.w.WriteString("{ }")
		return
	}
	p.w.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			p.w.WriteByte(',')
		}
		p.open(m.key, depth+1)
		p.value(m.value, depth+1)
	}
	p.close(depth)
}

// open starts an entry on a new line at depth: `"key" : `.
func (p prettyWriter) open(key string, depth int) {
	p.w.WriteByte('\n')
	p.w.WriteString(strings.Repeat("  ", depth))
	p.string(key)
	p.w.WriteString(" : ")
}

// close ends an object whose entries were at depth+1.
func (p prettyWriter) close(depth int) {
	p.w.WriteByte('\n')
	p.w.WriteString(strings.Repeat("  ", depth))
	p.w.WriteByte('}')
}

// string writes a JSON string, escaping what JSON requires and no more.
func (p prettyWriter) string(s string) {
	const hex = "0123456789ABCDEF"
	p.w.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			p.w.WriteByte('\\')
			p.w.WriteByte(c)
		case c == '\n':
			p.w.WriteString(`\n`)
		case c == '\r':
			p.w.WriteString(`\r`)
		case c == '\t':
			p.w.WriteString(`\t`)
		case c < 0x20:
			p.w.WriteString(`\u00`)
			p.w.WriteByte(hex[c>>4])
			p.w.WriteByte(hex[c&0xF])
		default:
			p.w.WriteByte(c)
		}
	}
	p.w.WriteByte('"')
}
