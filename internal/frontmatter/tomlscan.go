package frontmatter

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// BurntSushi/toml reports no positions for values, so evalgate scans the TOML
// text itself (PRODUCT.md §10) and records where every key and value starts.
// The scan follows TOML 1.1 closely enough for valid text: table and
// array-of-tables headers, dotted and quoted keys, every string form, arrays
// and inline tables across lines, comments. On invalid text it still ends
// (every step consumes input) but its record is not used: the decoder
// reports the error.
//
// Places are keyed by path: the key segments from the root, each preceded by
// pathKey, with pathIndex and the decimal index for a list item.
const (
	pathKey   = "\x00"
	pathIndex = "\x01"
)

func pathJoin(parent, key string) string { return parent + pathKey + key }
func pathItem(parent string, i int) string {
	return parent + pathIndex + strconv.Itoa(i)
}

// tomlPlace is where one key and its value start.
type tomlPlace struct {
	key, val diag.Pos
	order    int // the place's rank in the text: source order of entries
}

type tomlScan struct {
	text      []byte
	firstLine int
	i         int // current byte offset
	line      int // 0-based line of i within text
	lineStart int // byte offset where that line starts
	colOff    int // cache for pos: colN code points lie between lineStart and colOff
	colN      int
	places    map[string]*tomlPlace
	arrays    map[string]int // array-of-tables path → number of its headers so far
	first     diag.Pos       // the first key or header
	tooDeep   diag.Pos       // the "[" or "{" nested deeper than maxDepth; Line 0 if none
}

// scanTOML records the places of text, whose first line is file line
// firstLine.
func scanTOML(text []byte, firstLine int) *tomlScan {
	s := &tomlScan{text: text, firstLine: firstLine, places: map[string]*tomlPlace{}, arrays: map[string]int{}}
	if bytes.HasPrefix(text, utf8BOM) {
		s.i = len(utf8BOM)
	}
	table := ""
	for s.tooDeep.Line == 0 {
		s.skipBlank()
		if s.eof() {
			break
		}
		start := s.i
		if s.first.Line == 0 {
			s.first = s.pos()
		}
		if s.text[s.i] == '[' {
			table = s.header()
		} else {
			s.keyval(table, 1)
		}
		s.skipLine()
		if s.i == start {
			s.i++
		}
	}
	return s
}

func (s *tomlScan) eof() bool { return s.i >= len(s.text) }

// pos is the file position of byte s.i; columns count code points.
func (s *tomlScan) pos() diag.Pos {
	if s.colOff < s.lineStart || s.colOff > s.i {
		s.colOff, s.colN = s.lineStart, 0
	}
	s.colN += utf8.RuneCount(s.text[s.colOff:s.i])
	s.colOff = s.i
	return diag.Pos{Line: s.firstLine + s.line, Col: s.colN + 1}
}

// place records key and val for path unless the path already has a place:
// a key's place is where the text first names it.
func (s *tomlScan) place(path string, key, val diag.Pos) {
	if _, ok := s.places[path]; !ok {
		s.places[path] = &tomlPlace{key: key, val: val, order: len(s.places)}
	}
}

// adv consumes one byte, counting lines.
func (s *tomlScan) adv() {
	if s.text[s.i] == '\n' {
		s.line++
		s.lineStart = s.i + 1
	}
	s.i++
}

func (s *tomlScan) skipSpace() {
	for !s.eof() && (s.text[s.i] == ' ' || s.text[s.i] == '\t') {
		s.i++
	}
}

// skipBlank skips whitespace, line breaks and comments.
func (s *tomlScan) skipBlank() {
	for !s.eof() {
		switch s.text[s.i] {
		case ' ', '\t', '\r', '\n':
			s.adv()
		case '#':
			s.skipLine()
		default:
			return
		}
	}
}

// skipLine skips to the start of the next line.
func (s *tomlScan) skipLine() {
	j := bytes.IndexByte(s.text[s.i:], '\n')
	if j < 0 {
		s.i = len(s.text)
		return
	}
	s.i += j
	s.adv()
}

// header reads a "[table]" or "[[array.of.tables]]" line and returns the
// path of the table it opens. A prefix naming an array of tables refers to
// that array's latest item, as in TOML.
func (s *tomlScan) header() string {
	at := s.pos()
	array := s.i+1 < len(s.text) && s.text[s.i+1] == '['
	if array {
		s.i += 2
	} else {
		s.i++
	}
	segs := s.key()
	if len(segs) == 0 {
		return ""
	}
	path := ""
	for _, g := range segs[:len(segs)-1] {
		path = pathJoin(path, g.name)
		s.place(path, g.pos, at)
		if n := s.arrays[path]; n > 0 {
			path = pathItem(path, n-1)
		}
	}
	last := segs[len(segs)-1]
	path = pathJoin(path, last.name)
	s.place(path, last.pos, at)
	if !array {
		return path
	}
	n := s.arrays[path]
	s.arrays[path] = n + 1
	path = pathItem(path, n)
	s.place(path, at, at)
	return path
}

// keySeg is one segment of a dotted key: its decoded name and position.
type keySeg struct {
	name string
	pos  diag.Pos
}

