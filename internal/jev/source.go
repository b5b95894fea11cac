package jev

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// MaxJSON is the largest JSON text evalgate reads: a JSON contract or replay
// file, or one line of a JSONL contract (README "jevcheck v0.1 contracts": 16 MiB; longer is
// too_large).
const MaxJSON = 16 << 20

// MaxJSONL is the largest JSONL contract or replay evalgate reads (256 MiB);
// each of its lines is also bounded by MaxJSON.
const MaxJSONL = 256 << 20

// node is a positioned JSON value of frontmatter.ParseJSON.
type node = frontmatter.Node

// source is one file being read: its units, each one JSON value (the whole
// text of a JSON file, or one non-blank line of a JSONL file), are parsed
// one at a time, and every fault is a result with its position as soon as it
// is found.
type source struct {
	file string
	// bom is set when the text starts with a BOM: the units start after it,
	// and their positions on line 1 move one column right, as the BOM is a
	// code point of the file's line 1 (internal/frontmatter counts it so).
	bom    bool
	faults []diag.Result
	// found counts every fault added, those past maxFaults too, which are counted but not kept; more
	// is the first of those.
	found int
	more  *diag.Result
}

// maxFaults bounds the faults kept of one file (diag.MaxFileFaults): a contract of two million empty
// cases has eight million faults.
const maxFaults = diag.MaxFileFaults

// unit is one JSON text of a source.
type unit struct {
	line int    // 1-based file line of the unit's first byte
	text []byte // the unit's bytes
}

// newSource starts reading text; it returns text without a leading BOM.
func newSource(file string, text []byte) (*source, []byte) {
	s := &source{file: file}
	text, s.bom = frontmatter.CutBOM(text)
	return s, text
}

// at is the file position of a position of a unit.
func (s *source) at(p diag.Pos) diag.Pos {
	if s.bom && p.Line == 1 && p.Col > 0 {
		p.Col++
	}
	return p
}

// add records a fault; r must have everything but File and Pos. pos is its
// position in a unit (a line without a column stays one); path, when not
// nil, the member it is about, which becomes its Key (its identity for SARIF
// fingerprints) unless r has one.
func (s *source) add(r diag.Result, pos diag.Pos, path *pth) {
	r.File, r.Pos = s.file, s.at(pos)
	if r.Key == "" && path != nil {
		r.Key = path.String()
	}
	s.found++
	if s.found > maxFaults {
		if s.more == nil {
			s.more = &r
		}
		return
	}
	s.faults = append(s.faults, r)
}

// stopped drops the faults counted but not kept, when the parse stopped and its fault is the file's one.
func (s *source) stopped() { s.found, s.more = len(s.faults), nil }

// reported is the file's faults in report order; past maxFaults, the first of those not kept closes
// them, saying how many more there are.
func (s *source) reported() []diag.Result {
	diag.Sort(s.faults)
	if s.more != nil {
		more := *s.more
		more.Message = diag.MoreFaults(s.found - maxFaults)
		s.faults = append(s.faults, more)
		s.more = nil
	}
	return s.faults
}

// eachLine calls f with every non-blank line of a JSONL text; a line that
// holds only spaces, tabs and a final CR is blank and skipped (the spec:
// blank lines ignored). i counts the units from 0.
func eachLine(text []byte, f func(i int, u unit)) {
	start, line, i := 0, 1, 0
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
			f(i, unit{line: line, text: bytes.TrimRight(b, "\r")})
			i++
		}
		start = next
		line++
	}
}

// parse parses one unit with frontmatter.ParseJSON and returns its root, or
// nil after recording its fault: too_large (a unit over MaxJSON),
// syntax_error and invalid_utf8 (the parse stops at the first), each made by
// mk from the code and a message. Each duplicate key is a fault too, made by
// dup from the key and the path of its object; the first of the two is kept
// in the tree, and the unit is still returned. each, when its Each is set,
// hands values to the caller as they are parsed (frontmatter.JSONOptions).
func (s *source) parse(u unit, jsonl bool, mk func(code, msg string) diag.Result, dup func(key string, object []frontmatter.JSONStep) diag.Result, each frontmatter.JSONOptions) *node {
	if len(u.text) > MaxJSON {
		what := "the file"
		if jsonl {
			what = "the line"
		}
		s.add(mk("too_large", fmt.Sprintf("%s is larger than %d MiB and is not read", what, MaxJSON>>20)), diag.Pos{Line: u.line}, nil)
		return nil
	}
	each.Dup = func(key string, object []frontmatter.JSONStep, pos diag.Pos) {
		s.add(dup(key, object), pos, nil)
	}
	each.Owned = true // the file LoadContract or LoadReplay was given, which stays as it is
	root, probs := frontmatter.ParseJSONWith(u.text, u.line, each)
	for _, p := range probs {
		switch p.Code {
		case "syntax_error":
			// ParseJSON says what it found and what the grammar wanted there.
			s.add(mk("syntax_error", "invalid JSON: "+strings.TrimPrefix(p.Message, "JSON: ")), p.Pos, nil)
		case "invalid_utf8":
			s.add(mk("invalid_utf8", p.Message), p.Pos, nil)
		}
	}
	return root
}

