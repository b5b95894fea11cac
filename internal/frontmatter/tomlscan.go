package frontmatter

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// BurntSushi/toml reports no positions for values, so evalgate scans the TOML
// text itself (README "Decisions where the specs are silent") and records where every key and value starts.
// The scan follows TOML 1.1 closely enough for valid text: table and
// array-of-tables headers, dotted and quoted keys, every string form, arrays
// and inline tables across lines, comments. On invalid text it still ends
// (every step consumes input) but its record is not used: the decoder
// reports the error.
//
// The scan also bounds what the decoder is given. The decoder recurses into
// nested arrays and inline tables, and it copies a key's whole path for every
// key: a 1 MiB text of 100,000 keys below a 1,000-segment header makes it
// allocate gigabytes. So the scan stops at a "[" or "{" nested deeper than
// 1,000 levels, and at a key once the keys' paths hold more than
// maxTOMLKeySegments segments in all, and the text is then not decoded.

// maxTOMLKeySegments bounds the key segments of all keys' full paths, summed
// (a key "b" in table [a] counts 2). A shallow text of MaxSize bytes stays
// far below it: it holds at most MaxSize/4 keys ("k=1\n").
const maxTOMLKeySegments = MaxSize

// pathID names one path from the root: a key of a table or an item of a
// list. 0 is the root.
type pathID int32

type pathKey struct {
	parent pathID
	index  int32 // the item's index in its list; -1 for a key
	key    string
}

// tomlPlace is where one key and its value start.
type tomlPlace struct {
	key, val diag.Pos
	order    int  // the place's rank in the text: source order of entries
	known    bool // the scan saw the path
}

type tomlScan struct {
	text      []byte
	firstLine int
	i         int // current byte offset
	line      int // 0-based line of i within text
	lineStart int // byte offset where that line starts
	colOff    int // cache for pos: colN code points lie between lineStart and colOff
	colN      int
	ids       map[pathKey]pathID
	places    []tomlPlace    // by pathID
	depths    []int32        // by pathID: key segments from the root
	arrays    map[pathID]int // array of tables → number of its headers so far
	segments  int            // key segments of the keys' paths so far
	order     int
	first     diag.Pos // the first key or header
	// sealed are the tables an inline table defined: TOML 1.0 lets no key or table be added to one
	// outside its braces, which the decoder does not check (a = {b = 1} then a.c = 2).
	sealed map[pathID]bool
	// stop is where the scan stopped on a limit or a sealed table (Line 0 if it did not), with the
	// problem's code (syntax_error when "") and message.
	stop     diag.Pos
	stopCode string
	stopMsg  string
}

