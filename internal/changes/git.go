package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/grader"
)

// git runs the git executable in one repository. Every call passes
// `-C root` and `-c core.quotePath=false` (paths come back as their bytes,
// not C-quoted), sets GIT_OPTIONAL_LOCKS=0 (a read-only run never writes the
// index, so it cannot race a concurrent git command) and captures stderr.
// Commands that print paths are called with -z, and paths given to git
// follow a `--`.
type git struct {
	bin  string // the git executable, from PATH
	root string // the repository root
}

// newGit finds git on PATH. missing is the UsageError message when it is not
// installed: git is needed by then, and its absence is exit 2 (README "Exit statuses").
func newGit(root, missing string) (*git, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return nil, &UsageError{Msg: missing}
	}
	return &git{bin: bin, root: root}, nil
}

// gitError is a git command that failed.
type gitError struct {
	cmd    string // the subcommand, for messages
	code   int    // exit status; -1 when git did not run to completion
	stderr string // what git wrote to stderr, trimmed
	err    error  // the underlying error when git did not run
}

func (e *gitError) Error() string {
	switch {
	case e.stderr != "":
		line, _, _ := strings.Cut(e.stderr, "\n")
		return "git " + e.cmd + ": " + strings.TrimSpace(line)
	case e.err != nil:
		return "git " + e.cmd + ": " + e.err.Error()
	default:
		return fmt.Sprintf("git %s: exit status %d", e.cmd, e.code)
	}
}

// run runs `git -C root -c core.quotePath=false args...` and returns its
// stdout. Options that must precede the subcommand (--literal-pathspecs) may
// lead args.
func (g *git) run(ctx context.Context, args ...string) ([]byte, error) {
	argv := append([]string{"-C", g.root, "-c", "core.quotePath=false"}, args...)
	cmd := exec.CommandContext(ctx, g.bin, argv...)
	// A later duplicate wins in exec, so these override the environment.
	// GIT_TERMINAL_PROMPT=0: a partial clone's lazy fetch must fail, not
	// wait for a password on a CI runner.
	cmd.Env = append(grader.GitEnv(os.Environ()), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil {
		return out, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	sub := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			sub = a
			break
		}
	}
	ge := &gitError{cmd: sub, code: -1, stderr: strings.TrimSpace(stderr.String())}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ge.code = ee.ExitCode()
	} else {
		ge.err = err
	}
	return nil, ge
}

// resolveCommit returns the full SHA of rev as a commit, by
// `git rev-parse --verify --quiet rev^{commit}`, which exits 1 and prints
// nothing when rev names no commit. rev must not start with '-'.
func (g *git) resolveCommit(ctx context.Context, rev string) (string, error) {
	out, err := g.run(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// hasCommit reports whether the commit sha is in the clone (a shallow or
// single-branch clone may lack it).
// missingHint says why a REF may not resolve: in a shallow clone, that it may not be fetched; else the
// branches there are (a fresh repository's is master, not main), which in a single-branch clone is one.
func (g *git) missingHint(ctx context.Context) string {
	const fetch = "in a shallow or single-branch clone, fetch it first"
	if out, err := g.run(ctx, "rev-parse", "--is-shallow-repository"); err != nil || strings.TrimSpace(string(out)) == "true" {
		return fetch
	}
	out, err := g.run(ctx, "for-each-ref", "--count=6", "--format=%(refname:short)", "refs/heads", "refs/remotes")
	names := strings.Fields(string(out))
	if err != nil || len(names) == 0 {
		return fetch
	}
	if len(names) > 5 {
		names = append(names[:5], "...")
	}
	return "branches here: " + strings.Join(names, ", ") + "; " + fetch
}

func (g *git) hasCommit(ctx context.Context, sha string) (bool, error) {
	_, err := g.run(ctx, "cat-file", "-e", sha+"^{commit}")
	if err != nil && ctx.Err() != nil {
		return false, ctx.Err()
	}
	return err == nil, nil
}

// parents returns the parents recorded in the commit object sha, in order.
// Unlike `git rev-list --parents`, this sees through a shallow clone's
// grafts: a shallow commit still names its parents even though they are not
// in the clone.
func (g *git) parents(ctx context.Context, sha string) ([]string, error) {
	out, err := g.run(ctx, "cat-file", "commit", sha)
	if err != nil {
		return nil, err
	}
	var ps []string
	// The header ends at the first empty line; the message follows.
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" {
			break
		}
		if p, ok := strings.CutPrefix(line, "parent "); ok {
			ps = append(ps, p)
		}
	}
	return ps, nil
}

