package repofs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFileReplacesSymlink: a report path committed as a symlink is replaced by the report; the link's
// target is never written.
func TestWriteFileReplacesSymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "evalgate.sarif")
	if err := os.Symlink(victim, report); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dir, report, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the symlink's target was written: %q", b)
	}
	fi, err := os.Lstat(report)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 {
		t.Fatalf("report: %v, %v; want a regular file, 0644", fi, err)
	}
	if b, _ := os.ReadFile(report); string(b) != "{}\n" {
		t.Errorf("report holds %q", b)
	}
}

// TestWriteFileFailure: a failing writer leaves the old file and no temporary file behind.
func TestWriteFileFailure(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.json")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := WriteFile(dir, name, func(w io.Writer) error { io.WriteString(w, "new"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("file = %q, want the old content", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestWriteFileErrors name the path asked for, never the temporary file.
func TestWriteFileErrors(t *testing.T) {
	dir := t.TempDir()
	nop := func(io.Writer) error { return nil }
	if err := os.Mkdir(filepath.Join(dir, "out.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		filepath.Join(dir, "out.json"):            "open " + filepath.Join(dir, "out.json") + ": is a directory",
		filepath.Join(dir, "missing", "out.json"): "open " + filepath.Join(dir, "missing", "out.json") + ": no such file or directory",
	} {
		if err := WriteFile(dir, name, nop); err == nil || err.Error() != want {
			t.Errorf("WriteFile(%s) = %v, want %q", name, err, want)
		}
		// CanWrite, which a run asks first, says the same, and leaves nothing behind.
		if err := CanWrite(dir, name); err == nil || err.Error() != want {
			t.Errorf("CanWrite(%s) = %v, want %q", name, err, want)
		}
	}
	if err := CanWrite(dir, filepath.Join(dir, ".git", "config")); err == nil {
		t.Error("CanWrite(.git/config) = nil, want a refusal")
	}
	if err := CanWrite(dir, filepath.Join(dir, "ok.json")); err != nil {
		t.Errorf("CanWrite(ok.json) = %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 { // out.json, the folder made above
		t.Errorf("CanWrite left %d entries in the folder, want only out.json", len(left))
	}
}

// TestWriteFileSymlinkedFolder: a folder on the way to a report inside the repository that is a
// symlink (reports → a folder outside) is refused, and nothing is written where it leads.
func TestWriteFileSymlinkedFolder(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "a", "reports")); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(root, filepath.Join(root, "a", "reports", "x.json"), func(w io.Writer) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "a/reports is a symlink in the repository") {
		t.Errorf("err = %v, want the symlink named", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written where the symlink leads: %v", entries)
	}
	// Outside the repository the path is the workflow's own, symlinks and all.
	if err := WriteFile(t.TempDir(), filepath.Join(root, "a", "reports", "x.json"), func(w io.Writer) error { return nil }); err != nil {
		t.Errorf("outside the repository: %v", err)
	}
}

// TestWriteFileRefusesGit: nothing is written into .git, in any case, nor over a worktree's .git file:
// git's own files, and actions/checkout keeps the workflow's token in .git/config.
func TestWriteFileRefusesGit(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".git/config", ".GIT/hooks-x", "sub/.git"} {
		err := WriteFile(dir, filepath.Join(dir, filepath.FromSlash(name)), func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
		if err == nil || !strings.Contains(err.Error(), "evalgate writes nothing there") {
			t.Errorf("WriteFile(%s) = %v, want a refusal", name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); !os.IsNotExist(err) {
			t.Errorf("%s was written", name)
		}
	}
}
