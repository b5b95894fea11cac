package grader

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// CommandTailSize is how many bytes of each of stdout and stderr a command result keeps: the last 64 KiB.
const CommandTailSize = 64 << 10

// commandDrainGrace bounds how long RunCommand keeps reading stdout and stderr after the command's process
// group was killed. Killed members close their ends at once; only a process that left the group (setsid) and
// escaped the orphan sweep can hold a pipe open longer, and it is not waited for.
const commandDrainGrace = time.Second

// CommandMarkerVar names the variable RunCommand adds to every child's environment: a value unique to the
// command within the process ("RUNID-N"), which its descendants inherit. The orphan sweep leaves an orphan
// carrying the marker of a command still running for that command's end.
const CommandMarkerVar = "EVALGATE_RUN"

// commandRunID is the RUNID part of every marker of this process: random, so that a marker names one
// command of one evalgate run.
var commandRunID = func() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

// commandSeq numbers the commands of this process, for their markers.
var commandSeq atomic.Uint64

// commandLive registers the commands running now: the pid of each leader (its process group id too) and its
// marker. Start and deregistration hold starts for reading, the orphan sweep holds it for writing, so that
// a sweep never meets a leader started but not yet registered, nor one reaped but still registered.
var commandLive struct {
	starts  sync.RWMutex
	mu      sync.Mutex
	leaders map[int]string
}

// commandRegister records a started leader; the caller holds commandLive.starts for reading.
func commandRegister(pid int, marker string) {
	commandLive.mu.Lock()
	if commandLive.leaders == nil {
		commandLive.leaders = map[int]string{}
	}
	commandLive.leaders[pid] = marker
	commandLive.mu.Unlock()
}

// commandEnded deregisters a reaped leader whose group was killed, then sweeps the orphans.
func commandEnded(pid int) {
	commandLive.starts.RLock()
	commandLive.mu.Lock()
	delete(commandLive.leaders, pid)
	commandLive.mu.Unlock()
	commandLive.starts.RUnlock()
	commandSweep(false)
}

// KillOrphans kills every child process evalgate has left besides the leaders of commands still running:
// on Linux, the descendants of graders it inherited as a child subreaper (see [RunCommand]) that no
// command's end has killed yet, and what they leave in turn, for a bounded time. Call it when grading is
// over, before exit. Elsewhere it does nothing.
func KillOrphans() {
	commandSweep(true)
}

// Command is one grader command, ready to run.
type Command struct {
	Argv    []string      // after placeholder substitution; Argv[0] is looked up on PATH if it has no '/'
	Dir     string        // working directory (absolute)
	Env     []string      // the child's environment ("K=V"), already scrubbed; RunCommand adds CommandMarkerVar
	Stdin   []byte        // the target bytes, delivered on stdin while the command runs
	Timeout time.Duration // > 0
	// Keep is how many bytes of each of stdout and stderr the result keeps, the last ones; 0 is
	// CommandTailSize. A tool whose output is read as findings keeps more.
	Keep int
}

// CommandResult is the outcome of [RunCommand]: exactly one of Exited, Signal != "", TimedOut, NotFound and
// Err != nil (checked in that order) describes it; with NotFound, Err also holds the underlying error for
// evidence. Stdout and Stderr are filled whenever the process started, including after a timeout.
type CommandResult struct {
	Exited   bool   // the process exited normally (ExitCode valid)
	ExitCode int    // the exit status when Exited; otherwise -1
	Signal   string // the signal's name when killed by a signal (not by our timeout), e.g. "SIGKILL", "SIGTERM"
	TimedOut bool   // Timeout elapsed first; the process group was killed
	NotFound bool   // executable missing or not executable (also: a directory, permission denied, unknown format)
	Err      error  // any other failure: to start, an invalid Command or Dir, or ctx done (wrapping ctx's cause)
	Stdout   []byte // the last CommandTailSize bytes written to stdout (not redacted)
	Stderr   []byte // the last CommandTailSize bytes written to stderr (not redacted)
	// StdoutCut and StderrCut say the stream was longer than what was kept: its start is gone.
	StdoutCut, StderrCut bool
	Duration             time.Duration // wall time from start to the result, including the drain of the pipes
}

// Substitute returns argv with the placeholders replaced: vars maps a name without braces ("file", "target",
// "id") to its value, and "{name}" is replaced wherever it appears inside an argument ("--in={file}"). One
// pass: replaced text is never re-scanned, so a value holding "{id}" stays literal. "{x}" for a name x not in
// vars, and an unclosed "{", stay as they are. argv is not modified.
func Substitute(argv []string, vars map[string]string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = substituteOne(a, vars)
	}
	return out
}

