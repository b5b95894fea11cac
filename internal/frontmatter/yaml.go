package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/evalgate/evalgate/internal/diag"
)

// ParseYAML parses text, a page's YAML frontmatter or a whole YAML config
// file, into a Node tree. firstLine is the 1-based file line of text's first
// line, so every position is the file's own; columns count code points.
//
// It reads the text through yaml.Node, never into Go values, and gives
// scalars their YAML 1.2 core-schema meaning (README "Decisions where the specs are silent"): "yes" and
// "on" are strings, an unquoted date is a string, "1_000" is a string,
// quoted and block scalars are strings, "<<" is an ordinary key. Node.Text
// keeps a Null's, Bool's or Number's source text.
//
// Problems:
//   - invalid_utf8 at the first bad byte; the result is nil.
//   - syntax_error where yaml.v3 rejects the text; the result is nil.
//     yaml.v3 gives a line only (so column 0), for some errors the line of
//     the enclosing construct, and none on its first line (then line 1 is
//     used); control characters and unknown anchors are located in the text.
//     A panic inside yaml.v3 is a syntax_error at no position.
//   - syntax_error at the start of a second YAML document in text; the first
//     document is still returned.
//   - duplicate_key at a repeated key; the first entry is kept.
//   - wrong_type at a key that is not a scalar; the entry is dropped.
//   - syntax_error at a scalar that does not fit its explicit tag (!!int
//     abc); the value becomes the string as written.
//   - syntax_error at the first collection nested deeper than 1,000 levels
//     (the root collection is level 1); it becomes Null. Past 10,000 levels
//     yaml.v3 stops first: the error, in the same words, is where it stopped,
//     and the result is nil.
//   - syntax_error at the alias whose expansion crosses 10,000 nodes: all
//     copies together may visit 10,000 nodes, mapping keys included. The copy
//     in progress ends there and every later alias becomes Null, so a
//     billion-laughs text ends in milliseconds with a bounded tree. When
//     aliases nest, the outermost one (in a node that is not itself a copy)
//     is reported. A copy's root is at its alias; the rest of the copy keeps
//     the anchored source's positions. An alias inside the node it names is a
//     syntax_error and Null.
//
// An empty text (or only comments) is a Null node at line firstLine, column 1.
// Explicit tags !!str, !!null, !!bool, !!int, !!float, !!seq and !!map are
// honoured; other tags are ignored and the scalar resolved as if untagged.
// The non-specific tag "!" is ignored too: yaml.v3 drops it before evalgate
// sees it, so "! 12" is the number 12, not the string YAML 1.2 asks for.
//
// Positions are where yaml.v3 starts a node: a scalar's first character (its
// tag or anchor when it has one), a flow collection's "[" or "{", a block
// mapping's first key, a block list's first "-" (for a list written at the
// indentation of its parent key, that "-" at the parent's column), an empty
// value's place right after its key's ":".
func ParseYAML(text []byte, firstLine int) (*Node, []diag.Problem) {
	if p := checkUTF8(text, firstLine); p != nil {
		return nil, []diag.Problem{*p}
	}
	if root, ok := fastYAML(text, firstLine); ok {
		return root, nil
	}
	return parseYAMLv3(text, firstLine)
}

// parseYAMLv3 is ParseYAML through yaml.v3, for a text the fast path does not take.
func parseYAMLv3(text []byte, firstLine int) (*Node, []diag.Problem) {
	lines := newYAMLLines(text, firstLine)
	c := &yamlConv{lines: lines, aliasLeft: maxAliasNodes}
	doc, second, err := decodeYAML(text)
	if err != nil && doc == nil {
		c.probs.add(yamlErrorPos(err, text, lines), "syntax_error", "%s", yamlErrorMessage(err))
		return nil, c.probs.list()
	}
	var root *Node
	if doc == nil || len(doc.Content) == 0 {
		root = &Node{Kind: Null, Pos: lines.pos(1, 1)}
	} else {
		root = c.node(doc.Content[0], 0)
	}
	switch {
	case err != nil:
		c.probs.add(yamlErrorPos(err, text, lines), "syntax_error", "%s", yamlErrorMessage(err))
	case second != nil:
		c.probs.add(lines.pos(second.Line, second.Column), "syntax_error",
			"a second YAML document starts here; the frontmatter or config is one document")
	}
	return root, c.probs.list()
}

