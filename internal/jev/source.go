package jev

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/jsonpos"
)

// MaxJSON is the largest JSON text evalgate reads: a JSON contract or replay
// file, or one line of a JSONL contract (README "jevcheck v0.1 contracts": 16 MiB; longer is
// too_large).
const MaxJSON = 16 << 20

// MaxJSONL is the largest JSONL contract or replay evalgate reads (256 MiB);
// each of its lines is also bounded by MaxJSON.
const MaxJSONL = 256 << 20

// bom is the UTF-8 byte order mark; a leading one is skipped.
var bom = []byte{0xEF, 0xBB, 0xBF}

// source is one file's text split into units, each one JSON value: the whole
// text of a JSON file, or one non-blank line of a JSONL file.
type source struct {
	file  string
	text  []byte
	units []*unit
	// faults are this file's problems; their positions are resolved in one
	// pass by resolve.
	faults []*fault
}

// unit is one JSON value of a source.
type unit struct {
	off  int    // byte offset of the unit in the source's text
	line int    // 1-based line of the unit's first byte
	text []byte // the unit's bytes
	root any    // the decoded value; nil when it did not decode
	ok   bool   // decoded without a fault
}

// where says what a fault's position is.
type where uint8

const (
	atValue  where = iota // the value at path
	atKey                 // the key of the member at path (the value for array items)
	atOffset              // a byte offset inside the unit
	atLine                // the unit's first line, without a column
	atFirst               // line 1 of the file, without a column
)

// fault is a result waiting for its position.
type fault struct {
	unit int
	path []string
	at   where
	off  int // byte offset inside the unit, for atOffset
	res  diag.Result
}

// add records a fault; res must have everything but File and Pos.
func (s *source) add(f *fault) { s.faults = append(s.faults, f) }

// splitJSON makes the whole text one unit (after a leading BOM).
func (s *source) splitJSON() {
	off := 0
	if bytes.HasPrefix(s.text, bom) {
		off = len(bom)
	}
	s.units = []*unit{{off: off, line: 1, text: s.text[off:]}}
}

// splitJSONL makes every non-blank line a unit; a line holds only spaces,
// tabs and a final CR is blank and skipped (the spec: blank lines ignored).
func (s *source) splitJSONL() {
	text := s.text
	start, line := 0, 1
	if bytes.HasPrefix(text, bom) {
		start = len(bom)
	}
	for start < len(text) {
		end := bytes.IndexByte(text[start:], '\n')
		next := len(text)
		if end < 0 {
			end = len(text)
		} else {
			end += start
			next = end + 1
		}
		b := text[start:end]
		if len(bytes.Trim(b, " \t\r")) > 0 {
			s.units = append(s.units, &unit{off: start, line: line, text: bytes.TrimRight(b, "\r")})
		}
		start = next
		line++
	}
}

// release drops the decoded values, which can be many times the size of the
// text: only the text is kept, for positions.
func (s *source) release() {
	for _, u := range s.units {
		u.root = nil
	}
}

// decode decodes every unit with encoding/json; a unit too large, not UTF-8
// or not JSON gets a fault made by mk from a definition code (too_large,
// invalid_utf8, syntax_error) and a message. Numbers decode as float64, or as
// json.Number when one of the unit's numbers overflows float64.
func (s *source) decode(jsonl bool, mk func(code, msg string) diag.Result) {
	for i, u := range s.units {
		if len(u.text) > MaxJSON {
			what := "the file"
			if jsonl {
				what = "the line"
			}
			s.add(&fault{unit: i, at: atLine, res: mk("too_large",
				fmt.Sprintf("%s is larger than %d MiB and is not read", what, MaxJSON>>20))})
			continue
		}
		if !utf8.Valid(u.text) {
			s.add(&fault{unit: i, at: atOffset, off: invalidUTF8(u.text), res: mk("invalid_utf8", "invalid UTF-8")})
			continue
		}
		v, off, err := decodeJSON(u.text)
		if err != nil {
			s.add(&fault{unit: i, at: atOffset, off: off, res: mk("syntax_error", "invalid JSON: "+err.Error())})
			continue
		}
		u.root, u.ok = v, true
	}
}

