package repofs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The read limits (README "Limits"). Every read stops at its limit instead of reading first and measuring
// after, so a file that never ends (/dev/zero behind a symlink is refused anyway) or a huge one costs at most
// its limit.
const (
	// ConfigLimit bounds the config file, as frontmatter is bounded.
	ConfigLimit = 1 << 20
	// BodyLimit bounds what built-in graders read of a page body, a companion, a schema or a linked page.
	BodyLimit = 8 << 20
)

// ErrNotRegular: the path names a directory, a device, a FIFO or a socket. Only regular files are read
// because of page or config text.
var ErrNotRegular = errors.New("is not a regular file")

// ErrTooLarge is what a [*TooLargeError] matches with errors.Is.
var ErrTooLarge = errors.New("is too large")

// TooLargeError reports a file longer than the limit it was read with.
type TooLargeError struct {
	Path  string
	Size  int64 // the file's size when it was opened (at least Limit+1)
	Limit int64 // bytes
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %s, more than the %s evalgate reads", e.Path, Size(e.Size), Size(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Size writes a byte count for messages: "8 MiB", "1.5 MiB", "512 KiB", "17 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20:
		if n%(1<<20) == 0 {
			return fmt.Sprintf("%d MiB", n>>20)
		}
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Open opens abs for reading if it is a regular file (a symlink to one is followed; judge the path with
// [Within] first). Anything else is an error wrapping [ErrNotRegular], and a FIFO or device is never opened
// for long: the open does not block, and the file is checked again through the open descriptor.
func Open(abs string) (*os.File, fs.FileInfo, error) {
	if fi, err := os.Stat(abs); err != nil {
		return nil, nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(abs, fi)
	}
	return openRegular(abs, 0)
}

// openRegular opens abs (with flags besides O_RDONLY) without blocking and checks through the open
// descriptor that it is a regular file.
func openRegular(abs string, flags int) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|openNonblock|flags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() { // replaced between the two looks
		f.Close()
		return nil, nil, notRegular(abs, fi)
	}
	return f, fi, nil
}

func notRegular(abs string, fi fs.FileInfo) error {
	what := "is not a regular file"
	switch m := fi.Mode(); {
	case m.IsDir():
		what = "is a directory"
	case m&fs.ModeDevice != 0:
		what = "is a device"
	case m&fs.ModeNamedPipe != 0:
		what = "is a named pipe"
	case m&fs.ModeSocket != 0:
		what = "is a socket"
	}
	return &fs.PathError{Op: "open", Path: abs, Err: notRegularError(what)}
}

// notRegularError says what a file is instead ("is a device") and matches [ErrNotRegular].
type notRegularError string

func (e notRegularError) Error() string        { return string(e) }
func (e notRegularError) Is(target error) bool { return target == ErrNotRegular }

// ReadFile reads the regular file abs (see [Open]) up to limit bytes. A longer file returns its first limit
// bytes and a [*TooLargeError]; the rest is never read.
func ReadFile(abs string, limit int64) ([]byte, error) { return ReadFileInto(abs, limit, nil) }

// ReadFileInto is ReadFile reading into buf's space (its length is ignored), which it grows only when
// the file does not fit: a caller that reads many files and keeps few passes the same buffer again.
func ReadFileInto(abs string, limit int64, buf []byte) ([]byte, error) {
	f, fi, err := Open(abs)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	return readLimited(f, abs, fi.Size(), limit, buf[:0])
}

// ReadListedInto is ReadFileInto for a file that Lstat has just found to be a regular file, no symlink
// (lstat, which is what the caller has of it): it is not looked at again before it is opened, but opened
// without following a symlink (one swapped in meanwhile is an error) and checked again through the open
// descriptor. A page of a run is read this way: one system call fewer of six.
func ReadListedInto(abs string, lstat fs.FileInfo, limit int64, buf []byte) ([]byte, error) {
	if !lstat.Mode().IsRegular() {
		return ReadFileInto(abs, limit, buf)
	}
	f, fi, err := openRegular(abs, openNoFollow)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	return readLimited(f, abs, fi.Size(), limit, buf[:0])
}

// readLimited reads r up to limit bytes into buf; size (the file's size, or 0 when unknown) sizes the
// buffer, with a byte to spare so that a file of exactly its size reaches EOF without growing it.
func readLimited(r io.Reader, name string, size, limit int64, buf []byte) ([]byte, error) {
	if want := int(min(max(size, 0), limit) + 1); cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	lr := io.LimitReader(r, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // let append grow it
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return buf, err
		}
	}
	if int64(len(buf)) > limit {
		return buf[:limit], &TooLargeError{Path: name, Size: max(size, limit+1), Limit: limit}
	}
	return buf, nil
}

// Reason words a failed read for a message that names the file already:
// "no such file", what the file is instead of a regular one, else the
// system's reason, without the path os puts in front of it.
func Reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, ErrNotRegular):
		return "it " + err.Error() + "; only regular files are read"
	}
	return err.Error()
}
