package jev

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCountCases(t *testing.T) {
	root := t.TempDir()
	b, err := os.ReadFile(filepath.Join("testdata", "contract.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "c.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bad.json"), []byte(`{"version": "0.1"`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, faults := LoadContract("c.json", b, Options{})
	if len(faults) > 0 {
		t.Fatalf("testdata/contract.json is invalid: %v", faults)
	}
	if n, faults := CountCases(root, "c.json"); n != len(c.Cases) || n == 0 || len(faults) > 0 {
		t.Errorf("CountCases(c.json) = %d, %v; want %d", n, faults, len(c.Cases))
	}
	if n, faults := CountCases(root, "bad.json"); n != 0 || len(faults) == 0 {
		t.Errorf("CountCases(bad.json) = %d, %v; want 0 and faults", n, faults)
	}
	if n, faults := CountCases(root, "gone.json"); n != 0 || len(faults) != 1 || faults[0].Code != "target_unreadable" {
		t.Errorf("CountCases(gone.json) = %d, %v; want target_unreadable", n, faults)
	}
}