// substituteOne replaces the placeholders of one argument.
func substituteOne(a string, vars map[string]string) string {
	if !strings.Contains(a, "{") {
		return a
	}
	var b strings.Builder
	b.Grow(len(a))
	for {
		open := strings.IndexByte(a, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(a[open+1:], '}')
		if end < 0 {
			break
		}
		name := a[open+1 : open+1+end]
		if v, ok := vars[name]; ok && !strings.Contains(name, "{") {
			b.WriteString(a[:open])
			b.WriteString(v)
			a = a[open+1+end+1:]
			continue
		}
		// Not a placeholder: keep the '{' and look again just after it ("{{id}}" holds "{id}").
		b.WriteString(a[:open+1])
		a = a[open+1:]
	}
	b.WriteString(a)
	return b.String()
}

// RunCommand runs c and returns its outcome; it never panics on a bad Command and never returns before the
// child's process group was killed.
//
// No shell is involved: Argv[0] is resolved (a bare name on evalgate's own PATH, as os/exec does; a name
// with '/' relative to Dir) and executed with Argv and c.Env plus [CommandMarkerVar]. On Unix the child leads
// a new process group; stdin is a pipe fed with c.Stdin (then closed), stdout and stderr are pipes read into
// tail buffers of CommandTailSize bytes each, so a child printing gigabytes costs no memory. When the child
// exits, when c.Timeout elapses, or when ctx is done, the whole group gets SIGKILL, so no grandchild outlives
// the eval; then the pipes are drained for at most one more second (a process that escaped and holds a pipe
// does not make RunCommand wait). On Windows only the child itself is killed.
//
// Descendants that left the group (setsid, a double fork) are reached on Linux when evalgate is a child
// subreaper (proc.Harden): they become its children when their parent dies, and after each command's group
// kill an orphan sweep kills every such inherited child, with its own process group, unless it is in
// evalgate's own process group (evalgate's git children) or carries the marker or the process group of a
// command still running; those wait for that command's end or [KillOrphans].
func RunCommand(ctx context.Context, c Command) (res CommandResult) {
	start := time.Now()
	res.ExitCode = -1
	defer func() { res.Duration = time.Since(start) }()

	if len(c.Argv) == 0 || c.Argv[0] == "" {
		res.Err = errors.New("grader: empty command")
		return res
	}
	if c.Timeout <= 0 {
		res.Err = fmt.Errorf("grader: command timeout %v is not positive", c.Timeout)
		return res
	}
	if err := ctx.Err(); err != nil {
		res.Err = fmt.Errorf("grader: command not started: %w", context.Cause(ctx))
		return res
	}
	// A missing Dir would fail in the child with the same errno as a missing executable: tell them apart here.
	if c.Dir != "" {
		if fi, err := os.Stat(c.Dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = fmt.Errorf("%s is not a directory", c.Dir)
			}
			res.Err = fmt.Errorf("grader: working directory: %w", err)
			return res
		}
	}
	path, err := commandResolve(c.Argv[0], c.Dir)
	if err != nil {
		res.NotFound = true
		res.Err = err
		return res
	}

	marker := commandRunID + "-" + strconv.FormatUint(commandSeq.Add(1), 10)
	env := append(c.Env[:len(c.Env):len(c.Env)], CommandMarkerVar+"="+marker) // never nil: see exec.Cmd.Env
	cmd := &exec.Cmd{Path: path, Args: c.Argv, Dir: c.Dir, Env: env, SysProcAttr: commandSysProcAttr()}

	// The pipes are ours (not exec.Cmd's), so that cmd.Wait returns when the process exits rather than when
	// every holder of the write ends is gone; the group is killed before the pipes are drained.
	var files []*os.File // every end still open in this process
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	var inR, inW *os.File
	if len(c.Stdin) > 0 {
		if inR, inW, err = pipe(); err != nil {
			res.Err = fmt.Errorf("grader: stdin pipe: %w", err)
			return res
		}
		cmd.Stdin = inR
	} // else exec.Cmd opens the null device
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		res.Err = fmt.Errorf("grader: stdout pipe: %w", err)
		return res
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		res.Err = fmt.Errorf("grader: stderr pipe: %w", err)
		return res
	}
	cmd.Stdout, cmd.Stderr = outW, errW

	commandLive.starts.RLock()
	err = cmd.Start()
	if err == nil {
		commandRegister(cmd.Process.Pid, marker)
	}
	commandLive.starts.RUnlock()
	if err != nil {
		closeAll()
		if commandIsNotFound(err) {
			res.NotFound = true
		}
		res.Err = err
		return res
	}
	// The child holds its own copies now.
	if inR != nil {
		inR.Close()
	}
	outW.Close()
	errW.Close()

	var stdinDone chan struct{}
	if inW != nil {
		stdinDone = make(chan struct{})
		go func() {
			defer close(stdinDone)
			// A write error (EPIPE: the child stopped reading; ErrClosed: see below) only ends the feed.
			inW.Write(c.Stdin)
			inW.Close()
		}()
	}
	stdout, stderr := commandTail{size: c.Keep}, commandTail{size: c.Keep}
	var drain sync.WaitGroup
	drain.Add(2)
	go commandCopy(&drain, &stdout, outR)
	go commandCopy(&drain, &stderr, errR)

	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()

	timer := time.NewTimer(c.Timeout)
	defer timer.Stop()
	var waitErr error
	cancelled := false
	select {
	case waitErr = <-waitCh:
	case <-timer.C:
		res.TimedOut = true
		commandKillGroup(cmd.Process)
		waitErr = <-waitCh
	case <-ctx.Done():
		cancelled = true
		commandKillGroup(cmd.Process)
		waitErr = <-waitCh
	}
	// The leader is gone; grandchildren in its group are not: kill them, and the orphans that left it,
	// before draining their pipes.
	commandKillGroup(cmd.Process)
	commandEnded(cmd.Process.Pid)
	if inW != nil {
		inW.Close() // unblocks a feed the child never read
		<-stdinDone
	}

	drained := make(chan struct{})
	go func() { drain.Wait(); close(drained) }()
	grace := time.NewTimer(commandDrainGrace)
	select {
	case <-drained:
	case <-grace.C:
	case <-ctx.Done():
	}
	grace.Stop()
	outR.Close() // unblocks the readers if a process outside the group still holds a write end
	errR.Close()
	<-drained
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	res.StdoutCut, res.StderrCut = stdout.cut, stderr.cut

	switch {
	case cancelled:
		res.Err = fmt.Errorf("grader: command cancelled: %w", context.Cause(ctx))
	case res.TimedOut:
	default:
		st := cmd.ProcessState
		if st == nil {
			res.Err = waitErr
			break
		}
		if sig, ok := commandSignal(st); ok {
			res.Signal = sig
		} else if st.Exited() {
			res.Exited = true
			res.ExitCode = st.ExitCode()
		} else {
			res.Err = fmt.Errorf("grader: command ended without exit status: %v", st)
		}
	}
	return res
}

