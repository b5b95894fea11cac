package frontmatter

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// TestRounded: an integer whose text a float64 cannot hold exactly is rounded; one it holds, in any
// notation, is not, nor is any number below 2^53.
func TestRounded(t *testing.T) {
	for text, want := range map[string]bool{
		"9007199254740993": true, "-9007199254740993": true, "0x20000000000001": true, "9.007199254740993e15": true,
		"18014398509481985": true, "+9007199254740993": true, "9_007_199_254_740_993": true,
		"9007199254740992": false, "-9007199254740992": false, "0x20000000000000": false, "9.007199254740992e15": false,
		"18014398509481984": false, "1e22": false, "12": false, "9007199254740991": false,
		"1e300": true, // 10^300 has no float64 of its own
	} {
		n := &Node{Kind: Number, Text: text}
		f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimPrefix(text, "+"), "_", ""), 64)
		if err != nil {
			i, _ := new(big.Int).SetString(text, 0)
			f, _ = new(big.Float).SetInt(i).Float64()
		}
		n.Num = f
		if got := n.Rounded(); got != want {
			t.Errorf("Rounded(%s, read as %v) = %v, want %v", text, f, got, want)
		}
	}
}

// TestJSONValueExactIntegers: an integer a float64 rounds reaches JSON Schema as written (a json.Number),
// so that a maximum of 2^53 refuses 2^53+1; one a float64 holds exactly stays a number.
func TestJSONValueExactIntegers(t *testing.T) {
	for _, tt := range []struct {
		yaml string
		want any
	}{
		{"a: 9007199254740993", json.Number("9007199254740993")},
		{"a: -9007199254740993", json.Number("-9007199254740993")},
		{"a: 0x20000000000001", json.Number("9007199254740993")},
		{"a: 9007199254740992", float64(1 << 53)},
		{"a: 12", int64(12)},
		{"a: 1.5", 1.5},
	} {
		root, probs := ParseYAML([]byte(tt.yaml), 1)
		if len(probs) > 0 {
			t.Fatalf("%s: %v", tt.yaml, probs)
		}
		if got := root.JSONValue().(map[string]any)["a"]; got != tt.want {
			t.Errorf("%s: JSONValue %#v, want %#v", tt.yaml, got, tt.want)
		}
	}
}
