//go:build unix

package repofs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
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

// TestReadEntry: an entry of an EntryDir reads whole, at any size up to the limit; over it, a symbolic link, a
// directory or a missing file is an error, never a hang.
func TestReadEntry(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenEntryDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	read := func(p string, limit int64, buf []byte) ([]byte, error) {
		return d.ReadEntry(filepath.Base(p), limit, buf)
	}
	for _, size := range []int{0, 10, entryBuffer - 1, entryBuffer, entryBuffer + 1, 3*entryBuffer + 7} {
		p := filepath.Join(dir, fmt.Sprintf("e%d", size))
		want := bytes.Repeat([]byte("x"), size)
		os.WriteFile(p, want, 0o644)
		got, err := read(p, 1<<20, nil)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("size %d: got %d bytes, %v", size, len(got), err)
		}
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 100), 0o644)
	if _, err := read(big, 99, nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := read(big, 100, nil); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	// A reused buffer, larger than the limit and full of an earlier read, changes nothing.
	stale := bytes.Repeat([]byte("y"), 4*entryBuffer)
	if got, err := read(filepath.Join(dir, "e10"), 1<<20, stale); err != nil || string(got) != "xxxxxxxxxx" {
		t.Errorf("into a used buffer: %q, %v", got, err)
	}
	if _, err := read(big, 99, stale); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit, into a larger buffer: %v", err)
	}
	os.Symlink(big, filepath.Join(dir, "link"))
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o644)
	for _, name := range []string{"link", "missing", "."} {
		if _, err := read(filepath.Join(dir, name), 1<<20, nil); err == nil {
			t.Errorf("%s was read", name)
		}
	}
	if b, _ := read(fifo, 1<<20, nil); len(b) != 0 {
		t.Errorf("a named pipe read as %q", b)
	}
}

// TestEntryDir: an entry below the open folder reads; a symlink anywhere
// below the folder, a way out of it, or a missing entry is an error. The component-at-a-time way
// (openAt, for systems without openat2) refuses the same.
func TestEntryDir(t *testing.T) {
	root := t.TempDir()
	dir, outside := filepath.Join(root, "judge"), filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(dir, "ab"), filepath.Join(outside, "cd")} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(dir, "ab", "k.json"), []byte("entry"), 0o644)
	os.WriteFile(filepath.Join(outside, "cd", "k.json"), []byte("outside"), 0o644)
	os.WriteFile(filepath.Join(outside, "k.json"), []byte("outside"), 0o644)
	os.Symlink(filepath.Join(outside, "cd"), filepath.Join(dir, "cd"))
	os.Symlink(filepath.Join(outside, "k.json"), filepath.Join(dir, "ab", "link.json"))
	syscall.Mkfifo(filepath.Join(dir, "ab", "fifo"), 0o644)
	d, err := OpenEntryDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dirfd := d.fd
	for name, open := range map[string]func(string) ([]byte, error){
		"openat2": func(rel string) ([]byte, error) { return d.ReadEntry(rel, 1<<20, nil) },
		"openAt": func(rel string) ([]byte, error) {
			fd, err := openAt(dirfd, rel)
			if err != nil {
				return nil, err
			}
			return readEntry(fd, func() string { return rel }, 1<<20, nil)
		},
	} {
		if b, err := open("ab/k.json"); err != nil || string(b) != "entry" {
			t.Errorf("%s: ab/k.json = %q, %v", name, b, err)
		}
		for _, rel := range []string{"cd/k.json", "ab/link.json", "../outside/k.json", "ab/../../outside/k.json", "ab/..", "ab/missing.json", "ab"} {
			if b, err := open(rel); err == nil {
				t.Errorf("%s: %s was read: %q", name, rel, b)
			}
		}
		if b, _ := open("ab/fifo"); len(b) != 0 {
			t.Errorf("%s: a named pipe read as %q", name, b)
		}
	}
	if _, err := OpenEntryDir(filepath.Join(root, "none")); err == nil {
		t.Error("a missing folder was opened")
	}
}

// TestReadListedInto: a file Lstat found regular reads as ReadFileInto reads it, limits included; one
// replaced by a symlink or a FIFO after the Lstat is an error, never followed nor waited on; a FileInfo
// that is not a regular file's is read the careful way.
func TestReadListedInto(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "page.md")
	if err := os.WriteFile(p, []byte("# Page\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lstat, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := ReadListedInto(p, lstat, 100, nil); err != nil || string(b) != "# Page\n" {
		t.Fatalf("ReadListedInto = %q, %v", b, err)
	}
	if _, err := ReadListedInto(p, lstat, 3, nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v, want ErrTooLarge", err)
	}
	other := filepath.Join(dir, "other.md")
	if err := os.WriteFile(other, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, p); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadListedInto(p, lstat, 100, nil); err == nil || len(b) != 0 {
		t.Errorf("a symlink swapped in was followed: %q, %v", b, err)
	}
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadListedInto(p, lstat, 100, nil); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO swapped in: %v, want ErrNotRegular", err)
	}
	dirInfo, _ := os.Lstat(dir)
	if _, err := ReadListedInto(dir, dirInfo, 100, nil); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v, want ErrNotRegular", err)
	}
}
