package repofs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestReadFileLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name     string
		size     int
		limit    int64
		wantLen  int
		tooLarge bool
	}{
		{"empty", 0, 10, 0, false},
		{"below", 9, 10, 9, false},
		{"exactly the limit", 10, 10, 10, false},
		{"one past", 11, 10, 10, true},
		{"far past", 1 << 20, 4096, 4096, true},
		{"zero limit, empty", 0, 0, 0, false},
		{"zero limit, one byte", 1, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(tt.name, tt.size)
			got, err := ReadFile(p, tt.limit)
			if len(got) != tt.wantLen {
				t.Errorf("read %d bytes, want %d", len(got), tt.wantLen)
			}
			var tl *TooLargeError
			switch {
			case tt.tooLarge && (!errors.As(err, &tl) || !errors.Is(err, ErrTooLarge)):
				t.Fatalf("err = %v, want a *TooLargeError", err)
			case tt.tooLarge && (tl.Size != int64(tt.size) || tl.Limit != tt.limit):
				t.Errorf("TooLargeError{Size: %d, Limit: %d}, want {%d, %d}", tl.Size, tl.Limit, tt.size, tt.limit)
			case !tt.tooLarge && err != nil:
				t.Errorf("err = %v, want nil", err)
			}
		})
	}
}

// TestReadFileNotRegular: devices, directories and symlinks to them are refused without reading a byte.
// /dev/zero would never end; a limit would stop it, but it is not read at all.
func TestReadFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, want string }{
		{"zero", "is a device"},
		{"sub", "is a directory"},
	} {
		got, err := ReadFile(filepath.Join(dir, tt.name), 1<<20)
		if !errors.Is(err, ErrNotRegular) || got != nil {
			t.Errorf("%s: ReadFile = %d bytes, %v; want nothing and ErrNotRegular", tt.name, len(got), err)
			continue
		}
		if msg := err.Error(); !bytes.HasSuffix([]byte(msg), []byte(tt.want)) {
			t.Errorf("%s: error %q does not end in %q", tt.name, msg, tt.want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: err = %v, want ErrNotExist", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{17: "17 bytes", 2048: "2 KiB", 8 << 20: "8 MiB", 3 << 19: "1.5 MiB", 44040208: "42.0 MiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReason: a failed read is worded without the path, which the message
// around it names already.
func TestReason(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, want string }{
		{"missing", "no such file"},
		{"sub", "it is a directory; only regular files are read"},
		{"missing/deeper", "no such file"},
	} {
		_, err := ReadFile(filepath.Join(dir, tt.name), 10)
		if got := Reason(err); got != tt.want {
			t.Errorf("%s: Reason = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := Reason(errors.New("disk on fire")); got != "disk on fire" {
		t.Errorf("a plain error: Reason = %q", got)
	}
}
