package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTreeAndGolden(t *testing.T) {
	root := Tree(t, map[string]string{"a/b/c.txt": "hi\n", "d.txt": ""})
	for name, want := range map[string]string{"a/b/c.txt": "hi\n", "d.txt": ""} {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	golden := filepath.Join(root, "g.out")
	Golden(t, golden, "new\n", true)
	if got, _ := os.ReadFile(golden); string(got) != "new\n" {
		t.Errorf("update wrote %q", got)
	}
	probe := &recorder{TB: t}
	Golden(probe, golden, "other\n", false)
	if !probe.failed {
		t.Error("a different text passes the golden check")
	}
}

// recorder is a testing.TB that records a failure instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               { r.TB.Helper() }
func (r *recorder) Errorf(string, ...any) { r.failed = true }
