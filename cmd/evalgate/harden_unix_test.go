//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// hardenHelperMain is a small program for the tests of evalgate's own process hardening:
//
//	steal DIR NAME...  as a grader: read the parent's /proc/PID/environ and /proc/PID/mem and print, for
//	                   every "NAME=value" found, the value reversed and in base64 (past "***" masking),
//	                   then exit 1 so that the output becomes evidence; with DIR other than "-", first
//	                   write DIR/started (holding the parent's pid) and wait for DIR/release
//	parent ARGV...     run ARGV as a child with this environment minus every variable whose name holds
//	                   TOKEN, KEY or PASSWORD, the way evalgate ran a grader before it hardened itself,
//	                   and copy the child's stdout: the unhardened parent the attack was found on
//	tree DIR           as a grader: start a child in the group and one in a session of its own (setsid),
//	                   write DIR/leader.pid, DIR/child.pid, DIR/setsid.pid, and sleep for an hour
//	sleep              sleep for an hour
//	exit N             exit with status N
func hardenHelperMain(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "hardenhelper: no mode")
		return 100
	}
	switch args[0] {
	case "steal":
		if len(args) < 3 {
			return 100
		}
		return hardenSteal(args[1], args[2:])
	case "parent":
		return hardenParent(args[1:])
	case "tree":
		if len(args) != 2 {
			return 100
		}
		return hardenTree(args[1])
	case "sleep":
		time.Sleep(time.Hour)
		return 0
	case "exit":
		if len(args) != 2 {
			return 100
		}
		n, _ := strconv.Atoi(args[1])
		return n
	}
	fmt.Fprintf(os.Stderr, "hardenhelper: unknown mode %q\n", args[0])
	return 100
}

// hardenSteal is the attack: a grader reading its parent's memory for secrets.
func hardenSteal(dir string, names []string) int {
	ppid := os.Getppid()
	if dir != "-" {
		if err := os.WriteFile(filepath.Join(dir, "started"), []byte(strconv.Itoa(ppid)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 101
		}
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(dir, "release")); err == nil {
				break
			}
			if time.Now().After(deadline) {
				return 102
			}
		}
	}
	var out bytes.Buffer
	report := func(source string, data []byte) {
		for _, name := range names {
			for _, v := range hardenValues(data, name) {
				fmt.Fprintf(&out, "%s %s reversed=%s base64=%s\n", source, name, hardenReverse(v),
					base64.StdEncoding.EncodeToString([]byte(v)))
			}
		}
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", ppid))
	if err != nil {
		fmt.Fprintf(&out, "thief: environ: %v\n", err)
	} else {
		fmt.Fprintf(&out, "thief: environ: %d bytes\n", len(environ))
		report("environ", environ)
	}
	mem, err := hardenReadMem(ppid)
	if err != nil {
		fmt.Fprintf(&out, "thief: mem: %v\n", err)
	} else {
		fmt.Fprintf(&out, "thief: mem: %d bytes\n", len(mem))
		report("mem", mem)
	}
	os.Stdout.Write(out.Bytes())
	os.Stderr.Write(out.Bytes())
	return 1
}

// hardenValues returns the values of "name=value" entries in data, each ending at a NUL byte or a byte
// outside printable ASCII.
func hardenValues(data []byte, name string) []string {
	var out []string
	key := []byte(name + "=")
	for {
		i := bytes.Index(data, key)
		if i < 0 {
			return out
		}
		data = data[i+len(key):]
		end := bytes.IndexFunc(data, func(r rune) bool { return r < 0x20 || r > 0x7e })
		if end < 0 {
			end = len(data)
		}
		if end > 0 && end < 200 {
			v := string(data[:end])
			if !strings.Contains(strings.Join(out, "\x00"), v) {
				out = append(out, v)
			}
		}
	}
}

func hardenReverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// hardenReadMem reads the writable private mappings of process pid (heap, stacks, Go's arenas) through
// /proc/PID/maps and /proc/PID/mem, up to 256 MiB.
func hardenReadMem(pid int) ([]byte, error) {
	maps, err := os.Open(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return nil, err
	}
	defer maps.Close()
	mem, err := os.Open(fmt.Sprintf("/proc/%d/mem", pid))
	if err != nil {
		return nil, err
	}
	defer mem.Close()
	var all []byte
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasPrefix(f[1], "rw") {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		n := min(end-start, 256<<20-uint64(len(all)))
		buf := make([]byte, n)
		k, _ := mem.ReadAt(buf, int64(start))
		all = append(all, buf[:k]...)
		if len(all) >= 256<<20 {
			break
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("nothing readable in /proc/%d/mem", pid)
	}
	return all, nil
}

// hardenParent runs argv the way evalgate ran a grader before it hardened itself: a scrubbed environment
// for the child, the secrets left in its own.
func hardenParent(argv []string) int {
	if len(argv) == 0 {
		return 100
	}
	c := exec.Command(argv[0], argv[1:]...)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		if !strings.Contains(up, "TOKEN") && !strings.Contains(up, "KEY") && !strings.Contains(up, "PASSWORD") {
			c.Env = append(c.Env, kv)
		}
	}
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, io.Discard
	err := c.Run()
	os.Stdout.Write(out.Bytes())
	if err != nil && c.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 101
	}
	return 0
}

// hardenTree leaves processes behind for the stop-signal test.
func hardenTree(dir string) int {
	self, err := os.Executable()
	if err != nil {
		return 101
	}
	start := func(file string, attr *syscall.SysProcAttr) bool {
		c := exec.Command(self, "sleep")
		c.Args[0] = "hardenhelper"
		c.SysProcAttr = attr
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return false
		}
		return os.WriteFile(filepath.Join(dir, file), []byte(strconv.Itoa(c.Process.Pid)), 0o644) == nil
	}
	if !start("child.pid", nil) || !start("setsid.pid", &syscall.SysProcAttr{Setsid: true}) {
		return 102
	}
	if os.WriteFile(filepath.Join(dir, "leader.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644) != nil {
		return 103
	}
	time.Sleep(time.Hour)
	return 0
}
