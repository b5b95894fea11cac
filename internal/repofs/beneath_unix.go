//go:build unix && !linux

package repofs

// openBeneath opens rel below dirfd one component at a time, refusing a symlink at each.
func openBeneath(dirfd int, rel string) (int, error) { return openAt(dirfd, rel) }
