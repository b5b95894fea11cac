//go:build unix

package grader

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// graderHelperPlatform handles the helper modes that need Unix:
//
//	signal NAME                   the helper kills itself with SIGKILL or SIGTERM
//	spawn PIDFILE LEADER ESCAPE   starts a grandchild that sleeps an hour holding stdout and stderr, writes its
//	                              pid to PIDFILE, then exits 0 (LEADER=exit) or sleeps an hour (LEADER=sleep);
//	                              ESCAPE=setsid puts the grandchild in its own session, out of the group
func graderHelperPlatform(mode string, args []string) (int, bool) {
	switch mode {
	case "signal":
		sig := syscall.SIGKILL
		if len(args) > 0 && args[0] == "TERM" {
			sig = syscall.SIGTERM
		}
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Minute) // the signal arrives first
		return 101, true
	case "chain": // chain DIR N: write this pid to DIR/N, start "chain DIR N-1" in a session of its own, sleep
		if len(args) != 2 {
			return 102, true
		}
		n, _ := strconv.Atoi(args[1])
		if n > 0 {
			exe, err := os.Executable()
			if err != nil {
				return 103, true
			}
			next := exec.Command(exe, args[0], strconv.Itoa(n-1))
			next.Env = []string{graderHelperEnv + "=chain"}
			next.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := next.Start(); err != nil {
				return 104, true
			}
		}
		if err := os.WriteFile(filepath.Join(args[0], strconv.Itoa(n)), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return 105, true
		}
		time.Sleep(time.Hour)
		return 0, true
	case "joinparent": // try to join the parent's process group; print the error, or "joined"
		pgid, err := syscall.Getpgid(os.Getppid())
		if err == nil {
			err = syscall.Setpgid(0, pgid)
		}
		if err != nil {
			fmt.Println(err)
			return 0, true
		}
		fmt.Println("joined")
		return 0, true
	case "doublefork":
		if len(args) != 3 {
			return 102, true
		}
		return graderDoubleFork(args[0], args[1], args[2]), true
	case "middle":
		if len(args) != 2 {
			return 102, true
		}
		return graderMiddle(args[0], args[1]), true
	case "spawn":
		if len(args) != 3 {
			return 102, true
		}
		exe, err := os.Executable()
		if err != nil {
			return 103, true
		}
		gc := exec.Command(exe, "1h")
		gc.Env = []string{graderHelperEnv + "=sleep"}
		gc.Stdout, gc.Stderr = os.Stdout, os.Stderr
		if args[2] == "setsid" {
			gc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 104, true
		}
		if err := os.WriteFile(args[0], []byte(strconv.Itoa(gc.Process.Pid)), 0o644); err != nil {
			return 105, true
		}
		os.Stdout.WriteString("spawned\n")
		if args[1] == "sleep" {
			time.Sleep(time.Hour)
		}
		return 0, true
	}
	return 0, false
}

// graderDoubleFork is the helper mode "doublefork PIDFILE ENV RELEASE": it starts a middle process that
// starts a grandchild in a session of its own (setsid), writes the grandchild's pid to PIDFILE and exits,
// so the grandchild is orphaned while this leader still runs; ENV=keep gives the grandchild this process's
// environment (with RunCommand's marker), ENV=clear an environment without it. The leader then exits at
// once (RELEASE "-") or when the file RELEASE exists.
func graderDoubleFork(pidFile, env, release string) int {
	exe, err := os.Executable()
	if err != nil {
		return 103
	}
	mid := exec.Command(exe, pidFile, env)
	mid.Env = append(os.Environ(), graderHelperEnv+"=middle") // the later entry wins
	if out, err := mid.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "middle: %v: %s\n", err, out)
		return 104
	}
	if release == "-" {
		return 0
	}
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(release); err == nil {
			return 0
		}
	}
	return 105
}

// graderMiddle is the helper mode "middle PIDFILE ENV" of graderDoubleFork.
func graderMiddle(pidFile, env string) int {
	exe, err := os.Executable()
	if err != nil {
		return 103
	}
	gc := exec.Command(exe, "1h")
	gc.Env = []string{graderHelperEnv + "=sleep"}
	if env == "keep" {
		gc.Env = append(os.Environ(), graderHelperEnv+"=sleep")
	}
	gc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := gc.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 104
	}
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(gc.Process.Pid)), 0o644); err != nil {
		return 105
	}
	return 0 // the grandchild is orphaned now
}

// graderAlive reports whether pid names a live process; a zombie (dead, not yet reaped by its new parent)
// counts as dead.
func graderAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc (macOS): kill succeeded
	}
	// The state follows the parenthesised command name: "pid (comm) S ...".
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// graderGone polls until pid is dead, for at most a generous bound, and reports whether it died.
func graderGone(pid int) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !graderAlive(pid) {
			return true
		}
	}
	return false
}

