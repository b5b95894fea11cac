package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/changes"
	"github.com/evalgate/evalgate/internal/report"
)

// selection is what a run checks.
type selection struct {
	pages   []string // selected pages, repository-relative, sorted
	checked []string // every selected file checked, for the report's scope
}

// selectFiles picks the files of the run: the PATH arguments filtered by the
// config's selection, or every candidate file of the repository.
func (r *run) selectFiles(ctx context.Context) (*selection, error) {
	pagesM := &matcher{prefix: r.cfgPrefix(), include: r.cfg.Pages.Include, exclude: r.cfg.Pages.Exclude}
	sel := &selection{}
	if len(r.opts.Paths) > 0 {
		r.rep.Scope.Mode = report.ScopePaths
		r.fromArgs = true
		for _, p := range r.opts.Paths {
			rel, err := r.pathArg(p)
			if err != nil {
				return nil, err
			}
			if pagesM.Match(rel) {
				sel.pages = append(sel.pages, rel)
				continue
			}
			name := r.cfg.Path
			if name == "" {
				name = "(no config)"
			}
			r.opts.Notice("evalgate: not selected by " + name + ": " + p)
		}
	} else {
		r.whole = true
		if !r.opts.All {
			r.opts.Notice("evalgate: no PATH given: checking everything")
		}
		files, err := ListFiles(ctx, r.root, r.isRepo)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if pagesM.Match(f) {
				sel.pages = append(sel.pages, f)
			}
		}
	}
	slices.Sort(sel.pages)
	sel.pages = slices.Compact(sel.pages)
	sel.checked = slices.Clone(sel.pages)
	return sel, nil
}

// pathArg turns a PATH argument into a repository-relative path; a path that
// does not exist, is a directory or leaves the repository is a usage error.
func (r *run) pathArg(p string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.opts.Dir, p)
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", usagef("%s: no such file", p)
	}
	if fi.IsDir() {
		return "", usagef("%s: is a directory (give files, or --all)", p)
	}
	rel, ok := relSlash(r.root, abs)
	if !ok {
		return "", usagef("%s: outside the repository %s", p, r.root)
	}
	return rel, nil
}

// cfgPrefix is the config's directory, repository-relative ("" for the root):
// globs in the config are relative to it.
func (r *run) cfgPrefix() string {
	dir := filepath.ToSlash(filepath.Dir(r.cfg.Path))
	if r.cfg.Path == "" || dir == "." {
		return ""
	}
	return strings.TrimSuffix(dir, "/")
}

func isForkPR(eventPath string) bool {
	if eventPath == "" {
		return false
	}
	ev, err := changes.LoadEvent("", eventPath)
	if err != nil {
		// An unreadable payload cannot vouch for the pull request.
		return true
	}
	return ev.Fork()
}