// decodeYAML reads the first document of text into doc (nil for a text
// without one) and reports in second the start of a second document, if
// any. err is a syntax error, in the first document when doc is nil, else in
// what follows it. A panic inside yaml.v3 becomes an error: one bad page
// must not end the run.
func decodeYAML(text []byte) (doc, second *yaml.Node, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("yaml: the YAML parser failed: %v", v)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var first yaml.Node
	if err := dec.Decode(&first); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	doc = &first
	var next yaml.Node
	if err := dec.Decode(&next); err != nil {
		if errors.Is(err, io.EOF) {
			return doc, nil, nil
		}
		return doc, nil, err
	}
	return doc, &next, nil
}

// yamlErrorMessage is err's message on one line, without "yaml: " and the
// "line N: " yamlErrorPos reads.
func yamlErrorMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.HasPrefix(msg, "exceeded max depth of ") {
		return maxDepthMessage // yaml.v3's own limit, past evalgate's
	}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if _, err := strconv.Atoi(rest[:i]); err == nil {
				msg = rest[i+2:]
			}
		}
	}
	return strings.Join(strings.Fields(msg), " ")
}

// yamlErrorPos is where err happened: the character the parser stopped on
// (yamlStop), with its column; for a key the parser cannot take, that is
// the ":" that made it a key. yaml.v3's own "yaml: line N: ..." names the
// line of the construct it was parsing (a mapping that started lines
// earlier), not that character, and it is kept only when the stop cannot be
// found; an error without a line is then at line 1.
func yamlErrorPos(err error, text []byte, lines *yamlLines) diag.Pos {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	switch {
	case strings.HasPrefix(msg, "the YAML parser failed"):
		return diag.Pos{}
	case msg == "control characters are not allowed":
		if off := firstDisallowed(text); off >= 0 {
			return posAt(text, off, lines.firstLine)
		}
	}
	if off, ok := yamlStop(text, err.Error()); ok {
		// An unknown alias is found at the last character of its name; the
		// position is its "*".
		if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
			name = strings.TrimSuffix(name, "' referenced")
			if start := off + 1 - len("*"+name); start >= 0 && bytes.HasPrefix(text[start:], []byte("*"+name)) {
				off = start
			}
		}
		return posAt(text, off, lines.firstLine)
	}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return lines.pos(n, 0)
			}
		}
	}
	return lines.pos(1, 0)
}

// yamlStopWork bounds the bytes yamlStop's search parses, about log2(len(text)) times the text: a
// broken frontmatter of 750 KB took 2.9 s to place. A text whose search would parse more (over about
// 200 KB) keeps the line yaml.v3's message names.
const yamlStopWork = 4 << 20

