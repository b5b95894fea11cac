package grader

import (
	"context"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/rivo/uniseg"
)

var builtinLength = &Tool{Tool: tooldef.Length,
	Run: builtinRunLength}

// builtinCountWords counts the UAX #29 word segments of b that hold a letter or a digit.
func builtinCountWords(b []byte) int {
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
