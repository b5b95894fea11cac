package frontmatter

import (
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
