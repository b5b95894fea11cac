package frontmatter

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/jsonstr"
)

// ParseJSON parses one JSON text (RFC 8259) into a Node tree in one pass, with the file position of every
// value and key, so that JSON files are checked by the same rules as YAML and TOML. firstLine is the file
// line of text's first line (a JSONL line's own number, say); columns count code points.
//
// Problems, each at its position:
//   - syntax_error at the first byte that does not fit the grammar (a trailing comma, a comment, a leading
//     zero, a raw control character in a string, text after the value, a nesting deeper than 1,000 levels
//     with the root at level 1, an empty text); parsing stops there and root is nil.
//   - invalid_utf8 at the first byte that is not valid UTF-8; parsing stops there and root is nil.
//   - duplicate_key at a repeated key of an object; the first entry is kept (as for YAML), and parsing
//     goes on.
//
// Numbers keep their text; a number beyond float64 is ±Inf (1e400), which the rules refuse as they refuse
// YAML's .inf. A \u escape of a lone surrogate becomes U+FFFD, as encoding/json decodes it.
func ParseJSON(text []byte, firstLine int) (root *Node, problems []diag.Problem) {
	return ParseJSONWith(text, firstLine, JSONOptions{})
}

// JSONStep is one step of a path into a JSON value: an object's member Key (Index -1), or an array's item
// Index (from 0, Key "").
type JSONStep struct {
	Key   string
	Index int
}

// JSONOptions are what ParseJSONWith does beside parsing.
type JSONOptions struct {
	// Dup, when set, hears of each duplicate_key problem, in the order of the problems: with the repeated
	// key, the path from the root to the object that holds it (valid only during the call) and the
	// problem's position. The path is the text's: a duplicate inside a value that an earlier duplicate
	// dropped has the path through that value.
	Dup func(key string, object []JSONStep, pos diag.Pos)
	// Each, when set, is handed each value whose path from the root has EachDepth steps (from 1), as
	// soon as it is parsed, with that path (valid only during the call); a value of a repeated key, or
	// inside one, is not handed over. A value Each takes (returns true for) is not kept in the tree: its
	// array holds no item for it, its object no entry (the key still counts for duplicates), and its
	// nodes are reused for the values after it. So Each must keep no Node, Entry or slice of the value,
	// only its strings and positions. This is how a large file is read value by value in little memory.
	// A parse that stops later returns no root all the same; what Each took is then the caller's to drop.
	Each      func(path []JSONStep, v *Node) (taken bool)
	EachDepth int
	// Owned says that text is the caller's own and never changes once ParseJSONWith is called (a file
	// read for this parse alone): the strings of the tree then share text's bytes instead of a copy of
	// them, so that a file of 16 MiB is held once, not twice.
	Owned bool
}

// ParseJSONWith is ParseJSON with options; its tree and problems are ParseJSON's, less what Each took.
func ParseJSONWith(text []byte, firstLine int, o JSONOptions) (root *Node, problems []diag.Problem) {
	var src string
	if o.Owned {
		src = unsafe.String(unsafe.SliceData(text), len(text)) // never written again: JSONOptions.Owned
	} else {
		src = string(text)
	}
	p := &jsonParser{text: text, src: src, idx: diag.NewLineIndex(text), first: firstLine,
		dup: o.Dup, each: o.Each, eachDepth: o.EachDepth}
	p.space()
	root = p.value(1)
	if !p.stopped {
		p.space()
		if p.i < len(p.text) {
			p.unexpected("after the JSON value")
		}
	}
	if p.stopped {
		root = nil
	}
	if p.probs.Len() == 0 {
		return root, p.halt
	}
	return root, append(p.probs.List(), p.halt...)
}

// jsonParser is the state of one ParseJSON.
type jsonParser struct {
	text []byte
	// src is text as one string, copied once: a string or number without escapes is a slice of it, not
	// an allocation of its own. A string kept keeps the whole text, so the copy is as large as the file
	// however few strings outlive the parse; it is a copy, so that a caller may reuse text's bytes,
	// unless the caller says they are its own (JSONOptions.Owned): then it is text itself.
	src     string
	i       int // the next byte to read
	idx     *diag.LineIndex
	first   int               // the file line of text's first line
	probs   diag.FileProblems // the duplicate keys, diag.MaxFileFaults of them kept (README "Limits")
	halt    []diag.Problem    // the syntax_error or invalid_utf8 that ended the parse, always kept
	stopped bool              // a syntax_error or invalid_utf8 ended the parse
	// dup and each are JSONOptions'. path is the steps to the value being parsed, kept only when one
	// of them is set; repeated counts the repeated keys whose values are being parsed (none is handed
	// to each).
	dup       func(key string, object []JSONStep, pos diag.Pos)
	each      func(path []JSONStep, v *Node) bool
	eachDepth int
	path      []JSONStep
	repeated  int
	// entries and items are stacks the collections being read gather their members on; each takes
	// its own, at its exact size, when it ends, so that no collection grows its slice member by member.
	entries []Entry
	items   []*Node
	// The slabs nodes, objects' entries and arrays' items are made in (carve).
	nodeSlab  []Node
	entrySlab []Entry
	itemSlab  []*Node
}