// yamlStop finds the offset of the character where yaml.v3 stopped with the
// error text want. The parser reads text as a stream and stops at the first
// character it cannot take, so every prefix of text that ends at or after
// that character fails with the same error (the same context, so the same
// text), while a prefix that ends before it fails with another error or not
// at all: the character ends the shortest prefix that fails with want. A
// binary search over prefixes finds it in about log2(len(text)) parses, each
// of which stops at the problem. Where a prefix ending earlier fails the
// same way (a flow collection or a quoted scalar left open until the end),
// the search may settle on that earlier character, which is inside the
// construct the error is about. ok is false when no prefix fails with want.
func yamlStop(text []byte, want string) (off int, ok bool) {
	if len(text)*(bits.Len(uint(len(text)))+1) > yamlStopWork {
		return 0, false
	}
	same := func(n int) bool {
		_, _, err := decodeYAML(text[:n])
		return err != nil && err.Error() == want
	}
	lo, hi := 0, len(text) // text[:lo] does not fail with want; text[:hi] does
	if hi == 0 || !same(hi) {
		return 0, false
	}
	for hi-lo > 1 {
		// A prefix ends between characters: mid moves back to the start of
		// its character, or past it when that is lo.
		mid := lo + (hi-lo)/2
		for mid > lo && !utf8.RuneStart(text[mid]) {
			mid--
		}
		if mid == lo {
			_, size := utf8.DecodeRune(text[lo:])
			if mid = lo + size; mid >= hi {
				break
			}
		}
		if same(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	_, size := utf8.DecodeLastRune(text[:hi])
	return hi - size, true
}

// firstDisallowed is the offset of the first character YAML does not allow
// in a stream (YAML 1.2.2 §5.1, c-printable), or -1.
func firstDisallowed(text []byte) int {
	for i, r := range string(text) {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r >= 0x20 && r <= 0x7E, r == 0x85, r >= 0xA0 && r <= 0xD7FF:
		case r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		default:
			return i
		}
	}
	return -1
}

// yamlLines maps yaml.v3's positions to file positions. yaml.v3 counts
// columns in code points like evalgate, but it also breaks lines at a lone
// "\r", at U+0085, U+2028 and U+2029, where a file line (diag.LineIndex)
// breaks only at "\n", and it does not count a BOM that starts the text. So
// each of yaml.v3's lines is recorded with the file line it lies on and the
// code points before it on that line.
type yamlLines struct {
	firstLine int
	rows      []yamlRow // yaml.v3's line n is rows[n-1]
}

type yamlRow struct {
	line   int // 0-based file line within the text
	colOff int // code points on the file line before this row starts
	width  int // code points in this row, its line break excluded
}

func newYAMLLines(text []byte, firstLine int) *yamlLines {
	x := &yamlLines{firstLine: firstLine, rows: make([]yamlRow, 0, bytes.Count(text, []byte{'\n'})+1)}
	line, col, i := 0, 0, 0
	if bytes.HasPrefix(text, utf8BOM) {
		col, i = 1, len(utf8BOM) // the BOM is a code point of the file's line 1
	}
	row := yamlRow{colOff: col}
	const (
		noBreak   = iota
		fileBreak // "\n" or "\r\n": a break for yaml.v3 and for the file
		yamlBreak // a break for yaml.v3 only, one code point of the file line
	)
	for i < len(text) {
		brk, size := noBreak, 1
		switch c := text[i]; {
		case c == '\n':
			brk = fileBreak
		case c == '\r' && i+1 < len(text) && text[i+1] == '\n':
			brk, size = fileBreak, 2
		case c == '\r':
			brk = yamlBreak
		case c == 0xC2 && i+1 < len(text) && text[i+1] == 0x85: // U+0085
			brk, size = yamlBreak, 2
		case c == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9): // U+2028, U+2029
			brk, size = yamlBreak, 3
		case c >= utf8.RuneSelf:
			_, size = utf8.DecodeRune(text[i:])
		}
		i += size
		switch brk {
		case noBreak:
			col++
		case fileBreak:
			row.width = col - row.colOff
			x.rows = append(x.rows, row)
			line, col = line+1, 0
			row = yamlRow{line: line}
		case yamlBreak:
			row.width = col - row.colOff
			x.rows = append(x.rows, row)
			col++
			row = yamlRow{line: line, colOff: col}
		}
	}
	row.width = col - row.colOff
	x.rows = append(x.rows, row)
	return x
}

// pos converts yaml.v3's 1-based line and column into a file position; col 0
// keeps the column unknown. Positions past the text are clamped to its end.
func (x *yamlLines) pos(line, col int) diag.Pos {
	if line < 1 {
		return diag.Pos{}
	}
	if line > len(x.rows) {
		line = len(x.rows)
		col = min(col, x.rows[line-1].width+1)
	}
	r := x.rows[line-1]
	p := diag.Pos{Line: x.firstLine + r.line}
	if col > 0 {
		p.Col = r.colOff + min(col, r.width+1)
	}
	return p
}

// yamlConv converts one yaml.Node tree into Nodes.
type yamlConv struct {
	lines *yamlLines
	probs problems
	// aliasLeft is how many more Nodes alias expansion may create.
	aliasLeft int
	// aliasAt is the outermost alias being expanded: the one a spent budget
	// is reported at.
	aliasAt diag.Pos
	// inAlias counts the aliases being expanded around the current node.
	inAlias int
	// expanding holds the anchored collections being converted, to catch an
	// alias inside the very node it names.
	expanding map[*yaml.Node]bool
	tooDeep   bool // the nesting limit was reported
	spent     bool // the alias budget was reported
}

func (c *yamlConv) pos(y *yaml.Node) diag.Pos { return c.lines.pos(y.Line, y.Column) }

// node converts y, a node below depth enclosing collections.
func (c *yamlConv) node(y *yaml.Node, depth int) *Node {
	if y.Kind == yaml.AliasNode {
		return c.alias(y, depth)
	}
	pos := c.pos(y)
	if !c.charge() {
		return &Node{Kind: Null, Pos: pos}
	}
	switch y.Kind {
	case yaml.ScalarNode:
		return c.scalar(y, pos)
	case yaml.SequenceNode, yaml.MappingNode:
		return c.collection(y, pos, depth+1)
	case yaml.DocumentNode: // not produced below a document; kept total
		if len(y.Content) > 0 {
			return c.node(y.Content[0], depth)
		}
	}
	return &Node{Kind: Null, Pos: pos}
}

// charge counts one node visited while copying for an alias against the
// alias budget; mapping keys count too, kept or not, so that the work of a
// copy, not only its output, is bounded. It reports false once the budget
// is spent.
func (c *yamlConv) charge() bool {
	switch {
	case c.inAlias == 0:
		return true
	case c.aliasLeft > 0:
		c.aliasLeft--
		return true
	}
	if !c.spent {
		c.spent = true
		c.probs.add(c.aliasAt, "syntax_error", "alias expansion exceeds %s nodes", "10,000")
	}
	return false
}

