package app

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
)

// Sealing keeps the secret part of a ballot event (its rankings and
// confirmation code) out of everything that can be checked by someone who
// may not see it. The event's Data carries only a commitment,
//
//	commit = hex SHA-256("votedesk/seal/v2\n" ‖ nonce ‖ "\n" ‖ secret JSON)
//
// with a fresh 256-bit random nonce per event, and Sealed carries
// {"nonce": ..., "data": secret JSON}. The chain hash and the signatures
// cover Data, so the commitment, never the secret: without the nonce, no
// guess of a ranking, code or voter can be tested against anything in the
// event. Whoever holds the sealed part checks it against the commitment
// (OpenSealed), which every device does before applying the event, and
// `votedesk verify` does for every event.
const sealTag = "votedesk/seal/v2\n"

// sealedPart is the JSON of an event's Sealed field.
type sealedPart struct {
	Nonce string          `json:"nonce"`
	Data  json.RawMessage `json:"data"`
}

// commitment is the public field of a sealed event's data.
type commitment struct {
	Commit string `json:"commit"`
}

// seal makes a fresh nonce for the secret JSON and returns its commitment
// and the sealed part.
func seal(secret []byte) (commit string, sealed json.RawMessage, err error) {
	var nonce [32]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", nil, err
	}
	n := hex.EncodeToString(nonce[:])
	b := make([]byte, 0, len(secret)+100)
	b = append(b, `{"nonce":"`...)
	b = append(b, n...)
	b = append(b, `","data":`...)
	b = append(b, secret...)
	return commitOf(n, secret), append(b, '}'), nil
}

func commitOf(nonce string, secret []byte) string {
	h := sha256.New()
	h.Write([]byte(sealTag))
	h.Write([]byte(nonce))
	h.Write([]byte{'\n'})
	h.Write(secret)
	return hex.EncodeToString(h.Sum(nil))
}

// OpenSealed checks a format-2 event's sealed part against the commitment
// in its data and returns the secret JSON (nil for an event with no sealed
// part). An event whose data commits to a secret but carries none was
// redacted: that is not an error here, the secret is simply not known.
func (e *Event) OpenSealed() (json.RawMessage, error) {
	if !e.Signed() {
		return nil, nil
	}
	if e.opened != nil && sameBytes(e.Data, e.openedData) && sameBytes(e.Sealed, e.openedSealed) {
		return e.opened, nil
	}
	var c commitment
	if err := json.Unmarshal(e.Data, &c); err != nil || c.Commit == "" {
		if len(e.Sealed) > 0 {
			return nil, Errorf(CodeInvalid, "event %s has a sealed part but no commitment to it", e.ID)
		}
		return nil, nil
	}
	if len(e.Sealed) == 0 {
		return nil, nil
	}
	// Where readEvent found the sealed part in seal's layout it checked
	// the secret's JSON, once.
	s, ok := readSealed(e.Sealed, e.sealedDataValid && sameBytes(e.Sealed, e.decodedSealed))
	if !ok || len(s.Nonce) != 64 || len(s.Data) == 0 {
		return nil, Errorf(CodeInvalid, "event %s has a malformed sealed part", e.ID)
	}
	if subtle.ConstantTimeCompare([]byte(commitOf(s.Nonce, s.Data)), []byte(c.Commit)) != 1 {
		return nil, Errorf(CodeInvalid, "event %s: its sealed part does not match its commitment (it was changed after it was written)", e.ID)
	}
	e.opened, e.openedData, e.openedSealed = s.Data, e.Data, e.Sealed
	return s.Data, nil
}

// readSealed reads a sealed part. As seal writes it,
// {"nonce":"<64 hex digits>","data":<secret>}, it takes one validating scan
// of the secret (which an import's ballots make big) and no copy; any other
// layout is read by json.Unmarshal, which gives the same for this one.
// dataValid says the secret of b, in seal's layout, is known to be valid
// JSON (readEvent checked it).
func readSealed(b []byte, dataValid bool) (sealedPart, bool) {
	if nonce, data, ok := sealedLayout(b); ok && (dataValid || validJSON(data)) {
		return sealedPart{Nonce: string(nonce), Data: data}, true
	}
	var s sealedPart
	err := json.Unmarshal(b, &s)
	return s, err == nil
}

// sealedLayout splits a sealed part written as seal writes it,
// {"nonce":"<64 hex digits>","data":<secret>}, into its nonce and its
// secret (not checked for valid JSON); ok is false for any other layout.
func sealedLayout(b []byte) (nonce, data []byte, ok bool) {
	const pre, mid = `{"nonce":"`, `","data":`
	if n := len(pre) + 64 + len(mid); len(b) > n+1 && string(b[:len(pre)]) == pre && string(b[len(pre)+64:n]) == mid && b[len(b)-1] == '}' {
		nonce, data := b[len(pre):len(pre)+64], b[n:len(b)-1]
		if isLowerHex(nonce) && !isJSONSpace(data[0]) && !isJSONSpace(data[len(data)-1]) {
			return nonce, data, true
		}
	}
	return nil, nil, false
}

func isLowerHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Redacted returns the event without its sealed part: what someone who may
// not see ballot contents sees. Its chain hash and signatures still check.
func (e *Event) Redacted() *Event {
	out := *e
	out.Sealed = nil
	return &out
}

// Display is the event's data as a person reads it: without the ids and keys
// that are there for machines (account, election and key ids, the
// commitment); for a sealed event whose sealed part is here, with the secret
// fields in it; for one whose sealed part was withheld, marked so
// ("redacted": "secret ballot", or a hidden password hash).
func (e *Event) Display() json.RawMessage {
	if !e.Signed() {
		return e.Data
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(e.Data, &fields) != nil {
		return e.Data
	}
	sealed := fields["commit"] != nil
	for _, k := range []string{"commit", "election_id", "user_id", "public_key"} {
		delete(fields, k)
	}
	if !sealed {
		out, err := json.Marshal(fields)
		if err != nil {
			return e.Data
		}
		return out
	}
	if secret, err := e.OpenSealed(); err == nil && secret != nil {
		var more map[string]json.RawMessage
		if json.Unmarshal(secret, &more) == nil {
			for k, v := range more {
				if k == "password_hash" {
					v = json.RawMessage(`"(hidden)"`)
				}
				fields[k] = v
			}
		}
	} else if len(sealedFields[e.Type]) == 1 && sealedFields[e.Type][0] == "password_hash" {
		fields["password_hash"] = json.RawMessage(`"(hidden)"`)
	} else {
		fields["redacted"] = json.RawMessage(`"secret ballot"`)
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return e.Data
	}
	return out
}
