package testfs

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
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

func TestFiles(t *testing.T) {
	root := Tree(t, map[string]string{"b.md": "two", "a.md": "one", "c.txt": "other"})
	files := Files(t, filepath.Join(root, "*.md"))
	want := []File{{filepath.Join(root, "a.md"), []byte("one")}, {filepath.Join(root, "b.md"), []byte("two")}}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("Files = %q, want %q", files, want)
	}
	for _, pattern := range []string{filepath.Join(root, "*.yaml"), "["} {
		probe := &recorder{TB: t}
		done := make(chan struct{})
		go func() { // Fatalf ends this goroutine, not the test
			defer close(done)
			Files(probe, pattern)
		}()
		<-done
		if !probe.failed {
			t.Errorf("Files(%q) does not fail", pattern)
		}
	}
}

// recorder is a testing.TB that records a failure instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               { r.TB.Helper() }
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true; runtime.Goexit() }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; runtime.Goexit() }
