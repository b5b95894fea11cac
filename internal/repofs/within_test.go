package repofs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// graderPathsTree builds tmp/repo with symlinks inside and out of it, and tmp/repo-link → repo. It returns
// tmp.
func graderPathsTree(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	for _, d := range []string{"repo/docs/sub", "repo/.git", "repo/vendor/mod/.git", "outside"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"repo/README.md", "repo/docs/a.md", "repo/docs/sub/b.md", "outside/secret.txt",
		"repo/.git/config", "repo/.gitignore", "repo/vendor/mod/.git/config"} {
		if err := os.WriteFile(filepath.Join(tmp, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := []struct{ name, target string }{
		{"repo/docs/link-in", "../README.md"},
		{"repo/docs/link-out", filepath.Join(tmp, "outside", "secret.txt")},
		{"repo/docs/dir-out", filepath.Join("..", "..", "outside")},
		{"repo/docs/dangling-out", filepath.Join(tmp, "outside", "missing", "x")},
		{"repo/docs/dangling-in", "missing.md"},
		{"repo/docs/loop", "loop"},
		{"repo/docs/up", ".."},
		{"repo/docs/chain", "link-out"},
		{"repo/docs/up-and-out", "sub/../../../outside"}, // the parent of a resolved directory
		{"repo/docs/git-config", "../.git/config"},
		{"repo/docs/git-dir", "../.git"},
		{"repo/docs/loop-a", "loop-b"},
		{"repo/docs/loop-b", "loop-a"},
		{"repo-link", "repo"},
	}
	for _, l := range links {
		if err := os.Symlink(l.target, filepath.Join(tmp, l.name)); err != nil {
			t.Skipf("symlink: %v", err)
		}
	}
	return tmp
}

func TestWithin(t *testing.T) {
	tmp := graderPathsTree(t)
	root := filepath.Join(tmp, "repo")
	docs := filepath.Join(root, "docs")
	rootLink := filepath.Join(tmp, "repo-link")
	tests := []struct {
		name            string
		root, base, rel string
		wantOK          bool
		wantAbs         string // "" = not checked
	}{
		{"file", root, docs, "a.md", true, filepath.Join(docs, "a.md")},
		{"nested", root, docs, "sub/b.md", true, filepath.Join(docs, "sub", "b.md")},
		{"dot-dot inside", root, docs, "../README.md", true, filepath.Join(root, "README.md")},
		{"empty is base", root, docs, "", true, docs},
		{"dot", root, docs, ".", true, docs},
		{"root itself", root, docs, "..", true, root},
		{"missing inside", root, docs, "missing/deeper/x.md", true, filepath.Join(docs, "missing", "deeper", "x.md")},
		{"through a file", root, docs, "a.md/x", true, ""},
		{"out and back in", root, docs, "../../repo/docs/a.md", true, filepath.Join(docs, "a.md")},
		{"dot-dot out", root, docs, "../../outside/secret.txt", false, filepath.Join(tmp, "outside", "secret.txt")},
		{"dot-dot out after a subdirectory", root, docs, "sub/../../../outside/secret.txt", false, ""},
		{"dot-dot above root", root, root, "..", false, ""},
		{"missing outside", root, docs, "../../nowhere/x.md", false, ""},
		{"absolute outside", root, docs, "/etc/passwd", false, ""},
		{"absolute inside", root, docs, filepath.Join(docs, "a.md"), false, ""},
		{"symlink inside", root, docs, "link-in", true, filepath.Join(docs, "link-in")},
		{"symlink out", root, docs, "link-out", false, filepath.Join(docs, "link-out")},
		{"symlink chain out", root, docs, "chain", false, ""},
		{"directory symlink out", root, docs, "dir-out/secret.txt", false, ""},
		{"missing below a directory symlink out", root, docs, "dir-out/missing.txt", false, ""},
		{"dangling symlink out", root, docs, "dangling-out", false, ""},
		{"dangling symlink inside", root, docs, "dangling-in", true, ""},
		{"symlink loop", root, docs, "loop", false, ""},
		{"symlink to the root, then inside", root, docs, "up/docs/a.md", true, ""},
		{"symlink to the root, then dot-dot", root, docs, "up/../outside", true, ""}, // cleaned first: docs/outside
		{"symlink whose target leaves by dot-dot", root, docs, "up-and-out/secret.txt", false, ""},
		{"root through a symlink", rootLink, filepath.Join(rootLink, "docs"), "a.md", true, filepath.Join(rootLink, "docs", "a.md")},
		{"root through a symlink, out", rootLink, filepath.Join(rootLink, "docs"), "link-out", false, ""},
		{"root through a symlink, dot-dot out", rootLink, filepath.Join(rootLink, "docs"), "../../outside/secret.txt", false, ""},
		{"root through a symlink, base resolved", rootLink, docs, "a.md", true, ""},
		{"root resolved, base through a symlink", root, filepath.Join(rootLink, "docs"), "a.md", true, ""},
		{"relative root", "repo", docs, "a.md", false, ""},
		{"relative base", root, "docs", "a.md", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			abs, err := Within(tt.root, tt.base, tt.rel)
			ok := err == nil
			if ok != tt.wantOK {
				t.Errorf("Within(%q, %q, %q) ok = %v, want %v (abs %q)", tt.root, tt.base, tt.rel, ok, tt.wantOK, abs)
			}
			if tt.wantAbs != "" && abs != tt.wantAbs {
				t.Errorf("Within(%q, %q, %q) abs = %q, want %q", tt.root, tt.base, tt.rel, abs, tt.wantAbs)
			}
			if ok && !filepath.IsAbs(abs) {
				t.Errorf("abs %q is not absolute", abs)
			}
		})
	}
}

func TestWithinFileSystemRoot(t *testing.T) {
	root := string(filepath.Separator)
	if _, err := Within(root, root, "etc/hosts"); err != nil {
		t.Errorf("Within(%q, %q, etc/hosts) refused a path below the file system root", root, root)
	}
}

// TestWithinRefusals pins why a path is refused: .git in any spelling and through symlinks, loops, and what
// merely looks like .git.
func TestWithinRefusals(t *testing.T) {
	tmp := graderPathsTree(t)
	root := filepath.Join(tmp, "repo")
	docs := filepath.Join(root, "docs")
	tests := []struct {
		base, rel string
		want      error // nil: admitted
	}{
		{root, ".git/config", ErrGitDir},
		{docs, "../.git/config", ErrGitDir},
		{docs, "../.git", ErrGitDir},
		{root, ".GIT/config", ErrGitDir},
		{root, ".Git/missing", ErrGitDir},
		{root, "vendor/mod/.git/config", ErrGitDir},
		{docs, "git-config", ErrGitDir},
		{docs, "git-dir/config", ErrGitDir},
		{docs, "sub/../../.git/config", ErrGitDir},
		{root, "docs/../.git/config", ErrGitDir},
		{docs, "loop", ErrLoop},
		{docs, "loop-a", ErrLoop},
		{docs, "loop-b/x", ErrLoop},
		{docs, "link-out", ErrOutside},
		{docs, "../../outside/secret.txt", ErrOutside},
		{docs, "/etc/passwd", ErrOutside},
		{root, ".gitignore", nil},
		{root, ".github/workflows/ci.yml", nil},
		{root, "docs/.git-notes.md", nil},
		{root, "docs/x.git", nil},
	}
	for _, tt := range tests {
		_, err := Within(root, tt.base, tt.rel)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("Within(root, %s, %q) = %v, want %v", filepath.Base(tt.base), tt.rel, err, tt.want)
		}
	}
}

// TestInGit: a component named .git, in any case and after either separator, is inside .git; a name
// that only holds .git is not.
func TestInGit(t *testing.T) {
	for p, want := range map[string]bool{
		".git": true, ".git/config": true, "docs/.GIT/x.md": true, `docs\.git\x.md`: true, "a/.Git": true,
		"": false, "docs/x.md": false, "x.git/a": false, ".gitignore": false, ".github/workflows/ci.yml": false, "a.git": false,
	} {
		if got := InGit(p); got != want {
			t.Errorf("InGit(%q) = %v, want %v", p, got, want)
		}
	}
}
