package grader

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/proc"
)

// graderHelperEnv names the variable that turns the test binary into a helper program: the children of the
// command tests are this binary re-executed, so no shell or system tool is needed.
const graderHelperEnv = "EVALGATE_TEST_HELPER"

// TestMain runs the helper program when graderHelperEnv is set, and the tests otherwise. It is the only
// TestMain of package grader. The tests stand where evalgate stands: on Linux, a child subreaper (as
// proc.Harden makes evalgate), so that orphaned grandchildren of the helpers become this process's
// children and RunCommand's orphan sweep is exercised; elsewhere the call fails and changes nothing.
func TestMain(m *testing.M) {
	if mode := os.Getenv(graderHelperEnv); mode != "" {
		os.Exit(graderHelperMain(mode, os.Args[1:]))
	}
	proc.SetSubreaper()
	os.Exit(m.Run())
}

// graderHelperReport is what the "args" helper prints.
type graderHelperReport struct {
	Cwd  string
	Args []string
}

// graderHelperMain is the helper program: mode says what to do, args are its arguments after argv[0].
func graderHelperMain(mode string, args []string) int {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch mode {
	case "exit": // exit with status args[0]
		code, _ := strconv.Atoi(arg(0))
		return code
	case "args": // print the working directory and the arguments as JSON
		cwd, _ := os.Getwd()
		json.NewEncoder(os.Stdout).Encode(graderHelperReport{Cwd: cwd, Args: args})
		return 0
	case "stdin": // copy stdin to stdout
		io.Copy(os.Stdout, os.Stdin)
		return 0
	case "env": // print the environment, one entry a line
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
		return 0
	case "big": // write args[0] bytes of graderTestPattern to stdout and args[1] to stderr
		n, _ := strconv.Atoi(arg(0))
		w := bufio.NewWriter(os.Stdout)
		w.Write(graderTestPattern(n))
		w.Flush()
		os.Stderr.WriteString(arg(1))
		return 0
	case "sleep": // sleep for the duration args[0]
		d, _ := time.ParseDuration(arg(0))
		time.Sleep(d)
		return 0
	}
	if code, ok := graderHelperPlatform(mode, args); ok {
		return code
	}
	fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
	return 100
}

// graderTestPattern returns n bytes in which every position is recognisable: line i holds its number.
func graderTestPattern(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %07d\n", i)
	}
	return b.Bytes()[:n]
}

// graderTestExe returns the test binary's path.
func graderTestExe(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// graderHelper returns a Command running the helper program in mode with args.
func graderHelper(t testing.TB, mode string, args ...string) Command {
	t.Helper()
	return Command{
		Argv:    append([]string{graderTestExe(t)}, args...),
		Dir:     t.TempDir(),
		Env:     []string{graderHelperEnv + "=" + mode},
		Timeout: time.Minute,
	}
}

// graderRun runs c and fails the test if it does not return within a generous bound (a hang, not slowness).
func graderRun(t *testing.T, ctx context.Context, c Command) CommandResult {
	t.Helper()
	done := make(chan CommandResult, 1)
	go func() { done <- RunCommand(ctx, c) }()
	select {
	case r := <-done:
		return r
	case <-time.After(c.Timeout + 2*time.Minute):
		t.Fatalf("RunCommand(%q) did not return", c.Argv)
		return CommandResult{}
	}
}

// graderDescribe summarises a result for failure messages.
func graderDescribe(r CommandResult) string {
	return fmt.Sprintf("Exited=%v ExitCode=%d Signal=%q TimedOut=%v NotFound=%v Err=%v stderr=%q",
		r.Exited, r.ExitCode, r.Signal, r.TimedOut, r.NotFound, r.Err, graderClip(r.Stderr))
}

func graderClip(b []byte) []byte {
	if len(b) > 300 {
		return b[len(b)-300:]
	}
	return b
}

func TestRunCommandExit(t *testing.T) {
	for _, code := range []int{0, 1, 3, 125, 255} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			r := graderRun(t, context.Background(), graderHelper(t, "exit", strconv.Itoa(code)))
			if !r.Exited || r.ExitCode != code || r.TimedOut || r.NotFound || r.Signal != "" || r.Err != nil {
				t.Fatalf("exit %d: got %s", code, graderDescribe(r))
			}
			if r.Duration <= 0 {
				t.Errorf("Duration = %v, want > 0", r.Duration)
			}
		})
	}
}

