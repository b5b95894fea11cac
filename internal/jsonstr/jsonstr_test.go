package jsonstr

import (
	"encoding/binary"
	"encoding/json"
	"testing"
)

// check asserts that Unquote reads lit as json.Unmarshal reads it, and that End finds where
// literals starting anywhere in lit end as endOracle does.
func check(t *testing.T, lit []byte) {
	t.Helper()
	checkUnquote(t, lit)
	for i := range lit {
		if got, want := End(lit, i), endOracle(lit, i); got != want {
			t.Fatalf("End(%q, %d) = %d, want %d", lit, i, got, want)
		}
	}
}

// endOracle is End as the JSON grammar reads it, one byte at a time: a backslash takes the byte after it.
func endOracle(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return -1
}

// checkUnquote asserts that Unquote reads lit as json.Unmarshal reads it into a string, or that both refuse
// it (End finding the same end as the literal's length where it is one).
func checkUnquote(t *testing.T, lit []byte) {
	t.Helper()
	got, ok := Unquote(lit)
	if Valid(lit) != ok {
		t.Fatalf("Valid(%q) = %v, Unquote's ok %v", lit, !ok, ok)
	}
	var want string
	err := json.Unmarshal(lit, &want)
	isLit := len(lit) >= 2 && lit[0] == '"' && End(lit, 0) == len(lit)
	switch {
	case ok && (err != nil || got != want):
		t.Fatalf("Unquote(%q) = %q, json.Unmarshal: %q, %v", lit, got, want, err)
	case !ok && err == nil && isLit:
		t.Fatalf("Unquote(%q) refused what json.Unmarshal reads as %q", lit, want)
	}
}

var seeds = []string{
	`""`, `"plain"`, `"\"\\\/\b\f\n\r\t\'"`, `"\u00e9\u20AC"`, `"\ud83c\udf89"`, `"\ud800"`, `"\ud800\u0041"`,
	`"\udc00\ud800"`, "\"\xff\xfe\"", "\"a\x01\"", `"\x"`, `"\u12"`, `"\u12G4"`, `"a"b"`, `"`, `"\"`, `x"`,
	"\"日本語 ✓\"", `"\u003cb\u003e"`, `"\\\\"x"`, `"a\\\"b\\\\"`, `"0123456789abcdef\"01234567"`,
	"\"01234567\x1f0123456789\"", "\"0123456\xc3\xa90123456789\"", "\"abcdefgh\x7f\"",
}

// TestPlainASCII: the eight-byte test agrees with the byte-by-byte rule for every byte value at every
// place of a word of otherwise plain bytes, and for every pair of values at two places.
func TestPlainASCII(t *testing.T) {
	plainByte := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	word := func(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
	for c := range 256 {
		for at := range 8 {
			b := []byte("abcdefgh")
			b[at] = byte(c)
			if got := plainASCII(word(b)); got != plainByte(byte(c)) {
				t.Errorf("plainASCII(%q) = %v", b, got)
			}
		}
	}
	for c := range 256 {
		for d := range 256 {
			b := []byte{'x', byte(c), 'x', 'x', 'x', 'x', byte(d), 'x'}
			if got := plainASCII(word(b)); got != (plainByte(byte(c)) && plainByte(byte(d))) {
				t.Errorf("plainASCII(%q) = %v", b, got)
			}
		}
	}
}

func TestUnquote(t *testing.T) {
	for _, s := range seeds {
		check(t, []byte(s))
	}
	for _, tt := range []struct {
		in  string
		end int
	}{{`"ab" x`, 4}, {`"a\"b"`, 6}, {`"a\\"b`, 5}, {`"open`, -1}, {`x`, -1}, {`"\`, -1}} {
		if got := End([]byte(tt.in), 0); got != tt.end {
			t.Errorf("End(%q) = %d, want %d", tt.in, got, tt.end)
		}
	}
}

// FuzzUnquote: Unquote reads every literal as json.Unmarshal does, and refuses what it refuses.
func FuzzUnquote(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(check)
}

// BenchmarkUnquote reads a literal with escapes (text=escaped) and one of plain text (text=plain), with
// End and Unquote (kind=jsonstr) and with json.Unmarshal (kind=json).
func BenchmarkUnquote(b *testing.B) {
	for _, text := range []struct{ name, lit string }{
		{"escaped", `"[1] Start game\n[2] Options \u003cb\u003eOpen\u003c/b\u003e \u00e9t\u00e9 \ud83c\udf89"`},
		{"plain", `"The page says how to install it (Run the installer) and names the versions it supports; both quotes are in the page, and été too."`},
	} {
		lit := []byte(text.lit)
		b.Run("text="+text.name+"/kind=jsonstr", func(b *testing.B) {
			for b.Loop() {
				Unquote(lit[:End(lit, 0)])
			}
		})
		b.Run("text="+text.name+"/kind=json", func(b *testing.B) {
			for b.Loop() {
				var s string
				json.Unmarshal(lit, &s)
			}
		})
	}
}

// TestValidAllocatesNothing: checking a literal with escapes makes no string of it, and Unquote makes
// its string with one allocation, not a buffer and then a copy.
func TestValidAllocatesNothing(t *testing.T) {
	lit := []byte(`"Gegenst\u00e4nde: dr\u00fccke \u003cb\u003e\u00d6ffnen\u003c/b\u003e"`)
	if n := testing.AllocsPerRun(100, func() { Valid(lit) }); n != 0 {
		t.Errorf("Valid: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { Unquote(lit) }); n != 1 {
		t.Errorf("Unquote: %v allocations, want 1", n)
	}
}
