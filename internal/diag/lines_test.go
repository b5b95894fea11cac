package diag

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLineIndexMemo: looking on from the last line and counting on from the last offset give exactly
// the position a fresh count gives, in any order of offsets, on text with multi-byte characters, invalid
// bytes, CRLF, empty lines and runs of short ones.
func TestLineIndexMemo(t *testing.T) {
	text := []byte("ab\u00e9c\xc3\x41\xe2\x82 \U0001F600x\r\nsecond \u00e9\u00e9 line\n\xff\xfe tail é\n\n" +
		strings.Repeat("{\n\"a\": 1,\n\n", 12) + "}")
	fresh := func(off int) Pos {
		off = max(0, min(off, len(text)))
		line, start := 1, 0
		for i := 0; i < off; i++ {
			if text[i] == '\n' {
				line, start = line+1, i+1
			}
		}
		return Pos{Line: line, Col: utf8.RuneCount(text[start:off]) + 1}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := NewLineIndex(text)
	for i := 0; i < 5000; i++ {
		off := rng.IntN(len(text) + 3)
		if i%3 != 0 { // mostly increasing runs, as walks ask
			off = min(len(text), x.lastOff+rng.IntN([]int{4, 40}[i%2]))
		}
		if got, want := x.Pos(off), fresh(off); got != want {
			t.Fatalf("Pos(%d) = %v, want %v (after offset %d)", off, got, want, x.lastOff)
		}
	}
}
