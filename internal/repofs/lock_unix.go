//go:build unix

package repofs

import (
	"os"
	"syscall"
)

// LockDir holds an exclusive lock on the folder dir until unlock is called, waiting for another
// process's: evalgate's read, change and replace of a file in it (the reviews file) is then one step
// for every evalgate that does the same. The folder is locked, not the file, which the replace swaps
// for a new one.
func LockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "lock", Path: dir, Err: err}
	}
	return func() { f.Close() }, nil // closing the descriptor releases the lock
}
