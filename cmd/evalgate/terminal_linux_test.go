//go:build linux

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/evalgate/evalgate/internal/testfs"
)

// terminalRepo is a git repository with a page whose built-in eval fails and
// a page without evals.
func terminalRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{
		"docs/a.md": "---\nevals:\n  - {id: never, grader: \"tool:headings\", options: {required: [Never]}}\n" +
			"  - {id: title, grader: \"tool:headings\", options: {required: [A]}}\n---\n# A\n",
		"docs/b.md": "# B\n",
	})
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=evalgate", "GIT_AUTHOR_EMAIL=evalgate@example.invalid",
			"GIT_COMMITTER_NAME=evalgate", "GIT_COMMITTER_EMAIL=evalgate@example.invalid",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", args[0], err, out)
		}
	}
	return dir
}

// terminalEnv is the environment of a run on a terminal: outside GitHub
// Actions, TERM set, NO_COLOR unset, plus extra.
func terminalEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "NO_COLOR" || k == "TERM" || strings.HasPrefix(k, "GITHUB_") {
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "TERM=xterm-256color"), extra...)
}

// runOnPty runs `evalgate check --all` in dir with stdout (and stderr, unless
// stderr is given) on a pseudo-terminal, and returns what the terminal
// received and the exit status.
func runOnPty(t *testing.T, dir string, env []string, stderr io.Writer) (string, int) {
	t.Helper()
	exe, err := exec.LookPath("evalgate") // the test binary, installed by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	cmd := exec.Command(exe, "check", "--all")
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	if stderr != nil {
		cmd.Stderr = stderr
	}
	if err := cmd.Start(); err != nil {
		tty.Close()
		t.Fatal(err)
	}
	tty.Close() // the child holds the terminal now: the master reads EIO once it exits
	var out bytes.Buffer
	_, rerr := io.Copy(&out, master)
	werr := cmd.Wait()
	if rerr != nil && !errors.Is(rerr, syscall.EIO) {
		t.Fatalf("reading the terminal: %v", rerr)
	}
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(werr, &exit):
		code = exit.ExitCode()
	case werr != nil:
		t.Fatal(werr)
	}
	// The terminal turns each newline into CR LF (ONLCR).
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), code
}

// TestTerminalPty: on a real terminal the text report is grouped under its
// files, coloured by severity, with the tally and what the run saw; with
// NO_COLOR it holds no escape at all (README "On a terminal").
func TestTerminalPty(t *testing.T) {
	dir := terminalRepo(t)

	out, code := runOnPty(t, dir, terminalEnv(), nil)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (a blocking failure); the terminal showed:\n%q", code, out)
	}
	for _, want := range []string{
		"\x1b[1mdocs/a.md\x1b[0m\n",       // the file header, bold
		"  3:5  \x1b[31merror\x1b[0m    ", // the result, indented, its label red
		"[missing_heading]  \x1b[2mnever\x1b[0m\n",
		"\n1 missing_heading\n",
		"evalgate: saw 2 pages (1 with evals), 2 evals, 0 fixtures, 0 contracts\n",
		"\x1b[1;31mevalgate: 1 pass, 1 fail, 0 error, 0 skip, 0 pending; 1 blocking; score 0.5\x1b[0m\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal lacks %q:\n%q", want, out)
		}
	}
	if strings.Contains(out, "docs/a.md:3:5:") {
		t.Errorf("the terminal shows the plain form:\n%q", out)
	}

	// NO_COLOR, stderr not a terminal: no colour, no progress line, and the
	// seen line only in the report.
	var stderr bytes.Buffer
	out, code = runOnPty(t, dir, terminalEnv("NO_COLOR=1"), &stderr)
	if code != 1 {
		t.Errorf("NO_COLOR: exit status %d, want 1; the terminal showed:\n%q", code, out)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("NO_COLOR: the terminal received an ESC byte:\n%q", out)
	}
	for _, want := range []string{
		"docs/a.md\n  3:5  error    ",
		"\nevalgate: saw 2 pages (1 with evals), 2 evals, 0 fixtures, 0 contracts\n" +
			"evalgate: 1 pass, 1 fail, 0 error, 0 skip, 0 pending; 1 blocking; score 0.5\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("NO_COLOR: the terminal lacks %q:\n%q", want, out)
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("NO_COLOR: stderr, no terminal, received %q", stderr.String())
	}
}
