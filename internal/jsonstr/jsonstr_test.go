package jsonstr

import (
	"encoding/json"
	"testing"
)

// check asserts that Unquote reads lit as json.Unmarshal reads it into a string, or that both refuse
// it (End finding the same end as the literal's length where it is one).
func check(t *testing.T, lit []byte) {
	t.Helper()
	got, ok := Unquote(lit)
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
	"\"日本語 ✓\"", `"\u003cb\u003e"`,
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

func BenchmarkUnquote(b *testing.B) {
	lit := []byte(`"[1] Start game\n[2] Options \u003cb\u003eOpen\u003c/b\u003e \u00e9t\u00e9 \ud83c\udf89"`)
	b.Run("kind=jsonstr", func(b *testing.B) {
		for b.Loop() {
			Unquote(lit)
		}
	})
	b.Run("kind=json", func(b *testing.B) {
		for b.Loop() {
			var s string
			json.Unmarshal(lit, &s)
		}
	})
}