func TestRunCommandNotFound(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, argv0 string
	}{
		{"bare name not on PATH", "evalgate-test-no-such-command-7f3a"},
		{"relative path missing", "./no-such-file"},
		{"absolute path missing", filepath.Join(dir, "no-such-file")},
		{"directory", filepath.Join(dir, "subdir")},
		{"relative directory", "./subdir"},
		{"path through a missing directory", "./missing/tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := graderRun(t, context.Background(), Command{Argv: []string{tt.argv0}, Dir: dir, Timeout: time.Minute})
			if !r.NotFound || r.Exited || r.TimedOut {
				t.Fatalf("%q: got %s, want NotFound", tt.argv0, graderDescribe(r))
			}
		})
	}
}

func TestRunCommandInvalid(t *testing.T) {
	exe := graderTestExe(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		c    Command
	}{
		{"no argv", context.Background(), Command{Timeout: time.Minute}},
		{"empty argv0", context.Background(), Command{Argv: []string{""}, Timeout: time.Minute}},
		{"zero timeout", context.Background(), Command{Argv: []string{exe}}},
		{"negative timeout", context.Background(), Command{Argv: []string{exe}, Timeout: -time.Second}},
		{"cancelled before start", cancelled, Command{Argv: []string{exe}, Timeout: time.Minute}},
		{"missing working directory", context.Background(), Command{Argv: []string{exe}, Dir: filepath.Join(t.TempDir(), "gone"), Timeout: time.Minute}},
		{"working directory is a file", context.Background(), Command{Argv: []string{exe}, Dir: exe, Timeout: time.Minute}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := RunCommand(tt.ctx, tt.c)
			if r.Err == nil || r.Exited || r.NotFound || r.TimedOut {
				t.Fatalf("got %s, want Err alone", graderDescribe(r))
			}
		})
	}
}

func TestRunCommandArgsAndDir(t *testing.T) {
	// A directory and an executable whose paths hold spaces and non-ASCII letters.
	dir := filepath.Join(t.TempDir(), "dir with spaces", "ünïcödé ☃")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := graderTestExe(t)
	link := filepath.Join(dir, "hëlper bin")
	if err := os.Symlink(exe, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	page := filepath.Join(dir, "päge one.md")
	vars := map[string]string{"file": page, "target": "{id}", "id": "{file}"}
	tests := []struct {
		name     string
		argv     []string
		wantArgs []string
	}{
		{
			name:     "placeholders inside arguments, one pass",
			argv:     []string{exe, "--in={file}", "{id}", "{target}", "{x}", "a b  c", "{file}{file}"},
			wantArgs: []string{"--in=" + page, "{file}", "{id}", "{x}", "a b  c", page + page},
		},
		{
			name:     "relative executable with spaces, resolved against Dir",
			argv:     []string{"./hëlper bin", "ä ö", ""},
			wantArgs: []string{"ä ö", ""},
		},
		{
			name:     "absolute executable with spaces",
			argv:     []string{link, "{file}"},
			wantArgs: []string{page},
		},
	}
	wantCwd, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Command{
				Argv:    Substitute(tt.argv, vars),
				Dir:     dir,
				Env:     []string{graderHelperEnv + "=args"},
				Timeout: time.Minute,
			}
			r := graderRun(t, context.Background(), c)
			if !r.Exited || r.ExitCode != 0 {
				t.Fatalf("got %s", graderDescribe(r))
			}
			var rep graderHelperReport
			if err := json.Unmarshal(r.Stdout, &rep); err != nil {
				t.Fatalf("helper output %q: %v", r.Stdout, err)
			}
			if !slices.Equal(rep.Args, tt.wantArgs) {
				t.Errorf("child args = %q, want %q", rep.Args, tt.wantArgs)
			}
			gotCwd, err := filepath.EvalSymlinks(rep.Cwd)
			if err != nil || gotCwd != wantCwd {
				t.Errorf("child cwd = %q (%v), want %q", rep.Cwd, err, wantCwd)
			}
		})
	}
}

