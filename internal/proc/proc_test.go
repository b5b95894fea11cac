package proc

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestSplitEncodeParse(t *testing.T) {
	withheld := func(name string) bool { return strings.Contains(name, "TOKEN") }
	kept, moved := split([]string{"PATH=/bin", "A_TOKEN=x=y", "EMPTY_TOKEN=", handoverVar + "=3:1:2", "HOME=/h"}, withheld)
	if want := []string{"PATH=/bin", "HOME=/h"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if want := []string{"A_TOKEN=x=y", "EMPTY_TOKEN="}; !slices.Equal(moved, want) {
		t.Errorf("moved %q, want %q", moved, want)
	}
	if got := string(encode(moved)); got != "A_TOKEN=x=y\x00EMPTY_TOKEN=\x00" {
		t.Errorf("encode = %q", got)
	}
	for v, ok := range map[string]bool{"3:1:2": true, "10:0:0": true, "2:1:2": false, "x:1:2": false, "3:1": false, "3:1:2:4": false, "": false} {
		if _, _, _, got := parseHandover(v); got != ok {
			t.Errorf("parseHandover(%q) ok = %v, want %v", v, got, ok)
		}
	}
}

func TestRestore(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "handover")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("PROC_TEST_A=1=2\x00PROC_TEST_B=\x00=bad\x00PROC_TEST_C=last"))
	f.Seek(0, 0)
	t.Setenv("PROC_TEST_A", "")
	t.Setenv("PROC_TEST_B", "old")
	t.Setenv("PROC_TEST_C", "")
	if err := restore(f); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"PROC_TEST_A": "1=2", "PROC_TEST_B": "", "PROC_TEST_C": "last"} {
		if got := os.Getenv(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, err := f.Stat(); err == nil {
		t.Error("restore left the descriptor open")
	}
}
