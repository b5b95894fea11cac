//go:build aix || linux || solaris || zos

package cli

import "golang.org/x/sys/unix"

// ioctlGetTermios is the ioctl request of tcgetattr on Linux, AIX, Solaris
// and z/OS.
const ioctlGetTermios = unix.TCGETS
