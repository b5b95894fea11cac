//go:build !unix

package proc

// handover does nothing: Windows has no exec that keeps the process.
func handover(func(string) bool) error { return nil }

// secure does nothing outside Unix.
func secure() {}

// closeOnExec does nothing outside Unix.
func closeOnExec() {}
