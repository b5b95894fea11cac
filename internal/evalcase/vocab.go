package evalcase

import (
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/frontmatter"
)

// Assertion documents one name of the v1 assertion vocabulary (contract §4)
// and how evalgate runs it. Vocabulary is the one registry: validation,
// the runner and README read it; nothing registers itself.
type Assertion struct {
	Name   string
	Title  string  // one line, no trailing period
	Params []Param // the closed set of params (README "EvalCase v1 fixtures")
	// Codes are the failure codes the assertion gives, in the order in which
	// the first applicable one becomes the result's code (README "EvalCase v1 fixtures").
	Codes []string
	// check validates params beyond each one's own rule (a param required
	// or forbidden by another's value); params is nil when the assertion has
	// none. It may be nil.
	check func(params *frontmatter.Node) *paramFault
	run   func(in *input, params []byte) verdict
}

// Param is one parameter of an assertion.
type Param struct {
	Name     string
	Kind     ParamKind
	Enum     []string // the allowed values of an enum parameter
	Required bool
	Default  string // the default, as README shows it; "" when there is none
	Doc      string
}

// ParamKind is the type and range of a parameter's value.
type ParamKind int

const (
	ParamPositiveInt    ParamKind = iota // an integer of at least 1 (an integral number: 3.0 counts)
	ParamNonEmptyString                  // a string of at least one character
	ParamBool                            // true or false
	ParamEnum                            // one of Enum
	ParamPatterns                        // a non-empty array of RE2 patterns, none matching the empty string
)

// Severities of an assertion (contract §4): hard fails the gate, report
// never blocks (README "Results, outcomes and blocking").
const (
	SeverityHard   = "hard"
	SeverityReport = "report"
)

// Placeholder syntaxes of placeholder_integrity (contract §4.1).
const (
	SyntaxAuto   = "auto"
	SyntaxPrintf = "printf"
	SyntaxPython = "python"
	SyntaxICU    = "icu"
	SyntaxCustom = "custom"
)

// Units of max_chars.
const (
	UnitCodePoints = "code_points"
	UnitGraphemes  = "graphemes"
)

// Vocabulary is the v1 assertion vocabulary, in the contract's order.
var Vocabulary = []Assertion{
	{
		Name:  "protocol_complete",
		Title: "The numbered response protocol is complete: items 1..k, none empty, and the terminator",
		Params: []Param{
			{Name: "expected_items", Kind: ParamPositiveInt, Doc: "how many items the response must have; without it only numbering, empty items and the terminator are checked"},
			{Name: "terminator", Kind: ParamNonEmptyString, Doc: "a literal whose first occurrence ends the response; required in the response when set"},
			{Name: "allow_extra_items", Kind: ParamBool, Default: "false", Doc: "more than expected_items items pass"},
		},
		Codes: []string{"protocol_missing_terminator", "protocol_malformed_item", "protocol_missing_item", "protocol_extra_item"},
		run:   runProtocol,
	},
	{
		Name:  "placeholder_integrity",
		Title: "Every placeholder of the source survives, unchanged, as often as in the source",
		Params: []Param{
			{Name: "syntax", Kind: ParamEnum, Enum: []string{SyntaxAuto, SyntaxPrintf, SyntaxPython, SyntaxICU, SyntaxCustom}, Default: SyntaxAuto, Doc: "the placeholder syntax"},
			{Name: "allow_reorder", Kind: ParamBool, Default: "true", Doc: "placeholders that the syntax can reorder may change order"},
			{Name: "patterns", Kind: ParamPatterns, Doc: "RE2 patterns of the placeholders; required for syntax custom, added to the union under auto"},
		},
		Codes: []string{"placeholder_mutated", "placeholder_missing", "placeholder_extra", "placeholder_count_mismatch", "placeholder_reordered"},
		check: checkPlaceholderParams,
		run:   runPlaceholders,
	},
	{
		Name:  "number_fidelity",
		Title: "Every number of the source appears in the candidate, read with the locales' decimal marks",
		Codes: []string{"number_missing"},
		run:   runNumbers,
	},
	{
		Name:  "required_tokens",
		Title: "Each of the case's required_tokens appears at least once and at least as often as in the source",
		Codes: []string{"required_token_missing"},
		run:   runRequiredTokens,
	},
	{
		Name:  "forbidden_renderings",
		Title: "No pattern of params.patterns matches the candidate",
		Params: []Param{
			{Name: "patterns", Kind: ParamPatterns, Required: true, Doc: "RE2 patterns that must not match the candidate's text"},
		},
		Codes: []string{"forbidden_rendering"},
		run:   runForbidden,
	},
	{
		Name:  "max_chars",
		Title: "The candidate is at most params.max characters long",
		Params: []Param{
			{Name: "max", Kind: ParamPositiveInt, Required: true, Doc: "the most characters the candidate's text may have"},
			{Name: "unit", Kind: ParamEnum, Enum: []string{UnitCodePoints, UnitGraphemes}, Default: UnitCodePoints, Doc: "code_points (Unicode code points) or graphemes (user-perceived characters)"},
		},
		Codes: []string{"max_chars_exceeded"},
		run:   runMaxChars,
	},
}

// lookupAssertion returns the vocabulary entry named name.
// byName is Vocabulary's indexes in the order of their names: report order, for results of one case.
var byName = func() []int {
	order := make([]int, len(Vocabulary))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(Vocabulary[a].Name, Vocabulary[b].Name) })
	return order
}()

func lookupAssertion(name string) *Assertion {
	for i := range Vocabulary {
		if Vocabulary[i].Name == name {
			return &Vocabulary[i]
		}
	}
	return nil
}

// param returns a's parameter named name, or nil.
func (a *Assertion) param(name string) *Param {
	if i := slices.IndexFunc(a.Params, func(p Param) bool { return p.Name == name }); i >= 0 {
		return &a.Params[i]
	}
	return nil
}

// IsAssertion reports whether name is an assertion of the v1 vocabulary.
func IsAssertion(name string) bool { return lookupAssertion(name) != nil }

// codeOrder orders failure codes: the first fault in this order is a
// result's code (README "EvalCase v1 fixtures"). It repeats the Codes of Vocabulary, which
// the run functions cannot read (an initialization cycle); a test keeps the
// two in step.
var codeOrder = []string{
	"protocol_missing_terminator", "protocol_malformed_item", "protocol_missing_item", "protocol_extra_item",
	"placeholder_mutated", "placeholder_missing", "placeholder_extra", "placeholder_count_mismatch", "placeholder_reordered",
	"number_missing", "required_token_missing", "forbidden_rendering", "max_chars_exceeded",
}

// codeRank is code's index in codeOrder.
func codeRank(code string) int {
	for i, c := range codeOrder {
		if c == code {
			return i
		}
	}
	return len(codeOrder)
}

// oldAssertionNames maps the bare-string names of the M8 design doc's draft
// (before v1) to their v1 successors, for a targeted message.
var oldAssertionNames = map[string]string{
	"protocol":        "protocol_complete",
	"placeholder_set": "placeholder_integrity",
	"placeholders":    "placeholder_integrity",
	"number_fidelity": "number_fidelity",
}