func TestRunCommandNotExecutable(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		mode    os.FileMode
		content string
	}{
		{"no execute bit", 0o644, "#!/bin/sh\nexit 0\n"},
		{"execute bit, unknown format", 0o755, "just text, no interpreter line\n"},
		{"execute bit, empty", 0o755, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("tool %d", i))
			if err := os.WriteFile(p, []byte(tt.content), tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, tt.mode); err != nil { // umask
				t.Fatal(err)
			}
			r := graderRun(t, context.Background(), Command{Argv: []string{p}, Dir: dir, Timeout: time.Minute})
			if !r.NotFound || r.Exited {
				t.Fatalf("got %s, want NotFound", graderDescribe(r))
			}
		})
	}
}

func TestRunCommandSignal(t *testing.T) {
	tests := []struct{ arg, want string }{
		{"KILL", "SIGKILL"},
		{"TERM", "SIGTERM"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			r := graderRun(t, context.Background(), graderHelper(t, "signal", tt.arg))
			if r.Signal != tt.want || r.Exited || r.TimedOut || r.Err != nil {
				t.Fatalf("got %s, want Signal %q", graderDescribe(r), tt.want)
			}
		})
	}
}

func TestRunCommandGrandchild(t *testing.T) {
	tests := []struct {
		name    string
		leader  string // exit | sleep
		escape  string // group | setsid
		timeout time.Duration
		// want
		timedOut     bool
		grandchildOK bool // the grandchild survives (it left the process group)
	}{
		{name: "timeout kills the group", leader: "sleep", escape: "group", timeout: 300 * time.Millisecond, timedOut: true},
		{name: "leader exits, grandchild holds stdout", leader: "exit", escape: "group", timeout: time.Minute},
		{name: "escaped grandchild holds stdout", leader: "exit", escape: "setsid", timeout: time.Minute, grandchildOK: true},
		{name: "timeout, escaped grandchild holds stdout", leader: "sleep", escape: "setsid", timeout: 300 * time.Millisecond, timedOut: true, grandchildOK: true},
	}
	// On Linux the test process is a child subreaper (TestMain), as evalgate is: the escaped grandchild
	// becomes its orphan when the leader dies, and RunCommand's orphan sweep kills it too.
	escapes := runtime.GOOS != "linux"
	for _, tt := range tests {
		tt.grandchildOK = tt.grandchildOK && escapes
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
			c := graderHelper(t, "spawn", pidFile, tt.leader, tt.escape)
			// A loaded machine may not start the grandchild before a short timeout: then the run is
			// repeated with four times the time, so that what is asserted never depends on the speed.
			var r CommandResult
			var data []byte
			var err error
			for c.Timeout = tt.timeout; ; c.Timeout *= 4 {
				r = graderRun(t, context.Background(), c)
				if data, err = os.ReadFile(pidFile); err == nil || !tt.timedOut || c.Timeout > time.Minute {
					break
				}
			}
			if err != nil {
				t.Fatalf("no grandchild pid (%v); result %s", err, graderDescribe(r))
			}
			pid, err := strconv.Atoi(string(data))
			if err != nil {
				t.Fatal(err)
			}
			if tt.grandchildOK {
				t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) // started by this test
			}
			if tt.timedOut {
				if !r.TimedOut || r.Exited {
					t.Errorf("got %s, want TimedOut", graderDescribe(r))
				}
			} else if !r.Exited || r.ExitCode != 0 || r.TimedOut {
				t.Errorf("got %s, want exit 0", graderDescribe(r))
			}
			if string(r.Stdout) != "spawned\n" {
				t.Errorf("stdout = %q, want %q", r.Stdout, "spawned\n")
			}
			if tt.grandchildOK {
				if !graderAlive(pid) {
					t.Errorf("grandchild %d outside the group died; the test does not exercise a held pipe", pid)
				}
			} else if !graderGone(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("grandchild %d outlived RunCommand", pid)
			}
		})
	}
}

// TestRunCommandOwnSession: a command runs in a session of its own, so neither it nor what it starts can
// join evalgate's process group (whose members the sweeps spare) or another command's.
func TestRunCommandOwnSession(t *testing.T) {
	r := graderRun(t, context.Background(), graderHelper(t, "joinparent"))
	if !r.Exited || r.ExitCode != 0 {
		t.Fatalf("got %s", graderDescribe(r))
	}
	if got := strings.TrimSpace(string(r.Stdout)); got != syscall.EPERM.Error() {
		t.Errorf("setpgid into the parent's group: %q, want %q", got, syscall.EPERM.Error())
	}
}
