//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import "golang.org/x/sys/unix"

// ioctlGetTermios is the ioctl request of tcgetattr on the BSDs.
const ioctlGetTermios = unix.TIOCGETA
