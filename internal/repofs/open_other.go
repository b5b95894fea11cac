//go:build !unix

package repofs

// openNonblock: opening a named pipe does not block on this system's path.
const openNonblock = 0
