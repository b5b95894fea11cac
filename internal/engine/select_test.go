package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
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
