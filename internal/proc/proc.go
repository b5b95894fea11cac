// Package proc hardens evalgate's own process before it starts any child (README "Security model"): the
// values of removed variables leave the environment block the kernel shows to other processes, and on Linux
// the process becomes non-dumpable and a child subreaper. It also reads the process table for the orphan
// sweep of package grader. It imports nothing of evalgate's.
package proc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// handoverVar names the variable through which a re-executed image finds the removed entries: its value is
// "FD:DEV:INO", the inherited descriptor and the device and inode it must have, so that a stray value can
// never make evalgate read an unrelated descriptor (standard input, say).
const handoverVar = "EVALGATE_HANDOVER"

// handoverLimit bounds what a re-executed image reads from the handover descriptor, in bytes. The kernel's
// own limit on an environment is smaller.
const handoverLimit = 64 << 20

// Harden prepares the process before anything else runs; call it first in main, with os.Args unchanged
// since start (the re-executed image gets them again).
//
// On Unix, when some variable of the environment is withheld (withheld reports it by name), Harden replaces
// the process image with a fresh copy of the same executable, same pid and arguments, whose environment
// block lacks the withheld entries; they cross the exec in an inherited memfd (Linux) or pipe that the new
// image reads and closes at once, and are restored with os.Setenv, which changes only the runtime's copy of
// the environment: os.Environ and os.Getenv still see them, /proc/PID/environ does not. When the handover
// cannot be made (no memfd and more than a pipe holds, no path to the executable, exec refused), the process
// goes on as it is. Harden marks every descriptor above standard error close-on-exec, so that none the
// process inherited reaches a child. On Linux Harden then makes the process non-dumpable, which closes /proc/PID/environ and
// /proc/PID/mem to other processes of the same non-root user, and a child subreaper, so that orphaned
// descendants of graders become its children (see package grader's orphan sweep). On Windows it does
// nothing.
//
// The returned error says that the re-executed image could not read the withheld entries: they are then
// missing from the environment (a commands.pass-env naming them passes nothing).
func Harden(withheld func(name string) bool) error {
	err := handover(withheld)
	closeOnExec()
	secure()
	return err
}

// split divides env into the entries kept in the environment block and those withheld.
func split(env []string, withheld func(string) bool) (kept, moved []string) {
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name != handoverVar && withheld(name) {
			moved = append(moved, kv)
		} else if name != handoverVar {
			kept = append(kept, kv)
		}
	}
	return kept, moved
}

// encode joins entries for the handover: each "K=V" followed by a NUL byte (no entry holds one).
func encode(entries []string) []byte {
	var b bytes.Buffer
	for _, kv := range entries {
		b.WriteString(kv)
		b.WriteByte(0)
	}
	return b.Bytes()
}

// restore reads the handed-over entries from f, closes f and sets each entry in the runtime's environment.
func restore(f *os.File) error {
	data, err := io.ReadAll(io.LimitReader(f, handoverLimit))
	f.Close()
	if err != nil {
		return fmt.Errorf("cannot read the environment handed over by the re-exec: %w", err)
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, 0)
		if i < 0 {
			i = len(data)
		}
		kv := string(data[:i])
		data = data[min(i+1, len(data)):]
		if name, value, ok := strings.Cut(kv, "="); ok && name != "" {
			os.Setenv(name, value)
		}
	}
	return nil
}

// parseHandover parses handoverVar's value "FD:DEV:INO".
func parseHandover(v string) (fd int, dev, ino uint64, ok bool) {
	parts := strings.Split(v, ":")
	if len(parts) != 3 {
		return 0, 0, 0, false
	}
	fd, err1 := strconv.Atoi(parts[0])
	dev, err2 := strconv.ParseUint(parts[1], 10, 64)
	ino, err3 := strconv.ParseUint(parts[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || fd < 3 {
		return 0, 0, 0, false
	}
	return fd, dev, ino, true
}
