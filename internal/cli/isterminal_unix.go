//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether w is a terminal: an *os.File whose descriptor
// answers the termios request (tcgetattr), as isatty(3) does.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var terr error
	if err := rc.Control(func(fd uintptr) { _, terr = unix.IoctlGetTermios(int(fd), ioctlGetTermios) }); err != nil {
		return false
	}
	return terr == nil
}
