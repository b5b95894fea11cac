//go:build !unix

package repofs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// EntryDir is a folder of entries evalgate wrote itself (the judge cache's judge/). On this system
// it is its path: each entry is read by [ReadFileInto] after checking that no folder of rel is a
// symlink.
type EntryDir struct{ abs string }

// OpenEntryDir checks that abs is a folder.
func OpenEntryDir(abs string) (*EntryDir, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: errors.New("not a directory")}
	}
	return &EntryDir{abs: abs}, nil
}

// Close does nothing.
func (d *EntryDir) Close() error { return nil }

// ReadEntry reads rel, a '/'-separated path below the folder, up to limit bytes into buf's space: a
// symlinked folder in rel is refused, and the entry itself is checked by [ReadFileInto].
func (d *EntryDir) ReadEntry(rel string, limit int64, buf []byte) ([]byte, error) {
	p := d.abs
	comps := strings.Split(rel, "/")
	for _, c := range comps[:len(comps)-1] {
		p = filepath.Join(p, c)
		if fi, err := os.Lstat(p); err != nil || !fi.IsDir() || c == ".." {
			return nil, &fs.PathError{Op: "open", Path: p, Err: errors.New("not a folder of entries")}
		}
	}
	return ReadFileInto(filepath.Join(p, comps[len(comps)-1]), limit, buf)
}
