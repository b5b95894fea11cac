package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

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
// Maps. Date-times become RFC 3339 Strings (PRODUCT.md §10): an offset
// date-time "1979-05-27T07:32:00Z" or "...-07:00", a local date-time
// "1979-05-27T07:32:00", a local date "1979-05-27", a local time "07:32:00";
// fractional seconds are kept without trailing zeros, and a time written
// without seconds (TOML 1.1) gets ":00".
//
// Positions come from evalgate's own scan of the text: KeyPos is where the
// text first names the key (for a table, the segment in its header); a
// value's Pos is its first character, a table's its header's "[", an array
// of tables' its first "[[" header and each item's its own header, the root's
// the first key or header (line firstLine, column 1 for an empty text).
//
// Problems stop the parse (the result is nil): invalid_utf8 at the first bad
// byte; duplicate_key for a key or table defined twice, at the second
// definition; syntax_error at the decoder's error, or at a "[" or "{" nested
// deeper than 1,000 levels (checked before decoding: the decoder recurses).
// A table nested deeper than 1,000 levels through headers is a syntax_error
// too; that table becomes Null and the rest of the tree is kept.
func ParseTOML(text []byte, firstLine int) (*Node, []diag.Problem) {
	if p := checkUTF8(text, firstLine); p != nil {
		return nil, []diag.Problem{*p}
	}
	scan := scanTOML(text, firstLine)
	if scan.tooDeep.Line > 0 {
		return nil, []diag.Problem{{Pos: scan.tooDeep, Code: "syntax_error", Message: "nesting deeper than 1,000 levels"}}
	}
	m, md, err := decodeTOML(text)
	if err != nil {
		return nil, []diag.Problem{tomlProblem(err, text, firstLine)}
	}
	c := &tomlConv{scan: scan, keyOrder: map[string]int{}}
	for i, k := range md.Keys() {
		p := strings.Join(k, pathKey)
		if _, ok := c.keyOrder[p]; !ok {
			c.keyOrder[p] = i
		}
	}
	rootPos := scan.first
	if rootPos.Line == 0 {
		rootPos = diag.Pos{Line: firstLine, Col: 1}
	}
	root := c.table(m, "", "", rootPos, 1)
	return root, c.probs.list
}

// decodeTOML decodes text; a panic inside the decoder becomes an error.
func decodeTOML(text []byte) (m map[string]any, md toml.MetaData, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the TOML parser failed: %v", v)
		}
	}()
	md, err = toml.Decode(string(text), &m)
	return m, md, err
}

// tomlProblem converts a decoder error. A key or table defined twice is
// duplicate_key; everything else syntax_error.
func tomlProblem(err error, text []byte, firstLine int) diag.Problem {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return diag.Problem{Code: "syntax_error", Message: oneLine(err.Error())}
	}
	p := diag.Problem{Code: "syntax_error", Message: oneLine(pe.Message)}
	if strings.Contains(pe.Message, "has already been defined") || strings.Contains(pe.Message, "was already created") {
		p.Code = "duplicate_key"
	}
	// Position.Start is a byte offset into the text after the BOM the
	// decoder drops; Position.Line is trusted only when Start agrees with it.
	off := pe.Position.Start
	if bytes.HasPrefix(text, utf8BOM) {
		off += len(utf8BOM)
	}
	if pe.Position.Line > 0 {
		p.Pos = posAt(text, off, firstLine)
		if p.Pos.Line != firstLine+pe.Position.Line-1 {
			p.Pos = diag.Pos{Line: firstLine + pe.Position.Line - 1}
		}
	}
	return p
}

// oneLine is msg on one line, its first letter lowercase and without a
// final period, like evalgate's other messages.
func oneLine(msg string) string {
	msg = strings.TrimSuffix(strings.Join(strings.Fields(msg), " "), ".")
	if msg != "" && msg[0] >= 'A' && msg[0] <= 'Z' {
		msg = string(msg[0]+'a'-'A') + msg[1:]
	}
	return msg
}

// tomlConv converts decoded TOML into Nodes placed by the scan.
type tomlConv struct {
	scan     *tomlScan
	keyOrder map[string]int // index-free path → rank in MetaData.Keys()
	probs    problems
	tooDeep  bool
}

// place returns the scanned place of path, or one at pos when the scan has
// none (it always has one for valid text; this keeps the tree total).
func (c *tomlConv) place(path string, pos diag.Pos) tomlPlace {
	if p := c.scan.places[path]; p != nil {
		return *p
	}
	return tomlPlace{key: pos, val: pos, order: math.MaxInt}
}

// table converts a table at path (plain: the same path without list
// indices) whose Map is at depth.
func (c *tomlConv) table(m map[string]any, path, plain string, pos diag.Pos, depth int) *Node {
	if depth > maxDepth {
		if !c.tooDeep {
			c.tooDeep = true
			c.probs.add(pos, "syntax_error", "nesting deeper than %s levels", "1,000")
		}
		return &Node{Kind: Null, Pos: pos}
	}
	type keyed struct {
		key          string
		place        tomlPlace
		rank         int
		path, plain2 string
	}
	keys := make([]keyed, 0, len(m))
	for k := range m {
		kp, kplain := pathJoin(path, k), pathJoin(plain, k)
		rank, ok := c.keyOrder[strings.TrimPrefix(kplain, pathKey)]
		if !ok {
			rank = math.MaxInt
		}
		keys = append(keys, keyed{key: k, place: c.place(kp, pos), rank: rank, path: kp, plain2: kplain})
	}
	// Source order: the scan's, then MetaData.Keys()'s, then by name.
	slices.SortFunc(keys, func(a, b keyed) int {
		if a.place.order != b.place.order {
			return cmpInt(a.place.order, b.place.order)
		}
		if a.rank != b.rank {
			return cmpInt(a.rank, b.rank)
		}
		return strings.Compare(a.key, b.key)
	})
	n := &Node{Kind: Map, Pos: pos, Entries: make([]Entry, 0, len(keys))}
	for _, k := range keys {
		n.Entries = append(n.Entries, Entry{
			Key:    k.key,
			KeyPos: k.place.key,
			Value:  c.value(m[k.key], k.path, k.plain2, k.place.val, depth),
		})
	}
	return n
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// value converts v, found at path inside a collection at depth.
func (c *tomlConv) value(v any, path, plain string, pos diag.Pos, depth int) *Node {
	switch v := v.(type) {
	case map[string]any:
		return c.table(v, path, plain, pos, depth+1)
	case []map[string]any:
		items := make([]any, len(v))
		for i, t := range v {
			items[i] = t
		}
		return c.list(items, path, plain, pos, depth)
	case []any:
		return c.list(v, path, plain, pos, depth)
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

func (c *tomlConv) list(items []any, path, plain string, pos diag.Pos, depth int) *Node {
	if depth+1 > maxDepth {
		if !c.tooDeep {
			c.tooDeep = true
			c.probs.add(pos, "syntax_error", "nesting deeper than %s levels", "1,000")
		}
		return &Node{Kind: Null, Pos: pos}
	}
	n := &Node{Kind: List, Pos: pos, Items: make([]*Node, 0, len(items))}
	for i, it := range items {
		ip := pathItem(path, i)
		n.Items = append(n.Items, c.value(it, ip, plain, c.place(ip, pos).val, depth+1))
	}
	return n
}

func formatTOMLFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
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
