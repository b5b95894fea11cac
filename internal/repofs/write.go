package repofs

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// fileWriters buffer WriteFile's writes: a run writes a cache entry of a few hundred bytes per judge
// call, each through the same few buffers.
var fileWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// WriteFile writes a file evalgate produces (a report, a baseline, a cache entry) through write.
//
// A path inside the repository root (lexically; root "" for none) is written into a new temporary file
// in its directory, then renamed over it. A pull request can commit a symlink where a report goes
// (evalgate.sarif → ~/.bashrc): the rename replaces the link itself and never writes through it; and a
// symlinked folder on the way (reports → /etc) is refused, as a path inside the repository that
// leaves it. A reader never sees half a file, and a failed write leaves the path as it was.
//
// A path outside the repository is the workflow's own: an existing file there that is not a regular
// one (/dev/null, a FIFO, a symlink such as /dev/stdout) is written into, through the link, never
// replaced; any other is written as one inside is. The file is readable by all (0644), as reports are read by later steps.
func WriteFile(root, name string, write func(io.Writer) error) (err error) {
	into, err := writable(root, name)
	if err != nil {
		return err
	}
	if into {
		return writeInto(name, write) // a device, a FIFO, or a symlink (/dev/stdout) to anything
	}
	fh, err := createTemp(name)
	if err != nil {
		return err
	}
	tmp := fh.Name()
	defer func() {
		if err != nil {
			fh.Close()
			os.Remove(tmp)
		}
	}()
	if err := writeBuffered(fh, write); err != nil {
		return err
	}
	if err := fh.Chmod(0o644); err != nil {
		return err
	}
	if err := fh.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	return nil
}

// CanWrite reports, before a run, why WriteFile could not write name, if it could not: the checks
// WriteFile makes, and a temporary file made and removed in name's folder. A report flag naming a
// folder that does not exist is then found out before any grader or judge runs, not after.
func CanWrite(root, name string) error {
	into, err := writable(root, name)
	if err != nil || into {
		return err
	}
	fh, err := createTemp(name)
	if err != nil {
		return err
	}
	fh.Close()
	return os.Remove(fh.Name())
}

// writable checks name as WriteFile writes it, and reports whether it is written into (an existing
// file outside the repository that is not a regular one) rather than replaced.
func writable(root, name string) (into bool, err error) {
	fi, lerr := os.Lstat(name)
	if lerr == nil && fi.IsDir() {
		return false, &fs.PathError{Op: "open", Path: name, Err: errors.New("is a directory")}
	}
	inside, err := symlinkFree(root, name)
	if err != nil {
		return false, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return !inside && lerr == nil && !fi.Mode().IsRegular(), nil
}

// createTemp makes the temporary file name is written to, in its folder; an error names name, not the
// temporary file.
func createTemp(name string) (*os.File, error) {
	fh, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return fh, nil
}

// symlinkFree reports whether name lies inside root, lexically, and if so checks that no folder between
// root and name is a symlink: its rename could not then replace the link, and would write where it
// leads.
func symlinkFree(root, name string) (inside bool, err error) {
	if root == "" {
		return false, nil
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false, nil
	}
	if InGit(rel) {
		// .git/config, or a worktree's .git file: git's own, and the checkout's token is there.
		return true, fmt.Errorf("%s is git's own (.git); evalgate writes nothing there", filepath.ToSlash(rel))
	}
	dir := root
	parts := strings.Split(rel, string(filepath.Separator))
	for _, part := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, part)
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			r, _ := filepath.Rel(root, dir)
			return true, fmt.Errorf("%s is a symlink in the repository; evalgate writes nothing through one", filepath.ToSlash(r))
		}
	}
	return true, nil
}

// writeInto writes into the existing file name, what it is or leads to: a device, a FIFO, a file.
func writeInto(name string, write func(io.Writer) error) error {
	fh, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	err = writeBuffered(fh, write)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeBuffered calls write with fh behind one of fileWriters, and flushes it.
func writeBuffered(fh *os.File, write func(io.Writer) error) error {
	bw := fileWriters.Get().(*bufio.Writer)
	bw.Reset(fh)
	defer func() { bw.Reset(nil); fileWriters.Put(bw) }()
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}
