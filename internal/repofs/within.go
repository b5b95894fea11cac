package grader

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// pathsMaxLinks bounds the symlinks followed while resolving one path; a loop exceeds it. Linux's own limit
// (MAXSYMLINKS) is 40.
const pathsMaxLinks = 255

// Within resolves rel against base (both inside root; root and base absolute), cleans it, follows symlinks,
// and reports the absolute path and whether it stays inside root. Absolute rel paths are refused. A path that
// does not exist is still judged by its cleaned form (and by the symlinks of its existing ancestors).
//
// abs is filepath.Join(base, rel): cleaned, with symlinks not resolved, in the same form as base, so that
// filepath.Rel(root, abs) gives the repository path when base is written like root. Open abs, never the raw
// joined text: after cleaning, abs holds no "..", so the operating system resolves it to the very path that
// was judged. Containment compares the resolved path with root's own resolved form, so root may itself be
// reached through a symlink (macOS /tmp is /private/tmp). A dangling symlink is judged by its target. A
// symlink loop, a relative root or base, or an absolute rel (also a rooted or volume path on Windows) is not
// ok. Resolution does not fold case: on a case-insensitive file system a symlink into root spelt in another
// case is judged outside (refused, never wrongly admitted). Checking and opening are separate steps: this is
// protection against page and config text, not against concurrent changes to the file system.
func Within(root, base, rel string) (abs string, ok bool) {
	if filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" || strings.HasPrefix(rel, "/") ||
		strings.HasPrefix(rel, string(filepath.Separator)) {
		return filepath.Clean(rel), false
	}
	if !filepath.IsAbs(root) || !filepath.IsAbs(base) {
		return filepath.Join(base, rel), false
	}
	abs = filepath.Join(base, rel)
	realRoot, err := pathsResolve(filepath.Clean(root))
	if err != nil {
		return abs, false
	}
	real, err := pathsResolve(abs)
	if err != nil {
		return abs, false
	}
	return abs, pathsContains(realRoot, real)
}

// pathsContains reports whether p is dir or below it; both are clean absolute paths.
func pathsContains(dir, p string) bool {
	if p == dir {
		return true
	}
	if strings.HasSuffix(dir, string(filepath.Separator)) { // the file system root
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// errPathsLoop reports too many symlinks while resolving a path.
var errPathsLoop = errors.New("too many levels of symbolic links")

// pathsResolve returns the clean absolute path p with every symlink of its existing prefix followed, like
// filepath.EvalSymlinks, except that it does not fail on a missing component: from the first component that
// cannot be examined (missing, a file's child, no permission) the rest is joined lexically. A dangling
// symlink is therefore replaced by its target.
func pathsResolve(p string) (string, error) {
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
		if links > pathsMaxLinks {
			return "", errPathsLoop
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
