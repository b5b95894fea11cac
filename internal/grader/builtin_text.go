package grader

import (
	"context"
	"fmt"
	"regexp"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

var builtinContains = &Tool{
	Name:  "tool:contains",
	Title: "The target contains a text or matches a pattern",
	Doc: `The target must contain text (a literal string) or match pattern (RE2 syntax, Go's regexp: no
lookaround or backreferences; use (?m) for ^ and $ at line ends, (?s) for . across lines). Exactly one of
text and pattern is required; ignore-case: true compares without case. Empty matches do not count.

Options: text (string) or pattern (string), ignore-case (boolean, default false).
Codes: text_missing (no position: the result points at the eval entry).`,
	Codes: []string{"text_missing"},
	CheckOptions: func(opts *frontmatter.Node) []diag.Problem {
		return builtinCheckTextOpts("tool:contains", opts)
	},
	Run: func(ctx context.Context, in *ToolInput) ([]Finding, error) {
		return builtinRunText(ctx, in, false)
	},
}

var builtinAbsent = &Tool{
	Name:  "tool:absent",
	Title: "The target does not contain a text or match a pattern",
	Doc: `The target must not contain text (a literal string) nor match pattern (RE2 syntax, as for
tool:contains). Exactly one of text and pattern is required; ignore-case: true compares without case. Every
non-empty, non-overlapping match is one finding.

Options: text (string) or pattern (string), ignore-case (boolean, default false).
Codes: text_present, at each match's line and column.`,
	Codes: []string{"text_present"},
	CheckOptions: func(opts *frontmatter.Node) []diag.Problem {
		return builtinCheckTextOpts("tool:absent", opts)
	},
	Run: func(ctx context.Context, in *ToolInput) ([]Finding, error) {
		return builtinRunText(ctx, in, true)
	},
}

func builtinCheckTextOpts(tool string, opts *frontmatter.Node) []diag.Problem {
	probs, found := builtinCheckOpts(tool, opts,
		builtinOpt{"text", builtinOptString}, builtinOpt{"pattern", builtinOptString}, builtinOpt{"ignore-case", builtinOptBool})
	text, pattern := found["text"], found["pattern"]
	switch {
	case text == nil && pattern == nil:
		probs = append(probs, builtinMissing(opts, tool+": give option text or pattern"))
	case text != nil && pattern != nil:
		later := pattern
		if text.KeyPos.Line > pattern.KeyPos.Line ||
			(text.KeyPos.Line == pattern.KeyPos.Line && text.KeyPos.Col > pattern.KeyPos.Col) {
			later = text
		}
		probs = append(probs, diag.Problem{Pos: later.KeyPos, Code: "invalid_value",
			Message: tool + ": give text or pattern, not both"})
	}
	for _, e := range []*frontmatter.Entry{text, pattern} {
		if e == nil || e.Value == nil || e.Value.Kind != frontmatter.String {
			continue
		}
		if e.Value.Text == "" {
			probs = append(probs, diag.Problem{Pos: e.Value.Pos, Code: "invalid_value",
				Message: fmt.Sprintf("%s: option %q must not be empty", tool, e.Key)})
			continue
		}
		if e == pattern {
			if _, err := regexp.Compile(e.Value.Text); err != nil {
				probs = append(probs, diag.Problem{Pos: e.Value.Pos, Code: "invalid_value",
					Message: fmt.Sprintf("%s: pattern is not valid RE2: %v", tool, err)})
			}
		}
	}
	return probs
}

// builtinTextRegexp compiles the options of tool:contains or tool:absent into one regexp, and returns the
// option that names it and its value.
func builtinTextRegexp(opts *frontmatter.Node) (re *regexp.Regexp, option, value string, err error) {
	expr := ""
	if t, ok := builtinOptStr(opts, "text"); ok {
		option, value, expr = "text", t, regexp.QuoteMeta(t)
	} else if p, ok := builtinOptStr(opts, "pattern"); ok {
		option, value, expr = "pattern", p, p
	} else {
		return nil, "", "", fmt.Errorf("option text or pattern is missing")
	}
	if builtinOptBoolValue(opts, "ignore-case") {
		expr = "(?i)" + expr
	}
	re, err = regexp.Compile(expr)
	return re, option, value, err
}

// builtinCountLimit is how many matches tool:absent counts before it stops: a hundred times what it reports.
const builtinCountLimit = 100 * MaxFindings

func builtinRunText(ctx context.Context, in *ToolInput, absent bool) ([]Finding, error) {
	name := "tool:contains"
	if absent {
		name = "tool:absent"
	}
	re, option, value, err := builtinTextRegexp(in.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var out builtinFindings
	pm := builtinNewPosMap(in)
	// Matches are counted up to a ceiling: a one-letter pattern over a large page would otherwise hold an
	// index pair per letter.
	matches := re.FindAllIndex(in.Target, builtinCountLimit)
	out.atLeast = len(matches) == builtinCountLimit
	for _, m := range matches {
		if m[0] == m[1] {
			continue
		}
		if !absent {
			return nil, ctx.Err()
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
	if !absent {
		what := "text " + fmt.Sprintf("%q", value) + " not found"
		if option == "pattern" {
			what = "pattern " + fmt.Sprintf("%q", value) + " matches nothing"
		}
		out.add(Finding{Code: "text_missing", Key: value, Message: what,
			Evidence: map[string]any{option: value}})
	}
	return out.done(), ctx.Err()
}
