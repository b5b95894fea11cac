// Package jsonstr decodes JSON string literals exactly as encoding/json decodes them into a Go string
// (escapes, a surrogate pair as one character, U+FFFD for a lone surrogate or an invalid byte),
// without reflection: the EvalCase reader and the judge's cache read such strings by the hundred
// thousand. It imports nothing of evalgate.
package jsonstr

import (
	"unicode/utf16"
	"unicode/utf8"
)

// End returns the offset just past the string literal that starts at b[i] (its opening quote), or
// -1 when none ends there: it follows escapes, and leaves the checking of them to Unquote.
func End(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return -1
}

// Unquote decodes lit, one JSON string literal quotes included, as json.Unmarshal into a string
// would. ok is false when lit is not a valid literal: a control character, a bad escape, no quotes.
func Unquote(lit []byte) (s string, ok bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	b := lit[1 : len(lit)-1]
	i := 0
	for i < len(b) {
		c := b[i]
		if c == '\\' || c == '"' || c < 0x20 {
			break
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	if i == len(b) {
		return string(b), true
	}
	out := make([]byte, i, len(b)+2*utf8.UTFMax)
	copy(out, b[:i])
	for i < len(b) {
		switch c := b[i]; {
		case c == '\\':
			if i+1 == len(b) {
				return "", false
			}
			switch e := b[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(b, i+2)
				if !ok {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
						r2, ok := hex4(b, i+2)
						if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return "", false
			}
			i += 2
		case c == '"' || c < 0x20:
			return "", false
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, b[i:i+size]...)
			}
			i += size
		}
	}
	return string(out), true
}

// hex4 reads the four hex digits at b[i:], as a rune.
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
