package grader

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/repofs"
)

// builtinPathState is what a path named by page or option text turned out to be.
type builtinPathState int

const (
	builtinPathMissing builtinPathState = iota // no such file, spelt exactly so
	builtinPathFile                            // an existing file (or anything that is not a directory)
	builtinPathDir                             // an existing directory
	builtinPathOutside                         // refused by [repofs.Within]: absolute, outside, in .git, a loop
)

// builtinLocate judges rel, relative to base (both absolute, base inside root), with [repofs.Within], then checks
// that it exists spelt exactly as written: every component from root down must appear in its directory's
// listing, so "guide.md" does not find "Guide.md" even on a case-insensitive file system. abs is the cleaned
// path to open; why is Within's refusal for builtinPathOutside, else nil.
// Results are cached per root and joined path: pages link the same files again and again.
func (c *PageCache) builtinLocate(root, base, rel string) (abs string, st builtinPathState, why error) {
	if abs := filepath.Join(base, rel); len(abs) > maxPathLen {
		// No file has a path this long once cleaned (the system refuses it), and locating its folders one
		// by one, each cached under its own path, took the square of its length: a 200 KB link held 24 GB.
		// A long link that cleans up short (x/../x/../README.md) is located as any other.
		return abs, builtinPathMissing, nil
	}
	if filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" || strings.HasPrefix(rel, "/") ||
		strings.HasPrefix(rel, string(filepath.Separator)) {
		return c.builtinLocateNow(root, base, rel)
	}
	type located struct {
		abs string
		st  builtinPathState
		why error
	}
	v, _ := c.builtinGet("loc\x00"+root+"\x00"+filepath.Join(base, rel), func() (any, error) {
		abs, st, why := c.builtinLocateNow(root, base, rel)
		return located{abs, st, why}, nil
	})
	l := v.(located)
	return l.abs, l.st, l.why
}

// maxPathLen is the longest path a link may name and be found: Linux's PATH_MAX.
const maxPathLen = 4096

// builtinLocateNow locates a path whose folder is located first (and cached): only its last component is
// examined here, unless it is a symlink. Locating each path whole cost a stat of every folder on its way,
// each a walk of the path so far, for every link: 4,000 links 400 folders deep took 29 s.
func (c *PageCache) builtinLocateNow(root, base, rel string) (abs string, st builtinPathState, why error) {
	abs = filepath.Join(base, rel)
	croot := filepath.Clean(root)
	sep := string(filepath.Separator)
	dir, name := filepath.Dir(abs), filepath.Base(abs)
	if abs == croot || !strings.HasPrefix(dir+sep, croot+sep) || strings.EqualFold(name, ".git") {
		return c.builtinLocateWhole(root, base, rel)
	}
	if _, dst, dwhy := c.builtinLocate(root, dir, "."); dst != builtinPathDir {
		if dst == builtinPathOutside {
			return abs, builtinPathOutside, dwhy
		}
		return abs, builtinPathMissing, nil // in a folder that is missing, or a file
	}
	fi, err := os.Lstat(abs)
	switch {
	case err != nil:
		return abs, builtinPathMissing, nil
	case fi.Mode()&os.ModeSymlink != 0:
		return c.builtinLocateWhole(root, base, rel)
	}
	if names := c.builtinListing(dir); names != nil && !names[name] {
		return abs, builtinPathMissing, nil // spelt in another case
	}
	if fi.IsDir() {
		return abs, builtinPathDir, nil
	}
	return abs, builtinPathFile, nil
}

// builtinLocateWhole locates a path by resolving it whole.
func (c *PageCache) builtinLocateWhole(root, base, rel string) (abs string, st builtinPathState, why error) {
	abs, why = repofs.Within(root, base, rel)
	if why != nil {
		return abs, builtinPathOutside, why
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return abs, builtinPathMissing, nil
	}
	if r, err := filepath.Rel(filepath.Clean(root), abs); err == nil && r != "." && r != ".." &&
		!strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		dir := filepath.Clean(root)
		for _, comp := range strings.Split(r, string(filepath.Separator)) {
			if names := c.builtinListing(dir); names != nil && !names[comp] {
				return abs, builtinPathMissing, nil
			}
			dir = filepath.Join(dir, comp)
		}
	}
	if fi.IsDir() {
		return abs, builtinPathDir, nil
	}
	return abs, builtinPathFile, nil
}

// builtinListing returns the names in directory dir, cached; nil when dir cannot be listed (then the exact
// spelling is not checked).
func (c *PageCache) builtinListing(dir string) map[string]bool {
	v, err := c.builtinGet("dir\x00"+dir, func() (any, error) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		names := make(map[string]bool, len(entries))
		for _, e := range entries {
			names[e.Name()] = true
		}
		return names, nil
	})
	if err != nil {
		return nil
	}
	return v.(map[string]bool)
}

// builtinRefusal says why [repofs.Within] refused a path, after "it": "it leaves the repository".
func builtinRefusal(why error) string {
	_, words := repofs.Refusal(why)
	return words
}

// builtinRefused is an [ErrOutsideRepo] (target_outside_repo) that says in its own words why the path was
// refused: "... is inside .git" rather than "leaves the repository".
type builtinRefused string

func (e builtinRefused) Error() string        { return string(e) }
func (e builtinRefused) Is(target error) bool { return target == ErrOutsideRepo }
