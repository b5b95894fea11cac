package grader

import (
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/evalgate/evalgate/internal/proc"
)

// commandFinalGrace bounds how long [KillOrphans] keeps killing and reaping.
const commandFinalGrace = 5 * time.Second

// commandSweep kills the orphans evalgate inherited as a child subreaper and reaps them, round after round
// (a killed orphan's own children become evalgate's in turn), until a round finds none or the grace is
// spent: commandDrainGrace after a command, commandFinalGrace at the end (final). It waits only for the
// pids it killed, never with wait4(-1), which would steal the exits exec.Cmd waits for.
//
// An orphan is a child of evalgate that is not a registered leader. After a command (final false) it is
// spared when it is in evalgate's own process group (evalgate's git children, which RunCommand did not
// start), or, while alive, when it is in the process group of a command still running or its environment
// block carries the marker of one (a still-running grader's legitimate descendant); an orphan whose
// environment cannot be read (another user's, a non-dumpable one) is not spared. At the end (final true)
// only the registered leaders are spared.
func commandSweep(final bool) {
	if !proc.Subreaper() {
		return // orphans go to init or another subreaper: none can be evalgate's
	}
	commandLive.starts.Lock()
	defer commandLive.starts.Unlock()
	commandLive.mu.Lock()
	leaders := make(map[int]string, len(commandLive.leaders))
	markers := make(map[string]bool, len(commandLive.leaders))
	for pid, m := range commandLive.leaders {
		leaders[pid] = m
		markers[m] = true
	}
	commandLive.mu.Unlock()

	self, own := os.Getpid(), syscall.Getpgrp()
	grace := commandDrainGrace
	if final {
		grace = commandFinalGrace
	}
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		kids, err := proc.Children(self)
		if err != nil {
			return
		}
		var victims, groups []int
		for _, pid := range kids {
			if _, ok := leaders[pid]; ok {
				continue
			}
			st, err := proc.ReadStat(pid)
			if err != nil || st.PPID != self {
				continue // reaped meanwhile
			}
			if !final && commandSpared(pid, st, own, leaders, markers) {
				continue
			}
			// The pid stays ours until we reap it: no other process can have taken it.
			victims = append(victims, pid)
			// A group of its own (setsid) goes with it; a group id stays reserved while any member lives,
			// so this reaches only that group. Never evalgate's own group.
			if st.PGID > 0 && st.PGID != own {
				if _, live := leaders[st.PGID]; !live {
					groups = append(groups, st.PGID)
				}
			}
		}
		if len(victims) == 0 {
			return
		}
		killTrees(victims, groups, deadline)
		if !commandReap(victims, deadline) {
			return
		}
	}
}

// maxTree bounds how many descendants killTrees stops: a machine's process table holds a few tens of
// thousands.
const maxTree = 1 << 17

// killTrees kills the orphans roots, their process groups and every descendant of theirs. Killing only
// the orphans would reach one generation a round (a dead orphan's children become evalgate's), and a
// chain of processes that each fork and setsid outruns that: 12,000 of them outlived a five-second sweep.
// So the trees are stopped first, walked again until a walk finds no one new (a stopped process forks no
// more, so even a tree still growing is caught), and only then killed; what dies is reaped as evalgate's
// children by the rounds that follow.
func killTrees(roots, groups []int, deadline time.Time) {
	stopped := map[int]bool{}
	order := make([]int, 0, len(roots)) // parents before their children
	for _, pid := range roots {
		syscall.Kill(pid, syscall.SIGSTOP)
		stopped[pid] = true
		order = append(order, pid)
	}
	for grew := true; grew && len(stopped) < maxTree && time.Now().Before(deadline); {
		grew = false
		queue := append([]int(nil), roots...)
		for len(queue) > 0 && len(stopped) < maxTree {
			pid := queue[0]
			queue = queue[1:]
			kids, _ := proc.Children(pid)
			for _, k := range kids {
				if !stopped[k] {
					syscall.Kill(k, syscall.SIGSTOP)
					stopped[k], grew = true, true
					order = append(order, k)
				}
				queue = append(queue, k)
			}
		}
	}
	// Children first: a stopped process whose parent dies may be sent SIGCONT (its process group is
	// orphaned with a stopped member) and fork again before its own SIGKILL.
	for _, pid := range slices.Backward(order) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	for _, g := range groups {
		syscall.Kill(-g, syscall.SIGKILL)
	}
}

// commandSpared reports whether the orphan pid stays alive after a command (see commandSweep).
func commandSpared(pid int, st proc.Stat, own int, leaders map[int]string, markers map[string]bool) bool {
	if st.PGID == own {
		return true
	}
	if st.State == 'Z' {
		return false // dead: only to be reaped
	}
	if _, ok := leaders[st.PGID]; ok {
		return true
	}
	m, found, err := proc.Getenv(pid, CommandMarkerVar)
	return err == nil && found && markers[m]
}

// commandReap waits for each of pids, killed children of evalgate, until deadline; it reports whether all
// were reaped. A pid not reaped by then is reaped later, in the background.
func commandReap(pids []int, deadline time.Time) bool {
	done := make(chan struct{}, len(pids))
	for _, pid := range pids {
		go func() {
			var ws syscall.WaitStatus
			for {
				if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
					break
				}
			}
			done <- struct{}{}
		}()
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for range pids {
		select {
		case <-done:
		case <-timer.C:
			return false
		}
	}
	return true
}
