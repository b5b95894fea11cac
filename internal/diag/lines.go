package diag

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// LineIndex turns byte offsets of one text into positions. Lines end at "\n";
// a "\r" before it belongs to the line's end, not to its columns. Pos
// remembers where it last counted, so it is not safe for concurrent use.
type LineIndex struct {
	text   []byte
	starts []int // byte offset of the start of each line, 0-based lines
	// The last offset Pos counted columns to, its 1-based line and column:
	// increasing offsets on one long line then cost one pass over it, not one
	// pass each (a page that is one 8 MiB line with a thousand findings).
	lastOff, lastLine, lastCol int
}

// NewLineIndex indexes text. It keeps a reference to text, not a copy.
func NewLineIndex(text []byte) *LineIndex {
	starts := []int{0}
	for i := 0; ; {
		n := bytes.IndexByte(text[i:], '\n')
		if n < 0 {
			break
		}
		i += n + 1
		starts = append(starts, i)
	}
	return &LineIndex{text: text, starts: starts}
}

// lineOf is the 1-based line that holds off. Parsers ask in order, so it looks on from the last line
// Pos counted on, a few lines at most, before it searches every line.
func (x *LineIndex) lineOf(off int) int {
	if l := x.lastLine; l >= 1 && l <= len(x.starts) && x.starts[l-1] <= off {
		for end := min(l+8, len(x.starts)); ; l++ {
			if l == len(x.starts) || x.starts[l] > off {
				return l
			}
			if l == end {
				break
			}
		}
	}
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off })
}

// Lines is the number of lines, counting a last line without "\n".
func (x *LineIndex) Lines() int { return len(x.starts) }

// LineStart is the byte offset where 1-based line n starts.
func (x *LineIndex) LineStart(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(x.starts) {
		return len(x.text)
	}
	return x.starts[n-1]
}

// Pos converts a byte offset (clamped to the text) into a position whose
// column counts code points; an invalid UTF-8 byte counts as one.
func (x *LineIndex) Pos(off int) Pos {
	off = max(0, min(off, len(x.text)))
	line := x.lineOf(off)
	from, col := x.starts[line-1], 1
	// Counting on from the last offset adds up only when it starts a code
	// point (or an invalid byte): no sequence is then split between the two.
	if line == x.lastLine && from <= x.lastOff && x.lastOff <= off &&
		(x.lastOff == len(x.text) || utf8.RuneStart(x.text[x.lastOff])) {
		from, col = x.lastOff, x.lastCol
	}
	col += utf8.RuneCount(x.text[from:off])
	x.lastOff, x.lastLine, x.lastCol = off, line, col
	return Pos{Line: line, Col: col}
}
