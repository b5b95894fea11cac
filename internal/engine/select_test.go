package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/testfs"
)

// TestListFilesSkipsCache: nothing under the judge cache folder is a
// candidate, by git or by the walk, while a sibling sharing its prefix is.
func TestListFilesSkipsCache(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a.md", ".evalgate/cache/ab/k.md", ".evalgate/cachex/b.md", ".evalgate/c.jsonl"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{".evalgate/c.jsonl", ".evalgate/cachex/b.md", "a.md"}
	for _, tc := range []struct {
		name   string
		isRepo bool
	}{{"walk", false}, {"git", true}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.isRepo {
				gitRun(t, root, "init", "-q")
			}
			got, err := listFiles(context.Background(), root, tc.isRepo, ".evalgate/cache")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("listFiles = %q, want %q", got, want)
			}
		})
	}
}

// TestDependentsManyTouched: past maxNeedles touched files, every selected page is a candidate and is
// confirmed by its frontmatter, so the page whose companion is among them is still re-checked, and a
// page that reads none of them is not.
func TestDependentsManyTouched(t *testing.T) {
	files := map[string]string{
		"docs/reads.md": "---\nevals:\n  - {id: has, grader: tool:contains, target: {source: file, path: ../data/f0150.txt}, options: {text: x}}\n---\n",
		"docs/other.md": "---\nevals:\n  - {id: has, grader: tool:contains, options: {text: x}}\n---\nx\n",
	}
	var paths []string
	for i := range maxNeedles + 50 {
		name := fmt.Sprintf("data/f%04d.txt", i)
		files[name] = "x\n"
		paths = append(paths, name)
	}
	dir := testfs.Tree(t, files)
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	var checked []string
	for _, r := range rep.Results.Slice() {
		checked = append(checked, r.File)
	}
	if !slices.Contains(checked, "docs/reads.md") || slices.Contains(checked, "docs/other.md") {
		t.Errorf("results for %q: want docs/reads.md only", checked)
	}
}

// TestDependentsStopped: a run stopped by a signal looks for no dependents, in a git repository (whose
// killed git grep sent it to read every page: seconds on a large tree, for evals that do not run) or
// not; a run still going finds them.
func TestDependentsStopped(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	for _, repo := range []bool{false, true} {
		dir := testfs.Tree(t, map[string]string{
			"docs/reads.md": "---\nevals:\n  - {id: has, grader: tool:contains, target: {source: file, path: ../data/x.txt}, options: {text: x}}\n---\n",
			"data/x.txt":    "x\n",
		})
		if repo {
			gitRun(t, dir, "init", "-q")
			gitRun(t, dir, "add", "-A")
		}
		for _, tt := range []struct {
			ctx   context.Context
			found bool
		}{{context.Background(), true}, {stopped, false}} {
			rep, err := Run(tt.ctx, Options{Mode: ModeCheck, Dir: dir, Paths: []string{"data/x.txt"}})
			if err != nil {
				t.Fatal(err)
			}
			found := slices.ContainsFunc(rep.Results.Slice(), func(r diag.Result) bool { return r.File == "docs/reads.md" })
			if found != tt.found {
				t.Errorf("git %v, stopped %v: docs/reads.md checked = %v, want %v", repo, tt.ctx.Err() != nil, found, tt.found)
			}
		}
	}
}

// gitRun runs git in dir, without the machine's or the user's git config.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
}

// TestListStopped: a run stopped by a signal while it lists the tree reports no selection: git's list
// was killed, and walking the tree instead, which took seconds on a large one, stops with the run too.
func TestListStopped(t *testing.T) {
	files := map[string]string{}
	for i := range 2 * mentionCheck {
		files[fmt.Sprintf("docs/p%03d.md", i)] = "# P\n"
	}
	stopped, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("evalgate received SIGTERM"))
	for _, repo := range []bool{false, true} {
		dir := testfs.Tree(t, files)
		if repo {
			gitRun(t, dir, "init", "-q")
		}
		rep, err := Run(stopped, Options{Mode: ModeCheck, Dir: dir, All: true})
		if rep != nil || err == nil || err.Error() != "evalgate received SIGTERM" {
			t.Errorf("git %v: Run made a report: %v, error %v; want none, the stop's cause", repo, rep != nil, err)
		}
	}
}
