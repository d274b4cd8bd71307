package app

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters for password and passcode hashes (RFC 9106's
// memory-hard setting with 64 MiB; about 0.1 s here).
const (
	argonTime    = 1
	argonMemory  = 64 * 1024 // KiB
	argonThreads = 2
	argonKeyLen  = 32
	saltLen      = 16
)

// MinPasswordLength is the shortest password a user may choose.
const MinPasswordLength = 8

// CheckPassword reports whether a new password is acceptable.
func CheckPassword(pw string) error {
	if utf8.RuneCountInString(pw) < MinPasswordLength {
		return Errorf(CodeInvalid, "the password must have at least %d characters", MinPasswordLength)
	}
	if len(pw) > 1024 {
		return Errorf(CodeInvalid, "the password is longer than 1024 bytes")
	}
	return nil
}

// HashSecret hashes a password or passcode with argon2id and a fresh random
// salt, in the PHC string format ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
func HashSecret(secret string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("app: read random salt: %w", err)
	}
	key := argonKey([]byte(secret), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// VerifySecret reports whether secret matches a hash made by HashSecret,
// comparing in constant time. A malformed hash never matches.
func VerifySecret(hash, secret string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var v int
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 1<<22 || t == 0 || t > 64 || p == 0 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil || len(salt) == 0 {
		return false
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) == 0 || len(want) > 128 {
		return false
	}
	got := argonKey([]byte(secret), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// Passwords of format-2 accounts also give the user's signing key. One
// argon2id run over the password and the account's salt gives K; the stored
// verifier is SHA-256("votedesk/password/verify\n" ‖ K) and the Ed25519
// seed of the user's key is SHA-256("votedesk/password/sign\n" ‖ K). The
// verifier does not give the seed, so whoever reads the database learns the
// public key (in the account) and the verifier, and can forge nothing
// without guessing the password, at one argon2id per guess.
const passwordScheme = "vdsign"

// PasswordKey is the result of checking or setting a password: the string
// stored in the account and the user's signing key.
type PasswordKey struct {
	Hash string
	Key  ed25519.PrivateKey
}

// PublicKey returns the signing key's public half, as events carry it.
func (p PasswordKey) PublicKey() string { return encodeKey(p.Key.Public().(ed25519.PublicKey)) }

// NewPasswordKey hashes a new password with a fresh salt and derives the
// user's signing key from it.
func NewPasswordKey(password string) (PasswordKey, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return PasswordKey{}, fmt.Errorf("app: read random salt: %w", err)
	}
	verifier, key := derivePasswordKey(password, salt, argonTime, argonMemory, argonThreads)
	enc := base64.RawStdEncoding
	h := fmt.Sprintf("$%s$v=%d$m=%d,t=%d,p=%d$%s$%s", passwordScheme, argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(verifier))
	return PasswordKey{Hash: h, Key: key}, nil
}

func derivePasswordKey(password string, salt []byte, t, m uint32, p uint8) (verifier []byte, key ed25519.PrivateKey) {
	k := argonKey([]byte(password), salt, t, m, p, argonKeyLen)
	v := sha256.Sum256(append([]byte("votedesk/password/verify\n"), k...))
	seed := sha256.Sum256(append([]byte("votedesk/password/sign\n"), k...))
	return v[:], ed25519.NewKeyFromSeed(seed[:])
}

// UnlockPassword checks a password against a stored hash. For a format-2
// hash it returns the user's signing key; for an older argon2id hash (an
// account made before signing) ok is true and the key nil.
func UnlockPassword(hash, password string) (key ed25519.PrivateKey, ok bool) {
	if !strings.HasPrefix(hash, "$"+passwordScheme+"$") {
		return nil, VerifySecret(hash, password)
	}
	parts := strings.Split(hash, "$")
	if len(parts) != 6 {
		return nil, false
	}
	var v int
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return nil, false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 1<<22 || t == 0 || t > 64 || p == 0 {
		return nil, false
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil || len(salt) == 0 {
		return nil, false
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) != sha256.Size {
		return nil, false
	}
	got, key := derivePasswordKey(password, salt, t, m, p)
	if subtle.ConstantTimeCompare(got, want) != 1 {
		return nil, false
	}
	return key, true
}

// dummyHash is checked against when a sign-in names no account, so an
// unknown name takes as long to refuse as a wrong password: a hash of the
// format and cost of a real one, whose verifier no password gives.
const dummyHash = "$vdsign$v=19$m=65536,t=1,p=2$dm90ZWRlc2stbm8tYWNjdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
