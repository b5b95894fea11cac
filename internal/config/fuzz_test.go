package config_test

import (
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/testfs"
)

// FuzzConfig parses arbitrary text as a config: no panic, every fault and
// note well-formed and positioned inside the text, every definition kept in
// the config valid. Seeds: the testdata configs.
func FuzzConfig(f *testing.F) {
	for _, file := range testfs.Files(f, filepath.Join("testdata", "*", "*.yaml")) {
		f.Add(file.Text)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		cfg, faults := config.Parse(text, "c.yaml", "/r")
		checkInvariants(t, cfg, faults, text, "c.yaml")
	})
}