// objectName names the object at a ParseJSON path in messages.
func objectName(object []frontmatter.JSONStep) string {
	if len(object) == 0 {
		return "the root object"
	}
	var b strings.Builder
	for i, st := range object {
		writeStep(&b, i == 0, st.Key, st.Index, st.Index >= 0)
	}
	return b.String()
}

// writeStep writes one step of a path for messages: keys joined by dots,
// array indexes in brackets, odd keys quoted (cases[3].expect.intent,
// answers["a b"]).
func writeStep(b *strings.Builder, first bool, key string, index int, isItem bool) {
	switch {
	case isItem:
		b.WriteString("[" + strconv.Itoa(index) + "]")
	case plainKey(key):
		if !first {
			b.WriteByte('.')
		}
		b.WriteString(key)
	default:
		b.WriteString("[" + strconv.Quote(key) + "]")
	}
}

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
// validating; only a fault writes it. A nil *pth is the root.
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

// String writes the path as writeStep does; the root is "".
func (p *pth) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

// write writes p's steps to b, the root's first, and reports whether p has any. It keeps no pointer
// of p's, so that a path made on the stack stays there.
func (p *pth) write(b *strings.Builder) bool {
	if p == nil {
		return false
	}
	writeStep(b, !p.up.write(b), p.key, p.index, p.isItem)
	return true
}

// isObj, isList and isStr tell a value's kind; each is false for nil.
func isObj(x *node) bool  { return x != nil && x.Kind == frontmatter.Map }
func isList(x *node) bool { return x != nil && x.Kind == frontmatter.List }
func isStr(x *node) bool  { return x != nil && x.Kind == frontmatter.String }

// isNull reports whether x is JSON null.
func isNull(x *node) bool { return x != nil && x.Kind == frontmatter.Null }

// content reports whether x is JSON content as System One takes it: text,
// an object or an array (nested values may be anything, null included).
func content(x *node) bool { return isStr(x) || isObj(x) || isList(x) }

// toNumber reads a JSON number; finite is false for one beyond float64
// (1e400), which ParseJSON keeps as ±Inf beside its text.
func toNumber(x *node) (n float64, isNum, finite bool) {
	if x == nil || x.Kind != frontmatter.Number {
		return 0, false, false
	}
	if math.IsInf(x.Num, 0) || math.IsNaN(x.Num) {
		return 0, true, false
	}
	return x.Num, true, true
}

// typeName names a JSON value's type for messages.
func typeName(x *node) string {
	if x == nil {
		return "nothing"
	}
	switch x.Kind {
	case frontmatter.Null:
		return "null"
	case frontmatter.Bool:
		return "a boolean"
	case frontmatter.Number:
		return "a number"
	case frontmatter.String:
		return "a string"
	case frontmatter.List:
		return "an array"
	}
	return "an object"
}

// show writes a JSON value for messages: scalars as JSON text (long strings
// cut; a finite number as briefly as it reads back, one beyond float64 as
// written), others by their type.
func show(x *node) string {
	switch {
	case x == nil:
		return typeName(x)
	case x.Kind == frontmatter.Null:
		return "null"
	case x.Kind == frontmatter.Bool:
		return strconv.FormatBool(x.Bool)
	case x.Kind == frontmatter.Number:
		if n, _, finite := toNumber(x); finite {
			return fmtNum(n)
		}
		return x.Text
	case x.Kind == frontmatter.String:
		t := x.Text
		if len(t) > 60 {
			t = strings.ToValidUTF8(t[:60], "") + "..."
		}
		return strconv.Quote(t)
	}
	return typeName(x)
}

// fmtNum writes a number as briefly as it reads back.
func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
