package grader

import (
	"context"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/rivo/uniseg"
)

var builtinLength = &Tool{
	Name:  "tool:length",
	Title: "The target's length is within limits",
	Doc: `Measures the target's Markdown source as written (markup included): max-chars counts Unicode code
points; min-words and max-words count words, the Unicode word segments (UAX #29) that hold a letter or a
digit, so punctuation and spaces are not words. At least one option is required; min-words may not exceed
max-words.

Options: max-chars, min-words, max-words (integers, 0 or more).
Codes: too_long, too_short, with evidence {actual, limit, option}; no position: the result points at the
eval entry.`,
	Codes: []string{"too_long", "too_short"},
	CheckOptions: func(opts *frontmatter.Node) []diag.Problem {
		probs, found := builtinCheckOpts("tool:length", opts, builtinOpt{"max-chars", builtinOptCount},
			builtinOpt{"min-words", builtinOptCount}, builtinOpt{"max-words", builtinOptCount})
		if len(found) == 0 {
			probs = append(probs, builtinMissing(opts, "tool:length: give max-chars, min-words or max-words"))
		}
		lo, hi := found["min-words"], found["max-words"]
		if lo != nil && hi != nil && lo.Value.IsInt() && hi.Value.IsInt() && lo.Value.Num > hi.Value.Num {
			probs = append(probs, diag.Problem{Pos: lo.Value.Pos, Code: "invalid_value",
				Message: fmt.Sprintf("tool:length: min-words (%s) exceeds max-words (%s)", lo.Value.Text, hi.Value.Text)})
		}
		return probs
	},
	Run: builtinRunLength,
}

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
	if limit, ok := builtinOptInt(in.Options, "max-chars"); ok {
		if n := utf8.RuneCount(in.Target); n > limit {
			add("too_long", "max-chars", "code points", n, limit)
		}
	}
	lo, hasLo := builtinOptInt(in.Options, "min-words")
	hi, hasHi := builtinOptInt(in.Options, "max-words")
	if hasLo || hasHi {
		n := builtinCountWords(in.Target)
		if hasLo && n < lo {
			add("too_short", "min-words", "words", n, lo)
		}
		if hasHi && n > hi {
			add("too_long", "max-words", "words", n, hi)
		}
	}
	return out, ctx.Err()
}
