package diag

// CodeInfo documents one result code: the registry feeds README.md, the SARIF
// rule descriptions and `evalgate codes`. Codes are stable: tools and tests
// depend on them (PRODUCT.md §4.4).
type CodeInfo struct {
	Code  string
	Group string // "definition", "note", "running", "skip", "builtin", "suite", "pass", "evalcase", "jev"
	Title string // one line, no trailing period
}

// Codes is the one registry of result codes, in documentation order.
var Codes = []CodeInfo{
	// Definitions.
	{"syntax_error", "definition", "The frontmatter, config, JSON or JSONL text does not parse"},
	{"duplicate_key", "definition", "A key appears twice in one mapping"},
	{"invalid_utf8", "definition", "The text is not valid UTF-8"},
	{"too_large", "definition", "The frontmatter or a JSON line is larger than evalgate reads"},
	{"unknown_key", "definition", "A key the vocabulary does not define"},
	{"reserved_prefix", "definition", "A page-root key with the reserved eval- prefix that docmeta does not define"},
	{"missing_field", "definition", "A required field is missing"},
	{"wrong_type", "definition", "A value has the wrong type"},
	{"invalid_value", "definition", "A value is outside its enum, range or pattern"},
	{"invalid_id", "definition", "An id does not match its pattern"},
	{"duplicate_id", "definition", "Two entries share one id; the later one wins"},
	{"command_needs_grader", "definition", "A command is given without grader: command"},
	{"field_not_allowed_for_grader", "definition", "A field is not allowed with this grader"},
	{"hash_without_command", "definition", "generated-assertion-hash is given without command"},
	{"use_override_not_allowed", "definition", "A use: reference overrides a key it may not override"},
	{"unknown_use", "definition", "A use: reference names no eval of the config"},
	{"unknown_suite", "definition", "eval-suite names no suite of the config"},

	// Notes: fail results that never enter an eval's verdict.
	{"stale_generated_command", "note", "The assertion changed since its command was generated"},
	{"shorthand_names_eval", "note", "A shorthand assertion equals the id of a named eval; write use: to refer to it"},
	{"unreviewed_provenance", "note", "Machine-proposed evals that nobody has reviewed yet"},

	// Running.
	{"command_failed", "running", "The command exited with a code outside success-exit-codes"},
	{"command_not_found", "running", "The command's executable is missing or not executable"},
	{"command_killed", "running", "The command was killed by a signal"},
	{"command_timeout", "running", "The command ran past its timeout"},
	{"command_refused", "running", "The command was refused by policy"},
	{"target_outside_repo", "running", "A path leaves the repository"},
	{"target_unreadable", "running", "The eval's target cannot be read"},
	{"unknown_tool", "running", "A tool:* grader that is neither built in nor configured"},
	{"internal_error", "running", "evalgate failed on this file or eval"},

	// Skip and pending.
	{"page_skipped", "skip", "The page sets eval-skip: true"},
	{"eval_skipped", "skip", "The eval sets skip: true"},
	{"human_review", "skip", "The eval waits for human review"},
	{"no_judge", "skip", "The ai eval waits for a judge; this version has none"},
	{"command_not_generated", "skip", "The command eval's command has not been generated yet"},

	// Built-in graders.
	{"broken_link", "builtin", "A relative link or image does not resolve to a file"},
	{"missing_anchor", "builtin", "A link's #anchor names no heading or id in its page"},
	{"missing_heading", "builtin", "A required heading is missing"},
	{"skipped_level", "builtin", "A heading is more than one level below the previous one"},
	{"text_missing", "builtin", "Required text or pattern is missing"},
	{"text_present", "builtin", "Forbidden text or pattern is present"},
	{"too_long", "builtin", "The target is longer than allowed"},
	{"too_short", "builtin", "The target is shorter than required"},
	{"fence_without_language", "builtin", "A fenced code block names no language"},
	{"schema_violation", "builtin", "The frontmatter does not satisfy its JSON Schema"},

	// Suites.
	{"suite_below_target", "suite", "A suite's score is below its target-pass-rate"},

	// Passes.
	{"ok", "pass", "The check holds"},

	// EvalCase v1.
	{"protocol_missing_terminator", "evalcase", "The response's terminator is missing"},
	{"protocol_malformed_item", "evalcase", "A protocol item is empty, out of order, repeated or after a gap"},
	{"protocol_missing_item", "evalcase", "The response has fewer items than expected"},
	{"protocol_extra_item", "evalcase", "The response has more items than expected"},
	{"placeholder_mutated", "evalcase", "A placeholder was altered"},
	{"placeholder_missing", "evalcase", "A placeholder of the source is missing"},
	{"placeholder_extra", "evalcase", "The candidate has a placeholder the source lacks"},
	{"placeholder_count_mismatch", "evalcase", "A placeholder occurs a different number of times"},
	{"placeholder_reordered", "evalcase", "Placeholders were reordered where the syntax cannot reorder"},
	{"number_missing", "evalcase", "A number of the source is missing from the candidate"},
	{"required_token_missing", "evalcase", "A required token is missing or occurs too rarely"},
	{"forbidden_rendering", "evalcase", "A forbidden rendering appears in the candidate"},
	{"max_chars_exceeded", "evalcase", "The candidate is longer than allowed"},
	{"no_candidate", "evalcase", "The case has no candidate"},
	{"unknown_case", "evalcase", "The candidate names no selected case"},
	{"duplicate_candidate", "evalcase", "A second candidate for one case"},

	// jevcheck v0.1.
	{"answer_flip", "jev", "The candidate's answer differs from the contract's"},
	{"confidence_regression", "jev", "Same answer, confidence below the contract's floors or tolerances"},
	{"replay_invalid", "jev", "The replay file is invalid"},
	{"model_mismatch", "jev", "A response model is not the pinned candidate"},
	{"replay_missing_case", "jev", "The replay has no answers for a contract case"},
}

var codeIndex = func() map[string]int {
	m := make(map[string]int, len(Codes))
	for i, c := range Codes {
		m[c.Code] = i
	}
	return m
}()

// LookupCode returns the registry entry of code.
func LookupCode(code string) (CodeInfo, bool) {
	i, ok := codeIndex[code]
	if !ok {
		return CodeInfo{}, false
	}
	return Codes[i], true
}
