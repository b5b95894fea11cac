//go:build unix

package repofs

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFileFIFO: a named pipe with no writer would block an ordinary open forever.
func TestReadFileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.md")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile(fifo) = %v, want ErrNotRegular", err)
	}
}
