package report

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// appendResultJSON appends res as the JSON report writes a result, indented under "results" (the
// bytes encoding/json writes for toJSONResult(res) with the prefix "    ", without the final
// newline). The JSON report of a run of 100,000 results spends most of its time here, so the fixed
// fields are written directly; the evidence goes through encoding/json. FuzzResultJSON checks that
// the two agree.
func appendResultJSON(b []byte, res *diag.Result) ([]byte, error) {
	const in = "\n      "
	field := func(name string) {
		b = append(b, in...)
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `": `...)
	}
	str := func(name, s string) { field(name); b = appendJSONString(b, s) }
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
		js, err := indentedJSON(res.Evidence, "      ")
		if err != nil {
			return b, err
		}
		b = append(b, js[:len(js)-1]...) // without its newline
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
// \u2029, and every invalid byte as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
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
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
