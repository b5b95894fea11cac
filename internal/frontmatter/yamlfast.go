package frontmatter

import (
	"bytes"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// The fast path of ParseYAML (README "Frontmatter and YAML"). Most frontmatter and most configs are a
// few block mappings and lists of plain or simply quoted scalars, with one-line flow collections:
//
//	title: Install
//	tags: [guide, cli]
//	evals:
//	  - id: sections
//	    grader: tool:headings
//	    options: {required: [Install]}
//	  - The page says which versions are supported.
//
// yaml.v3 reads such a text at several microseconds a line; fastYAML reads that subset directly and
// builds the tree ParseYAML builds from yaml.v3's, positions included. On anything outside the subset
// it gives up at once and yaml.v3 reads the text: anchors, aliases, tags, block scalars, scalars over
// several lines, escapes, complex or quoted keys, comments inside flow collections, document markers,
// tabs, carriage returns and the line breaks only YAML knows, duplicate keys, and every fault, so
// every problem still comes from one reader. FuzzFastYAML holds the two trees equal wherever the fast
// path answers.

// fastMaxDepth bounds the nesting the fast path follows; deeper texts go to yaml.v3.
const fastMaxDepth = 64

// fastLine is one line of the text: its bytes without the "\n", its 0-based number, the spaces that
// indent it, and whether it holds nothing but spaces and a comment.
type fastLine struct {
	b      []byte
	no     int
	indent int
	blank  bool
	ascii  bool
}

type fastParser struct {
	lines     []fastLine
	i         int // the line being read
	firstLine int
}

// fastYAML parses text when it is in the subset; ok is false when yaml.v3 must read it.
func fastYAML(text []byte, firstLine int) (root *Node, ok bool) {
	p := &fastParser{firstLine: firstLine}
	if !p.split(text) {
		return nil, false
	}
	p.skipBlank()
	if p.i == len(p.lines) {
		return &Node{Kind: Null, Pos: diag.Pos{Line: firstLine, Col: 1}}, true
	}
	root, ok = p.block(p.lines[p.i].indent, 1)
	if p.skipBlank(); !ok || p.i != len(p.lines) {
		return nil, false
	}
	return root, true
}

// split cuts text into lines, refusing what the subset leaves to yaml.v3: control characters other
// than "\n" (tabs and "\r" included), the code points YAML does not allow or reads as line breaks
// (U+0085, U+2028, U+2029), a byte order mark, and lines that start a directive or a document marker.
func (p *fastParser) split(text []byte) bool {
	p.lines = make([]fastLine, 0, bytes.Count(text, []byte{'\n'})+1)
	for no := 0; ; no++ {
		end := bytes.IndexByte(text, '\n')
		if end < 0 {
			end = len(text)
		}
		b := text[:end]
		ln := fastLine{b: b, no: no, ascii: true}
		for i := 0; i < len(b); i++ {
			c := b[i]
			switch {
			case c < 0x20 || c == 0x7F:
				return false
			case c >= utf8.RuneSelf:
				ln.ascii = false
				r, size := utf8.DecodeRune(b[i:])
				if !(r >= 0xA0 && r <= 0xD7FF && r != 0x2028 && r != 0x2029 || r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF || r >= 0x10000) {
					return false
				}
				i += size - 1
			}
		}
		for ln.indent < len(b) && b[ln.indent] == ' ' {
			ln.indent++
		}
		ln.blank = ln.indent == len(b) || b[ln.indent] == '#'
		if bytes.HasPrefix(b, []byte("---")) || bytes.HasPrefix(b, []byte("...")) || bytes.HasPrefix(b, []byte("%")) {
			return false
		}
		p.lines = append(p.lines, ln)
		if end == len(text) {
			return true
		}
		text = text[end+1:]
	}
}

func (p *fastParser) skipBlank() {
	for p.i < len(p.lines) && p.lines[p.i].blank {
		p.i++
	}
}

// pos is the file position of byte off of line ln; columns count code points.
func (p *fastParser) pos(ln *fastLine, off int) diag.Pos {
	col := off + 1
	if !ln.ascii {
		col = utf8.RuneCount(ln.b[:off]) + 1
	}
	return diag.Pos{Line: p.firstLine + ln.no, Col: col}
}

// block reads the block node whose first line is the current one, indented by indent.
func (p *fastParser) block(indent, depth int) (*Node, bool) {
	ln := &p.lines[p.i]
	if isItem(ln.b[indent:]) {
		return p.list(indent, depth)
	}
	return p.mapping(indent, depth)
}

// isItem reports whether c starts a block list item: "-" then a space or the line's end.
func isItem(c []byte) bool { return len(c) > 0 && c[0] == '-' && (len(c) == 1 || c[1] == ' ') }

// list reads a block list whose "-" stand at byte indent of their lines. It ends at a line indented
// less, or at one as indented that is not an item (the next key of a mapping whose list this is).
func (p *fastParser) list(indent, depth int) (*Node, bool) {
	if depth > fastMaxDepth {
		return nil, false
	}
	n := &Node{Kind: List}
	for p.skipBlank(); p.i < len(p.lines); p.skipBlank() {
		ln := &p.lines[p.i]
		if ln.indent != indent {
			if ln.indent < indent {
				break
			}
			return nil, false
		}
		if !isItem(ln.b[indent:]) {
			break
		}
		if n.Items == nil {
			n.Pos = p.pos(ln, indent)
		}
		off := indent + 1
		for off < len(ln.b) && ln.b[off] == ' ' {
			off++
		}
		rest := ln.b[off:]
		if len(rest) == 0 || rest[0] == '#' || isItem(rest) {
			return nil, false // an empty item, or a list in a list
		}
		var item *Node
		var ok bool
		if _, isKey := plainKeyEnd(rest); isKey {
			item, ok = p.mapping(off, depth+1)
		} else {
			item, ok = p.inlineLine(ln, off, depth+1)
		}
		if !ok {
			return nil, false
		}
		n.Items = append(n.Items, item)
	}
	return n, true
}

// mapping reads a block mapping whose keys start at byte col of their lines; the first key is on the
// current line (after a list item's "- " when col is past its indentation).
func (p *fastParser) mapping(col, depth int) (*Node, bool) {
	if depth > fastMaxDepth {
		return nil, false
	}
	n := &Node{Kind: Map}
	var keys keyIndex
	for first := true; p.i < len(p.lines); first = false {
		ln := &p.lines[p.i]
		if !first {
			if ln.indent != col {
				if ln.indent < col {
					break
				}
				return nil, false
			}
		}
		c := ln.b[col:]
		end, ok := plainKeyEnd(c)
		if !ok {
			return nil, false
		}
		key := string(bytes.TrimRight(c[:end], " "))
		kpos := p.pos(ln, col)
		if first {
			n.Pos = kpos
		}
		if keys.find(n.Entries, key) >= 0 {
			return nil, false // duplicate_key: yaml.v3's reading reports it
		}
		v, ok := p.value(ln, col+end+1, col, depth)
		if !ok {
			return nil, false
		}
		n.Entries = append(n.Entries, Entry{Key: key, KeyPos: kpos, Value: v})
		keys.added(n.Entries)
		p.skipBlank()
	}
	return n, true
}

// plainKeyEnd is the offset of the ":" that ends a plain implicit key at the start of c, when c starts
// with one: a ":" followed by a space or the line's end, before any comment.
func plainKeyEnd(c []byte) (int, bool) {
	if len(c) == 0 || !plainStart(c, false) {
		return 0, false
	}
	for i := 0; i < len(c) && i <= 1000; i++ { // yaml.v3 takes an implicit key of 1,024 characters at most
		switch c[i] {
		case ':':
			if i+1 == len(c) || c[i+1] == ' ' {
				return i, i > 0
			}
		case '#':
			if c[i-1] == ' ' {
				return 0, false
			}
		}
	}
	return 0, false
}

// plainStart reports whether c may start a plain scalar: no indicator starts one, but for a "-"
// followed by something other than a space (in a flow collection, by no flow indicator either).
func plainStart(c []byte, flow bool) bool {
	switch c[0] {
	case '-':
		return len(c) > 1 && c[1] != ' ' && !(flow && isFlowIndicator(c[1]))
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

func isFlowIndicator(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }

// value reads the value of a key whose ":" ends just before byte after of line ln, the key at byte
// col: on the same line, or the block below it, or nothing (a null right after the ":").
func (p *fastParser) value(ln *fastLine, after, col, depth int) (*Node, bool) {
	off := after
	for off < len(ln.b) && ln.b[off] == ' ' {
		off++
	}
	if off < len(ln.b) {
		if ln.b[off] == '#' {
			return nil, false
		}
		return p.inlineLine(ln, off, depth+1)
	}
	p.i++
	p.skipBlank()
	if p.i < len(p.lines) {
		next := &p.lines[p.i]
		switch {
		case next.indent > col:
			return p.block(next.indent, depth+1)
		case next.indent == col && isItem(next.b[col:]):
			return p.list(col, depth+1)
		}
	}
	return &Node{Kind: Null, Pos: p.pos(ln, after)}, true // an empty value: null, right after the ":"
}

// inlineLine reads the scalar or flow collection at byte off of line ln, which must end the line
// (a comment may follow), and moves to the next line.
func (p *fastParser) inlineLine(ln *fastLine, off, depth int) (*Node, bool) {
	b := ln.b
	n := &Node{Pos: p.pos(ln, off)}
	var end int
	switch b[off] {
	case '"', '\'':
		s, e, ok := quoted(b, off)
		if !ok {
			return nil, false
		}
		n.Kind, n.Text, end = String, s, e
	case '[', '{':
		var ok bool
		if n, end, ok = p.flow(ln, off, depth); !ok {
			return nil, false
		}
	default:
		if !plainStart(b[off:], false) {
			return nil, false
		}
		end = len(b)
		for i := off; i < len(b); i++ {
			if b[i] == '#' && b[i-1] == ' ' {
				end = i
				break
			}
			if b[i] == ':' && (i+1 == len(b) || b[i+1] == ' ') {
				return nil, false // a key where no key may be
			}
		}
		resolvePlain(string(bytes.TrimRight(b[off:end], " ")), n)
	}
	for end < len(b) && b[end] == ' ' {
		end++
	}
	if end < len(b) && (b[end] != '#' || b[end-1] != ' ') {
		return nil, false
	}
	p.i++
	return n, true
}

// quoted reads a one-line quoted scalar at b[off] (its quote): a double-quoted one without escapes,
// or a single-quoted one in which a doubled quote stands for one. end is past the closing quote.
func quoted(b []byte, off int) (s string, end int, ok bool) {
	q := b[off]
	if q == '"' {
		i := bytes.IndexByte(b[off+1:], '"')
		if i < 0 || bytes.IndexByte(b[off+1:off+1+i], '\\') >= 0 {
			return "", 0, false
		}
		return string(b[off+1 : off+1+i]), off + i + 2, true
	}
	var out []byte // the text so far, once a '' was read
	start := off + 1
	for i := start; i < len(b); i++ {
		switch {
		case b[i] != '\'':
		case i+1 < len(b) && b[i+1] == '\'':
			out = append(out, b[start:i+1]...)
			start = i + 2
			i++
		case out == nil:
			return string(b[start:i]), i + 1, true
		default:
			return string(append(out, b[start:i]...)), i + 1, true
		}
	}
	return "", 0, false
}

// flow reads a flow list or mapping at b[off] ("[" or "{") that closes on the same line; end is past
// its closing bracket.
func (p *fastParser) flow(ln *fastLine, off, depth int) (n *Node, end int, ok bool) {
	if depth > fastMaxDepth {
		return nil, 0, false
	}
	b := ln.b
	n = &Node{Pos: p.pos(ln, off)}
	closer := byte(']')
	if b[off] == '[' {
		n.Kind, n.Items = List, []*Node{}
	} else {
		n.Kind, n.Entries, closer = Map, []Entry{}, '}'
	}
	i := skipSpaces(b, off+1)
	if i < len(b) && b[i] == closer {
		return n, i + 1, true
	}
	var keys keyIndex
	for {
		if n.Kind == Map {
			kend, ok := flowPlainEnd(b, i)
			if !ok || kend >= len(b) || b[kend] != ':' || kend+1 >= len(b) || b[kend+1] != ' ' {
				return nil, 0, false
			}
			key := string(bytes.TrimRight(b[i:kend], " "))
			if keys.find(n.Entries, key) >= 0 {
				return nil, 0, false
			}
			kpos := p.pos(ln, i)
			v, vend, ok := p.flowItem(ln, skipSpaces(b, kend+1), depth+1)
			if !ok {
				return nil, 0, false
			}
			n.Entries = append(n.Entries, Entry{Key: key, KeyPos: kpos, Value: v})
			keys.added(n.Entries)
			i = vend
		} else {
			v, vend, ok := p.flowItem(ln, i, depth+1)
			if !ok {
				return nil, 0, false
			}
			n.Items = append(n.Items, v)
			i = vend
		}
		i = skipSpaces(b, i)
		switch {
		case i < len(b) && b[i] == closer:
			return n, i + 1, true
		case i < len(b) && b[i] == ',':
			if i = skipSpaces(b, i+1); i >= len(b) || b[i] == closer || b[i] == ',' {
				return nil, 0, false // a trailing or empty entry
			}
		default:
			return nil, 0, false
		}
	}
}

// flowItem reads one scalar or nested collection inside a flow collection; end is just past it.
func (p *fastParser) flowItem(ln *fastLine, i, depth int) (*Node, int, bool) {
	b := ln.b
	if i >= len(b) {
		return nil, 0, false
	}
	switch b[i] {
	case '[', '{':
		return p.flow(ln, i, depth)
	case '"', '\'':
		s, end, ok := quoted(b, i)
		if !ok {
			return nil, 0, false
		}
		return &Node{Kind: String, Pos: p.pos(ln, i), Text: s}, end, true
	}
	end, ok := flowPlainEnd(b, i)
	if !ok || end < len(b) && b[end] == ':' {
		return nil, 0, false // a key inside a flow list, or a value that looks like one
	}
	n := &Node{Pos: p.pos(ln, i)}
	resolvePlain(string(bytes.TrimRight(b[i:end], " ")), n)
	return n, end, true
}

// flowPlainEnd is where a plain scalar starting at b[i] inside a flow collection ends: at a flow
// indicator, or at a ":" followed by a space (the caller tells a key from a fault). Any other ":", a
// "?", a comment or the line's end is left to yaml.v3.
func flowPlainEnd(b []byte, i int) (int, bool) {
	if i >= len(b) || !plainStart(b[i:], true) {
		return 0, false
	}
	for j := i; j < len(b); j++ {
		switch c := b[j]; {
		case isFlowIndicator(c):
			return j, true
		case c == ':':
			return j, j+1 < len(b) && b[j+1] == ' '
		case c == '#' && b[j-1] == ' ', c == '?': // yaml.v3 ends a plain scalar at "?" in a flow collection
			return 0, false
		}
	}
	return 0, false
}

func skipSpaces(b []byte, i int) int {
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}
