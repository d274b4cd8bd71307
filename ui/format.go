package ui

import (
	"fmt"
	"strconv"
	"time"
)

// timeLayout is how the screens show a moment: local time to the minute.
const timeLayout = "2006-01-02 15:04"

// fmtTime shows t in local time, or "—" for the zero time.
func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Local().Format(timeLayout)
}

// fmtCount writes n with thousands separators: 1,000,000.
func fmtCount[T ~int | ~int64 | ~uint64 | ~uint32](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// plural writes "1 voter" or "3 voters".
func plural[T ~int | ~int64](n T, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%s %s", fmtCount(n), many)
}

// fmtDuration writes how long something took: "under 1 ms", "42 ms", "1.3 s".
func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "under 1 ms"
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
