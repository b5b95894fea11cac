package grader

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Pages a site's build generates (README "Links on real sites"): a reference built from code or a
// schema is written into the content folder by the build and kept out of the repository by a
// .gitignore (Tauri's src/content/docs/reference/.gitignore names config.md and javascript/*). A link
// to such a page holds on the built site though no file serves it in the repository, so a broken
// link whose page file git ignores is no finding. git says (`git check-ignore`, which judges paths
// that do not exist, negations and ignored folders included), once for the links of a page, and its
// answers are kept for the run. Without git, or outside a git repository, no page is generated.

// builtinBuild holds git's answers for one site: page file (repository-relative) -> ignored.
type builtinBuild struct {
	mu      sync.Mutex
	ignored map[string]bool
}

// pageFiles are the page files that would serve the site URL path u (a path the site has no page at):
// for each content folder u falls in, u's file with each page extension and u's folder's index pages.
func (s *builtinSite) pageFiles(ix *builtinSiteIndex, u string) []string {
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/index.html"), ".html")
	type base struct{ dir, rest string }
	var bases []base
	if s.instances {
		for _, f := range ix.folders {
			if rest, ok := strings.CutPrefix(u, f.prefix); ok && (f.prefix == "" || rest == "" || rest[0] == '/') {
				bases = append(bases, base{f.dir, rest})
			}
		}
	} else {
		bases = append(bases, base{s.root, u})
	}
	var out []string
	for _, b := range bases {
		rest := strings.Trim(path.Clean("/"+b.rest), "/")
		for ext := range builtinPageExts {
			if rest != "" {
				out = append(out, filepath.Join(b.dir, filepath.FromSlash(rest+ext)))
			}
			for _, n := range s.indexNames {
				out = append(out, filepath.Join(b.dir, filepath.FromSlash(rest), n+ext))
			}
		}
	}
	return out
}

// builtPages reports, for each set of page files, whether git ignores one of them: the build makes it.
func (s *builtinSite) builtPages(ctx context.Context, ix *builtinSiteIndex, sets [][]string) []bool {
	rels := make([][]string, len(sets)) // each set's files inside the repository, repository-relative
	for i, set := range sets {
		for _, abs := range set {
			if r, err := filepath.Rel(s.repo, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				rels[i] = append(rels[i], filepath.ToSlash(r))
			}
		}
	}
	b := &ix.build
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ignored == nil {
		b.ignored = map[string]bool{}
	}
	var ask []string
	for _, set := range rels {
		for _, r := range set {
			if _, known := b.ignored[r]; !known {
				b.ignored[r] = false
				ask = append(ask, r)
			}
		}
	}
	for _, r := range builtinGitIgnored(ctx, s.repo, ask) {
		b.ignored[r] = true
	}
	out := make([]bool, len(sets))
	for i, set := range rels {
		out[i] = slices.ContainsFunc(set, func(r string) bool { return b.ignored[r] })
	}
	return out
}

// builtinGitIgnored returns those of paths (repository-relative, slash-separated) that git ignores in
// the repository at repo: none when git is missing or fails.
func builtinGitIgnored(ctx context.Context, repo string, paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil
	}
	// Each path is written ./PATH: git reads a path starting with ":(" as pathspec magic and stops.
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString("./")
		in.WriteString(p)
		in.WriteByte(0)
	}
	// -v -n: one record per path, ignored or not: source, line number, pattern and path, each ended
	// by NUL; a path no pattern matches has an empty source, one a negation (!x) matches is kept.
	cmd := exec.CommandContext(ctx, git, "-C", repo, "-c", "core.quotePath=false",
		"check-ignore", "--stdin", "-z", "-v", "-n")
	cmd.Env = append(GitEnv(os.Environ()), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	cmd.Stdin = &in
	out, _ := cmd.Output() // exit 1: nothing ignored; 128: no repository, nothing ignored either
	fields := bytes.Split(out, []byte{0})
	var ignored []string
	for i := 0; i+3 < len(fields); i += 4 {
		source, pattern := fields[i], fields[i+2]
		if len(source) > 0 && !bytes.HasPrefix(pattern, []byte("!")) {
			ignored = append(ignored, strings.TrimPrefix(string(fields[i+3]), "./"))
		}
	}
	return ignored
}