func (p *jsonParser) pos(off int) diag.Pos {
	ps := p.idx.Pos(off)
	ps.Line += p.first - 1
	return ps
}

// stop records the problem that ends the parse.
func (p *jsonParser) stop(off int, code, format string, args ...any) {
	if !p.stopped {
		p.stopped = true
		p.halt = append(p.halt, diag.Problem{Pos: p.pos(off), Code: code, Message: fmt.Sprintf(format, args...)})
	}
}

// unexpected stops at p.i: the end of the text, an invalid UTF-8 byte, or a character that does not fit.
func (p *jsonParser) unexpected(where string) {
	if p.i >= len(p.text) {
		p.stop(p.i, "syntax_error", "JSON: unexpected end of the text %s", where)
		return
	}
	r, size := utf8.DecodeRune(p.text[p.i:])
	switch {
	case r == utf8.RuneError && size == 1:
		p.stop(p.i, "invalid_utf8", "invalid UTF-8: byte 0x%02x is not part of a valid encoding", p.text[p.i])
	case r < 0x20 || r == 0x7f:
		p.stop(p.i, "syntax_error", "JSON: unexpected control character U+%04X %s", r, where)
	default:
		p.stop(p.i, "syntax_error", "JSON: unexpected %q %s", r, where)
	}
}

