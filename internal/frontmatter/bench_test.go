package frontmatter

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSplit compares Split with reading the page from disk, the work
// every page costs anyway.
func BenchmarkSplit(b *testing.B) {
	page := []byte(benchPage())
	file := filepath.Join(b.TempDir(), "page.md")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("split", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for b.Loop() {
			Split(page)
		}
	})
	b.Run("read", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			if _, err := os.ReadFile(file); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read+split", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			src, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			Split(src)
		}
	})
}

func BenchmarkParseYAML(b *testing.B) {
	d := Split([]byte(benchPage()))
	b.SetBytes(int64(len(d.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, problems := ParseYAML(d.Text, d.TextLine); len(problems) > 0 {
			b.Fatal(problems)
		}
	}
}

// BenchmarkParseJSON compares the positioned JSON parser with encoding/json decoding the same text into
// map[string]any, the baseline of what a validator that knows no positions does.
func BenchmarkParseJSON(b *testing.B) {
	var buf strings.Builder
	buf.WriteString(`{"version": "0.1", "cases": [`)
	for i := range 5000 {
		if i > 0 {
			buf.WriteString(",\n")
		}
		fmt.Fprintf(&buf, `{"id": "case-%d", "question": {"kind": "choice", "labels": ["a", "b", "c\u00e9"]}, "expect": {"label": "b", "confidence": %d.25, "note": "caf\u00e9 \"q\""}}`, i, i%7)
	}
	buf.WriteString("]}")
	text := []byte(buf.String())
	b.Run("ParseJSON", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, probs := ParseJSON(text, 1); len(probs) > 0 {
				b.Fatal(probs)
			}
		}
	})
	b.Run("encoding-json-any", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			var v any
			if err := json.Unmarshal(text, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
