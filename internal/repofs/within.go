// Package repofs is the one way evalgate reaches a file named by page, config or fixture text: the path is
// judged against the repository (README "Security model": inside it after cleaning and following
// symlinks, never inside .git), and the file is read only if it is a regular file, never past its limit.
// It imports nothing of evalgate's, so every vocabulary may use it.
package repofs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Why [Within] refuses a path; test with errors.Is.
var (
	// ErrOutside: the path is absolute, or leaves the repository after cleaning and following symlinks.
	ErrOutside = errors.New("leaves the repository")
	// ErrGitDir: the path, as written or after following symlinks, has a .git component. actions/checkout
	// keeps the workflow's token in .git/config, so nothing there is ever read because of page text.
	ErrGitDir = errors.New("is inside .git")
	// ErrLoop: resolving the path follows more than 255 symlinks (a loop, in practice).
	ErrLoop = errors.New("is a symlink loop")
)

// maxLinks bounds the symlinks followed while resolving one path; a loop exceeds it. Linux's own limit
// (MAXSYMLINKS) is 40.
const maxLinks = 255

// Within resolves rel against base (both inside root; root and base absolute), cleans it, follows symlinks,
// and returns the absolute path to open, or an error wrapping [ErrOutside], [ErrGitDir] or [ErrLoop].
// Absolute rel paths are refused. A path that does not exist is still judged by its cleaned form (and by
// the symlinks of its existing ancestors).
//
// abs is filepath.Join(base, rel): cleaned, with symlinks not resolved, in the same form as base, so that
// filepath.Rel(root, abs) gives the repository path when base is written like root. It is returned with
// the error too, for messages. Open abs, never the raw joined text: after cleaning, abs holds no "..", so
// the operating system resolves it to the very path that was judged. Containment compares the resolved path
// with root's own resolved form, so root may itself be reached through a symlink (macOS /tmp is
// /private/tmp). A dangling symlink is judged by its target. A relative root or base is refused. The .git
// test folds case (".GIT" is the same directory on a case-insensitive file system); containment does not:
// on such a file system a symlink into root spelt in another case is judged outside (refused, never wrongly
// admitted). Checking and opening are separate steps: this is protection against page and config text,
// not against concurrent changes to the file system.
func Within(root, base, rel string) (abs string, err error) {
	if filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" || strings.HasPrefix(rel, "/") ||
		strings.HasPrefix(rel, string(filepath.Separator)) {
		return filepath.Clean(rel), ErrOutside
	}
	abs = filepath.Join(base, rel)
	if !filepath.IsAbs(root) || !filepath.IsAbs(base) {
		return abs, ErrOutside
	}
	root = filepath.Clean(root)
	if contains(root, abs) && inGitDir(root, abs) {
		return abs, ErrGitDir
	}
	realRoot, err := resolve(root)
	if err != nil {
		return abs, err
	}
	real, err := resolve(abs)
	if err != nil {
		return abs, err
	}
	if !contains(realRoot, real) {
		return abs, ErrOutside
	}
	if inGitDir(realRoot, real) {
		return abs, ErrGitDir
	}
	return abs, nil
}

// contains reports whether p is dir or below it; both are clean absolute paths.
func contains(dir, p string) bool {
	if p == dir {
		return true
	}
	if strings.HasSuffix(dir, string(filepath.Separator)) { // the file system root
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// inGitDir reports whether p, below dir (both clean and absolute), has a component named .git in any case.
func inGitDir(dir, p string) bool { return InGit(strings.TrimPrefix(p, dir)) }

// InGit reports whether the path p has a component named .git in any case, with '/' or '\\' (or the
// system's separator) between components: nothing under .git is read (actions/checkout keeps the
// token in .git/config).
func InGit(p string) bool {
	for _, comp := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' || r == filepath.Separator }) {
		if strings.EqualFold(comp, ".git") {
			return true
		}
	}
	return false
}

// resolve returns the clean absolute path p with every symlink of its existing prefix followed, like
// filepath.EvalSymlinks, except that it does not fail on a missing component: from the first component that
// cannot be examined (missing, a file's child, no permission) the rest is joined lexically. A dangling
// symlink is therefore replaced by its target. Its only error is [ErrLoop].
func resolve(p string) (string, error) {
	const sep = string(filepath.Separator)
	vol := filepath.VolumeName(p)
	resolved := vol + sep
	rest := p[len(vol):]
	links := 0
	for {
		rest = strings.TrimLeft(rest, sep)
		if rest == "" {
			return resolved, nil
		}
		comp := rest
		rest = ""
		if i := strings.Index(comp, sep); i >= 0 {
			comp, rest = comp[:i], comp[i:]
		}
		switch comp {
		case ".":
			continue
		case "..":
			// resolved holds no symlink, so its lexical parent is its physical parent.
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, comp)
		fi, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(next, rest), nil
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			resolved = next
			continue
		}
		links++
		if links > maxLinks {
			return "", ErrLoop
		}
		target, err := os.Readlink(next)
		if err != nil {
			return filepath.Join(next, rest), nil
		}
		if filepath.IsAbs(target) || filepath.VolumeName(target) != "" {
			tvol := filepath.VolumeName(target)
			resolved = tvol + sep
			target = target[len(tvol):]
		}
		// A relative target is read from the link's directory, which is resolved.
		rest = target + sep + rest
	}
}

// Refusal gives the result code and the words ("leaves the repository") for a path that [Within] refused: a
// loop cannot be read (target_unreadable); anything else, .git included, is outside what page and config text
// may reach (target_outside_repo).
func Refusal(err error) (code, why string) {
	switch {
	case errors.Is(err, ErrLoop):
		return "target_unreadable", "is a symlink loop"
	case errors.Is(err, ErrGitDir):
		return "target_outside_repo", "is inside .git"
	}
	return "target_outside_repo", "leaves the repository"
}
