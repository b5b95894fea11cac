//go:build !unix

package repofs

// LockDir locks nothing where flock does not exist (README "Limits": evalgate runs on Linux and
// macOS); concurrent reviews there may lose one another's record.
func LockDir(string) (unlock func(), err error) { return func() {}, nil }
