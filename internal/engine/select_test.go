package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/testfs"
)

// TestListFilesSkipsCache: nothing under the judge cache folder is a
// candidate, by git or by the walk, while a sibling sharing its prefix is.
func TestListFilesSkipsCache(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a.md", ".evalgate/cache/ab/k.md", ".evalgate/cachex/b.md", ".evalgate/c.jsonl"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{".evalgate/c.jsonl", ".evalgate/cachex/b.md", "a.md"}
	for _, tc := range []struct {
		name   string
		isRepo bool
	}{{"walk", false}, {"git", true}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.isRepo {
				cmd := exec.Command("git", "init", "-q", root)
				cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git init: %v: %s", err, out)
				}
			}
			got, err := listFiles(context.Background(), root, tc.isRepo, ".evalgate/cache")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("listFiles = %q, want %q", got, want)
			}
		})
	}
}

// TestDependentsManyTouched: past maxNeedles touched files, every selected page is a candidate and is
// confirmed by its frontmatter, so the page whose companion is among them is still re-checked, and a
// page that reads none of them is not.
func TestDependentsManyTouched(t *testing.T) {
	files := map[string]string{
		"docs/reads.md": "---\nevals:\n  - {id: has, grader: tool:contains, target: {source: file, path: ../data/f0150.txt}, options: {text: x}}\n---\n",
		"docs/other.md": "---\nevals:\n  - {id: has, grader: tool:contains, options: {text: x}}\n---\nx\n",
	}
	var paths []string
	for i := range maxNeedles + 50 {
		name := fmt.Sprintf("data/f%04d.txt", i)
		files[name] = "x\n"
		paths = append(paths, name)
	}
	dir := testfs.Tree(t, files)
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	var checked []string
	for _, r := range rep.Results.Slice() {
		checked = append(checked, r.File)
	}
	if !slices.Contains(checked, "docs/reads.md") || slices.Contains(checked, "docs/other.md") {
		t.Errorf("results for %q: want docs/reads.md only", checked)
	}
}
