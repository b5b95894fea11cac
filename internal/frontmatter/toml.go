package frontmatter

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/evalgate/evalgate/internal/diag"
)

// ParseTOML parses text, a page's TOML frontmatter, into a Node tree whose
// root is a Map. firstLine is the 1-based file line of text's first line;
// columns count code points.
//
// Values: integers and floats are Numbers (nan and ±inf included; Text is the
// value formatted, not the source spelling), booleans Bools, strings Strings,
// arrays Lists, tables and inline tables Maps, arrays of tables Lists of
// Maps. Date-times become RFC 3339 Strings (README "Decisions where the specs are silent"): an offset
// date-time "1979-05-27T07:32:00Z" or "...-07:00", a local date-time
// "1979-05-27T07:32:00", a local date "1979-05-27", a local time "07:32:00";
// fractional seconds are kept without trailing zeros, and a time written
// without seconds (TOML 1.1) gets ":00".
//
// Positions come from evalgate's own scan of the text. KeyPos is where the
// text first names the key: for a table, the key's segment in the first
// header or dotted key that names it. A value's Pos is its first character:
// an array's "[", an inline table's "{"; a table's is the "[" of the first
// header that names it (the segment, for a table only dotted keys name); an
// array of tables' is its first "[[" and each item's its own "[["; the
// root's is the first key or header (line firstLine, column 1 when the text
// has none).
//
// Problems stop the parse (the result is nil): invalid_utf8 at the first bad
// byte; duplicate_key for a key or table defined twice, at the second
// definition; syntax_error at the decoder's error. Two limits are checked by
// the scan before decoding, because the decoder recurses and copies key
// paths: a "[" or "{" nested deeper than 1,000 levels, one key or header of
// more than 1,000 segments, and keys whose full paths hold more than
// 1,048,576 segments in all (a key "b" of table [a] holds 2), are
// syntax_error where they cross the limit. A table nested
// deeper than 1,000 levels through headers or dotted keys is a syntax_error
// too; that table becomes Null and the rest of the tree is kept.
//
// Entries are in source order as the scan saw it. (MetaData.Keys() is not
// used: it numbers no array-of-tables items and omits implicit tables.)
func ParseTOML(text []byte, firstLine int) (*Node, []diag.Problem) {
	if p := checkUTF8(text, firstLine); p != nil {
		return nil, []diag.Problem{*p}
	}
	scan := scanTOML(text, firstLine)
	if scan.stop.Line > 0 {
		code := scan.stopCode
		if code == "" {
			code = "syntax_error"
		}
		return nil, []diag.Problem{{Pos: scan.stop, Code: code, Message: scan.stopMsg}}
	}
	m, err := decodeTOML(text)
	if err != nil {
		return nil, []diag.Problem{tomlProblem(err, text, firstLine)}
	}
	c := &tomlConv{scan: scan}
	rootPos := scan.first
	if rootPos.Line == 0 {
		rootPos = diag.Pos{Line: firstLine, Col: 1}
	}
	return c.table(m, 0, rootPos, 1), c.probs.list()
}

// decodeTOML decodes text; a panic inside the decoder becomes an error.
func decodeTOML(text []byte) (m map[string]any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the TOML parser failed: %v", v)
		}
	}()
	_, err = toml.Decode(string(text), &m)
	return m, err
}

// tomlProblem converts a decoder error. A key or table defined twice is
// duplicate_key; everything else syntax_error.
func tomlProblem(err error, text []byte, firstLine int) diag.Problem {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return diag.Problem{Code: "syntax_error", Message: oneLine(err.Error())}
	}
	p := diag.Problem{Code: "syntax_error", Message: oneLine(pe.Message)}
	if isRedefinition(pe.Message) {
		p.Code = "duplicate_key"
	}
	// Position.Start is a byte offset into the text after the BOM the
	// decoder drops; Position.Line is trusted only when Start agrees with it.
	off := pe.Position.Start
	if bytes.HasPrefix(text, utf8BOM) {
		off += len(utf8BOM)
	}
	// A control character: the decoder points at the character before it (before the text, -1, for
	// one at its start). A line feed is never the one.
	if strings.Contains(pe.Message, "control characters") {
		from := max(0, min(off, len(text)))
		if j := bytes.IndexFunc(text[from:], func(r rune) bool { return r != '\t' && r != '\n' && unicode.IsControl(r) }); j >= 0 {
			off = from + j
		}
	}
	// The decoder may point inside a multi-byte character; the text is
	// valid UTF-8, so back up to the character's first byte.
	for off > 0 && off < len(text) && !utf8.RuneStart(text[off]) {
		off--
	}
	if pe.Position.Line > 0 {
		p.Pos = posAt(text, off, firstLine)
		if p.Pos.Line != firstLine+pe.Position.Line-1 {
			p.Pos = diag.Pos{Line: firstLine + pe.Position.Line - 1}
		}
	}
	return p
}

// isRedefinition reports whether a decoder message is about a key or table
// defined twice, or a key defined as a value and then used as a table (or
// the reverse): BurntSushi/toml v1.6 words these as below.
func isRedefinition(msg string) bool {
	return strings.Contains(msg, "has already been defined") ||
		strings.Contains(msg, "was already created") ||
		strings.HasSuffix(msg, "is not a table")
}