// scanTOML records the places of text, whose first line is file line
// firstLine.
func scanTOML(text []byte, firstLine int) *tomlScan {
	s := &tomlScan{
		text: text, firstLine: firstLine,
		ids:    map[pathKey]pathID{},
		places: []tomlPlace{{known: true}},
		depths: []int32{0},
		arrays: map[pathID]int{},
		sealed: map[pathID]bool{},
	}
	if bytes.HasPrefix(text, utf8BOM) {
		s.i = len(utf8BOM)
	}
	var table pathID
	for s.stop.Line == 0 {
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

// child returns the path of key (or, with index ≥ 0, of item index) below
// parent, creating it.
func (s *tomlScan) child(parent pathID, key string, index int) pathID {
	k := pathKey{parent: parent, index: int32(index), key: key}
	if id, ok := s.ids[k]; ok {
		return id
	}
	id := pathID(len(s.places))
	s.ids[k] = id
	s.places = append(s.places, tomlPlace{})
	d := s.depths[parent]
	if index < 0 {
		d++
	}
	s.depths = append(s.depths, d)
	return id
}

// lookup returns the path of key (or item index) below parent, if scanned.
func (s *tomlScan) lookup(parent pathID, key string, index int) (pathID, bool) {
	id, ok := s.ids[pathKey{parent: parent, index: int32(index), key: key}]
	return id, ok
}

// countKey adds the segments of the path of a key just defined, and stops
// the scan at pos once they exceed maxTOMLKeySegments.
func (s *tomlScan) countKey(id pathID, pos diag.Pos) {
	s.segments += int(s.depths[id])
	if s.segments > maxTOMLKeySegments && s.stop.Line == 0 {
		s.stop = pos
		s.stopMsg = fmt.Sprintf("the keys' paths hold more than %d segments in all; nest fewer keys this deep", maxTOMLKeySegments)
	}
}

// tooLong stops the scan at a key of more than maxDepth segments, a table nested too deep on its own:
// the decoder copies a key's path for each of its segments, so one dotted key of 50,000 segments (100
// KB) took it minutes and gigabytes.
func (s *tomlScan) tooLong(segs []keySeg) bool {
	if len(segs) <= maxDepth {
		return false
	}
	if s.stop.Line == 0 {
		s.stop, s.stopMsg = segs[maxDepth].pos, maxDepthMessage
	}
	return true
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

// place records key and val for id unless it already has a place: a key's
// place is where the text first names it.
func (s *tomlScan) place(id pathID, key, val diag.Pos) {
	if p := &s.places[id]; !p.known {
		*p = tomlPlace{key: key, val: val, order: s.order, known: true}
		s.order++
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
func (s *tomlScan) header() pathID {
	at := s.pos()
	array := s.i+1 < len(s.text) && s.text[s.i+1] == '['
	if array {
		s.i += 2
	} else {
		s.i++
	}
	segs := s.key()
	if len(segs) == 0 || s.tooLong(segs) {
		return 0
	}
	var id pathID
	for _, g := range segs[:len(segs)-1] {
		if s.extends(id, g) {
			return 0
		}
		id = s.child(id, g.name, -1)
		s.place(id, g.pos, at)
		if n := s.arrays[id]; n > 0 {
			id = s.child(id, "", n-1)
		}
	}
	last := segs[len(segs)-1]
	if s.extends(id, last) {
		return 0
	}
	id = s.child(id, last.name, -1)
	s.place(id, last.pos, at)
	s.countKey(id, last.pos)
	if !array {
		return id
	}
	n := s.arrays[id]
	s.arrays[id] = n + 1
	id = s.child(id, "", n)
	s.place(id, at, at)
	return id
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

// keyval reads "key = value" in the table table, whose value collections
// are at nesting level depth+1.
func (s *tomlScan) keyval(table pathID, depth int) {
	segs := s.key()
	if len(segs) == 0 || s.tooLong(segs) {
		return
	}
	s.skipSpace()
	if s.eof() || s.text[s.i] != '=' {
		return
	}
	s.i++
	s.skipSpace()
	id := table
	for _, g := range segs[:len(segs)-1] {
		if s.extends(id, g) {
			return
		}
		id = s.child(id, g.name, -1)
		s.place(id, g.pos, g.pos)
	}
	last := segs[len(segs)-1]
	if s.extends(id, last) {
		return
	}
	id = s.child(id, last.name, -1)
	s.place(id, last.pos, s.pos())
	s.countKey(id, last.pos)
	if s.stop.Line == 0 {
		s.value(id, depth)
	}
}

// value skips one value, recording the places of what it contains.
func (s *tomlScan) value(id pathID, depth int) {
	if s.eof() {
		return
	}
	switch s.text[s.i] {
	case '"', '\'':
		s.str()
	case '[':
		if s.deeper(depth) {
			s.i++
			s.items(id, depth+1)
		}
	case '{':
		if s.deeper(depth) {
			s.i++
			s.inlineTable(id, depth+1)
			s.sealed[id] = true
		}
	default: // number, bool, date-time: up to what ends a value
		for !s.eof() && strings.IndexByte(",]}#\n", s.text[s.i]) < 0 {
			s.i++
		}
	}
}

// extends reports whether naming g below table adds to a table an inline table defined, and stops the
// scan there with duplicate_key when it does.
func (s *tomlScan) extends(table pathID, g keySeg) bool {
	if !s.sealed[table] {
		return false
	}
	if s.stop.Line == 0 {
		s.stop, s.stopCode = g.pos, "duplicate_key"
		s.stopMsg = fmt.Sprintf("%s is added to an inline table outside its braces, which TOML does not allow", quoteKey(g.name))
	}
	return true
}

// deeper reports whether a collection may open below depth levels; when not,
// the scan stops there.
func (s *tomlScan) deeper(depth int) bool {
	if depth+1 > maxDepth {
		s.stop = s.pos()
		s.stopMsg = maxDepthMessage
		return false
	}
	return true
}

// items reads an array's items after its "[".
func (s *tomlScan) items(id pathID, depth int) {
	for n := 0; s.member(']'); n++ {
		item := s.child(id, "", n)
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
func (s *tomlScan) inlineTable(id pathID, depth int) {
	for s.member('}') {
		start := s.i
		s.keyval(id, depth)
		if s.i == start {
			s.i++
		}
	}
}

// member moves past blanks, comments and commas to the next member of an
// array or inline table and reports whether there is one: not when the scan
// has stopped, at the end of the text, or after end, the collection's "]"
// or "}".
func (s *tomlScan) member(end byte) bool {
	for s.stop.Line == 0 {
		s.skipBlank()
		if s.eof() {
			return false
		}
		switch s.text[s.i] {
		case end:
			s.i++
			return false
		case ',':
			s.i++
		default:
			return true
		}
	}
	return false
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
