package frontmatter

import (
	"os"
	"path/filepath"
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
