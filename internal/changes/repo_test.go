package changes

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain isolates every git the tests start, Detect's included, from the
// user's and the system's git configuration and from a surrounding hook's
// repository variables.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "changes-home-")
	if err != nil {
		panic(err)
	}
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES", "GIT_CONFIG_GLOBAL",
		"GIT_CONFIG_SYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"} {
		os.Unsetenv(v)
	}
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_AUTHOR_DATE":     "2024-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME":  "Test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_COMMITTER_DATE":  "2024-01-01T00:00:00Z",
	} {
		os.Setenv(k, v)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// repo is a git repository built by a test.
type repo struct {
	t   *testing.T
	dir string
}

// newRepo creates an empty repository on branch main.
func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &repo{t: t, dir: t.TempDir()}
	r.git("-c", "init.defaultBranch=main", "init", "-q")
	return r
}

// git runs git in the repository and returns its trimmed stdout.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	return runGit(r.t, r.dir, args...)
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	argv := append([]string{"-C", dir, "-c", "commit.gpgsign=false", "-c", "core.quotePath=false"}, args...)
	cmd := exec.Command("git", argv...)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// write creates or replaces the file at the repository-relative path name.
func (r *repo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) remove(name string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.dir, filepath.FromSlash(name))); err != nil {
		r.t.Fatal(err)
	}
}

// commit stages everything and commits it, returning the new HEAD.
func (r *repo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// clone clones r by file:// URL (so --depth applies) into a new directory.
func (r *repo) clone(args ...string) *repo {
	r.t.Helper()
	dst := filepath.Join(r.t.TempDir(), "clone")
	argv := append([]string{"clone", "-q"}, args...)
	argv = append(argv, "file://"+filepath.ToSlash(r.dir), dst)
	runGit(r.t, r.dir, argv...)
	return &repo{t: r.t, dir: dst}
}

// event writes a payload file for a pull request and loads it as the
// runner would.
func prEvent(t *testing.T, name, headSHA, baseSHA string) *Event {
	t.Helper()
	payload := map[string]any{
		"action": "opened",
		"pull_request": map[string]any{
			"number": 1,
			"head":   map[string]any{"sha": headSHA, "repo": map[string]any{"full_name": "o/r"}},
			"base":   map[string]any{"sha": baseSHA, "repo": map[string]any{"full_name": "o/r"}},
		},
	}
	data, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := LoadEvent(name, p)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}
