package repofs

import "golang.org/x/sys/unix"

// openBeneath opens rel below dirfd in one openat2 call that refuses every symlink and every way
// out of the folder; where the kernel or a sandbox has no openat2, one component at a time.
func openBeneath(dirfd int, rel string) (int, error) {
	fd, err := unix.Openat2(dirfd, rel, &unix.OpenHow{Flags: entryFlags, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS})
	if err == unix.ENOSYS || err == unix.EPERM {
		return openAt(dirfd, rel)
	}
	return fd, err
}