// key reads a bare, quoted or dotted key.
func (s *tomlScan) key() []keySeg {
	var segs []keySeg
	for {
		s.skipSpace()
		if s.eof() {
			return segs
		}
		at := s.pos()
		var name string
		switch c := s.text[s.i]; {
		case c == '"':
			start := s.i
			s.str()
			name = decodeBasic(s.text[start+1 : max(start+1, s.i-1)])
		case c == '\'':
			start := s.i
			s.str()
			name = string(s.text[start+1 : max(start+1, s.i-1)])
		case isBareKeyChar(c):
			start := s.i
			for !s.eof() && isBareKeyChar(s.text[s.i]) {
				s.i++
			}
			name = string(s.text[start:s.i])
		default:
			return segs
		}
		segs = append(segs, keySeg{name: name, pos: at})
		s.skipSpace()
		if s.eof() || s.text[s.i] != '.' {
			return segs
		}
		s.i++
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// keyval reads "key = value" in the table at path table, whose value
// collections are at nesting level depth+1.
func (s *tomlScan) keyval(table string, depth int) {
	segs := s.key()
	if len(segs) == 0 {
		return
	}
	s.skipSpace()
	if s.eof() || s.text[s.i] != '=' {
		return
	}
	s.i++
	s.skipSpace()
	path := table
	for _, g := range segs[:len(segs)-1] {
		path = pathJoin(path, g.name)
		s.place(path, g.pos, g.pos)
	}
	path = pathJoin(path, segs[len(segs)-1].name)
	s.place(path, segs[len(segs)-1].pos, s.pos())
	s.value(path, depth)
}

// value skips one value, recording the places of what it contains.
func (s *tomlScan) value(path string, depth int) {
	if s.eof() {
		return
	}
	switch s.text[s.i] {
	case '"', '\'':
		s.str()
	case '[':
		if s.deeper(depth) {
			s.i++
			s.items(path, depth+1)
		}
	case '{':
		if s.deeper(depth) {
			s.i++
			s.inlineTable(path, depth+1)
		}
	default: // number, bool, date-time: up to what ends a value
		for !s.eof() && strings.IndexByte(",]}#\n", s.text[s.i]) < 0 {
			s.i++
		}
	}
}

// deeper reports whether a collection may open below depth levels; when not,
// it records where the limit was crossed and the scan stops.
func (s *tomlScan) deeper(depth int) bool {
	if depth+1 > maxDepth {
		s.tooDeep = s.pos()
		return false
	}
	return true
}

// items reads an array's items after its "[".
func (s *tomlScan) items(path string, depth int) {
	for n := 0; s.tooDeep.Line == 0; {
		s.skipBlank()
		if s.eof() {
			return
		}
		switch s.text[s.i] {
		case ']':
			s.i++
			return
		case ',':
			s.i++
			continue
		}
		item := pathItem(path, n)
		n++
		at := s.pos()
		s.place(item, at, at)
		start := s.i
		s.value(item, depth)
		if s.i == start {
			s.i++
		}
	}
}

// inlineTable reads an inline table's entries after its "{". TOML 1.1
// allows line breaks and a trailing comma inside.
func (s *tomlScan) inlineTable(path string, depth int) {
	for s.tooDeep.Line == 0 {
		s.skipBlank()
		if s.eof() {
			return
		}
		switch s.text[s.i] {
		case '}':
			s.i++
			return
		case ',':
			s.i++
			continue
		}
		start := s.i
		s.keyval(path, depth)
		if s.i == start {
			s.i++
		}
	}
}

// str skips a string of any of TOML's four kinds, starting at its quote.
func (s *tomlScan) str() {
	q := s.text[s.i]
	if bytes.HasPrefix(s.text[s.i:], []byte{q, q, q}) { // multi-line
		s.i += 3
		for !s.eof() {
			switch c := s.text[s.i]; {
			case c == '\\' && q == '"':
				s.adv()
				if !s.eof() {
					s.adv()
				}
			case c == q && bytes.HasPrefix(s.text[s.i:], []byte{q, q, q}):
				s.i += 3
				// Up to two more quotes belong to the content before the
				// closing delimiter: """a"""" is `a"`.
				for k := 0; k < 2 && !s.eof() && s.text[s.i] == q; k++ {
					s.i++
				}
				return
			default:
				s.adv()
			}
		}
		return
	}
	s.i++
	for !s.eof() {
		switch c := s.text[s.i]; {
		case c == '\n':
			return // unterminated: invalid text
		case c == '\\' && q == '"':
			s.i++
			if !s.eof() && s.text[s.i] != '\n' {
				s.i++
			}
		case c == q:
			s.i++
			return
		default:
			s.i++
		}
	}
}

// decodeBasic decodes the escapes of a basic string's content, as a quoted
// key is named. Malformed escapes are kept as written: only valid text is
// looked up.
func decodeBasic(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	var sb strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			sb.WriteByte(b[i])
			continue
		}
		i++
		switch c := b[i]; c {
		case 'b':
			sb.WriteByte('\b')
		case 't':
			sb.WriteByte('\t')
		case 'n':
			sb.WriteByte('\n')
		case 'f':
			sb.WriteByte('\f')
		case 'r':
			sb.WriteByte('\r')
		case 'e':
			sb.WriteByte(0x1B)
		case '"', '\\':
			sb.WriteByte(c)
		case 'x', 'u', 'U':
			n := 2 // \xHH (TOML 1.1)
			if c == 'u' {
				n = 4
			} else if c == 'U' {
				n = 8
			}
			if i+1+n > len(b) {
				sb.WriteByte('\\')
				sb.WriteByte(c)
				continue
			}
			v, err := strconv.ParseUint(string(b[i+1:i+1+n]), 16, 32)
			if err != nil {
				sb.WriteByte('\\')
				sb.WriteByte(c)
				continue
			}
			sb.WriteRune(rune(v))
			i += n
		default:
			sb.WriteByte('\\')
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