// stopped reports whether the copy in progress must end: the alias budget
// is spent.
func (c *yamlConv) stopped() bool { return c.spent && c.inAlias > 0 }

func (c *yamlConv) alias(y *yaml.Node, depth int) *Node {
	pos := c.pos(y)
	t := y.Alias
	switch {
	case t == nil || c.spent:
		return &Node{Kind: Null, Pos: pos}
	case c.expanding[t]:
		c.probs.add(pos, "syntax_error", "alias *%s is inside the node it names", y.Value)
		return &Node{Kind: Null, Pos: pos}
	}
	if c.inAlias == 0 {
		c.aliasAt = pos
	}
	c.inAlias++
	n := c.node(t, depth)
	c.inAlias--
	n.Pos = pos
	return n
}

func (c *yamlConv) collection(y *yaml.Node, pos diag.Pos, depth int) *Node {
	if depth > maxDepth {
		if !c.tooDeep {
			c.tooDeep = true
			c.probs.add(pos, "syntax_error", "%s", maxDepthMessage)
		}
		return &Node{Kind: Null, Pos: pos}
	}
	if y.Style&yaml.TaggedStyle != 0 {
		want := "!!map"
		if y.Kind == yaml.SequenceNode {
			want = "!!seq"
		}
		switch y.Tag {
		case "!!map", "!!seq", "!!str", "!!null", "!!bool", "!!int", "!!float":
			if y.Tag != want {
				c.probs.add(pos, "syntax_error", "a %s cannot have the tag %s", kindWord(y.Kind), y.Tag)
			}
		}
	}
	if y.Anchor != "" {
		if c.expanding == nil {
			c.expanding = map[*yaml.Node]bool{}
		}
		c.expanding[y] = true
		defer delete(c.expanding, y)
	}
	if y.Kind == yaml.SequenceNode {
		n := &Node{Kind: List, Pos: pos, Items: make([]*Node, 0, len(y.Content))}
		for _, it := range y.Content {
			if c.stopped() {
				break
			}
			n.Items = append(n.Items, c.node(it, depth))
		}
		return n
	}
	n := &Node{Kind: Map, Pos: pos, Entries: make([]Entry, 0, len(y.Content)/2)}
	var keys keyIndex
	for i := 0; i+1 < len(y.Content) && !c.stopped(); i += 2 {
		k := y.Content[i]
		kpos := c.pos(k)
		if !c.charge() {
			break
		}
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			c.probs.add(kpos, "wrong_type", "mapping key must be a scalar")
			continue
		}
		if first := keys.find(n.Entries, k.Value); first >= 0 {
			c.probs.add(kpos, "duplicate_key", "duplicate key %s; the first is at line %d", quoteKey(k.Value), n.Entries[first].KeyPos.Line)
			continue
		}
		n.Entries = append(n.Entries, Entry{Key: k.Value, KeyPos: kpos, Value: c.node(y.Content[i+1], depth)})
		keys.added(n.Entries)
	}
	return n
}

func kindWord(k yaml.Kind) string {
	if k == yaml.SequenceNode {
		return "list"
	}
	return "mapping"
}

func (c *yamlConv) scalar(y *yaml.Node, pos diag.Pos) *Node {
	n := &Node{Pos: pos}
	if y.Style&yaml.TaggedStyle != 0 {
		switch y.Tag {
		case "!!str":
			n.Kind, n.Text = String, y.Value
			return n
		case "!!null", "!!bool", "!!int", "!!float":
			if !resolveTagged(y.Tag, y.Value, n) {
				c.probs.add(pos, "syntax_error", "%q is not a valid %s", y.Value, y.Tag)
				*n = Node{Kind: String, Pos: pos, Text: y.Value}
			}
			return n
		case "!!seq", "!!map":
			c.probs.add(pos, "syntax_error", "a scalar cannot have the tag %s", y.Tag)
			n.Kind, n.Text = String, y.Value
			return n
		}
	}
	if y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		n.Kind, n.Text = String, y.Value
		return n
	}
	resolvePlain(y.Value, n)
	return n
}

// quoteKey quotes a key for a message, cut to 60 code points: a key may be megabytes long.
func quoteKey(k string) string {
	const limit = 60
	if utf8.RuneCountInString(k) > limit {
		k = string([]rune(k)[:limit]) + "…"
	}
	return strconv.Quote(k)
}
