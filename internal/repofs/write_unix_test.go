//go:build unix

package repofs

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileIntoSpecial: outside the repository, an existing file that is not a regular one (a
// FIFO here, /dev/null or /dev/stdout in a workflow) is written into, never replaced by a file.
func TestWriteFileIntoSpecial(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo) // opens for reading: the writer's open then goes ahead
		got <- b
	}()
	if err := WriteFile(t.TempDir(), fifo, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "{}\n" {
		t.Errorf("the FIFO's reader got %q", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v, %v", fi, err)
	}
}
