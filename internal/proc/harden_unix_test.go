//go:build unix

package proc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// procHelperEnv turns the test binary into the helper program: it prints "image PID" before Harden
// (once per image), calls Harden withholding every *_SECRET variable, and prints what it then sees.
const procHelperEnv = "EVALGATE_PROC_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(procHelperEnv) != "" {
		os.Exit(procHelper())
	}
	os.Exit(m.Run())
}

func procHelper() int {
	fmt.Printf("image %d\n", os.Getpid())
	os.Stdout.Sync()
	err := Harden(func(name string) bool { return strings.HasSuffix(name, "_SECRET") })
	fmt.Printf("harden err=%v\n", err)
	fmt.Printf("getenv %s\n", os.Getenv("PROC_SECRET"))
	big := 0
	for i := range 4 {
		big += len(os.Getenv(fmt.Sprintf("BIG%d_SECRET", i)))
	}
	fmt.Printf("big %d\n", big)
	_, handover := os.LookupEnv(handoverVar)
	fmt.Printf("handover var %v\n", handover)
	if block, err := os.ReadFile("/proc/self/environ"); err == nil {
		fmt.Printf("block has secret %v\n", bytes.Contains(block, []byte("PROC_SECRET=")))
		fmt.Printf("block has plain %v\n", bytes.Contains(block, []byte("PROC_PLAIN=plain")))
	}
	if flags, err := unix.FcntlInt(3, unix.F_GETFD, 0); err == nil {
		fmt.Printf("fd3 cloexec %v\n", flags&unix.FD_CLOEXEC != 0)
	}
	procHelperPlatform()
	return 0
}

// procRun runs the helper with env and returns its output lines.
func procRun(t *testing.T, env []string, stdin []byte) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(exe, "-test.run=^$", "extra arg")
	c.Env = append(env, procHelperEnv+"=1")
	c.Stdin = bytes.NewReader(stdin)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func TestHardenReexec(t *testing.T) {
	// 400 KiB, beyond a pipe's buffer: the memfd carries it (one variable may hold at most 128 KiB).
	var big []string
	for i := range 4 {
		big = append(big, fmt.Sprintf("BIG%d_SECRET=%s", i, strings.Repeat("s", 100<<10)))
	}
	for _, tt := range []struct {
		name, secret string
		extra        []string
		big          string
	}{
		{"small", "hunter2-value", nil, "0"},
		{"beyond a pipe", "hunter2-value", big, strconv.Itoa(400 << 10)},
		{"a stray handover variable is ignored", "hunter2-value", []string{handoverVar + "=0:0:0"}, "0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := append([]string{"PROC_SECRET=" + tt.secret, "PROC_PLAIN=plain"}, tt.extra...)
			lines := procRun(t, env, []byte("stdin is not the handover\n"))
			var images []string
			got := map[string]string{}
			for _, l := range lines {
				if pid, ok := strings.CutPrefix(l, "image "); ok {
					images = append(images, pid)
					continue
				}
				k, v, _ := strings.Cut(l, " ")
				if strings.HasPrefix(l, "block has ") || strings.HasPrefix(l, "handover var") {
					k, v = l[:strings.LastIndexByte(l, ' ')], l[strings.LastIndexByte(l, ' ')+1:]
				}
				got[k] = v
			}
			if procReexecs() && (len(images) != 2 || images[0] != images[1]) {
				t.Errorf("images %q: want two images with the same pid (one re-exec)", images)
			}
			if got["harden"] != "err=<nil>" {
				t.Errorf("Harden: %s", got["harden"])
			}
			if got["getenv"] != tt.secret {
				t.Errorf("os.Getenv(PROC_SECRET) after Harden = %q, want the secret", got["getenv"])
			}
			if got["big"] != tt.big {
				t.Errorf("the BIG*_SECRET values hold %s bytes after Harden, want %s", got["big"], tt.big)
			}
			if got["handover var"] != "false" {
				t.Errorf("%s is still set", handoverVar)
			}
			if procReexecs() && (got["block has secret"] != "false" || got["block has plain"] != "true") {
				t.Errorf("environment block: secret %s, plain %s; want false, true", got["block has secret"], got["block has plain"])
			}
			procCheckPlatform(t, got)
		})
	}
	t.Run("nothing withheld: no re-exec", func(t *testing.T) {
		lines := procRun(t, []string{"PROC_PLAIN=plain"}, nil)
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "image ") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d images, want 1:\n%s", n, strings.Join(lines, "\n"))
		}
	})
}

func TestStashPipe(t *testing.T) {
	fd, err := stashPipe([]byte("A_SECRET=1\x00"))
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "pipe")
	t.Setenv("A_SECRET", "")
	if err := restore(f); err != nil || os.Getenv("A_SECRET") != "1" {
		t.Errorf("restore from a pipe: err %v, A_SECRET=%q", err, os.Getenv("A_SECRET"))
	}
	if _, err := stashPipe(bytes.Repeat([]byte("x"), 16<<20)); !errors.Is(err, errTooLarge) {
		t.Errorf("16 MiB through a pipe: err %v, want errTooLarge", err)
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil {
		t.Errorf("descriptor %d still open", fd)
	}
}

// TestHardenInheritedDescriptors: a descriptor the process was started with, without close-on-exec (a
// runner's pipe), is close-on-exec after Harden, so no grader inherits it; with and without a re-exec.
func TestHardenInheritedDescriptors(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range [][]string{{"PROC_PLAIN=plain"}, {"PROC_SECRET=s"}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		c := exec.Command(exe, "-test.run=^$")
		c.Env = append(env, procHelperEnv+"=1")
		c.ExtraFiles = []*os.File{w} // fd 3 in the child, without close-on-exec
		out, err := c.CombinedOutput()
		r.Close()
		w.Close()
		if err != nil {
			t.Fatalf("helper: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "fd3 cloexec true\n") {
			t.Errorf("%v: fd 3 is not close-on-exec after Harden:\n%s", env, out)
		}
	}
}
