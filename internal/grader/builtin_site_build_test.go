package grader

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/testfs"
)

// gitIgnored asks one check-ignore process about each of paths, and returns those ignored; none when
// git does not start or stops answering.
func gitIgnored(repo string, paths []string) []string {
	g := startIgnoreProc(repo)
	if g == nil {
		return nil
	}
	defer g.close()
	var out []string
	for _, half := range [][]string{paths[:len(paths)/2], paths[len(paths)/2:]} { // two questions, one process
		ign, _ := g.ignored(half)
		for i, yes := range ign {
			if yes {
				out = append(out, half[i])
			}
		}
	}
	return out
}

// TestBuiltinGitIgnored: git's own judgement of paths that need not exist, through an ignored folder, a
// nested .gitignore, a glob and a negation, one path at a time to one process; a path that reads as
// pathspec magic is a path; outside a repository, or without git, nothing is ignored.
func TestBuiltinGitIgnored(t *testing.T) {
	repo := testfs.Tree(t, map[string]string{
		".gitignore":                  "docs/api/\n",
		"docs/reference/.gitignore":   "config.md\njavascript/*.md\n!javascript/index.md\n:(glob)*\n",
		"docs/reference/javascript/x": "",
	})
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	ask := []string{"docs/api/client.md", "docs/api/deep/a.mdx", "docs/reference/config.md", "docs/reference/confg.md",
		"docs/reference/javascript/core.md", "docs/reference/javascript/index.md", "docs/reference/javascript/core.mdx",
		"docs/reference/:(glob)*", ":(glob)docs/other.md", "docs/other.md"}
	got := gitIgnored(repo, ask)
	slices.Sort(got)
	want := []string{"docs/api/client.md", "docs/api/deep/a.mdx", "docs/reference/:(glob)*", "docs/reference/config.md",
		"docs/reference/javascript/core.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ignored (-want +got):\n%s", diff)
	}
	if got := gitIgnored(t.TempDir(), ask); got != nil {
		t.Errorf("outside a repository: %v", got)
	}
	t.Setenv("PATH", "")
	if got := gitIgnored(repo, ask); got != nil {
		t.Errorf("without git: %v", got)
	}
}

// TestBuiltinPageFiles: the files that would serve a URL, in each content folder the URL falls in.
func TestBuiltinPageFiles(t *testing.T) {
	root := t.TempDir()
	star := &builtinSite{builtinPreset: builtinPresets["starlight"], name: "starlight", root: root}
	got := star.pageFiles(&builtinSiteIndex{}, "/reference/config/")
	for _, f := range []string{"reference/config.md", "reference/config.mdx", "reference/config/index.md"} {
		if !slices.Contains(got, filepath.Join(root, f)) {
			t.Errorf("starlight /reference/config/: no %s in %v", f, got)
		}
	}
	docs, blog := filepath.Join(root, "docs"), filepath.Join(root, "blog")
	dus := &builtinSite{builtinPreset: builtinPresets["docusaurus"], name: "docusaurus", root: root}
	ix := &builtinSiteIndex{folders: []builtinFolder{{dir: docs, prefix: "/docs", kind: "docs"}, {dir: blog, prefix: "/blog", kind: "blog"}}}
	got = dus.pageFiles(ix, "/docs/api/client")
	if !slices.Contains(got, filepath.Join(docs, "api", "client.md")) || !slices.Contains(got, filepath.Join(docs, "api", "client", "index.mdx")) {
		t.Errorf("docusaurus /docs/api/client: %v", got)
	}
	for _, f := range got {
		if !filepath.IsAbs(f) || filepath.Dir(f) == blog {
			t.Errorf("docusaurus /docs/api/client: %s is no file of docs/", f)
		}
	}
	if got := dus.pageFiles(ix, "/docsx/a"); len(got) != 0 {
		t.Errorf("/docsx/a is in no folder: %v", got)
	}
	if got := star.pageFiles(&builtinSiteIndex{}, "/../../etc/passwd"); slices.ContainsFunc(got, func(f string) bool {
		r, _ := filepath.Rel(root, f)
		return r == ".." || len(r) > 2 && r[:3] == "../"
	}) {
		t.Errorf("a URL climbing out names files outside the root: %v", got)
	}
}
