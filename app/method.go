package app

import "strings"

// Methods lists the counting methods an election may use, by the names the
// CLI and the GUI use.
var Methods = []string{"irv", "stv", "schulze", "rankedpairs", "copeland", "minimax", "kemeny", "borda", "plurality"}

// CheckMethod reports whether m names a counting method ("" means the default).
func CheckMethod(m string) error {
	if m == "" {
		return nil
	}
	for _, x := range Methods {
		if x == m {
			return nil
		}
	}
	return Errorf(CodeInvalid, "unknown counting method %q (methods: %s)", m, strings.Join(Methods, ", "))
}
