package app

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"
)

// A confirmation code is what a voter writes down to find their ballot in
// the published list: twelve characters of Crockford's base 32 (digits and
// the letters without I, L, O and U, so nothing reads as something else)
// in three groups, like "K3QZ-8WPM-T2VD". Sixty bits: among a million
// ballots of one election the chance that two share a code is about one in
// two million, and a device never hands out a code its election already
// holds for an unlisted ballot (CastBallot draws again). Two devices
// offline can still draw one code: both ballots are kept, the later in log
// order under a key of its own (freeUnlistedSK), and both are listed under
// the code. The code is the
// SHA-256 of a fresh random id (a version 4 UUID, 122 random bits), so codes
// are random, not time-ordered: the list sorted by code says nothing about
// who voted when. Ballots cast before codes were short keep their UUIDs,
// which ParseConfirmation reads too.
const (
	confirmAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	confirmChars    = 12
	confirmGroup    = 4
)

// confirmationFrom derives a confirmation code from a random id.
func confirmationFrom(id string) string {
	sum := sha256.Sum256([]byte("votedesk confirmation\x00" + id))
	v := binary.BigEndian.Uint64(sum[:8])
	b := make([]byte, 0, confirmChars+confirmChars/confirmGroup-1)
	for i := range confirmChars {
		if i > 0 && i%confirmGroup == 0 {
			b = append(b, '-')
		}
		b = append(b, confirmAlphabet[v>>59])
		v <<= 5
	}
	return string(b)
}

// ParseConfirmation reads a confirmation code as a person types it: case,
// spaces and dashes do not matter, and O reads as 0, I and L as 1. It
// returns the code as it is stored, and false when s cannot be a code. A
// UUID (the code of a ballot cast by an older version) is returned in
// lower case.
func ParseConfirmation(s string) (string, bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	if len(t) == 36 && strings.Count(t, "-") == 4 && strings.Trim(t, "0123456789abcdef-") == "" {
		return t, true
	}
	var b []byte
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '-' || r == '\t':
			continue
		case r == 'O':
			r = '0'
		case r == 'I' || r == 'L':
			r = '1'
		}
		if r > 'Z' || !strings.ContainsRune(confirmAlphabet, r) {
			return "", false
		}
		if len(b) > 0 && len(b)%(confirmGroup+1) == confirmGroup {
			b = append(b, '-')
		}
		b = append(b, byte(r))
	}
	if len(b) != confirmChars+confirmChars/confirmGroup-1 {
		return "", false
	}
	return string(b), true
}
