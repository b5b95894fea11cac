package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
)

// FuzzConfig parses arbitrary text as a config: no panic, every fault and
// note well-formed and positioned inside the text, every definition kept in
// the config valid. Seeds: the testdata configs.
func FuzzConfig(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yaml"))
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		cfg, faults := config.Parse(text, "c.yaml", "/r")
		checkInvariants(t, cfg, faults, text, "c.yaml")
	})
}
