package report

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// OneLine escapes s so that it stays on one line in any log (PRODUCT.md §5):
// CR, LF and tab become \r, \n and \t, other C0 controls and DEL \xNN,
// U+0085, U+2028 and U+2029 \uNNNN, invalid UTF-8 bytes \xNN.
func OneLine(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c >= 0x80 {
			// Non-ASCII needs a closer look only for the three separators
			// and invalid UTF-8.
			if c < 0x80 {
				return true
			}
			return !utf8.ValidString(s) || strings.ContainsAny(s, "\u0085\u2028\u2029")
		}
	}
	return false
}

// Line makes s one line that is safe in a CI log (stderr, say): escaped by
// OneLine and kept from being read as a workflow command.
func Line(s string) string { return guardLine(OneLine(s)) }

// guardLine keeps a text line from being read as a workflow command: the
// Actions runner acts on a line starting with "::" (after whitespace), and on
// "##[" anywhere (its legacy parser).
func guardLine(line string) string {
	line = strings.ReplaceAll(line, "##[", `#\#[`)
	trimmed := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(trimmed, "::") {
		i := len(line) - len(trimmed)
		line = line[:i] + `\x3a` + line[i+1:]
	}
	return line
}

// guardJSON escapes what encoding/json leaves raw but PRODUCT.md §5 wants
// escaped: DEL and U+0085 (U+2028 and U+2029 it escapes already), and "##["
// (only possible inside strings, where "\u0023" is an exact equivalent).
func guardJSON(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("##["), []byte(`#\u0023[`))
	b = bytes.ReplaceAll(b, []byte{0x7f}, []byte(`\u007f`))
	return bytes.ReplaceAll(b, []byte("\u0085"), []byte(`\u0085`))
}
