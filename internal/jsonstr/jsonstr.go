// Package jsonstr decodes JSON string literals exactly as encoding/json decodes them into a Go string
// (escapes, a surrogate pair as one character, U+FFFD for a lone surrogate or an invalid byte),
// without reflection: the EvalCase reader and the judge's cache read such strings by the hundred
// thousand. It imports nothing of evalgate.
package jsonstr

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// End returns the offset just past the string literal that starts at b[i] (its opening quote), or
// -1 when none ends there: it follows escapes, and leaves the checking of them to Unquote. The literal
// ends at the first quote after an even run of backslashes.
func End(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; ; {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		n := 0
		for n < q && b[i-1-n] == '\\' {
			n++
		}
		if i++; n%2 == 0 {
			return i
		}
	}
}

// Unquote decodes lit, one JSON string literal quotes included, as json.Unmarshal into a string
// would. ok is false when lit is not a valid literal: a control character, a bad escape, no quotes.
func Unquote(lit []byte) (s string, ok bool) {
	b, ok := inner(lit)
	if !ok {
		return "", false
	}
	i := plain(b)
	if i == len(b) {
		return string(b), true
	}
	out := make([]byte, i, len(b)+2*utf8.UTFMax)
	copy(out, b[:i])
	if out, ok = appendDecoded(out, b, i); !ok {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), true // out is this call's own, never written again
}

// Valid reports whether Unquote reads lit, without making the string: a reader that only checks a
// string it does not keep allocates nothing for it (unless it is long and has escapes).
func Valid(lit []byte) bool {
	b, ok := inner(lit)
	if !ok {
		return false
	}
	i := plain(b)
	if i == len(b) {
		return true
	}
	var room [256]byte
	_, ok = appendDecoded(room[:0], b, i)
	return ok
}

// inner is lit without its quotes; false when it has none.
func inner(lit []byte) ([]byte, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return nil, false
	}
	return lit[1 : len(lit)-1], true
}

// appendDecoded appends to out what b, a literal's inside, decodes to from b[i] on; false at the
// first thing a literal may not hold.
func appendDecoded(out, b []byte, i int) ([]byte, bool) {
	for i < len(b) {
		switch c := b[i]; {
		case c == '\\':
			if i+1 == len(b) {
				return out, false
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
					return out, false
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
				return out, false
			}
			i += 2
		case c == '"' || c < 0x20:
			return out, false
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
	return out, true
}

// plain returns the length of b's first part that decodes to itself: no escape, quote or control
// character, only valid UTF-8. Text is mostly that, and is looked at eight bytes at a time while it
// is ASCII.
func plain(b []byte) int {
	i := 0
	for i < len(b) {
		if i+8 <= len(b) && plainASCII(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
			continue
		}
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
	return i
}

// plainASCII says that each of x's eight bytes is ASCII and neither a control character, '"' nor
// '\\'. The tests are the bit-parallel ones for a byte below n, (x - n·ones) &^ x, and for a zero
// byte, exact for words whose bytes are all below 0x80, which the last term checks.
func plainASCII(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	control := (x - 0x20*ones) &^ x
	quote := x ^ '"'*ones
	quote = (quote - ones) &^ quote
	backslash := x ^ '\\'*ones
	backslash = (backslash - ones) &^ backslash
	return (control|quote|backslash|x)&highs == 0
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