// mergeBase returns the best common ancestor of two commits. It fails (exit
// 1, no output) when there is none in the clone.
func (g *git) mergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := g.run(ctx, "merge-base", a, b)
	if err != nil {
		return "", err
	}
	mb := strings.TrimSpace(string(out))
	if mb == "" {
		return "", &gitError{cmd: "merge-base", code: 1}
	}
	return mb, nil
}

// gitlink is the mode of a submodule entry: not a file, never checked.
const gitlink = "160000"

// diffEntry is one record of `git diff --raw -z`.
type diffEntry struct {
	status  byte   // A, C, D, M, R, T, U or X
	oldMode string // "000000" when the path did not exist on that side
	newMode string
	src     string // the old path
	dst     string // the new path; src unless renamed or copied
}

// diff lists what changed from the commit from to the commit to, or to the
// working tree (staged and unstaged, not untracked) when to is "". Renames
// are detected (-M). --raw rather than --name-status carries the modes, so
// submodules (gitlinks) can be told apart.
func (g *git) diff(ctx context.Context, from, to string) ([]diffEntry, error) {
	args := []string{"diff", "--raw", "-z", "-M", "--no-ext-diff", "--no-color", from}
	if to != "" {
		args = append(args, to)
	}
	out, err := g.run(ctx, append(args, "--")...)
	if err != nil {
		return nil, err
	}
	return parseRaw(out)
}

// parseRaw parses `--raw -z` output: for each change, ":OLDMODE NEWMODE
// OLDSHA NEWSHA STATUS[SCORE]" NUL PATH NUL, with a second PATH NUL after a
// rename or copy.
func parseRaw(out []byte) ([]diffEntry, error) {
	text, ok := strings.CutSuffix(string(out), "\x00")
	if !ok {
		if text != "" {
			return nil, fmt.Errorf("git diff --raw: output does not end with NUL")
		}
		return nil, nil
	}
	fields := strings.Split(text, "\x00")
	var entries []diffEntry
	for i := 0; i < len(fields); i++ {
		meta := fields[i]
		f := strings.Fields(strings.TrimPrefix(meta, ":"))
		if !strings.HasPrefix(meta, ":") || len(f) < 5 || f[4] == "" {
			return nil, fmt.Errorf("git diff --raw: unexpected record %q", meta)
		}
		e := diffEntry{status: f[4][0], oldMode: f[0], newMode: f[1]}
		paths := 1
		if e.status == 'R' || e.status == 'C' {
			paths = 2
		}
		if i+paths >= len(fields) || fields[i+1] == "" || fields[i+paths] == "" {
			return nil, fmt.Errorf("git diff --raw: record %q has no path", meta)
		}
		e.src, e.dst = fields[i+1], fields[i+paths]
		i += paths
		entries = append(entries, e)
	}
	return entries, nil
}

// untracked lists the untracked files git does not ignore, relative to the
// root.
// sparse returns those of paths that the index holds but a sparse checkout leaves out of the working
// tree (skip-worktree, `ls-files -t` tag S): changed files that are there, not deleted ones.
func (g *git) sparse(ctx context.Context, paths []string) ([]string, error) {
	var out []string
	for batch := range slices.Chunk(paths, 1000) {
		b, err := g.run(ctx, append([]string{"--literal-pathspecs", "ls-files", "-t", "-z", "--"}, batch...)...)
		if err != nil {
			return nil, err
		}
		for _, e := range strings.Split(string(b), "\x00") {
			if p, ok := strings.CutPrefix(e, "S "); ok {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

func (g *git) untracked(ctx context.Context) ([]string, error) {
	out, err := g.run(ctx, "ls-files", "-z", "--others", "--exclude-standard", "--")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		// A nested repository is listed as its directory, with a trailing '/'.
		if f != "" && !strings.HasSuffix(f, "/") {
			files = append(files, f)
		}
	}
	return files, nil
}