// decodeJSON decodes one JSON value; on a syntax error it returns the byte
// offset of the offending byte (len(text) at an unexpected end).
func decodeJSON(text []byte) (any, int, error) {
	var v any
	err := json.Unmarshal(text, &v)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return v, 0, nil
	case errors.As(err, &se):
		off := int(se.Offset) - 1
		if strings.Contains(se.Error(), "unexpected end") {
			off = len(text)
		}
		return nil, max(0, min(off, len(text))), errors.New(se.Error())
	case errors.As(err, &te):
		// A number beyond float64: decode again keeping numbers as text, so
		// that the value checks report it where it is.
		d := json.NewDecoder(bytes.NewReader(text))
		d.UseNumber()
		v = nil
		if err := d.Decode(&v); err != nil {
			return nil, 0, err
		}
		return v, 0, nil
	}
	return nil, 0, err
}

// invalidUTF8 is the offset of the first byte that is not UTF-8.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// keyScan is the one scan of a decoded unit: every duplicate key (at the
// later key) and, for each key at a depth that field reports, its offset.
type keyScan struct {
	frames []keyFrame
	dups   []dupKey
	// field is called for each member whose path has the depth fieldDepth
	// (with the member; its Path is valid only during the call).
	fieldDepth int
	field      func(m *jsonpos.Member)
}

type keyFrame struct {
	depth int
	keys  []string
	set   map[string]struct{} // used instead of keys above smallObject keys
}

type dupKey struct {
	path   []string // the object's path
	key    string
	keyOff int
}

// smallObject is the number of keys up to which duplicates are found by a
// linear search: most objects of contracts and replays are that small.
const smallObject = 16

// run scans text; it returns jsonpos's error (nesting deeper than
// jsonpos.MaxDepth) for a text that encoding/json accepted.
func (k *keyScan) run(text []byte) error {
	return jsonpos.Scan(text, func(m *jsonpos.Member) bool {
		depth := len(m.Path)
		for len(k.frames) > 0 && k.frames[len(k.frames)-1].depth >= depth {
			k.frames = k.frames[:len(k.frames)-1]
		}
		if m.KeyOff >= 0 && len(k.frames) > 0 {
			f := &k.frames[len(k.frames)-1]
			if f.has(m.Key) {
				k.dups = append(k.dups, dupKey{path: slices.Clone(m.Path[:depth-1]), key: m.Key, keyOff: m.KeyOff})
			} else {
				f.put(m.Key)
			}
		}
		if depth == k.fieldDepth && k.field != nil {
			k.field(m)
		}
		if m.Kind == '{' {
			if n := len(k.frames); n < cap(k.frames) {
				// Reuse the frame's key slice.
				k.frames = k.frames[:n+1]
				f := &k.frames[n]
				f.depth, f.keys, f.set = depth, f.keys[:0], nil
			} else {
				k.frames = append(k.frames, keyFrame{depth: depth})
			}
		}
		return true
	})
}

func (f *keyFrame) has(key string) bool {
	if f.set != nil {
		_, ok := f.set[key]
		return ok
	}
	return slices.Contains(f.keys, key)
}

func (f *keyFrame) put(key string) {
	if f.set != nil {
		f.set[key] = struct{}{}
		return
	}
	f.keys = append(f.keys, key)
	if len(f.keys) > smallObject {
		f.set = make(map[string]struct{}, 2*len(f.keys))
		for _, k := range f.keys {
			f.set[k] = struct{}{}
		}
	}
}

