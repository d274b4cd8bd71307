package ddblimit

import (
	"encoding/base64"
	"encoding/json"
	"testing"
)

// TestValueSizeFastPath: the scalar sizes read without decoding are what
// decoding gives.
func TestValueSizeFastPath(t *testing.T) {
	for _, v := range []string{`{"S":"plain"}`, `{"S":"a \"quoted\" line\nand a \\ slash"}`, `{"S":"snow \u2603 man"}`,
		`{"S":""}`, `{"N":"12345"}`, `{"B":"aGVsbG8gd29ybGQ="}`, `{"BOOL":true}`, `{"L":[{"S":"x"}]}`} {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			t.Fatal(err)
		}
		want := 0
		for typ, x := range m {
			switch typ {
			case "S":
				want = len(str(x))
			case "N":
				want = len(str(x))/2 + 1
			case "B":
				want = base64.StdEncoding.DecodedLen(len(str(x)))
			default:
				want = -1
			}
		}
		if got := valueSize(json.RawMessage(v)); want >= 0 && got != want {
			t.Errorf("valueSize(%s) = %d, want %d", v, got, want)
		}
	}
}
