//go:build unix

package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
)

// closeOnExec marks every descriptor above standard error close-on-exec, so that none the process was
// started with (a pipe of the runner or of a wrapper, a file it left open) reaches a grader: os/exec
// passes a child only its three standard descriptors, but an inherited descriptor without the flag
// crosses every exec. The handover's descriptor is read and closed before this runs.
func closeOnExec() {
	dir := "/proc/self/fd"
	if _, err := os.Stat(dir); err != nil {
		dir = "/dev/fd" // macOS and the BSDs
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// handover re-executes the process without the withheld entries, or, in the re-executed image, restores
// them (see [Harden]). It returns only when no exec happened or after the restore.
func handover(withheld func(string) bool) error {
	if v, ok := os.LookupEnv(handoverVar); ok {
		os.Unsetenv(handoverVar)
		if f := inherited(v); f != nil {
			return restore(f)
		}
		// A stale or stray value: this is a first image.
	}
	kept, moved := split(os.Environ(), withheld)
	if len(moved) == 0 {
		return nil
	}
	exe, err := executable()
	if err != nil {
		return nil
	}
	fd, err := stash(encode(moved))
	if err != nil {
		return nil
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil
	}
	kept = append(kept, fmt.Sprintf("%s=%d:%d:%d", handoverVar, fd, uint64(st.Dev), uint64(st.Ino)))
	err = syscall.Exec(exe, os.Args, kept)
	// Only a failed exec returns: go on with the environment block as it is.
	syscall.Close(fd)
	return nil
}

// inherited returns the handover descriptor named by handoverVar's value v, positioned at its start and
// closed on any later exec, or nil when v names no descriptor of the recorded device and inode.
func inherited(v string) *os.File {
	fd, dev, ino, ok := parseHandover(v)
	if !ok {
		return nil
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || uint64(st.Dev) != dev || uint64(st.Ino) != ino {
		return nil
	}
	syscall.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "evalgate-handover")
	f.Seek(0, io.SeekStart) // a memfd was left at its end; a pipe cannot seek and needs not
	return f
}

// errTooLarge says that the withheld entries do not fit in a pipe's buffer.
var errTooLarge = errors.New("the withheld environment does not fit in a pipe")

// stashPipe returns the read end of a pipe holding data whose write end is already closed, so that the
// reader meets end of file after data. The read end is inherited by exec. The write end is non-blocking:
// data larger than the pipe's buffer fails with errTooLarge instead of blocking (nobody reads before exec).
func stashPipe(data []byte) (int, error) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return -1, err
	}
	syscall.CloseOnExec(p[1])
	err := syscall.SetNonblock(p[1], true)
	if err == nil {
		err = writeAll(p[1], data)
	}
	syscall.Close(p[1])
	if err != nil {
		syscall.Close(p[0])
		if errors.Is(err, syscall.EAGAIN) {
			err = errTooLarge
		}
		return -1, err
	}
	return p[0], nil
}

// writeAll writes data to fd, retrying short writes and EINTR.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}
