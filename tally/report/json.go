package report

import (
	"fmt"
	"io"
	"strings"

	"votedesk/tally"
)

// RCTab writes its JSON with Jackson's default pretty printer and map keys
// sorted. These few types build such a document and print it byte for byte
// the same way: objects one field per line with "key" : value, arrays
// inline as "[ a, b ]", empty ones as "{ }" and "[ ]".

// object is a JSON object whose keys print in Java string order.
type object map[string]any

// array is a JSON array.
type array []any

// writeJSON prints v as Jackson's DefaultPrettyPrinter does.
func writeJSON(w io.Writer, v any) error {
	var sb strings.Builder
	printJSON(&sb, v, 0)
	_, err := io.WriteString(w, sb.String())
	return err
}

func printJSON(sb *strings.Builder, v any, level int) {
	switch x := v.(type) {
	case object:
		if len(x) == 0 {
			sb.WriteString("{ }")
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		tally.JavaSortStrings(keys)
		sb.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString("\n")
			sb.WriteString(strings.Repeat("  ", level+1))
			quote(sb, k)
			sb.WriteString(" : ")
			printJSON(sb, x[k], level+1)
		}
		sb.WriteString("\n")
		sb.WriteString(strings.Repeat("  ", level))
		sb.WriteString("}")
	case array:
		if len(x) == 0 {
			sb.WriteString("[ ]")
			return
		}
		sb.WriteString("[ ")
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			printJSON(sb, e, level)
		}
		sb.WriteString(" ]")
	case string:
		quote(sb, x)
	case tally.Decimal:
		quote(sb, x.String())
	case int, int64:
		fmt.Fprintf(sb, "%d", x)
	case nil:
		sb.WriteString("null")
	default:
		panic(fmt.Sprintf("report: cannot print %T as JSON", v))
	}
}

// quote writes s as a JSON string with Jackson's escapes: quote and
// backslash, the short forms of the common control characters, \u00XX for
// the rest below space; everything else verbatim.
func quote(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(sb, `\u%04X`, r)
			} else {
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
}
