// Package testfs writes the file trees and checks the golden files of
// evalgate's tests. Only tests import it (TestPackageRules keeps it so).
package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files (a slash-separated path under root → its text),
// making the folders they need.
func Write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Tree is Write into a new temporary folder, which it returns.
func Tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	Write(t, root, files)
	return root
}

// Golden compares got with the golden file, or rewrites the file when
// update is set (a test's -update flag).
func Golden(t testing.TB, golden, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("results differ from %s\n--- got\n%s--- want\n%s", golden, got, want)
	}
}
