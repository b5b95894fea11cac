//go:build !linux

package proc

import "errors"

// SetSubreaper fails: only Linux has child subreapers.
func SetSubreaper() error {
	return errors.New("proc: no child subreaper on this system")
}

// Subreaper reports false: only Linux has child subreapers.
func Subreaper() bool { return false }