func TestSubstitute(t *testing.T) {
	vars := map[string]string{"file": "/r/a b.md", "target": "/tmp/t", "id": "{file}"}
	tests := []struct {
		in, want string
	}{
		{"{file}", "/r/a b.md"},
		{"--in={file}", "--in=/r/a b.md"},
		{"{file}:{target}", "/r/a b.md:/tmp/t"},
		{"{id}", "{file}"}, // replaced text is not re-scanned
		{"{id}{id}", "{file}{file}"},
		{"{{id}}", "{{file}}"},
		{"{unknown}", "{unknown}"},
		{"{File}", "{File}"}, // names are case-sensitive
		{"{ file }", "{ file }"},
		{"{", "{"},
		{"}", "}"},
		{"{file", "{file"},
		{"a{b{file}c", "a{b/r/a b.mdc"},
		{"{}", "{}"},
		{"plain", "plain"},
		{"", ""},
		{"ü{file}ü", "ü/r/a b.mdü"},
	}
	for _, tt := range tests {
		if got := Substitute([]string{tt.in}, vars); len(got) != 1 || got[0] != tt.want {
			t.Errorf("Substitute(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Values that look like placeholders of each other never chain.
	chain := map[string]string{"a": "{b}", "b": "{a}"}
	if got := Substitute([]string{"{a}{b}"}, chain); got[0] != "{b}{a}" {
		t.Errorf("chained substitution: got %q, want %q", got[0], "{b}{a}")
	}
	argv := []string{"x", "{file}"}
	out := Substitute(argv, vars)
	if argv[1] != "{file}" || out[1] != vars["file"] {
		t.Errorf("Substitute modified its input or missed: in %q, out %q", argv, out)
	}
	if got := Substitute(nil, vars); len(got) != 0 {
		t.Errorf("Substitute(nil) = %q", got)
	}
}

func TestRunCommandStdin(t *testing.T) {
	big := graderTestPattern(300 << 10) // more than any pipe buffer
	tests := []struct {
		name  string
		mode  string
		stdin []byte
		want  []byte
	}{
		{"small", "stdin", []byte("hello\x00wörld\n"), []byte("hello\x00wörld\n")},
		{"large, echoed: the tail", "stdin", big, big[len(big)-CommandTailSize:]},
		{"none", "stdin", nil, nil},
		{"large, never read", "exit", big, nil}, // the feed must not block the result
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := graderHelper(t, tt.mode)
			c.Stdin = tt.stdin
			r := graderRun(t, context.Background(), c)
			if !r.Exited || r.ExitCode != 0 {
				t.Fatalf("got %s", graderDescribe(r))
			}
			if !bytes.Equal(r.Stdout, tt.want) {
				t.Errorf("stdout: got %d bytes ending %q, want %d bytes ending %q",
					len(r.Stdout), graderClip(r.Stdout), len(tt.want), graderClip(tt.want))
			}
		})
	}
}

func TestRunCommandOutputTail(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		stderr string
	}{
		{"empty", 0, ""},
		{"small", 100, "some error\n"},
		{"exactly the limit", CommandTailSize, "e"},
		{"one over", CommandTailSize + 1, ""},
		{"4 MiB", 4 << 20, "tail of stderr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := graderRun(t, context.Background(), graderHelper(t, "big", strconv.Itoa(tt.n), tt.stderr))
			if !r.Exited || r.ExitCode != 0 {
				t.Fatalf("got %s", graderDescribe(r))
			}
			want := graderTestPattern(tt.n)
			want = want[max(0, len(want)-CommandTailSize):]
			if !bytes.Equal(r.Stdout, want) {
				t.Errorf("stdout: got %d bytes ending %q, want %d bytes ending %q",
					len(r.Stdout), graderClip(r.Stdout), len(want), graderClip(want))
			}
			if string(r.Stderr) != tt.stderr {
				t.Errorf("stderr = %q, want %q", r.Stderr, tt.stderr)
			}
		})
	}
}

func TestCommandTail(t *testing.T) {
	data := graderTestPattern(3*CommandTailSize + 12345)
	for _, chunk := range []int{1, 7, 4096, CommandTailSize - 1, CommandTailSize, CommandTailSize + 1, len(data)} {
		for _, n := range []int{0, 10, CommandTailSize - 1, CommandTailSize, CommandTailSize + 5, 2*CommandTailSize + 3, len(data)} {
			var tail commandTail
			for off := 0; off < n; off += chunk {
				w, err := tail.Write(data[off:min(n, off+chunk)])
				if err != nil || w != min(n, off+chunk)-off {
					t.Fatalf("Write = %d, %v", w, err)
				}
			}
			want := data[max(0, n-CommandTailSize):n]
			if got := tail.Bytes(); !bytes.Equal(got, want) {
				t.Errorf("chunk %d, %d bytes: kept %d bytes ending %q, want %d ending %q",
					chunk, n, len(got), graderClip(got), len(want), graderClip(want))
			}
			if cap(tail.buf) > CommandTailSize {
				t.Errorf("chunk %d, %d bytes: buffer grew to %d", chunk, n, cap(tail.buf))
			}
			if tail.cut != (n > CommandTailSize) {
				t.Errorf("chunk %d, %d bytes: cut = %v", chunk, n, tail.cut)
			}
		}
	}
	// A larger ring keeps more.
	big := commandTail{size: 2 * CommandTailSize}
	big.Write(data[:2*CommandTailSize])
	if got := big.Bytes(); len(got) != 2*CommandTailSize || big.cut {
		t.Errorf("a ring of %d kept %d bytes, cut %v", 2*CommandTailSize, len(got), big.cut)
	}
}

