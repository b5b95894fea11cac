package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// OneLine escapes s so that it stays on one line in any log and displays as
// the text it is (README "Results, outcomes and blocking"):
//
//   - CR, LF and tab become \r, \n and \t, other C0 controls and DEL \xNN,
//     invalid UTF-8 bytes \xNN;
//   - the C1 controls U+0080–U+009F (U+0085 a line break to some readers,
//     U+009B and U+009D the starts of escape sequences to a terminal), U+2028
//     and U+2029, the bidi controls U+061C, U+200E, U+200F, U+202A–U+202E and
//     U+2066–U+2069, and the zero-width characters U+200B–U+200D, U+2060 and
//     U+FEFF become \uNNNN (lowercase hex) wherever they are;
//   - a white space character other than ASCII space at the start of s (in
//     its leading run of white space) becomes \uNNNN too: the Actions runner
//     strips all of Unicode's White_Space before it looks for "::", so
//     U+00A0 "::stop-commands::x" would start a workflow command. So does one
//     in a run after an ASCII space, where a field of a line starts ("not
//     selected: PATH"): a path or an assertion reads the same wherever it is.
//
// Pure ASCII text without controls is returned as it is, without a copy.
func OneLine(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	lead := true // still in s's leading run of white space
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
		case escapedRune(r) || lead && r >= utf8.RuneSelf && leadingSpace(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		lead = r == ' ' || lead && leadingSpace(r) // after a space a field may start: "...: PATH"
		i += size
	}
	return b.String()
}

// needsEscape reports whether OneLine would change s. The loop over bytes
// is the fast path; only text with non-ASCII bytes is decoded.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return true
		}
		if c >= utf8.RuneSelf {
			// s[:i] is printable ASCII: a run of white space is open
			// at the start of s or after a space.
			return needsEscapeUnicode(s, i, i == 0 || s[i-1] == ' ')
		}
	}
	return false
}

func needsEscapeUnicode(s string, i int, lead bool) bool {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			lead = c == ' '
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || escapedRune(r) {
			return true
		}
		if leadingSpace(r) {
			if lead {
				return true
			}
		} else {
			lead = false
		}
		i += size
	}
	return false
}

// escapedRune reports whether OneLine writes the non-ASCII r as \uNNNN
// wherever it is: the C1 controls U+0080–U+009F (U+0085 a line break, U+009B
// CSI and U+009D OSC to a terminal), U+2028 and U+2029 (line breaks), the bidi controls
// (U+061C ARABIC LETTER MARK, U+200E, U+200F, the embeddings and overrides
// U+202A–U+202E, the isolates U+2066–U+2069) and the zero-width characters
// (U+200B–U+200D, U+2060 WORD JOINER, U+FEFF), which would make a report
// display other than it is.
func escapedRune(r rune) bool {
	switch {
	case r < 0x0600:
		return r >= 0x80 && r <= 0x9f
	case r < 0x2000:
		return r == 0x061c
	case r <= 0x206f:
		return r >= 0x200b && r <= 0x200f || r >= 0x2028 && r <= 0x202e ||
			r == 0x2060 || r >= 0x2066 && r <= 0x2069
	}
	return r == 0xfeff
}

// leadingSpace reports whether the runner's String.TrimStart strips r: .NET's
// Char.IsWhiteSpace, which is Unicode's White_Space (U+0009–U+000D, U+0020,
// U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
// U+3000). U+180E MONGOLIAN VOWEL SEPARATOR left White_Space in Unicode 6.3
// and is not stripped.
func leadingSpace(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r == ' ' || r >= '\t' && r <= '\r'
	case r < 0x1680:
		return r == 0x85 || r == 0xa0
	case r < 0x2000:
		return r == 0x1680
	case r <= 0x205f:
		return r <= 0x200a || r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f
	}
	return r == 0x3000
}

// Line makes s one line that is safe in a CI log (stderr, say): escaped by
// OneLine and kept from being read as a workflow command.
func Line(s string) string { return guardLine(OneLine(s)) }

// Notice is the stderr line of a run's notice: "evalgate: " (added when s
// does not start with it) and the rest of s escaped by Line, its start as
// untrusted text. So every notice says where it comes from, and none starts
// with text from a page, a path or a contract.
func Notice(s string) string { return guardLine(noticeText(s)) }

