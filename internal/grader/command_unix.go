//go:build unix

package grader

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// commandSysProcAttr puts the child in a new session, and so in a new process group whose id is its pid.
// A new session, not only a new group: a process may join any group of its own session, and one of
// evalgate's session could join evalgate's own group, whose members the sweeps spare (evalgate's git
// children), or a running grader's.
func commandSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}

// commandKillGroup sends SIGKILL to every process of p's group. Once the leader has been reaped, the group id
// stays reserved while any member lives, so this reaches only our own processes; with no member left it
// fails with ESRCH, which is ignored.
func commandKillGroup(p *os.Process) {
	if p != nil && p.Pid > 0 {
		syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
}

// commandSignal returns the conventional name of the signal that ended the process ("SIGKILL",
// "SIGTERM"; "signal 70" for one without a name), as kill -l and a shell's messages name it.
func commandSignal(st *os.ProcessState) (string, bool) {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return "", false
	}
	if name := unix.SignalName(ws.Signal()); name != "" {
		return name, true
	}
	return fmt.Sprintf("signal %d", int(ws.Signal())), true
}

// commandExecutable reports whether any execute bit is set. The kernel decides for the current user at exec
// time; a failure there (EACCES) is also NotFound.
func commandExecutable(fi fs.FileInfo) bool {
	return fi.Mode().Perm()&0o111 != 0
}

// commandNotExecutable reports whether a start error says the file is not an executable: no known format
// (ENOEXEC: there is no shell to fall back to), a directory, or a path through a file.
func commandNotExecutable(err error) bool {
	return errors.Is(err, syscall.ENOEXEC) || errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ENOTDIR)
}
