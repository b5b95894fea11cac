package grader

import (
	"context"
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/rivo/uniseg"
)

var builtinLength = &Tool{Tool: tooldef.Length, Run: builtinRunLength}

// builtinCountWords counts the UAX #29 word segments of b that hold a letter or a digit. ASCII text, most
// pages, takes asciiWords: the same count without the general segmenter.
func builtinCountWords(b []byte) int {
	if isASCII(b) {
		return asciiWords(b)
	}
	return uaxWords(b)
}

// isASCII reports whether b is ASCII, eight bytes at a time.
func isASCII(b []byte) bool {
	for ; len(b) >= 8; b = b[8:] {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ASCII's word-break classes of UAX #29 (every other byte breaks on both sides).
const (
	wbOther = iota
	wbLetter
	wbDigit
	wbExtendNumLet // _
	wbMidLetter    // :
	wbMidNumLetQ   // . and '
	wbMidNum       // , and ;
)

// wbClasses holds wbClassOf for every byte: the word loops read a class per byte.
var wbClasses = func() (t [256]uint8) {
	for c := range t {
		t[c] = uint8(wbClassOf(byte(c)))
	}
	return t
}()

func wbClass(c byte) int { return int(wbClasses[c]) }

func wbClassOf(c byte) int {
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return wbLetter
	case c >= '0' && c <= '9':
		return wbDigit
	}
	switch c {
	case '_':
		return wbExtendNumLet
	case ':':
		return wbMidLetter
	case '.', '\'':
		return wbMidNumLetQ
	case ',', ';':
		return wbMidNum
	}
	return wbOther
}

// asciiWords is uaxWords for ASCII: letters, digits and _ join (WB5, WB8-WB10, WB13a-b); one : . or '
// joins two letters (WB6-7), one , ; . or ' two digits (WB11-12); nothing else joins. A run of joined
// bytes is a word when it holds a letter or a digit.
func asciiWords(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if wbClasses[b[i]]-wbLetter > wbExtendNumLet-wbLetter { // no letter, digit or _: no word starts
			i++
			continue
		}
		word := false
		for i < len(b) {
			c := wbClasses[b[i]]
			if c-wbLetter <= wbExtendNumLet-wbLetter { // letter, digit or _ (uint8: wbOther wraps past)
				word = word || c != wbExtendNumLet
				i++
				continue
			}
			if c >= wbMidLetter && i+1 < len(b) {
				prev, next := wbClasses[b[i-1]], wbClasses[b[i+1]]
				if prev == wbLetter && next == wbLetter && c != wbMidNum || prev == wbDigit && next == wbDigit && c != wbMidLetter {
					i++
					continue
				}
			}
			break
		}
		if word {
			n++
		}
	}
	return n
}

// uaxWords counts with the general segmenter.
func uaxWords(b []byte) int {
	n := 0
	state := -1
	var word []byte
	for len(b) > 0 {
		word, b, state = uniseg.FirstWord(b, state)
		for len(word) > 0 {
			r, size := utf8.DecodeRune(word)
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				n++
				break
			}
			word = word[size:]
		}
	}
	return n
}

func builtinRunLength(ctx context.Context, in *ToolInput) ([]Finding, error) {
	var out []Finding
	add := func(code, option, unit string, actual, limit int) {
		rel := "more than"
		if code == "too_short" {
			rel = "fewer than"
		}
		out = append(out, Finding{
			Code:     code,
			Key:      option,
			Message:  fmt.Sprintf("%d %s, %s the %s of %d", actual, unit, rel, option, limit),
			Evidence: map[string]any{"actual": actual, "limit": limit, "option": option},
		})
	}
	text := in.Target
	if builtinIsMDX(in) {
		text = builtinBlankMDX(text).kept // ESM and JSX are not the page's text
	}
	if limit, ok := tooldef.OptInt(in.Options, "max-chars"); ok {
		if n := utf8.RuneCount(text); n > limit {
			add("too_long", "max-chars", "code points", n, limit)
		}
	}
	lo, hasLo := tooldef.OptInt(in.Options, "min-words")
	hi, hasHi := tooldef.OptInt(in.Options, "max-words")
	if hasLo || hasHi {
		n := builtinCountWords(text)
		if hasLo && n < lo {
			add("too_short", "min-words", "words", n, lo)
		}
		if hasHi && n > hi {
			add("too_long", "max-words", "words", n, hi)
		}
	}
	return out, ctx.Err()
}
