//go:build !linux

package grader

// commandSweep does nothing: outside Linux evalgate is no child subreaper, and a process that left its
// command's group is not reached (README "Limits").
func commandSweep(final bool) {}
