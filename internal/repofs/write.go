package repofs

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// fileWriters buffer WriteFile's writes: a run writes a cache entry of a few hundred bytes per judge
// call, each through the same few buffers.
var fileWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// WriteFile writes a file evalgate produces (a report, later a baseline or a cache entry) through write: into
// a new temporary file in name's directory, then renamed over name. A pull request can commit a symlink
// where a report goes (evalgate.sarif → ~/.bashrc); the rename replaces the link itself and never writes
// through it. A reader never sees half a file, and a failed write leaves name as it was. The file is
// readable by all (0644), as reports are read by later steps.
func WriteFile(name string, write func(io.Writer) error) (err error) {
	if fi, err := os.Lstat(name); err == nil && fi.IsDir() {
		return &fs.PathError{Op: "open", Path: name, Err: errors.New("is a directory")}
	}
	fh, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &fs.PathError{Op: "open", Path: name, Err: err} // the name asked for, not the temporary one
	}
	tmp := fh.Name()
	defer func() {
		if err != nil {
			fh.Close()
			os.Remove(tmp)
		}
	}()
	bw := fileWriters.Get().(*bufio.Writer)
	bw.Reset(fh)
	defer func() { bw.Reset(nil); fileWriters.Put(bw) }()
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
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
