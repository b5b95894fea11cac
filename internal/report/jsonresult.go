package report

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// appendResultJSON appends res as the JSON report writes a result, indented under "results": the
// bytes encoding/json writes for toJSONResult(res) with the prefix "    ", without the final newline,
// guarded as guardJSON guards them. The JSON report of a run of 100,000 results spends most of its
// time here, so the fields are written directly and every string is guarded as it is quoted; what
// evidence holds beyond the types appendValueJSON knows goes through encoding/json and guardJSON.
// FuzzResultJSON checks that the two agree.
func appendResultJSON(b []byte, res *diag.Result) ([]byte, error) {
	const in = "\n      "
	field := func(name string) {
		b = append(b, in...)
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `": `...)
	}
	str := func(name, s string) { field(name); b = appendJSONString(b, s, true) }
	opt := func(name, s string) {
		if s == "" {
			field(name)
			b = append(b, "null"...)
			return
		}
		str(name, s)
	}
	comma := func() { b = append(b, ',') }
	b = append(b, '{')
	str("source", res.Source.String())
	comma()
	str("file", res.File)
	comma()
	field("line")
	if res.Pos.Line > 0 {
		b = strconv.AppendInt(b, int64(res.Pos.Line), 10)
	} else {
		b = append(b, "null"...)
	}
	comma()
	field("column")
	if res.Pos.Line > 0 && res.Pos.Col > 0 {
		b = strconv.AppendInt(b, int64(res.Pos.Col), 10)
	} else {
		b = append(b, "null"...)
	}
	comma()
	str("check", res.Check)
	comma()
	opt("case_id", res.CaseID)
	comma()
	opt("grader", res.Grader)
	comma()
	opt("type", res.Type)
	comma()
	str("outcome", string(res.Outcome))
	comma()
	str("severity", res.Severity.String())
	comma()
	field("blocking")
	b = strconv.AppendBool(b, res.Blocking)
	comma()
	if res.Baselined {
		field("baselined")
		b = append(b, "true,"...)
	}
	str("code", res.Code)
	comma()
	str("message", res.Message)
	comma()
	field("weight")
	switch w := res.Weight; {
	case w <= 0:
		b = append(b, "null"...)
	case w == math.Trunc(w) && w < 1e15:
		b = strconv.AppendInt(b, int64(w), 10)
	default:
		js, err := json.Marshal(w)
		if err != nil {
			return b, err
		}
		b = append(b, js...)
	}
	comma()
	field("duration_ms")
	b = strconv.AppendInt(b, res.DurationMS, 10)
	comma()
	field("evidence")
	if len(res.Evidence) == 0 {
		b = append(b, "{}"...)
	} else {
		var err error
		if b, err = appendValueJSON(b, res.Evidence, 3, true); err != nil {
			return b, err
		}
	}
	comma()
	opt("key", res.Key)
	comma()
	opt("assertion", res.Assertion)
	if res.Verdictless {
		comma()
		field("note")
		b = append(b, "true"...)
	}
	return append(b, "\n    }"...), nil
}

// appendJSONString appends s quoted as encoding/json quotes a string without HTML escaping: `"` and
// `\` escaped, control characters as \n, \r, \t, \b, \f or \u00XX, U+2028 and U+2029 as \u2028 and
// \u2029, and every invalid byte as \ufffd. With guard it also makes guardJSON's escapes as it goes
// (DEL, escapedRune's characters and U+FFFD as \uNNNN, "##[" as #\u0023[): the bytes guardJSON
// would make of the quoted string, without a second pass over them.
func appendJSONString(b []byte, s string, guard bool) []byte {
	const hex = "0123456789abcdef"
	plain := &jsonStringPlain
	if guard {
		plain = &guardedStringPlain
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c == '#' { // only when guarding
				if !strings.HasPrefix(s[i:], "##[") {
					i++
					continue
				}
				b = append(b, s[start:i]...)
				b = append(b, `#\u0023[`...)
				i += len("##[")
				start = i
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			default: // a control character, or DEL when guarding
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:]) // an invalid byte is U+FFFD, size 1
		if r == '\u2028' || r == '\u2029' || r == utf8.RuneError && size == 1 || guard && (escapedRune(r) || r == utf8.RuneError) {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonStringPlain marks the bytes appendJSONString copies as they are; guardedStringPlain, those it
// copies when guarding.
var jsonStringPlain, guardedStringPlain = func() (plain, guarded [256]bool) {
	for c := byte(0x20); c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\'
		guarded[c] = plain[c] && c != 0x7f && c != '#'
	}
	return plain, guarded
}()

// AppendJSON appends v as encoding/json marshals it, compact, HTML characters as they are, and
// guarded as GuardJSON guards it; the types evidence holds are written directly. For the JSONL of
// `evalgate cases`.
func AppendJSON(b []byte, v any) ([]byte, error) { return appendValueJSON(b, v, -1, true) }

// AppendJSONString appends s quoted and guarded as AppendJSON quotes and guards a string.
func AppendJSONString(b []byte, s string) []byte { return appendJSONString(b, s, true) }

// appendValueJSON appends evidence value v as encoding/json writes it indented by two spaces, the
// value's own line at depth levels, or compact when depth is negative: map keys sorted, HTML
// characters as they are, guarded as guardJSON guards them when guard is set. The types evidence
// holds are written directly; any other goes through encoding/json.
func appendValueJSON(b []byte, v any, depth int, guard bool) ([]byte, error) {
	inner, colon := depth+1, ": "
	if depth < 0 {
		inner, colon = depth, ":"
	}
	newline := func(depth int) {
		if depth < 0 {
			return
		}
		b = append(b, '\n')
		for range depth {
			b = append(b, "  "...)
		}
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, x, guard), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case []any:
		if x == nil {
			return append(b, "null"...), nil
		}
		if len(x) == 0 {
			return append(b, "[]"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			newline(inner)
			var err error
			if b, err = appendValueJSON(b, e, inner, guard); err != nil {
				return b, err
			}
		}
		newline(depth)
		return append(b, ']'), nil
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		if len(x) == 0 {
			return append(b, "{}"...), nil
		}
		var room [16]string // evidence objects have a few keys: sorted with no allocation
		keys := room[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			newline(inner)
			b = append(appendJSONString(b, k, guard), colon...)
			var err error
			if b, err = appendValueJSON(b, x[k], inner, guard); err != nil {
				return b, err
			}
		}
		newline(depth)
		return append(b, '}'), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if depth >= 0 {
		enc.SetIndent(strings.Repeat("  ", depth), "  ")
	}
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	js := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if guard {
		js = guardJSON(js)
	}
	return append(b, js...), nil
}
