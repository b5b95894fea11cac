//go:build unix

package repofs

import "syscall"

// openNonblock keeps an open of a FIFO from waiting for a writer; regular files ignore it.
const openNonblock = syscall.O_NONBLOCK

// openNoFollow refuses a symbolic link as the last element of the path.
const openNoFollow = syscall.O_NOFOLLOW