// commandCopy reads r into t until EOF or a read error (r closed), then marks wg done.
func commandCopy(wg *sync.WaitGroup, t *commandTail, r *os.File) {
	defer wg.Done()
	bp := commandBufPool.Get().(*[]byte)
	io.CopyBuffer(t, r, *bp)
	commandBufPool.Put(bp)
}

// commandBufPool holds read buffers for commandCopy, shared across commands.
var commandBufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// commandResolve returns the file to execute for argv0, or an error for which the result is NotFound. A bare
// name is looked up with exec.LookPath (evalgate's PATH; a relative PATH entry is refused, as os/exec does);
// a name holding a separator is taken relative to dir. The file must exist, not be a directory and, on Unix,
// have an execute bit.
func commandResolve(argv0, dir string) (string, error) {
	if !strings.ContainsRune(argv0, '/') && !strings.ContainsRune(argv0, filepath.Separator) {
		p, err := exec.LookPath(argv0)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(p) { // exec.ErrDot is reported with a path; never run from "."
			return "", &exec.Error{Name: argv0, Err: exec.ErrNotFound}
		}
		return p, nil
	}
	p := argv0
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", &fs.PathError{Op: "exec", Path: p, Err: errors.New("is a directory")}
	}
	if !commandExecutable(fi) {
		return "", &fs.PathError{Op: "exec", Path: p, Err: fs.ErrPermission}
	}
	return p, nil
}

// commandIsNotFound reports whether a start error means the file cannot be executed.
func commandIsNotFound(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) ||
		errors.Is(err, exec.ErrNotFound) || commandNotExecutable(err)
}

// commandTail keeps the last size bytes written to it (CommandTailSize when size is 0), in a ring, and
// whether more were written.
type commandTail struct {
	size int
	buf  []byte // len(buf) < size while filling; then exactly size
	pos  int    // when full: index of the oldest byte
	cut  bool   // more than size bytes were written: the start is gone
}

// Write keeps the end of p; it never fails.
func (t *commandTail) Write(p []byte) (int, error) {
	n := len(p)
	size := t.size
	if size == 0 {
		size = CommandTailSize
	}
	if len(t.buf)+len(p) > size {
		t.cut = true
	}
	if len(p) >= size {
		if cap(t.buf) < size {
			t.buf = make([]byte, size)
		}
		t.buf = t.buf[:size]
		copy(t.buf, p[len(p)-size:])
		t.pos = 0
		return n, nil
	}
	if len(t.buf) < size {
		k := min(size-len(t.buf), len(p))
		if need := len(t.buf) + k; need > cap(t.buf) {
			// Grow by doubling, never past size (append could overshoot).
			nb := make([]byte, len(t.buf), min(size, max(need, 2*cap(t.buf), 4<<10)))
			copy(nb, t.buf)
			t.buf = nb
		}
		t.buf = append(t.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // full: overwrite the oldest bytes
		k := copy(t.buf[t.pos:], p)
		p = p[k:]
		t.pos = (t.pos + k) % size
	}
	return n, nil
}

// Bytes returns the kept bytes, oldest first, in a new slice (nil when nothing was written).
func (t *commandTail) Bytes() []byte {
	if len(t.buf) == 0 {
		return nil
	}
	out := make([]byte, 0, len(t.buf))
	out = append(out, t.buf[t.pos:]...)
	return append(out, t.buf[:t.pos]...)
}