// noticeText is a notice as every writer shows it (stderr, the ::notice
// annotation, the job summary): "evalgate: " and the rest escaped by
// OneLine.
func noticeText(s string) string {
	return noticePrefix + OneLine(strings.TrimPrefix(s, noticePrefix))
}

// noticePrefix starts every notice evalgate writes.
const noticePrefix = "evalgate: "

// guardLine keeps a text line from being read as a workflow command: the
// Actions runner acts on a line starting with "::" after any leading white
// space (leadingSpace), and on "##[" anywhere (its legacy parser). The first
// ':' of such a line is written \x3a, and "##[" is written #\#[.
func guardLine(line string) string {
	if strings.Contains(line, "##[") {
		line = strings.ReplaceAll(line, "##[", `#\#[`)
	}
	i := 0
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		if !leadingSpace(r) {
			break
		}
		i += size
	}
	if strings.HasPrefix(line[i:], "::") {
		line = line[:i] + `\x3a` + line[i+1:]
	}
	return line
}

// GuardJSON is guardJSON for JSON encoded outside this package, which
// AppendJSON's output needs no more: it is guarded as it is written.
func GuardJSON(b []byte) []byte { return guardJSON(b) }

// guardJSON escapes, in JSON written by encoding/json, what it leaves raw but
// the one-line rules want escaped: DEL and the characters of escapedRune
// (U+0085, bidi controls, zero-width characters) as \uNNNN, and "##[" as
// #\u0023[. All of them can only occur inside strings, where these escapes
// are exact equivalents. No line of such JSON can start with "::": each
// starts with white space and a quote, a bracket, a brace or a literal.
// b is returned as it is when nothing needs escaping.
func guardJSON(b []byte) []byte {
	if out, escaped := appendGuardedJSON(nil, b); escaped {
		return out
	}
	return b
}

// jsonPlain marks the bytes guardJSON copies without a look: ASCII but DEL and '#'.
var jsonPlain = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = c != 0x7f && c != '#'
	}
	return t
}()

// appendGuardedJSON appends b to dst with guardJSON's escapes, when something needs escaping; when
// nothing does, it appends nothing and says so (b is then the guarded JSON). What needs no escape is
// copied a run at a time.
func appendGuardedJSON(dst, b []byte) (out []byte, escaped bool) {
	out, start := dst, 0 // b[start:i] is yet to be copied to out
	for i := 0; i < len(b); {
		if jsonPlain[b[i]] {
			i++
			continue
		}
		r, size := rune(b[i]), 1
		switch {
		case r == '#':
			if !hasHashBracket(b[i:]) {
				i++
				continue
			}
			size = 3
		case r >= utf8.RuneSelf:
			if n := plainRune(b[i:]); n > 0 {
				i += n
				continue
			}
			r, size = utf8.DecodeRune(b[i:])
			// U+FFFD too: the encoder writes an invalid byte as \ufffd, so a report read back (a
			// merge of shards) writes the same bytes.
			if !escapedRune(r) && r != utf8.RuneError {
				i += size
				continue
			}
		}
		out = append(out, b[start:i]...)
		if r == '#' {
			out = append(out, `#\u0023[`...)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
		start, escaped = i, true
	}
	if !escaped {
		return dst, false
	}
	return append(out, b[start:]...), true
}

// plainRune is the length of the valid 2- or 3-byte sequence b starts with when it is no character
// guardJSON escapes (whose lead bytes are C2, D8, E2 and EF); 0 for any other b. It spares most
// text, CJK above all, a call of utf8.DecodeRune.
func plainRune(b []byte) int {
	cont := func(c byte) bool { return c&0xc0 == 0x80 }
	switch c := b[0]; {
	case c >= 0xc3 && c <= 0xdf && c != 0xd8:
		if len(b) >= 2 && cont(b[1]) {
			return 2
		}
	case c >= 0xe0 && c <= 0xee && c != 0xe2:
		// E0 needs a second byte from A0 (no overlong form), ED one below A0 (no surrogate).
		if len(b) >= 3 && cont(b[1]) && cont(b[2]) && (c != 0xe0 || b[1] >= 0xa0) && (c != 0xed || b[1] < 0xa0) {
			return 3
		}
	}
	return 0
}

func hasHashBracket(b []byte) bool {
	return len(b) >= 3 && b[0] == '#' && b[1] == '#' && b[2] == '['
}
