package evalcase

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/shape"
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
	// toks are the placeholder tokens of source and text, found once for the assertions that both
	// read them (placeholder_integrity, and number_fidelity to skip digits inside placeholders).
	toks placeholderTokens
}

// verdict is an assertion's outcome on one candidate.
type verdict struct {
	// faults are the faults kept for the evidence: the first
	// diag.MaxEvidenceItems of each code, so that the first ones in code
	// order are kept whatever the order they were found in (README
	// "Results": bounded evidence). None: the assertion passes.
	faults   []finding
	total    int            // every fault found, kept or not
	kept     map[string]int // faults kept per code, once one code has many
	passMsg  string
	evidence map[string]any // facts about the faults; nil on a pass
	// unchecked, when not "", says what the assertion could not check
	// within its work limit (workLimit); with no fault, the result is an
	// error with this message.
	unchecked string
}

// finding is one fault an assertion found.
type finding struct {
	code   string
	msg    string
	detail map[string]any
}

func (v *verdict) fail(code, msg string, detail map[string]any) {
	if v.wants(code) {
		v.record(code, msg, detail)
	}
}

// wants counts one more fault of code and reports whether it is kept, so
// that a caller builds the message and detail of kept faults only.
func (v *verdict) wants(code string) bool {
	v.total++
	if len(v.faults) < diag.MaxEvidenceItems {
		return true
	}
	if v.kept == nil {
		v.kept = map[string]int{}
		for _, f := range v.faults {
			v.kept[f.code]++
		}
	}
	return v.kept[code] < diag.MaxEvidenceItems
}

// record keeps a fault that wants accepted.
func (v *verdict) record(code, msg string, detail map[string]any) {
	v.faults = append(v.faults, finding{code: code, msg: msg, detail: detail})
	if v.kept != nil {
		v.kept[code]++
	}
}

// failed reports whether any fault was found.
func (v *verdict) failed() bool { return v.total > 0 }

// workLimit bounds the bytes that required_tokens (strings.Count) and
// forbidden_renderings (RE2) scan for one candidate beyond one pass over
// the texts: realistic cases stay far below it, and a case with a hundred
// thousand tokens cannot make one check quadratic.
const (
	requiredWorkLimit  = 1 << 30
	forbiddenWorkLimit = 64 << 20
)

func runRequiredTokens(in *input, _ []byte) verdict {
	var v verdict
	seen := make(map[string]bool, len(in.requiredTokens))
	per := len(in.source) + len(in.text) // bytes scanned per token
	work, checked, distinct := 0, 0, 0
	for _, tok := range in.requiredTokens {
		if seen[tok] {
			continue
		}
		seen[tok] = true
		distinct++
		if work += per; work > max(per, requiredWorkLimit) {
			continue // counted, not checked
		}
		checked++
		want := max(1, strings.Count(in.source, tok))
		if got := strings.Count(in.text, tok); got < want && v.wants("required_token_missing") {
			msg := fmt.Sprintf("required token %s is missing", quote(tok))
			if got > 0 {
				msg = fmt.Sprintf("required token %s occurs %d time(s), expected at least %d (as in the source)", quote(tok), got, want)
			}
			v.record("required_token_missing", msg, map[string]any{"token": short(tok), "expected_at_least": want, "actual": got})
		}
	}
	if checked < distinct {
		v.unchecked = fmt.Sprintf("%d of %d distinct required tokens were not checked: counting them in %d bytes of source and candidate is over the work limit",
			distinct-checked, distinct, per)
	}
	if !v.failed() {
		v.passMsg = strconv.Itoa(distinct) + " required token(s) present"
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
	p := forbiddenCache.getBytes(raw)
	var v verdict
	var work int64 // steps at worst of the patterns matched so far: compiled instructions times bytes
	for i, pat := range p.Patterns {
		if i > 0 && (i+1)*len(in.text) > max(len(in.text), forbiddenWorkLimit) {
			v.unchecked = fmt.Sprintf("%d of %d forbidden patterns were not checked: matching them against %d bytes of candidate is over the work limit",
				len(p.Patterns)-i, len(p.Patterns), len(in.text))
			break
		}
		e := lookupPattern(pat)
		if e.err != nil {
			panic(e.err.msg) // validated before it is graded
		}
		if !e.pre.may(in.text) {
			continue
		}
		// Go's regexp cannot be stopped once it runs: (?:.?){1000}Z on a 2 MB candidate took 36 s. The
		// patterns are held to shape.MatchBudget together, as a tool:contains pattern is (README "Limits").
		if work += int64(e.insts) * int64(len(in.text)); work > shape.MatchBudget {
			v.unchecked = fmt.Sprintf("%d of %d forbidden patterns were not checked: matching them against %d bytes of candidate is over the work limit (their compiled instructions times its bytes past %d)",
				len(p.Patterns)-i, len(p.Patterns), len(in.text), int64(shape.MatchBudget))
			break
		}
		m := e.re.FindStringIndex(in.text)
		if m == nil {
			continue
		}
		match := in.text[m[0]:m[1]]
		if len(match) > maxMatchEvidence {
			match = strings.ToValidUTF8(match[:maxMatchEvidence], "") + "…"
		}
		if v.wants("forbidden_rendering") {
			v.record("forbidden_rendering", fmt.Sprintf("forbidden rendering %s matches %s", quote(short(pat)), quote(match)),
				map[string]any{"pattern": pat, "match": match, "offset": utf8.RuneCountInString(in.text[:m[0]])})
		}
	}
	if !v.failed() && v.unchecked == "" {
		v.passMsg = "none of " + strconv.Itoa(len(p.Patterns)) + " forbidden pattern(s) matches"
	}
	return v
}

// maxCharsParams are max_chars' params.
type maxCharsParams struct {
	Max  float64 `json:"max"` // integral, validated before it is graded
	Unit string  `json:"unit"`
}

func runMaxChars(in *input, raw []byte) verdict {
	p := maxCharsCache.getBytes(raw)
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
		v.passMsg = strconv.Itoa(n) + " " + unit + ", at most " + strconv.Itoa(limit) + " allowed"
	}
	return v
}
