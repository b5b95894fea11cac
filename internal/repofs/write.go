package repofs

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes a file evalgate produces (a report, later a baseline or a cache entry) through write: into
// a new temporary file in name's directory, then renamed over name. A pull request can commit a symlink
// where a report goes (evalgate.sarif → ~/.bashrc); the rename replaces the link itself and never writes
// through it. A reader never sees half a file, and a failed write leaves name as it was. The file is
// readable by all (0644), as reports are read by later steps.
func WriteFile(name string, write func(io.Writer) error) (err error) {
	fh, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
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
	bw := bufio.NewWriterSize(fh, 64<<10)
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
	return os.Rename(tmp, name)
}
