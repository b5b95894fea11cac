package evalcase

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCountCases(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("three.jsonl", "\xef\xbb\xbf{\"id\": 1}\r\n\n   \n{broken\n{\"id\": 3}")
	write("empty.jsonl", "")
	for name, want := range map[string]int{"three.jsonl": 3, "empty.jsonl": 0} {
		got, err := CountCases(root, name)
		if err != nil || got != want {
			t.Errorf("CountCases(%s) = %d, %v; want %d", name, got, err, want)
		}
	}
	if _, err := CountCases(root, "missing.jsonl"); err == nil {
		t.Error("CountCases of a missing file: no error")
	}
	if _, err := CountCases(root, "../outside.jsonl"); err == nil {
		t.Error("CountCases of a file outside the repository: no error")
	}
}