func TestRunCommandTimeout(t *testing.T) {
	c := graderHelper(t, "sleep", "1h")
	c.Timeout = 200 * time.Millisecond
	c.Stdin = []byte("unread")
	r := graderRun(t, context.Background(), c)
	if !r.TimedOut || r.Exited || r.Signal != "" || r.NotFound || r.Err != nil {
		t.Fatalf("got %s, want TimedOut", graderDescribe(r))
	}
	if r.Duration < c.Timeout {
		t.Errorf("Duration %v shorter than the timeout %v", r.Duration, c.Timeout)
	}
}

func TestRunCommandCancel(t *testing.T) {
	cause := errors.New("run aborted")
	ctx, cancel := context.WithCancelCause(context.Background())
	c := graderHelper(t, "sleep", "1h")
	time.AfterFunc(100*time.Millisecond, func() { cancel(cause) })
	r := graderRun(t, ctx, c)
	if !errors.Is(r.Err, cause) || r.TimedOut || r.Exited || r.Signal != "" {
		t.Fatalf("got %s, want Err wrapping %v", graderDescribe(r), cause)
	}
}

func TestRunCommandEnv(t *testing.T) {
	env := []string{
		graderHelperEnv + "=env",
		"PLAIN=visible",
		"MY_API_KEY=k-123456",
		"npm_token=n-123456",
		"GITHUB_TOKEN=ghs_123456",
		"ACTIONS_RUNTIME_TOKEN=rt-123456",
		"GITHUB_OUTPUT=/runner/out",
	}
	tests := []struct {
		name    string
		passEnv []string
		want    []string // child variables among the credentials above
	}{
		{"credentials removed", nil, nil},
		{"pass-env re-admits", []string{"MY_API_KEY", "npm_token"}, []string{"MY_API_KEY=k-123456", "npm_token=n-123456"}},
		{"pass-env is exact", []string{"my_api_key"}, nil},
		{"never passed even when listed", []string{"GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "GITHUB_OUTPUT"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, _ := ScrubEnv(env, tt.passEnv, nil)
			c := graderHelper(t, "env")
			c.Env = kept
			r := graderRun(t, context.Background(), c)
			if !r.Exited || r.ExitCode != 0 {
				t.Fatalf("got %s", graderDescribe(r))
			}
			var got []string
			seen := map[string]bool{}
			markers := 0
			for _, kv := range strings.Split(strings.TrimSpace(string(r.Stdout)), "\n") {
				seen[kv] = true
				if strings.HasPrefix(kv, CommandMarkerVar+"="+commandRunID+"-") {
					markers++
					continue
				}
				if kv == "PLAIN=visible" || strings.HasPrefix(kv, graderHelperEnv+"=") {
					continue
				}
				if runtime.GOOS == "windows" && strings.HasPrefix(strings.ToUpper(kv), "SYSTEMROOT=") {
					continue
				}
				got = append(got, kv)
			}
			if !seen["PLAIN=visible"] {
				t.Errorf("PLAIN=visible did not reach the child: %q", r.Stdout)
			}
			if markers != 1 {
				t.Errorf("the child got %d %s entries, want 1: %q", markers, CommandMarkerVar, r.Stdout)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("child credentials = %q, want %q", got, tt.want)
			}
		})
	}
}

func BenchmarkRunCommand(b *testing.B) {
	c := graderHelper(b, "exit", "0")
	c.Stdin = []byte("target bytes\n")
	for b.Loop() {
		if r := RunCommand(context.Background(), c); !r.Exited || r.ExitCode != 0 {
			b.Fatalf("got %s", graderDescribe(r))
		}
	}
}
