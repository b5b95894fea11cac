package grader

import (
	"strings"
	"testing"
)

var wordSeeds = []string{
	"", "a", "don't stop", "e.g. this", "1,000.50 and 3;4", "a1 1a a.1 1.a", "snake_case __ _x_ x__y",
	"a:b a::b a.'b", "end.", ".start", "tab\tand\nlines\r\n", "# Heading\n\n- item one\n- item two\n",
	"http://example.com/path?q=1", "x'y'z", "3.14.15", "a_1_b", "''", "a'", "'a",
}

// TestASCIIWords: the ASCII count is the segmenter's on the seeds.
func TestASCIIWords(t *testing.T) {
	for _, s := range wordSeeds {
		if got, want := asciiWords([]byte(s)), uaxWords([]byte(s)); got != want {
			t.Errorf("%q: %d words, the segmenter counts %d", s, got, want)
		}
	}
}

// FuzzASCIIWords: on any ASCII text, asciiWords counts what the UAX #29 segmenter counts.
func FuzzASCIIWords(f *testing.F) {
	for _, s := range wordSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !isASCII(b) {
			return
		}
		if got, want := asciiWords(b), uaxWords(b); got != want {
			t.Fatalf("%q: %d words, the segmenter counts %d", b, got, want)
		}
	})
}

// BenchmarkASCIIWords is tool:length's word count on plain English prose.
func BenchmarkASCIIWords(b *testing.B) {
	text := []byte(strings.Repeat("the operator reads a config file and writes status to the cluster, v1.2 it's done.\n", 200))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		asciiWords(text)
	}
}

// TestIsASCII: a byte of 0x80 or more anywhere, in the eight-byte steps or the tail, makes text not ASCII.
func TestIsASCII(t *testing.T) {
	for n := range 20 {
		b := []byte(strings.Repeat("a", n))
		if !isASCII(b) {
			t.Errorf("%d ASCII bytes: not ASCII", n)
		}
		for i := range n {
			c := append([]byte(nil), b...)
			c[i] = 0x80
			if isASCII(c) {
				t.Errorf("%d bytes, 0x80 at %d: ASCII", n, i)
			}
		}
	}
}