// oneLine is msg on one line, its first letter lowercase and without a
// final period, like evalgate's other messages.
func oneLine(msg string) string {
	msg = strings.TrimSuffix(strings.Join(strings.Fields(msg), " "), ".")
	upper := func(i int) bool { return i < len(msg) && msg[i] >= 'A' && msg[i] <= 'Z' }
	if upper(0) && !upper(1) { // "TOML files ..." keeps its acronym
		msg = string(msg[0]+'a'-'A') + msg[1:]
	}
	return msg
}

// tomlConv converts decoded TOML into Nodes placed by the scan.
type tomlConv struct {
	scan    *tomlScan
	probs   problems
	tooDeep bool
}

// place returns the scanned place of the key (or, with index ≥ 0, the item)
// below parent. For valid text the scan has every one; a place the scan
// lacks falls back to pos, so the tree stays total.
func (c *tomlConv) place(parent pathID, key string, index int, pos diag.Pos) (pathID, tomlPlace) {
	if id, ok := c.scan.lookup(parent, key, index); ok && c.scan.places[id].known {
		return id, c.scan.places[id]
	}
	return -1, tomlPlace{key: pos, val: pos, order: math.MaxInt}
}

// table converts the table at path id (-1: a path the scan lacks), whose
// Map is at nesting level depth.
func (c *tomlConv) table(m map[string]any, id pathID, pos diag.Pos, depth int) *Node {
	if depth > maxDepth {
		c.nestedTooDeep(pos)
		return &Node{Kind: Null, Pos: pos}
	}
	type keyed struct {
		key   string
		id    pathID
		place tomlPlace
	}
	keys := make([]keyed, 0, len(m))
	for k := range m {
		kid, place := c.place(id, k, -1, pos)
		keys = append(keys, keyed{key: k, id: kid, place: place})
	}
	// Source order, as scanned; by name for what the scan lacks.
	slices.SortFunc(keys, func(a, b keyed) int {
		if a.place.order != b.place.order {
			return cmp.Compare(a.place.order, b.place.order)
		}
		return strings.Compare(a.key, b.key)
	})
	n := &Node{Kind: Map, Pos: pos, Entries: make([]Entry, 0, len(keys))}
	for _, k := range keys {
		n.Entries = append(n.Entries, Entry{
			Key:    k.key,
			KeyPos: k.place.key,
			Value:  c.value(m[k.key], k.id, k.place.val, depth),
		})
	}
	return n
}

func (c *tomlConv) nestedTooDeep(pos diag.Pos) {
	if !c.tooDeep {
		c.tooDeep = true
		c.probs.add(pos, "syntax_error", "%s", maxDepthMessage)
	}
}

// value converts v, found at path id inside a collection at depth.
func (c *tomlConv) value(v any, id pathID, pos diag.Pos, depth int) *Node {
	switch v := v.(type) {
	case map[string]any:
		return c.table(v, id, pos, depth+1)
	case []map[string]any:
		items := make([]any, len(v))
		for i, t := range v {
			items[i] = t
		}
		return c.list(items, id, pos, depth)
	case []any:
		return c.list(v, id, pos, depth)
	case int64:
		return &Node{Kind: Number, Pos: pos, Num: float64(v), Text: strconv.FormatInt(v, 10)}
	case float64:
		return &Node{Kind: Number, Pos: pos, Num: v, Text: formatTOMLFloat(v)}
	case bool:
		return &Node{Kind: Bool, Pos: pos, Bool: v, Text: strconv.FormatBool(v)}
	case string:
		return &Node{Kind: String, Pos: pos, Text: v}
	case time.Time:
		return &Node{Kind: String, Pos: pos, Text: formatTOMLTime(v)}
	}
	return &Node{Kind: String, Pos: pos, Text: fmt.Sprint(v)}
}

// list converts the list at path id inside a collection at depth.
func (c *tomlConv) list(items []any, id pathID, pos diag.Pos, depth int) *Node {
	if depth+1 > maxDepth {
		c.nestedTooDeep(pos)
		return &Node{Kind: Null, Pos: pos}
	}
	n := &Node{Kind: List, Pos: pos, Items: make([]*Node, 0, len(items))}
	for i, it := range items {
		iid, place := c.place(id, "", i, pos)
		n.Items = append(n.Items, c.value(it, iid, place.val, depth+1))
	}
	return n
}

// formatTOMLFloat spells a TOML float as TOML writes it: nan, inf and -inf for the special values.
func formatTOMLFloat(v float64) string {
	if s, ok := specialFloat(v, "nan", "inf"); ok {
		return s
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// formatTOMLTime writes a TOML date-time in RFC 3339 form. The decoder marks
// local date-times, dates and times with time zones of these names.
func formatTOMLTime(t time.Time) string {
	switch t.Location().String() {
	case "datetime-local":
		return t.Format("2006-01-02T15:04:05.999999999")
	case "date-local":
		return t.Format("2006-01-02")
	case "time-local":
		return t.Format("15:04:05.999999999")
	}
	return t.Format(time.RFC3339Nano)
}
