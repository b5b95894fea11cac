package engine

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/evalgate/evalgate/internal/grader"
)

// FindRoot returns the repository root: the nearest ancestor of dir (dir
// included) that holds a ".git" entry, found without running git. ok is false
// when there is none.
func FindRoot(dir string) (root string, ok bool) {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir, false
		}
		d = parent
	}
}

// ListFiles lists the candidate files of the repository, repository-relative
// with '/', sorted: `git ls-files` where git works (ignored files are never
// candidates), else a walk that skips .git, node_modules and vendor and never
// follows symlinked directories.
func ListFiles(ctx context.Context, root string, isRepo bool) ([]string, error) {
	if isRepo {
		if files, err := gitListFiles(ctx, root); err == nil {
			return files, nil
		}
	}
	return walkFiles(root)
}

func gitListFiles(ctx context.Context, root string) ([]string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "-c", "core.quotePath=false",
		"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--")
	cmd.Env = append(grader.GitEnv(os.Environ()), "GIT_OPTIONAL_LOCKS=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New(strings.TrimSpace(stderr.String()))
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	slices.Sort(files)
	// --cached lists a file once per stage in a conflicted merge.
	return slices.Compact(files), nil
}

func walkFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable directory is left out, like git would
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "vendor":
				if p != root {
					return filepath.SkipDir
				}
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	slices.Sort(files)
	return files, err
}

// matcher selects files by doublestar globs relative to a base directory.
type matcher struct {
	prefix  string // the base directory, repository-relative with '/', "" for the root
	include []string
	exclude []string
	// includeWhole matches include against repository-relative paths: the
	// default page globs cover the whole repository wherever the config
	// lives (README "Which files are checked"); exclude stays relative to
	// the base.
	includeWhole bool
}

// rel turns a repository-relative path into one relative to the base, or
// reports that the file is outside it.
func (m *matcher) rel(file string) (string, bool) {
	if m.prefix == "" {
		return file, true
	}
	if !strings.HasPrefix(file, m.prefix+"/") {
		return "", false
	}
	return file[len(m.prefix)+1:], true
}

// Match reports whether file (repository-relative, '/') is selected.
func (m *matcher) Match(file string) bool {
	rel, ok := m.rel(file)
	if m.includeWhole {
		return matchAny(m.include, file) && !(ok && matchAny(m.exclude, rel))
	}
	if !ok {
		return false
	}
	return matchAny(m.include, rel) && !matchAny(m.exclude, rel)
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, name); ok {
			return true
		}
	}
	return false
}

// relSlash returns p relative to root with '/', or ok false when it is outside.
func relSlash(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return path.Clean(rel), true
}
