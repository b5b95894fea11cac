package grader

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/proc"
)

// graderWaitPid waits (generously) for a pid file and returns the pid.
func graderWaitPid(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && len(b) > 0 {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
	}
	t.Fatalf("no pid in %s", file)
	return 0
}

// graderWaitOrphan waits (generously) until pid is this process's child: the orphan was inherited.
func graderWaitOrphan(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if st, err := proc.ReadStat(pid); err == nil && st.PPID == os.Getpid() {
			return
		}
	}
	t.Fatalf("process %d never became this process's child", pid)
}

// graderOwnChild starts a sleeping helper in this process's own process group, as evalgate's git children
// are, and kills it at the test's end.
func graderOwnChild(t *testing.T) *exec.Cmd {
	t.Helper()
	c := exec.Command(graderTestExe(t), "1h")
	c.Env = []string{graderHelperEnv + "=sleep"}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return c
}

func TestRunCommandOrphans(t *testing.T) {
	if !proc.Subreaper() {
		t.Fatal("TestMain did not make the test process a child subreaper")
	}
	t.Run("a double-forked orphan without the marker dies with its command", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "gc.pid")
		r := graderRun(t, context.Background(), graderHelper(t, "doublefork", pidFile, "clear", "-"))
		if !r.Exited || r.ExitCode != 0 {
			t.Fatalf("got %s", graderDescribe(r))
		}
		pid := graderWaitPid(t, pidFile)
		if !graderGone(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("orphan %d outlived RunCommand", pid)
		}
	})

	t.Run("a running command's orphans: the marked one waits for its end", func(t *testing.T) {
		dir := t.TempDir()
		release := filepath.Join(dir, "release")
		own := graderOwnChild(t)

		// Command A leaves two orphans while it runs: one with its marker, one without.
		startA := func(env, pidFile string) chan CommandResult {
			done := make(chan CommandResult, 1)
			go func() {
				done <- RunCommand(context.Background(), graderHelper(t, "doublefork", pidFile, env, release))
			}()
			return done
		}
		keepDone := startA("keep", filepath.Join(dir, "keep.pid"))
		clearDone := startA("clear", filepath.Join(dir, "clear.pid"))
		kept := graderWaitPid(t, filepath.Join(dir, "keep.pid"))
		cleared := graderWaitPid(t, filepath.Join(dir, "clear.pid"))
		graderWaitOrphan(t, kept)
		graderWaitOrphan(t, cleared)
		t.Cleanup(func() { syscall.Kill(kept, syscall.SIGKILL); syscall.Kill(cleared, syscall.SIGKILL) })

		// Another command ends: its sweep kills the unmarked orphan, spares the marked one and the
		// process's own child.
		if r := graderRun(t, context.Background(), graderHelper(t, "exit", "0")); !r.Exited || r.ExitCode != 0 {
			t.Fatalf("got %s", graderDescribe(r))
		}
		if !graderGone(cleared) {
			t.Errorf("the orphan without a marker (%d) survived another command's end", cleared)
		}
		if !graderAlive(kept) {
			t.Errorf("the orphan with a running command's marker (%d) was killed", kept)
		}
		if !graderAlive(own.Process.Pid) {
			t.Errorf("the process's own child (%d) was killed", own.Process.Pid)
		}

		// Command A ends: its marked orphan dies with it.
		if err := os.WriteFile(release, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, done := range []chan CommandResult{keepDone, clearDone} {
			select {
			case r := <-done:
				if !r.Exited || r.ExitCode != 0 {
					t.Errorf("command A: %s", graderDescribe(r))
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("command A did not return")
			}
		}
		if !graderGone(kept) {
			t.Errorf("the marked orphan (%d) outlived its command", kept)
		}
		if !graderAlive(own.Process.Pid) {
			t.Errorf("the process's own child (%d) was killed", own.Process.Pid)
		}

		// At the end, KillOrphans kills every child left, its own too.
		KillOrphans()
		if !graderGone(own.Process.Pid) {
			t.Errorf("KillOrphans left the own child %d", own.Process.Pid)
		}
	})
}

// TestKillTreesWholeChain: killTrees kills a whole tree at once, however deep, though each generation is a
// session of its own and would become evalgate's only when its parent dies: a chain of 12,000 processes
// that each fork and setsid outlived a sweep that killed one generation a round.
func TestKillTreesWholeChain(t *testing.T) {
	const depth = 12
	dir := t.TempDir()
	top := exec.Command(graderTestExe(t), dir, strconv.Itoa(depth))
	top.Env = []string{graderHelperEnv + "=chain"}
	if err := top.Start(); err != nil {
		t.Fatal(err)
	}
	pids := make([]int, 0, depth+1)
	for n := depth; n >= 0; n-- {
		pids = append(pids, graderWaitPid(t, filepath.Join(dir, strconv.Itoa(n))))
	}
	t.Cleanup(func() {
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		KillOrphans() // reaps the generations below, which became this process's children as they died
	})
	killTrees([]int{top.Process.Pid}, nil, time.Now().Add(time.Minute))
	top.Wait()
	// Dead is enough (a zombie is not alive): no sweep has run, so a generation killTrees missed lives.
	for i, pid := range pids {
		if !graderGone(pid) {
			t.Errorf("generation %d (pid %d) outlived killTrees", i, pid)
		}
	}
}
