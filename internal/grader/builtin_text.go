package grader

import (
	"context"
	"fmt"
	"regexp"

	"github.com/evalgate/evalgate/internal/shape"
	"github.com/evalgate/evalgate/internal/tooldef"
)

var builtinContains = &Tool{Tool: tooldef.Contains,
	Run: func(ctx context.Context, in *ToolInput) ([]Finding, error) {
		return builtinRunText(ctx, in, false)
	}}

var builtinAbsent = &Tool{Tool: tooldef.Absent,
	Run: func(ctx context.Context, in *ToolInput) ([]Finding, error) {
		return builtinRunText(ctx, in, true)
	}}

// builtinCountLimit is how many matches tool:absent counts before it stops: a hundred times what it reports.
const builtinCountLimit = 100 * MaxFindings

func builtinRunText(ctx context.Context, in *ToolInput, absent bool) ([]Finding, error) {
	name := "tool:contains"
	if absent {
		name = "tool:absent"
	}
	re, option, value, err := tooldef.TextRegexp(in.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := shape.MatchWork(re, len(in.Target)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out builtinFindings
	limit := builtinMatchLimit(re, len(in.Target))
	if !absent {
		found, stopped := builtinHasMatch(re, in.Target, limit)
		if found {
			return nil, ctx.Err()
		}
		if stopped {
			return nil, fmt.Errorf("%s: %w: matching: %d matches of the pattern, all empty, are as many as its work allows on %d bytes",
				name, ErrTooMuchWork, limit, len(in.Target))
		}
		what := "text " + fmt.Sprintf("%q", value) + " not found"
		if option == "pattern" {
			what = "pattern " + fmt.Sprintf("%q", value) + " matches nothing"
		}
		out.add(Finding{Code: "text_missing", Key: value, Message: what,
			Evidence: map[string]any{option: value}})
		return out.done(), ctx.Err()
	}
	pm := builtinNewPosMap(in)
	// Matches are counted up to a ceiling: a one-letter pattern over a large page would otherwise hold an
	// index pair per letter; and up to what the work allows, as each match may read to the end.
	matches := re.FindAllIndex(in.Target, limit)
	out.atLeast = len(matches) == limit
	for _, m := range matches {
		if m[0] == m[1] {
			continue
		}
		if !out.room() {
			continue
		}
		match := string(in.Target[m[0]:m[1]])
		out.list = append(out.list, Finding{
			Pos:      pm.at(m[0]),
			Code:     "text_present",
			Key:      value,
			Message:  fmt.Sprintf("forbidden %s %q found: %q", option, value, builtinTruncate(match, 80)),
			Evidence: map[string]any{option: value, "match": builtinTruncate(match, 200)},
		})
	}
	fs := out.done()
	if len(matches) == limit && limit < builtinCountLimit && out.more == 0 && len(fs) > 0 {
		fs[len(fs)-1].Message += fmt.Sprintf(" (the first %d matches: more may follow, which would take more work than evalgate allows)", limit)
	}
	return fs, ctx.Err()
}

// ErrTooMuchWork: a built-in tool would take more work than it allows (too_large): a pattern on its
// target past shape.MatchBudget, a page's links past builtinLinkedParseBudget.
var ErrTooMuchWork = shape.ErrTooMuchWork

// builtinMatchLimit is how many matches of re FindAll may look for in n bytes, at most
// builtinCountLimit: shape.MatchWork holds one pass over the text to shape.MatchBudget, and each match
// may read to the end of the text before it settles (a(?:.*Z)? on "aaaa..."), so the budget holds this
// many. A literal is found by a plain search.
func builtinMatchLimit(re *regexp.Regexp, n int) int {
	if _, literal := re.LiteralPrefix(); literal {
		return builtinCountLimit
	}
	pass := int64(shape.Insts(re)) * int64(max(n, 1))
	return int(min(int64(builtinCountLimit), max(1, shape.MatchBudget/pass)))
}

// builtinHasMatch says whether re matches a non-empty run of b among its first limit matches (an empty
// match is no text found), finding no more matches than it needs: one, unless the first are empty;
// stopped says that limit, less than builtinCountLimit, ran out first. The matches are FindAllIndex's,
// so anchors and word boundaries see the whole of b.
func builtinHasMatch(re *regexp.Regexp, b []byte, limit int) (found, stopped bool) {
	for n := 1; ; n = min(16*n, limit) {
		matches := re.FindAllIndex(b, n)
		for _, m := range matches {
			if m[1] > m[0] {
				return true, false
			}
		}
		if len(matches) < n {
			return false, false
		}
		if n == limit {
			return false, limit < builtinCountLimit
		}
	}
}
