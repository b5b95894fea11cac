//go:build unix && !linux

package proc

import "os"

// executable is the file to re-execute.
func executable() (string, error) {
	return os.Executable()
}

// stash returns a descriptor, inherited by exec, holding data: a pipe, so the handover fails when data
// exceeds the pipe's buffer (16 KiB or more).
func stash(data []byte) (int, error) {
	return stashPipe(data)
}

// secure does nothing: there is no non-dumpable flag or subreaper to set here.
func secure() {}
