package grader

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Pages a site's build generates (README "Links on real sites"): a reference built from code or a
// schema is written into the content folder by the build and kept out of the repository by a
// .gitignore (Tauri's src/content/docs/reference/.gitignore names config.md and javascript/*). A link
// to such a page holds on the built site though no file serves it in the repository, so a broken
// link whose page file git ignores is no finding. git says (`git check-ignore`, which judges paths
// that do not exist, negations and ignored folders included), once for the links of a page, and its
// answers are kept for the run. Without git, or outside a git repository, no page is generated.

// builtinBuild holds git's answers for one site: page file (repository-relative) -> ignored. The
// questions go to one `git check-ignore --stdin` kept for the run (the PageCache's Close ends it): a
// process a page read the whole index each time, one after the other, and 8,000 pages with a broken
// link took 47 s.
type builtinBuild struct {
	mu      sync.Mutex
	ignored map[string]bool
	git     *builtinIgnoreProc // nil until asked, and after a failure
	noGit   bool               // git did not start: it is not asked again
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
func (s *builtinSite) builtPages(ctx context.Context, pages *PageCache, ix *builtinSiteIndex, sets [][]string) []bool {
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
	if len(ask) > 0 && b.git == nil && !b.noGit {
		// Started on the first question, and again after a failure: git stops at a path it refuses (one
		// beyond a symlink), and the pages after it must not lose their answers.
		if b.git = startIgnoreProc(s.repo); b.git != nil {
			pages.onClose(b.git.close)
		} else {
			b.noGit = true // no git, or not a repository: no page is generated
		}
	}
	if b.git != nil && ctx.Err() == nil && len(ask) > 0 {
		ign, err := b.git.ignored(ask)
		for i, r := range ask[:len(ign)] {
			b.ignored[r] = ign[i]
		}
		if err != nil {
			b.git.close() // no more answers: what is left counts as not generated, as without git
			b.git = nil
		}
	}
	out := make([]bool, len(sets))
	for i, set := range rels {
		out[i] = slices.ContainsFunc(set, func(r string) bool { return b.ignored[r] })
	}
	return out
}

// builtinIgnoreProc is a `git check-ignore --stdin` that answers each path as it reads it.
type builtinIgnoreProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	once sync.Once
}

// startIgnoreProc starts git check-ignore in the repository at repo; nil when git is missing or does
// not start.
func startIgnoreProc(repo string) *builtinIgnoreProc {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil
	}
	// -v -n: one record per path, ignored or not: source, line number, pattern and path, each ended by
	// NUL; a path no pattern matches has an empty source, one a negation (!x) matches is kept.
	// GIT_FLUSH: each record is written as it is made, not when git's buffer fills. --no-index: git
	// looks each path up in the whole index otherwise (for submodules), 120 µs a path in a repository
	// of 8,000 files; the paths asked about are files that are not there, which the index does not
	// track in a checkout.
	cmd := exec.Command(git, "-C", repo, "-c", "core.quotePath=false", "check-ignore", "--no-index", "--stdin", "-z", "-v", "-n")
	cmd.Env = append(GitEnv(os.Environ()), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_FLUSH=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil
	}
	if err := cmd.Start(); err != nil {
		return nil
	}
	return &builtinIgnoreProc{cmd: cmd, in: in, out: bufio.NewReader(out)}
}

// ignored asks whether git ignores each of paths (repository-relative, slash-separated), and returns
// the answers it got: all of them, or those before an error. Each path is written ./PATH: git reads a
// path starting with ":(" as pathspec magic and stops. The paths are written while the answers are
// read: git, answering as it reads, would block on a full pipe of answers no one read.
func (g *builtinIgnoreProc) ignored(paths []string) ([]bool, error) {
	wrote := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(g.in)
		for _, p := range paths {
			w.WriteString("./")
			w.WriteString(p)
			w.WriteByte(0)
		}
		wrote <- w.Flush()
	}()
	out := make([]bool, 0, len(paths))
	for range paths {
		var fields [4][]byte
		for i := range fields {
			f, err := g.out.ReadBytes(0)
			if err != nil {
				return out, err
			}
			fields[i] = f[:len(f)-1]
		}
		source, pattern := fields[0], fields[2]
		out = append(out, len(source) > 0 && !bytes.HasPrefix(pattern, []byte("!")))
	}
	return out, <-wrote
}

// close ends the process: its input closed, it exits; killed if it does not.
func (g *builtinIgnoreProc) close() {
	g.once.Do(func() {
		g.in.Close()
		done := make(chan struct{})
		go func() { g.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			g.cmd.Process.Kill()
			<-done
		}
	})
}
