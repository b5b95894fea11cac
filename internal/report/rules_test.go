package report

import (
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

func TestRuleID(t *testing.T) {
	tests := []struct {
		name string
		r    diag.Result
		want string
	}{
		{"suite", diag.Result{Source: diag.SourceConfig, Check: "suite:how-to", Code: "suite_below_target"}, "suite/how-to"},
		{"config definition", diag.Result{Source: diag.SourceConfig, Check: diag.CheckDefinition, Code: "unknown_key"},
			"definition/unknown_key"},
		{"page definition", diag.Result{Source: diag.SourcePage, Check: diag.CheckDefinition, Code: "invalid_id"},
			"definition/invalid_id"},
		{"note on an eval", diag.Result{Source: diag.SourcePage, Check: "spell", Grader: "command",
			Code: "stale_generated_command", Verdictless: true}, "definition/stale_generated_command"},
		{"provenance note", diag.Result{Source: diag.SourcePage, Check: "eval-provenance",
			Code: "unreviewed_provenance", Verdictless: true}, "definition/unreviewed_provenance"},
		{"evalcase assertion", diag.Result{Source: diag.SourceEvalCase, Check: "placeholder_integrity",
			Code: "placeholder_missing"}, "evalcase/placeholder_integrity"},
		{"evalcase definition", diag.Result{Source: diag.SourceEvalCase, Check: diag.CheckDefinition,
			Code: "missing_field"}, "definition/missing_field"},
		{"evalcase without a check", diag.Result{Source: diag.SourceEvalCase, Code: "unknown_case"},
			"evalcase/unknown_case"},
		{"jev", diag.Result{Source: diag.SourceJev, Check: "category", Code: "answer_flip"}, "jev/answer_flip"},
		{"jev contract fault", diag.Result{Source: diag.SourceJev, Check: diag.CheckDefinition, Code: "wrong_type"},
			"definition/wrong_type"},
		{"built-in finding", diag.Result{Source: diag.SourcePage, Check: "links", Grader: "tool:links",
			Code: "broken_link"}, "tool:links/broken_link"},
		{"configured tool", diag.Result{Source: diag.SourcePage, Check: "style", Grader: "tool:vale",
			Code: "command_failed"}, "tool:vale/command_failed"},
		{"unknown tool", diag.Result{Source: diag.SourcePage, Check: "x", Grader: "tool:nope", Code: "unknown_tool"},
			"tool:nope/unknown_tool"},
		{"command eval", diag.Result{Source: diag.SourcePage, Check: "spell", Grader: "command",
			Code: "command_failed"}, "eval/spell"},
		{"ai eval", diag.Result{Source: diag.SourcePage, Check: "auto-0a1b2c3d", Grader: "ai", Code: "no_judge"},
			"eval/auto-0a1b2c3d"},
		{"config check that is no suite", diag.Result{Source: diag.SourceConfig, Check: "links", Grader: "command",
			Code: "command_failed"}, "eval/links"},
	}
	for _, tt := range tests {
		if got := RuleID(&tt.r); got != tt.want {
			t.Errorf("%s: RuleID = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestRuleDescription(t *testing.T) {
	tests := []struct {
		name string
		r    diag.Result
		want string
	}{
		{"definition", diag.Result{Check: diag.CheckDefinition, Code: "unknown_key"}, "A key the vocabulary does not define"},
		{"tool", diag.Result{Check: "links", Grader: "tool:links", Code: "missing_anchor"},
			"A link's #anchor names no heading or id in its page"},
		{"jev", diag.Result{Source: diag.SourceJev, Check: "q", Code: "confidence_regression"},
			"Same answer, confidence below the contract's floors or tolerances"},
		{"evalcase assertion", diag.Result{Source: diag.SourceEvalCase, Check: "number_fidelity", Code: "number_missing"},
			"Every number of the source appears in the candidate"},
		{"evalcase without assertion doc", diag.Result{Source: diag.SourceEvalCase, Code: "duplicate_candidate"},
			"A second candidate for one case"},
		{"suite", diag.Result{Source: diag.SourceConfig, Check: "suite:how-to"}, "Suite how-to meets its target-pass-rate"},
		{"eval with assertion", diag.Result{Check: "spell", Grader: "command", Assertion: "Words are spelled right"},
			"Words are spelled right"},
		{"eval without assertion", diag.Result{Check: "spell", Grader: "command"}, "Eval spell"},
		{"unknown code", diag.Result{Check: diag.CheckDefinition, Code: "brand_new"}, "Result code brand_new"},
	}
	for _, tt := range tests {
		if got := RuleDescription(&tt.r); got != tt.want {
			t.Errorf("%s: RuleDescription = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestAssertionDocs keeps the assertion table to the EvalCase v1 vocabulary.
func TestAssertionDocs(t *testing.T) {
	vocabulary := []string{"protocol_complete", "placeholder_integrity", "number_fidelity", "required_tokens",
		"forbidden_renderings", "max_chars"}
	if len(assertionDocs) != len(vocabulary) {
		t.Errorf("%d assertion docs, want %d", len(assertionDocs), len(vocabulary))
	}
	for _, name := range vocabulary {
		if assertionDocs[name] == "" {
			t.Errorf("assertion %s has no doc", name)
		}
	}
}

func TestRuleName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"tool:links/broken_link", "ToolLinksBrokenLink"},
		{"definition/unknown_key", "DefinitionUnknownKey"},
		{"eval/auto-0a1b2c3d", "EvalAuto0a1b2c3d"},
		{"suite/how-to", "SuiteHowTo"},
		{"eval/ünï", "EvalÜnï"},
		{"/", "Rule"},
	}
	for _, tt := range tests {
		if got := ruleName(tt.in); got != tt.want {
			t.Errorf("ruleName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
