package rla

import "strings"

// MinSeedDigits is the fewest digits a seed may have: 20 rolls of a
// ten-sided die, as ColoradoRLA and Arlo ask for.
const MinSeedDigits = 20

// CheckSeed checks the public random seed: at least MinSeedDigits decimal
// digits and nothing else, once spaces at either end are trimmed. The
// error says what is wrong.
func CheckSeed(seed string) error {
	s := strings.TrimSpace(seed)
	if s == "" {
		return errorf("the seed is empty: roll at least %d ten-sided dice in public and enter the digits", MinSeedDigits)
	}
	for i, c := range s {
		if c < '0' || c > '9' {
			return errorf("the seed has %q at character %d: it is decimal digits only, with no spaces or signs", c, i+1)
		}
	}
	if len(s) < MinSeedDigits {
		return errorf("the seed has %d digits; it needs at least %d", len(s), MinSeedDigits)
	}
	return nil
}
