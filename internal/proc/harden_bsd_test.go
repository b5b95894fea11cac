//go:build unix && !linux

package proc

import "testing"

// procReexecs reports whether Harden re-executes here: with a pipe, for the small cases only; the checks
// that need /proc are Linux's.
func procReexecs() bool { return false }

func procHelperPlatform() {}

func procCheckPlatform(*testing.T, map[string]string) {}
