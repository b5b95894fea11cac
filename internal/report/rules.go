package report

import (
	"cmp"
	"strings"
	"unicode"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// Rule id prefixes (README "Results, outcomes and blocking"). A rule id is stable across runs: code
// scanning keys its alerts on the rule id and the fingerprint.
const (
	rulePrefixSuite      = "suite/"
	rulePrefixDefinition = "definition/"
	rulePrefixEvalCase   = "evalcase/"
	rulePrefixJev        = "jev/"
	rulePrefixEval       = "eval/"
)

// RuleID names the rule a result belongs to, shared by the SARIF writer and
// any other writer that groups results by rule (README "Results, outcomes and blocking"):
//
//   - a suite's result (source config, check "suite:NAME"): "suite/NAME";
//   - a definition fault, or a note that is no verdict: "definition/CODE";
//   - an EvalCase result: "evalcase/ASSERTION";
//   - a jevcheck result: "jev/CODE";
//   - a finding of a tool:* grader: "TOOL/CODE", e.g. "tool:links/broken_link";
//   - any other eval (command, human, ai): "eval/CHECK".
//
// A result without a check (which the engine does not produce) falls back to
// its code, so that no rule id ends in "/".
func RuleID(r *diag.Result) string {
	switch {
	case r.Source == diag.SourceConfig && strings.HasPrefix(r.Check, "suite:"):
		return rulePrefixSuite + strings.TrimPrefix(r.Check, "suite:")
	case r.Check == diag.CheckDefinition || r.Verdictless:
		return rulePrefixDefinition + r.Code
	case r.Source == diag.SourceEvalCase:
		return rulePrefixEvalCase + cmp.Or(r.Check, r.Code)
	case r.Source == diag.SourceJev:
		return rulePrefixJev + r.Code
	case strings.HasPrefix(r.Grader, "tool:"):
		return r.Grader + "/" + r.Code
	}
	return rulePrefixEval + cmp.Or(r.Check, r.Code)
}

// RuleDescription describes the rule RuleID(r) names, in one sentence without
// a final period:
//
//   - definition/, TOOL/ and jev/ rules: the code's title in the registry;
//   - evalcase/ rules: what the assertion checks, else the code's title;
//   - suite/NAME: "Suite NAME meets its target-pass-rate";
//   - eval/CHECK: the eval's assertion, else "Eval CHECK".
//
// An eval/* rule's description depends on the result it is taken from: a
// writer takes it from the rule's first result in report order. The
// assertion is page text; it is returned as written.
func RuleDescription(r *diag.Result) string {
	id := RuleID(r)
	switch {
	case strings.HasPrefix(id, rulePrefixSuite):
		return "Suite " + strings.TrimPrefix(id, rulePrefixSuite) + " meets its target-pass-rate"
	case strings.HasPrefix(id, rulePrefixEval):
		if r.Assertion != "" {
			return r.Assertion
		}
		return "Eval " + strings.TrimPrefix(id, rulePrefixEval)
	case strings.HasPrefix(id, rulePrefixEvalCase):
		if doc, ok := assertionDocs[r.Check]; ok {
			return doc
		}
	}
	return codeTitle(r.Code)
}

// codeTitle is the registry title of code, or a stand-in that names it.
func codeTitle(code string) string {
	if info, ok := tooldef.LookupCode(code); ok {
		return info.Title
	}
	return "Result code " + code
}

// assertionDocs says what each EvalCase v1 assertion checks (the contract's
// §4 vocabulary, as README "Decisions where the specs are silent" implements it). The report package may
// import only diag, so the few lines live here.
var assertionDocs = map[string]string{
	"protocol_complete":     "The response is a complete numbered protocol: items 1..k without gaps or empty items, the expected count and the terminator",
	"placeholder_integrity": "Every placeholder of the source survives in the candidate, unaltered and as often as in the source",
	"number_fidelity":       "Every number of the source appears in the candidate",
	"required_tokens":       "Every required token appears in the candidate, at least as often as in the source",
	"forbidden_renderings":  "No forbidden rendering appears in the candidate",
	"max_chars":             "The candidate is no longer than its max_chars limit",
}

// ruleName is a rule's friendly name for SARIF's reportingDescriptor.name:
// one Pascal-case identifier made of the id's letters and digits
// ("tool:links/broken_link" is "ToolLinksBrokenLink"), as the SARIF
// multitool's rule SARIF2012 asks. SARIF1001 wants it to differ from the id,
// which it always does: an id always holds a '/'.
func ruleName(id string) string {
	var b strings.Builder
	upper := true
	for _, r := range id {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if upper {
				r = unicode.ToUpper(r)
				upper = false
			}
			b.WriteRune(r)
		default:
			upper = true
		}
	}
	if b.Len() == 0 {
		return "Rule"
	}
	return b.String()
}
