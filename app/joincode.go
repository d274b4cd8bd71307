package app

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"strings"
)

// Join codes let a kiosk be set to an election without typing its name: a
// code like "KZT-QWP-40813" (six letters and five digits, about 44 bits) that
// every device computes from the election itself, so it needs no storage and
// no network. It is the SHA-256 of the election's name and the time of its
// creation event (which travels with the event to every device), read as six
// letters from an alphabet without I and O and five digits.
const (
	joinLetters    = "ABCDEFGHJKLMNPQRSTUVWXYZ"
	joinCodeLetter = 6
	joinCodeDigit  = 5
)

// JoinCode returns the election's join code, e.g. "KZT-QWP-40813".
func JoinCode(e Election) string {
	sum := sha256.Sum256([]byte("votedesk join code\x00" + e.Name + "\x00" + FormatTime(e.Created)))
	v := binary.BigEndian.Uint64(sum[:8])
	b := make([]byte, 0, joinCodeLetter+joinCodeDigit+2)
	for i := range joinCodeLetter {
		if i == 3 {
			b = append(b, '-')
		}
		b = append(b, joinLetters[v%uint64(len(joinLetters))])
		v /= uint64(len(joinLetters))
	}
	b = append(b, '-')
	for range joinCodeDigit {
		b = append(b, byte('0'+v%10))
		v /= 10
	}
	return string(b)
}

// ParseJoinCode reads what someone typed as a join code: case, spaces and
// dashes do not matter, and in the digit part O reads as 0 and I or L as 1.
// It returns the code in the form JoinCode writes, and false when s cannot be
// a join code.
func ParseJoinCode(s string) (string, bool) {
	var b []byte
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '-' || r == '_' || r == '\t':
		case r < 128:
			b = append(b, byte(r))
		default:
			return "", false
		}
	}
	if len(b) != joinCodeLetter+joinCodeDigit {
		return "", false
	}
	for i := range joinCodeLetter {
		if !strings.ContainsRune(joinLetters, rune(b[i])) {
			return "", false
		}
	}
	for i := joinCodeLetter; i < len(b); i++ {
		switch b[i] {
		case 'O':
			b[i] = '0'
		case 'I', 'L':
			b[i] = '1'
		}
		if b[i] < '0' || b[i] > '9' {
			return "", false
		}
	}
	return string(b[:3]) + "-" + string(b[3:6]) + "-" + string(b[6:]), true
}

// ElectionByJoinCode returns the election whose join code is code (typed in
// any form ParseJoinCode accepts).
func (s *Service) ElectionByJoinCode(ctx context.Context, actor, code string) (Election, error) {
	var out Election
	err := s.view(ctx, "find election by join code", actor, PermViewApplication, func(tx Tx, _ User) (err error) {
		out, err = electionByJoinCode(tx, code)
		return err
	})
	return out, err
}

// FindElection returns the election named nameOrCode, or else the one whose
// join code it is.
func (s *Service) FindElection(ctx context.Context, actor, nameOrCode string) (Election, error) {
	var out Election
	err := s.view(ctx, "find election", actor, PermViewApplication, func(tx Tx, _ User) (err error) {
		out, err = findElection(tx, nameOrCode)
		return err
	})
	return out, err
}

func findElection(tx Tx, nameOrCode string) (Election, error) {
	e, ok, err := getElection(tx, strings.TrimSpace(nameOrCode))
	if err != nil || ok {
		return e, err
	}
	if _, isCode := ParseJoinCode(nameOrCode); isCode {
		return electionByJoinCode(tx, nameOrCode)
	}
	return Election{}, Errorf(CodeNotFound, "no election named %q", strings.TrimSpace(nameOrCode))
}

func electionByJoinCode(tx Tx, code string) (Election, error) {
	want, ok := ParseJoinCode(code)
	if !ok {
		return Election{}, Errorf(CodeInvalid, "%q is not a join code (they look like KZT-QWP-40813)", code)
	}
	var found []Election
	err := tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
		if e := electionFromItem(it); JoinCode(e) == want {
			found = append(found, e)
		}
		return true, nil
	})
	switch {
	case err != nil:
		return Election{}, err
	case len(found) == 0:
		return Election{}, Errorf(CodeNotFound, "no election has the join code %s", want)
	case len(found) > 1:
		return Election{}, Errorf(CodeConflict, "several elections have the join code %s; use the election's name", want)
	}
	return found[0], nil
}
