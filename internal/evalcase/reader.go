package evalcase

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/evalgate/evalgate/internal/frontmatter"
)

// MaxLine is the longest JSONL line evalgate reads, without its line
// terminator: 16 MiB (README "EvalCase v1 fixtures", limits). A longer line is too_large
// and is skipped without being held in memory.
const MaxLine = 16 << 20

// readBuf is the size of the buffered reader: lines shorter than this are
// handed out without a copy.
const readBuf = 64 << 10

// rawLine is one line of a JSONL file.
type rawLine struct {
	No  int   // 1-based line number
	Off int64 // byte offset of Text's first byte in the file
	// Text is the line without "\n" or "\r\n" (and without a BOM on line
	// 1). It is valid until the next call of next; nil when TooLarge.
	Text     []byte
	TooLarge bool // longer than the limit: Text is nil
}

// lineReader reads a JSONL file line by line. It keeps at most one line in
// memory, and not even that for a line over the limit.
type lineReader struct {
	r     *bufio.Reader
	limit int
	buf   []byte // the current line when it spans several buffer fills
	off   int64  // offset of the next line
	no    int    // number of the last line read
	err   error  // io.EOF at the end; another error stops reading
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBuf), limit: limit}
}

// Err is the read error that ended reading, nil at a clean end of file.
func (lr *lineReader) Err() error {
	if errors.Is(lr.err, io.EOF) {
		return nil
	}
	return lr.err
}

// next returns the next line; false at the end of the file or on a read
// error (see Err).
func (lr *lineReader) next() (rawLine, bool) {
	if lr.err != nil {
		return rawLine{}, false
	}
	if cap(lr.buf) > 1<<20 {
		lr.buf = nil // do not keep a large line's buffer past its line
	}
	lr.buf = lr.buf[:0]
	var (
		n        int64 // bytes of this line read so far, terminator included
		text     []byte
		tooLarge bool
		spanned  bool // the line needed more than one buffer fill
	)
	for {
		chunk, err := lr.r.ReadSlice('\n')
		n += int64(len(chunk))
		switch {
		case tooLarge:
			// Discard: the line is already over the limit.
		case !spanned && err == nil:
			text = chunk // the whole line is in the reader's buffer
		case len(lr.buf)+len(chunk) > lr.limit+2: // +2: the terminator
			tooLarge, lr.buf = true, lr.buf[:0]
		default:
			spanned = true
			if need := len(lr.buf) + len(chunk); need > cap(lr.buf) {
				// Grow by doubling, but never past the limit: a line at
				// the limit costs the limit, not twice that.
				grown := make([]byte, len(lr.buf), min(max(2*cap(lr.buf), need), lr.limit+2))
				copy(grown, lr.buf)
				lr.buf = grown
			}
			lr.buf = append(lr.buf, chunk...)
			text = lr.buf
		}
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		lr.err = err
		if !errors.Is(err, io.EOF) || n == 0 {
			return rawLine{}, false
		}
		break // a last line without a newline
	}
	lr.no++
	ln := rawLine{No: lr.no, Off: lr.off}
	lr.off += n
	if tooLarge {
		ln.TooLarge = true
		return ln, true
	}
	text = bytes.TrimSuffix(text, []byte("\n"))
	text = bytes.TrimSuffix(text, []byte("\r"))
	if ln.No == 1 {
		rest, _ := frontmatter.CutBOM(text)
		ln.Off += int64(len(text) - len(rest))
		text = rest
	}
	if len(text) > lr.limit {
		ln.TooLarge = true
		return ln, true
	}
	ln.Text = text
	return ln, true
}

// blank reports whether a line holds only JSON whitespace: such lines are
// ignored.
func blank(text []byte) bool {
	for _, c := range text {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}
