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
	if err := builtinMatchWork(re, len(in.Target)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out builtinFindings
	if !absent {
		if builtinHasMatch(re, in.Target) {
			return nil, ctx.Err()
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
	// index pair per letter.
	matches := re.FindAllIndex(in.Target, builtinCountLimit)
	out.atLeast = len(matches) == builtinCountLimit
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
	return out.done(), ctx.Err()
}

// ErrTooMuchWork: a built-in tool would take more work than it allows (too_large): a pattern on its
// target past shape.MatchBudget, a page's links past builtinLinkedParseBudget.
var ErrTooMuchWork = shape.ErrTooMuchWork

// builtinMatchWork refuses re on a target of n bytes past shape.MatchBudget.
func builtinMatchWork(re *regexp.Regexp, n int) error { return shape.MatchWork(re, n) }

// builtinHasMatch says whether re matches a non-empty run of b among its first builtinCountLimit matches
// (an empty match is no text found), finding no more matches than it needs: one, unless the first are
// empty. The matches are FindAllIndex's, so anchors and word boundaries see the whole of b.
func builtinHasMatch(re *regexp.Regexp, b []byte) bool {
	for n := 1; ; n = min(16*n, builtinCountLimit) {
		matches := re.FindAllIndex(b, n)
		for _, m := range matches {
			if m[1] > m[0] {
				return true
			}
		}
		if len(matches) < n || n == builtinCountLimit {
			return false
		}
	}
}
