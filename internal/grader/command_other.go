//go:build !unix

package grader

import (
	"io/fs"
	"os"
	"syscall"
)

// commandSysProcAttr returns nil: outside Unix there is no process group to create.
func commandSysProcAttr() *syscall.SysProcAttr {
	return nil
}

// commandKillGroup kills the process itself; outside Unix its children are not reached (README's limits).
func commandKillGroup(p *os.Process) {
	if p != nil {
		p.Kill()
	}
}

// commandSignal reports no signal: outside Unix a process only exits.
func commandSignal(*os.ProcessState) (string, bool) {
	return "", false
}

// commandExecutable reports true: outside Unix, execute permission is decided by the file's extension when it
// is started.
func commandExecutable(fs.FileInfo) bool {
	return true
}

// commandNotExecutable reports false: outside Unix, fs.ErrNotExist and fs.ErrPermission cover the start
// errors of a file that cannot be executed.
func commandNotExecutable(error) bool {
	return false
}
