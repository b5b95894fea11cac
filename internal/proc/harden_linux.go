package proc

import (
	"golang.org/x/sys/unix"
)

// executable is the file to re-execute: the kernel's link to the running image, which stays valid when the
// file was renamed or deleted since.
func executable() (string, error) {
	return "/proc/self/exe", nil
}

// stash returns a descriptor, inherited by exec, holding data: a memfd (no size limit, no file system
// needed), else a pipe.
func stash(data []byte) (int, error) {
	fd, err := unix.MemfdCreate("evalgate-env", 0)
	if err != nil {
		return stashPipe(data)
	}
	if err := writeAll(fd, data); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// secure makes the process non-dumpable (other processes of the same user lose /proc/PID/environ, mem,
// maps and ptrace) and a child subreaper (orphaned descendants become its children). Both are best effort:
// a kernel without them leaves the process as it was.
func secure() {
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}