// resolve gives every fault its file and position and returns them as
// results. Paths are located with one jsonpos scan per unit that needs it;
// offsets become positions in one pass over the text.
func (s *source) resolve() []diag.Result {
	if len(s.faults) == 0 {
		return nil
	}
	byUnit := map[int][]*fault{}
	for _, f := range s.faults {
		if f.at == atKey || f.at == atValue {
			byUnit[f.unit] = append(byUnit[f.unit], f)
		}
	}
	for ui, fs := range byUnit {
		u := s.units[ui]
		want := map[string][]*fault{}
		maxDepth := 0
		for _, f := range fs {
			k := strings.Join(scanPath(f.path), "\x00")
			want[k] = append(want[k], f)
			maxDepth = max(maxDepth, len(f.path))
			// Not found (which only a text jsonpos cannot scan allows):
			// the unit's start.
			f.off = 0
		}
		jsonpos.Scan(u.text, func(m *jsonpos.Member) bool {
			if len(m.Path) > maxDepth {
				return true
			}
			for _, f := range want[strings.Join(m.Path, "\x00")] {
				f.off = m.ValOff
				if f.at == atKey && m.KeyOff >= 0 {
					f.off = m.KeyOff
				}
			}
			return true
		})
	}
	offs := make([]int, 0, len(s.faults))
	for _, f := range s.faults {
		if f.at != atLine && f.at != atFirst {
			offs = append(offs, s.units[f.unit].off+f.off)
		}
	}
	pos := positions(s.text, offs)
	out := make([]diag.Result, 0, len(s.faults))
	i := 0
	for _, f := range s.faults {
		r := f.res
		r.File = s.file
		if r.Key == "" && len(f.path) > 0 {
			// The fault's own identity for SARIF fingerprints: its path.
			r.Key = pathString(f.path)
		}
		switch f.at {
		case atLine:
			r.Pos = diag.Pos{Line: s.units[f.unit].line}
		case atFirst:
			r.Pos = diag.Pos{Line: 1}
		default:
			r.Pos = pos[i]
			i++
		}
		out = append(out, r)
	}
	s.faults = nil
	return out
}

// positions converts byte offsets of text (in any order) into positions:
// 1-based lines and 1-based columns counting code points, as
// diag.LineIndex.Pos does, in one pass over the text however long its lines.
func positions(text []byte, offs []int) []diag.Pos {
	order := make([]int, len(offs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return offs[a] - offs[b] })
	out := make([]diag.Pos, len(offs))
	cur, line, col := 0, 1, 1 // col is the column of text[cur]
	for _, i := range order {
		off := max(0, min(offs[i], len(text)))
		seg := text[cur:off]
		if nl := bytes.LastIndexByte(seg, '\n'); nl >= 0 {
			line += bytes.Count(seg, []byte{'\n'})
			col = 1 + utf8.RuneCount(seg[nl+1:])
		} else {
			col += utf8.RuneCount(seg)
		}
		cur = off
		out[i] = diag.Pos{Line: line, Col: col}
	}
	return out
}

// pathString writes a path for messages: keys joined by dots, array indexes
// in brackets, odd keys quoted (cases[3].expect.intent, answers["a b"]).
func pathString(path []string) string {
	var b strings.Builder
	for i, p := range path {
		switch {
		case isIndex(p):
			b.WriteString("[" + p[1:] + "]")
		case plainKey(p):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p)
		default:
			b.WriteString("[" + strconv.Quote(p) + "]")
		}
	}
	return b.String()
}

// index is the path segment of an array index: "\x00" and the decimal
// index, so that messages can tell it from an object key such as "0"
// (jsonpos paths hold the bare decimal; see scanPath).
func index(i int) string { return "\x00" + strconv.Itoa(i) }

// scanPath is path as jsonpos writes it.
func scanPath(path []string) []string {
	out := make([]string, len(path))
	for i, p := range path {
		out[i] = strings.TrimPrefix(p, "\x00")
	}
	return out
}

func isIndex(p string) bool { return strings.HasPrefix(p, "\x00") }

func plainKey(p string) bool {
	if p == "" {
		return false
	}
	for _, c := range p {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// pth is a path into a unit's JSON value, built on the stack while
// validating; only a fault turns it into a slice. A nil *pth is the root.
type pth struct {
	up     *pth
	key    string
	index  int // an array index, when isItem
	isItem bool
}

// to is the path of p's member key.
func (p *pth) to(key string) pth { return pth{up: p, key: key} }

// item is the path of p's array item i.
func (p *pth) item(i int) pth { return pth{up: p, index: i, isItem: true} }

// slice is the path as fault paths hold it: keys, and array indexes as
// index writes them.
func (p *pth) slice() []string {
	n := 0
	for q := p; q != nil; q = q.up {
		n++
	}
	out := make([]string, n)
	for q := p; q != nil; q = q.up {
		n--
		out[n] = q.key
		if q.isItem {
			out[n] = index(q.index)
		}
	}
	return out
}

// closed reports whether obj holds no key but those of allowed: a few map
// lookups, cheaper than ranging over the map, which only a fault needs.
func closed(obj map[string]any, allowed []string) bool {
	n := 0
	for _, k := range allowed {
		if _, ok := obj[k]; ok {
			n++
		}
	}
	return n == len(obj)
}
