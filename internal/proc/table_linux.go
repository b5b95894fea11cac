package proc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// SetSubreaper makes the process a child subreaper: a descendant whose parent dies becomes its child
// instead of init's. [Harden] does this for evalgate; tests call it to stand where evalgate stands.
func SetSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// Subreaper reports whether the process is a child subreaper.
func Subreaper() bool {
	v := new(int32) // on the heap: its address stays valid during the call
	err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(v)), 0, 0, 0)
	runtime.KeepAlive(v)
	return err == nil && *v != 0
}

// Stat is what /proc/PID/stat says about a process.
type Stat struct {
	PPID  int  // parent's pid
	PGID  int  // process group id
	State byte // 'R', 'S', 'Z' (zombie: dead, not yet reaped), ...
}

// ReadStat reads /proc/PID/stat.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	// "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so fields start after the
	// last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Stat{}, errors.New("proc: malformed stat")
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return Stat{}, errors.New("proc: malformed stat")
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	if err1 != nil || err2 != nil {
		return Stat{}, errors.New("proc: malformed stat")
	}
	return Stat{PPID: ppid, PGID: pgid, State: f[0][0]}, nil
}

// childrenFiles reports whether the kernel has /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN).
var childrenFiles = sync.OnceValue(func() bool {
	pid := strconv.Itoa(os.Getpid())
	_, err := os.Stat("/proc/" + pid + "/task/" + pid + "/children")
	return err == nil
})

// Children returns the pids of pid's children, zombies included: from the children file of each of its
// threads where the kernel has them, else from a scan of /proc for processes whose parent is pid. A
// process that does not exist has none.
func Children(pid int) ([]int, error) {
	if !childrenFiles() {
		return scanChildren(pid)
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue // the thread ended meanwhile
		}
		for _, f := range bytes.Fields(b) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// scanChildren finds pid's children by reading every process's stat.
func scanChildren(pid int) ([]int, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, n := range names {
		c, err := strconv.Atoi(n)
		if err != nil || c == pid {
			continue
		}
		if st, err := ReadStat(c); err == nil && st.PPID == pid {
			out = append(out, c)
		}
	}
	return out, nil
}

// environLimit bounds how much of a process's environment [Getenv] reads, in bytes.
const environLimit = 4 << 20

// Getenv returns the value of the variable name in the environment block of process pid (its environment
// at its last exec). It fails when the block cannot be read (another user's process, a non-dumpable one).
func Getenv(pid int, name string) (value string, found bool, err error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, environLimit))
	if err != nil {
		return "", false, err
	}
	prefix := []byte(name + "=")
	for len(b) > 0 {
		kv := b
		if i := bytes.IndexByte(b, 0); i >= 0 {
			kv, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if v, ok := bytes.CutPrefix(kv, prefix); ok {
			value, found = string(v), true // the last one wins, as in getenv
		}
	}
	return value, found, nil
}
