//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package cli

import "io"

// isTerminal reports no terminal where evalgate cannot ask: the output is
// then the plain text report, without colour or progress line.
func isTerminal(io.Writer) bool { return false }
