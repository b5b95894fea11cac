// Package testfs writes the file trees and checks the golden files of
// evalgate's tests. Only tests import it (TestPackageRules keeps it so).
package testfs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
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

// File is a file of a test's data, as Files reads it.
type File struct {
	Path string // as the pattern matched it
	Text []byte
}

// Files reads the files matching pattern (filepath.Glob's syntax) in name
// order. A pattern that matches nothing fails t: a data-driven test or a fuzz
// corpus never passes for want of data.
func Files(t testing.TB, pattern string) []File {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err == nil && len(paths) == 0 {
		err = errors.New("no file matches")
	}
	if err != nil {
		t.Fatalf("%s: %v", pattern, err)
	}
	files := make([]File, len(paths))
	for i, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = File{p, text}
	}
	return files
}

// Schema compiles raw, an exported JSON Schema document, as Draft 2020-12
// with formats asserted; a document that is not JSON or does not compile
// fails t.
func Schema(t testing.TB, raw []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("the exported schema does not compile: %v\n%s", err, raw)
	}
	return sch
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
