//go:build !unix

package repofs

// openNonblock: opening a named pipe does not block on this system's path.
const openNonblock = 0

// openNoFollow is not available: Open checks the mode after opening.
const openNoFollow = 0
