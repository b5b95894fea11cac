package evalcase

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// input is what an assertion reads: the case's fields and the candidate.
type input struct {
	source         string
	sourceLocale   string
	targetLocale   string
	requiredTokens []string
	text           string // the candidate's text
	raw            string // the candidate's raw_response, when hasRaw
	hasRaw         bool
	// placeholder holds the case's placeholder_integrity params, which
	// number_fidelity uses to skip digits inside placeholders; nil when the
	// case has no such assertion.
	placeholder *placeholderParams
}

// verdict is an assertion's outcome on one candidate.
type verdict struct {
	faults   []finding // none: the assertion passes
	passMsg  string
	evidence map[string]any // facts about the faults; nil on a pass
}

// finding is one fault an assertion found.
type finding struct {
	code   string
	msg    string
	detail map[string]any
}

func (v *verdict) fail(code, msg string, detail map[string]any) {
	v.faults = append(v.faults, finding{code: code, msg: msg, detail: detail})
}

func runRequiredTokens(in *input, _ []byte) verdict {
	var (
		v    verdict
		seen []string
	)
	for _, tok := range in.requiredTokens {
		if slices.Contains(seen, tok) {
			continue
		}
		seen = append(seen, tok)
		want := max(1, strings.Count(in.source, tok))
		if got := strings.Count(in.text, tok); got < want {
			msg := fmt.Sprintf("required token %s is missing", quote(tok))
			if got > 0 {
				msg = fmt.Sprintf("required token %s occurs %d time(s), expected at least %d (as in the source)", quote(tok), got, want)
			}
			v.fail("required_token_missing", msg, map[string]any{"token": tok, "expected_at_least": want, "actual": got})
		}
	}
	if len(v.faults) == 0 {
		v.passMsg = fmt.Sprintf("%d required token(s) present", len(seen))
	}
	return v
}

// forbiddenParams are forbidden_renderings' params.
type forbiddenParams struct {
	Patterns []string `json:"patterns"`
}

// maxMatchEvidence bounds the matched text quoted in evidence, in bytes.
const maxMatchEvidence = 200

func runForbidden(in *input, raw []byte) verdict {
	p := forbiddenCache.get(raw)
	var v verdict
	for _, pat := range p.Patterns {
		re, pr := compilePattern(pat)
		if pr != nil {
			panic(pr.msg) // validated in pass 1
		}
		m := re.FindStringIndex(in.text)
		if m == nil {
			continue
		}
		match := in.text[m[0]:m[1]]
		if len(match) > maxMatchEvidence {
			match = strings.ToValidUTF8(match[:maxMatchEvidence], "") + "…"
		}
		v.fail("forbidden_rendering", fmt.Sprintf("forbidden rendering %s matches %s", quote(pat), quote(match)),
			map[string]any{"pattern": pat, "match": match, "offset": utf8.RuneCountInString(in.text[:m[0]])})
	}
	if len(v.faults) == 0 {
		v.passMsg = fmt.Sprintf("none of %d forbidden pattern(s) matches", len(p.Patterns))
	}
	return v
}

// maxCharsParams are max_chars' params.
type maxCharsParams struct {
	Max  float64 `json:"max"` // integral, validated in pass 1
	Unit string  `json:"unit"`
}

func runMaxChars(in *input, raw []byte) verdict {
	p := maxCharsCache.get(raw)
	if p.Unit == "" {
		p.Unit = UnitCodePoints
	}
	n := utf8.RuneCountInString(in.text)
	if p.Unit == UnitGraphemes {
		n = uniseg.GraphemeClusterCount(in.text)
	}
	limit := int(p.Max)
	var v verdict
	unit := strings.ReplaceAll(p.Unit, "_", " ")
	if n > limit {
		v.evidence = map[string]any{"max": limit, "actual": n, "unit": p.Unit}
		v.fail("max_chars_exceeded", fmt.Sprintf("%d %s, at most %d allowed", n, unit, limit), map[string]any{"max": limit, "actual": n, "unit": p.Unit})
	} else {
		v.passMsg = fmt.Sprintf("%d %s, at most %d allowed", n, unit, limit)
	}
	return v
}