// space skips JSON white space: space, tab, LF and CR.
func (p *jsonParser) space() {
	for p.i < len(p.text) {
		switch p.text[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value parses the value at p.i (white space already skipped) at nesting level depth.
func (p *jsonParser) value(depth int) *Node {
	if p.i >= len(p.text) {
		p.unexpected("where a value should start")
		return nil
	}
	start := p.i
	switch c := p.text[p.i]; {
	case c == '{' || c == '[':
		if depth > maxDepth {
			p.stop(start, "syntax_error", "JSON: %s", maxDepthMessage)
			return nil
		}
		if c == '{' {
			return p.object(depth)
		}
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil
		}
		n := p.node(String, start)
		n.Text = s
		return n
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", Bool)
	case c == 'f':
		return p.literal("false", Bool)
	case c == 'n':
		return p.literal("null", Null)
	}
	p.unexpected("where a value should start")
	return nil
}

func (p *jsonParser) literal(word string, kind Kind) *Node {
	start := p.i
	for k := 0; k < len(word); k++ {
		if p.i >= len(p.text) || p.text[p.i] != word[k] {
			p.unexpected("in " + word)
			return nil
		}
		p.i++
	}
	n := p.node(kind, start)
	n.Text, n.Bool = word, word == "true"
	return n
}

// node returns a new node of kind at byte offset off. Nodes are made in slabs, each twice the last up
// to maxSlab: one allocation for many nodes, and a small text (one EvalCase line) still allocates
// little. A slab's nodes are zero until node hands them out, and never handed out twice.
func (p *jsonParser) node(kind Kind, off int) *Node {
	if len(p.nodeSlab) == cap(p.nodeSlab) {
		p.nodeSlab = make([]Node, 0, min(max(2*cap(p.nodeSlab), 8), maxSlab))
	}
	p.nodeSlab = p.nodeSlab[:len(p.nodeSlab)+1]
	n := &p.nodeSlab[len(p.nodeSlab)-1]
	n.Kind, n.Pos = kind, p.pos(off)
	return n
}

// carve copies vs into *slab and returns the copy, its capacity its length: made as nodes are (node),
// in slabs of at least len(vs).
func carve[T any](slab *[]T, vs []T) []T {
	if cap(*slab)-len(*slab) < len(vs) {
		*slab = make([]T, 0, max(min(max(2*cap(*slab), 8), maxSlab), len(vs)))
	}
	start := len(*slab)
	*slab = append(*slab, vs...)
	return (*slab)[start:len(*slab):len(*slab)]
}

const maxSlab = 1024

func (p *jsonParser) object(depth int) *Node {
	n := p.node(Map, p.i)
	p.i++ // {
	p.space()
	if p.i < len(p.text) && p.text[p.i] == '}' {
		p.i++
		return n
	}
	var keys keyIndex
	base, taken := len(p.entries), 0
	defer func() { p.entries = p.entries[:base] }()
	for {
		if p.i >= len(p.text) || p.text[p.i] != '"' {
			p.unexpected("where a key (a string) should be")
			return nil
		}
		koff := p.i
		key, ok := p.str()
		if !ok {
			return nil
		}
		kpos := p.pos(koff)
		p.space()
		if p.i >= len(p.text) || p.text[p.i] != ':' {
			p.unexpected("after a key, where ':' should be")
			return nil
		}
		p.i++
		p.space()
		first := keys.find(p.entries[base:], key)
		if first >= 0 {
			p.repeated++
		}
		v, took := p.member(depth, JSONStep{Key: key, Index: -1})
		if p.stopped {
			return nil
		}
		if first >= 0 {
			p.repeated--
			p.probs.Add(diag.Problem{Pos: kpos, Code: "duplicate_key",
				Message: fmt.Sprintf("duplicate key %s; the first is at line %d, column %d", quoteKey(key),
					p.entries[base+first].KeyPos.Line, p.entries[base+first].KeyPos.Col)})
			if p.dup != nil {
				p.dup(key, p.path, kpos)
			}
		} else {
			if took {
				taken++
			}
			p.entries = append(p.entries, Entry{Key: key, KeyPos: kpos, Value: v}) // a taken value's key stays, for duplicates
			keys.added(p.entries[base:])
		}
		if more, ok := p.after('}', "an object"); !more {
			if !ok {
				return nil
			}
			kept := p.entries[base:]
			if taken > 0 {
				kept = slices.DeleteFunc(kept, func(e Entry) bool { return e.Value == nil })
			}
			n.Entries = carve(&p.entrySlab, kept)
			return n
		}
	}
}

func (p *jsonParser) array(depth int) *Node {
	n := p.node(List, p.i)
	p.i++ // [
	p.space()
	if p.i < len(p.text) && p.text[p.i] == ']' {
		p.i++
		return n
	}
	base := len(p.items)
	defer func() { p.items = p.items[:base] }()
	for i := 0; ; i++ {
		v, took := p.member(depth, JSONStep{Index: i})
		if p.stopped {
			return nil
		}
		if !took {
			p.items = append(p.items, v)
		}
		if more, ok := p.after(']', "an array"); !more {
			if !ok {
				return nil
			}
			n.Items = carve(&p.itemSlab, p.items[base:])
			return n
		}
	}
}

// member parses the value at p.i, a member of a collection at nesting level depth, which step leads
// to. It hands the value to each when that is set and the value is at its depth and not a repeated
// key's: a value each took is nil, its nodes taken back for the values after it.
func (p *jsonParser) member(depth int, step JSONStep) (v *Node, took bool) {
	if p.dup == nil && p.each == nil {
		return p.value(depth + 1), false
	}
	p.path = append(p.path, step)
	defer func() { p.path = p.path[:len(p.path)-1] }()
	if p.each == nil || len(p.path) != p.eachDepth || p.repeated > 0 {
		return p.value(depth + 1), false
	}
	before := slabs{p.nodeSlab, p.entrySlab, p.itemSlab}
	v = p.value(depth + 1)
	if p.stopped || !p.each(p.path, v) {
		return v, false
	}
	p.nodeSlab = rewind(before.nodes, p.nodeSlab)
	p.entrySlab = rewind(before.entries, p.entrySlab)
	p.itemSlab = rewind(before.items, p.itemSlab)
	return nil, true
}

// slabs are the parser's slabs as they were before a value was parsed.
type slabs struct {
	nodes   []Node
	entries []Entry
	items   []*Node
}

// rewind takes back what a slab handed out since it was before: cleared, to be handed out again. A
// slab made since then is all the value's, and is taken back whole; the old one's rest is cleared and
// left.
func rewind[T any](before, now []T) []T {
	if cap(before) == cap(now) && (cap(now) == 0 || &before[:1][0] == &now[:1][0]) {
		clear(now[len(before):])
		return now[:len(before)]
	}
	clear(before[len(before):cap(before)])
	clear(now)
	return now[:0]
}

// after reads what follows a member of a collection that close ends: a ',' (more) or close (done); anything
// else stops the parse (not ok).
func (p *jsonParser) after(close byte, what string) (more, ok bool) {
	p.space()
	if p.i < len(p.text) {
		switch p.text[p.i] {
		case ',':
			p.i++
			p.space()
			return true, true
		case close:
			p.i++
			return false, true
		}
	}
	p.unexpected(fmt.Sprintf("in %s, where ',' or '%c' should be", what, close))
	return false, false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *jsonParser) number() *Node {
	start := p.i
	digits := func() bool {
		k := p.i
		for p.i < len(p.text) && p.text[p.i] >= '0' && p.text[p.i] <= '9' {
			p.i++
		}
		return p.i > k
	}
	if p.text[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.text) && p.text[p.i] == '0':
		p.i++
		if p.i < len(p.text) && p.text[p.i] >= '0' && p.text[p.i] <= '9' {
			p.stop(p.i-1, "syntax_error", "JSON: a number may not have a leading zero")
			return nil
		}
	case !digits():
		p.unexpected("in a number, where a digit should be")
		return nil
	}
	if p.i < len(p.text) && p.text[p.i] == '.' {
		p.i++
		if !digits() {
			p.unexpected("after a decimal point, where a digit should be")
			return nil
		}
	}
	if p.i < len(p.text) && (p.text[p.i] == 'e' || p.text[p.i] == 'E') {
		p.i++
		if p.i < len(p.text) && (p.text[p.i] == '+' || p.text[p.i] == '-') {
			p.i++
		}
		if !digits() {
			p.unexpected("in an exponent, where a digit should be")
			return nil
		}
	}
	text := p.src[start:p.i]
	f, _ := strconv.ParseFloat(text, 64) // the grammar above is ParseFloat's; out of range gives ±Inf
	n := p.node(Number, start)
	n.Text, n.Num = text, f
	return n
}

// str reads the string at p.i (its opening quote) and returns its decoded value.
func (p *jsonParser) str() (string, bool) {
	p.i++ // "
	start := p.i
	// Fast path: no escape, and nothing to check but the closing quote, controls and UTF-8. From a
	// string's first backslash on, jsonstr decodes it; one it cannot decode is walked on from there,
	// escape by escape, to its first fault.
	faulty := false
	for p.i < len(p.text) {
		c := p.text[p.i]
		switch {
		case c == '"':
			if faulty {
				p.unexpected("in a string") // not reached: the string would have decoded
				return "", false
			}
			s := p.src[start:p.i]
			p.i++
			return s, true
		case c == '\\':
			if !faulty {
				if s, ok := p.strEscaped(start); ok {
					return s, true
				}
				faulty = true
			}
			if !p.escape() {
				return "", false
			}
		case c < 0x20:
			p.unexpected("in a string (write it as an escape)")
			return "", false
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, size := utf8.DecodeRune(p.text[p.i:])
			if r == utf8.RuneError && size == 1 {
				p.unexpected("in a string")
				return "", false
			}
			p.i += size
		}
	}
	p.unexpected("in a string, where its closing '\"' should be")
	return "", false
}

// strEscaped decodes the string whose first backslash is at p.i; start is the offset after the
// opening quote. jsonstr decodes a well-formed string (a surrogate pair is one character, a lone
// surrogate U+FFFD) and p.i moves past it; for one that is not, it reports false and p.i stays.
func (p *jsonParser) strEscaped(start int) (string, bool) {
	if end := jsonstr.End(p.text, start-1); end >= 0 && utf8.Valid(p.text[start:end]) {
		if s, ok := jsonstr.Unquote(p.text[start-1 : end]); ok {
			p.i = end
			return s, true
		}
	}
	return "", false
}

// escape steps over the escape whose backslash is at p.i; it reports the escape's fault and false
// when it is not one of JSON's.
func (p *jsonParser) escape() bool {
	if p.i+1 >= len(p.text) {
		p.i++
		p.unexpected("in an escape")
		return false
	}
	esc := p.text[p.i+1]
	p.i += 2
	switch esc {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
	case 'u':
		_, ok := p.hex4()
		return ok
	default:
		p.i--
		p.unexpected("after '\\' in a string (not an escape)")
		return false
	}
	return true
}

// hex4 reads the four hex digits of a \u escape.
func (p *jsonParser) hex4() (rune, bool) {
	var r rune
	for k := 0; k < 4; k++ {
		if p.i >= len(p.text) {
			p.unexpected("in a \\u escape")
			return 0, false
		}
		c := p.text[p.i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			p.unexpected("in a \\u escape, where a hex digit should be")
			return 0, false
		}
		r = r<<4 | rune(d)
		p.i++
	}
	return r, true
}
