package jev

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// want is one expected fault: its code, where it points (see wantPos), and
// a piece of its message.
type want struct {
	code, at, msg string
}

// wantPos reads a want's position: "" is line 1 without a column, "@1:1"
// the very start, "L3" line 3 without a column, "L3:8" line 3 column 8,
// anything else the text's unique occurrence of it.
func wantPos(t *testing.T, text, at string) diag.Pos {
	t.Helper()
	switch {
	case at == "":
		return diag.Pos{Line: 1}
	case at == "@1:1":
		return diag.Pos{Line: 1, Col: 1}
	case len(at) > 1 && at[0] == 'L' && at[1] >= '0' && at[1] <= '9':
		var p diag.Pos
		if _, err := fmt.Sscanf(at, "L%d:%d", &p.Line, &p.Col); err != nil {
			fmt.Sscanf(at, "L%d", &p.Line)
		}
		return p
	}
	return posOf(t, text, at)
}

func TestContractValidation(t *testing.T) {
	ok := caseJSON("t-1", `"q": {"choice": "billing"}`)
	tests := []struct {
		name string
		file string // default c.json
		text string
		opts Options
		want []want
	}{
		{name: "valid", text: contractJSON("", ok)},
		{name: "valid with every key", text: contractJSON(`"name": "triage", "allow_unpinned": false,
"defaults": {"min_confidence": 0.8, "confidence_tolerance": 0.1, "noul_true_threshold": 0.5, "noul_tolerance": 0.1, "score_tolerance": 0.5}`,
			caseJSON("t-1", `"q": {"choice": "billing", "min_confidence": 0.85, "baseline_confidence": 0.94, "confidence_tolerance": 0.05},
"n": {"noul_true": true, "noul": 0.9, "min_noul": 0.6, "noul_tolerance": 0.1, "min_confidence": 0},
"s": {"score": 2, "score_tolerance": 0.3, "baseline_confidence": 0.9}`))},
		{name: "a leading BOM is skipped", text: "\ufeff" + contractJSON("", ok)},

		// The file.
		{name: "syntax error", text: "{\"version\": \"0.1\",\n \"cases\": [}\n",
			want: []want{{"syntax_error", "}\n", "invalid JSON"}}},
		{name: "unexpected end", text: "{\"version\": \"0.1\"",
			want: []want{{"syntax_error", "L1:18", "unexpected end"}}},
		{name: "trailing text", text: contractJSON("", ok) + "x",
			want: []want{{"syntax_error", "L5:1", "after the JSON value"}}},
		{name: "invalid UTF-8", text: "{\"version\": \"0.1\", \"name\": \"a\xffb\"}",
			want: []want{{"invalid_utf8", "\xff", "invalid UTF-8"}}},
		{name: "not an object", text: `[1, 2]`,
			want: []want{{"wrong_type", "@1:1", "must be an object"}}},
		{name: "duplicate key", text: contractJSON(`"name": "a", "name": "b"`, ok),
			want: []want{{"duplicate_key", `"name": "b"`, `duplicate key "name" in the root object`}}},
		{name: "duplicate key in an expect", text: contractJSON("", caseJSON("t-1", `"q": {"choice": "billing", "choice": "general"}`)),
			want: []want{{"duplicate_key", `"choice": "general"`, `cases[0].expect.q`}}},

		// The contract object.
		{name: "unknown key", text: contractJSON(`"owner": "me"`, ok),
			want: []want{{"unknown_key", `"owner"`, `unknown key "owner"`}}},
		{name: "_meta in a JSON contract", text: contractJSON(`"_meta": true`, ok),
			want: []want{{"unknown_key", `"_meta"`, `unknown key "_meta"`}}},
		{name: "version missing", text: `{"baseline_model": "jev-1.13", "cases": [` + ok + `]}`,
			want: []want{{"missing_field", "@1:1", "needs version"}}},
		{name: "version other", text: strings.Replace(contractJSON("", ok), `"0.1"`, `"0.2"`, 1),
			want: []want{{"invalid_value", `"0.2"`, `unsupported contract version "0.2"`}}},
		{name: "version a number", text: strings.Replace(contractJSON("", ok), `"0.1"`, `0.1`, 1),
			want: []want{{"wrong_type", `0.1,`, `version must be the string "0.1"`}}},
		{name: "name a number", text: contractJSON(`"name": 5`, ok),
			want: []want{{"wrong_type", `5,`, "name must be a string"}}},
		{name: "allow_unpinned a string", text: contractJSON(`"allow_unpinned": "yes"`, ok),
			want: []want{{"wrong_type", `"yes"`, "true or false"}}},

		// baseline_model and pinning.
		{name: "baseline_model missing", text: `{"version": "0.1", "cases": [` + ok + `]}`,
			want: []want{{"missing_field", "@1:1", "needs baseline_model"}}},
		{name: "baseline_model empty", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `""`, 1),
			want: []want{{"invalid_value", `""`, "must name the pinned production model"}}},
		{name: "baseline_model blank", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `"  "`, 1),
			want: []want{{"invalid_value", `"  "`, "must name the pinned production model"}}},
		{name: "baseline_model not a string", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `null`, 1),
			want: []want{{"wrong_type", "null,\n", "baseline_model must be a string"}}},
		{name: "jev-latest", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `"jev-latest"`, 1),
			want: []want{{"invalid_value", `"jev-latest"`, "floating alias"}}},
		{name: "jev-preview", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `"jev-preview"`, 1),
			want: []want{{"invalid_value", `"jev-preview"`, "floating alias"}}},
		{name: "an alias in any case", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `"Jev-LATEST-2"`, 1),
			want: []want{{"invalid_value", `"Jev-LATEST-2"`, "floating alias"}}},
		{name: "a name containing preview", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `"my-previewer"`, 1),
			want: []want{{"invalid_value", `"my-previewer"`, "floating alias"}}},
		{name: "an alias with allow_unpinned", text: strings.Replace(contractJSON(`"allow_unpinned": true`, ok), `"jev-1.13"`, `"jev-latest"`, 1)},
		{name: "an alias with --allow-unpinned", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `"jev-preview"`, 1),
			opts: Options{AllowUnpinned: true}},
		{name: "a dotted version is a pin", text: strings.Replace(contractJSON("", ok), `"jev-1.13"`, `"jev-1.13.0"`, 1)},

		// defaults.
		{name: "defaults not an object", text: contractJSON(`"defaults": [0.8]`, ok),
			want: []want{{"wrong_type", `[0.8]`, "defaults must be an object"}}},
		{name: "defaults unknown key", text: contractJSON(`"defaults": {"min_noul": 0.8}`, ok),
			want: []want{{"unknown_key", `"min_noul"`, "unknown key \"min_noul\" in defaults"}}},
		{name: "defaults ranges", text: contractJSON(`"defaults": {"min_confidence": 1.5, "confidence_tolerance": -0.1, "noul_true_threshold": 2, "noul_tolerance": 1.01, "score_tolerance": -1}`, ok),
			want: []want{
				{"invalid_value", `1.5`, "min_confidence must be a number from 0 to 1, got 1.5"},
				{"invalid_value", `-0.1`, "confidence_tolerance must be a number from 0 to 1"},
				{"invalid_value", `2,`, "noul_true_threshold must be a number from 0 to 1"},
				{"invalid_value", `1.01`, "noul_tolerance must be a number from 0 to 1"},
				{"invalid_value", `-1}`, "score_tolerance must be 0 or more"},
			}},
		{name: "defaults score_tolerance above 1", text: contractJSON(`"defaults": {"score_tolerance": 2}`, ok)},
		{name: "defaults types", text: contractJSON(`"defaults": {"min_confidence": "0.8", "noul_tolerance": null}`, ok),
			want: []want{
				{"wrong_type", `"0.8"`, `min_confidence must be a number, got "0.8"`},
				{"wrong_type", "null},", "noul_tolerance must be a number, got null"},
			}},

		// cases.
		{name: "cases missing", text: `{"version": "0.1", "baseline_model": "jev-1.13"}`,
			want: []want{{"missing_field", "@1:1", "needs cases"}}},
		{name: "cases not an array", text: `{"version": "0.1", "baseline_model": "jev-1.13", "cases": {}}`,
			want: []want{{"wrong_type", `{}`, "cases must be an array"}}},
		{name: "cases empty", text: `{"version": "0.1", "baseline_model": "jev-1.13", "cases": []}`,
			want: []want{{"invalid_value", `[]`, "at least one case"}}},
		{name: "a case not an object", text: contractJSON("", ok, `"t-2"`),
			want: []want{{"wrong_type", `"t-2"`, "a case must be an object"}}},
		{name: "unknown case key", text: contractJSON("", `{"id": "t-1", "state": "s", "tags": [], "questions": {`+qChoice+`}, "expect": {"q": {"choice": "billing"}}}`),
			want: []want{{"unknown_key", `"tags"`, `unknown key "tags" in a case`}}},
		{name: "case fields missing", text: contractJSON("", `{"id": "t-1"}`),
			want: []want{
				{"missing_field", `{"id"`, "cases[0] needs state"},
				{"missing_field", `{"id"`, "cases[0] needs questions"},
				{"missing_field", `{"id"`, "cases[0] needs expect"},
			}},
		{name: "id missing", text: contractJSON("", `{"state": "s", "questions": {`+qChoice+`}, "expect": {"q": {"choice": "billing"}}}`),
			want: []want{{"missing_field", `{"state"`, "cases[0] needs id"}}},
		{name: "id not a string", text: contractJSON("", strings.Replace(ok, `"t-1"`, `7`, 1)),
			want: []want{{"wrong_type", `7,`, "id must be a string"}}},
		{name: "id empty", text: contractJSON("", strings.Replace(ok, `"t-1"`, `""`, 1)),
			want: []want{{"invalid_id", `""`, "must not be empty"}}},
		{name: "duplicate id", text: contractJSON("", ok, strings.Replace(ok, `"t-1"`, `"t-1" `, 1)),
			want: []want{{"duplicate_id", `"t-1" `, `duplicate case id "t-1"`}}},
		{name: "state null", text: contractJSON("", strings.Replace(ok, `"text"`, `null`, 1)),
			want: []want{{"wrong_type", `null, "questions"`, "state must be text, an object or an array, got null"}}},
		{name: "state a number", text: contractJSON("", strings.Replace(ok, `"text"`, `3`, 1)),
			want: []want{{"wrong_type", `3,`, "state must be"}}},
		{name: "state an object or an array", text: contractJSON("",
			strings.Replace(ok, `"text"`, `{"subject": "x", "body": null}`, 1),
			strings.Replace(caseJSON("t-2", `"q": {"choice": "billing"}`), `"text"`, `["a", 1, null]`, 1))},

		// questions.
		{name: "questions not an object", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": [], "expect": {"q": {"choice": "billing"}}}`),
			want: []want{{"wrong_type", `[]`, "questions must be an object"}}},
		{name: "questions empty", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {}, "expect": {"q": {"choice": "billing"}}}`),
			want: []want{
				{"invalid_value", `{},`, "questions is empty"},
				{"unknown_key", `"q": {"choice"`, `expect names "q", which is not a question`},
			}},
		{name: "question not an object", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": "choice"}, "expect": {"q": {"min_confidence": 0.5}}}`),
			want: []want{{"wrong_type", `"choice"`, `question "q" must be an object`}}},
		{name: "question unknown key", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "noul", "labels": []}}, "expect": {"q": {"noul_true": true}}}`),
			want: []want{{"unknown_key", `"labels"`, `unknown key "labels" in question "q"`}}},
		{name: "question type missing", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"instructions": "x"}}, "expect": {"q": {"min_confidence": 0.5}}}`),
			want: []want{{"missing_field", `{"instructions"`, "needs type"}}},
		{name: "question type unknown", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "bool"}}, "expect": {"q": {"min_confidence": 0.5}}}`),
			want: []want{{"invalid_value", `"bool"`, `question type must be noul, choice or score, got "bool"`}}},
		{name: "instructions a number", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "noul", "instructions": 5}}, "expect": {"q": {"noul_true": true}}}`),
			want: []want{{"wrong_type", `5}`, "instructions must be"}}},
		{name: "instructions null, an object, an array", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"a": {"type": "noul", "instructions": null}, "b": {"type": "noul", "instructions": {"x": 1}}, "c": {"type": "noul", "instructions": ["x"]}}, "expect": {"a": {"noul_true": true}}}`)},
		{name: "noul criteria", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "noul", "criteria": {"true": "yes", "false": null, "maybe": "?"}}}, "expect": {"q": {"noul_true": true}}}`),
			want: []want{{"unknown_key", `"maybe"`, `unknown key "maybe" in a noul question's criteria`}}},
		{name: "noul criteria not an object", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "noul", "criteria": ["yes"]}}, "expect": {"q": {"noul_true": true}}}`),
			want: []want{{"wrong_type", `["yes"]`, "a noul question's criteria must be an object"}}},
		{name: "noul criteria description a number", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "noul", "criteria": {"true": 1}}}, "expect": {"q": {"noul_true": true}}}`),
			want: []want{{"wrong_type", `1}}`, "a criterion must be"}}},
		{name: "choice criteria missing", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "choice"}}, "expect": {"q": {"min_confidence": 0.5}}}`),
			want: []want{{"missing_field", `{"type": "choice"}`, `choice question "q" needs criteria`}}},
		{name: "choice criteria empty", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "choice", "criteria": {}}}, "expect": {"q": {"min_confidence": 0.5}}}`),
			want: []want{{"invalid_value", `{}}}`, "at least one label"}}},
		{name: "choice criteria a list", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "choice", "criteria": ["a"]}}, "expect": {"q": {"min_confidence": 0.5}}}`),
			want: []want{{"wrong_type", `["a"]`, "a choice question's criteria must be an object"}}},
		{name: "choice criterion a number", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "choice", "criteria": {"a": 1}}}, "expect": {"q": {"choice": "a"}}}`),
			want: []want{{"wrong_type", `1}}`, "a criterion must be"}}},
		{name: "score criteria missing", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "score"}}, "expect": {"q": {"score": 1}}}`),
			want: []want{{"missing_field", `{"type": "score"}`, `score question "q" needs criteria`}}},
		{name: "score criteria empty", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "score", "criteria": []}}, "expect": {"q": {"score": 1}}}`),
			want: []want{{"invalid_value", `[]`, "at least one level"}}},
		{name: "score criteria an object", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "score", "criteria": {"0": "low"}}}, "expect": {"q": {"score": 1}}}`),
			want: []want{{"wrong_type", `{"0": "low"}`, "a score question's criteria must be an array"}}},
		{name: "score level null", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {"q": {"type": "score", "criteria": ["low", null]}}, "expect": {"q": {"score": 1}}}`),
			want: []want{{"wrong_type", `null`, "a level must be"}}},

		// expect.
		{name: "expect not an object", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {`+qChoice+`}, "expect": []}`),
			want: []want{{"wrong_type", `[]`, "expect must be an object"}}},
		{name: "expect empty", text: contractJSON("", `{"id": "t-1", "state": "s", "questions": {`+qChoice+`}, "expect": {}}`),
			want: []want{{"invalid_value", `{}}`, "expect is empty"}}},
		{name: "expect names no question", text: contractJSON("", caseJSON("t-1", `"intent": {"choice": "billing"}`)),
			want: []want{{"unknown_key", `"intent"`, `expect names "intent", which is not a question of the case (questions: "n", "q", "s")`}}},
		{name: "field not an object", text: contractJSON("", caseJSON("t-1", `"q": "billing"`)),
			want: []want{{"wrong_type", `"billing"}`, `expect "q" must be an object`}}},
		{name: "field empty", text: contractJSON("", caseJSON("t-1", `"q": {}`)),
			want: []want{{"missing_field", `{}}`, `expect "q" is empty`}}},
		{name: "field unknown key", text: contractJSON("", caseJSON("t-1", `"q": {"choice": "billing", "label": "x"}`)),
			want: []want{{"unknown_key", `"label"`, `unknown key "label" in expect "q"`}}},
		{name: "noul_true_threshold is contract-level only", text: contractJSON("", caseJSON("t-1", `"n": {"noul_true": true, "noul_true_threshold": 0.6}`)),
			want: []want{{"unknown_key", `"noul_true_threshold"`, `unknown key "noul_true_threshold"`}}},
		{name: "score on a choice question", text: contractJSON("", caseJSON("t-1", `"q": {"choice": "billing", "score": 2}`)),
			want: []want{{"unknown_key", `"score": 2`, `score does not apply to a choice question ("q" takes choice, min_confidence, baseline_confidence, confidence_tolerance)`}}},
		{name: "noul keys on a choice question", text: contractJSON("", caseJSON("t-1", `"q": {"choice": "billing", "noul_true": true, "min_noul": 0.5, "noul": 0.5, "noul_tolerance": 0.1}`)),
			want: []want{
				{"unknown_key", `"noul_true"`, "noul_true does not apply to a choice question"},
				{"unknown_key", `"min_noul"`, "min_noul does not apply to a choice question"},
				{"unknown_key", `"noul": 0.5`, "noul does not apply to a choice question"},
				{"unknown_key", `"noul_tolerance"`, "noul_tolerance does not apply to a choice question"},
			}},
		{name: "choice and score keys on a noul question", text: contractJSON("", caseJSON("t-1", `"n": {"noul_true": true, "choice": "billing", "score_tolerance": 0.1}`)),
			want: []want{
				{"unknown_key", `"choice": "billing", "score`, "choice does not apply to a noul question"},
				{"unknown_key", `"score_tolerance"`, "score_tolerance does not apply to a noul question"},
			}},
		{name: "noul key on a score question", text: contractJSON("", caseJSON("t-1", `"s": {"score": 1, "noul_true": false}`)),
			want: []want{{"unknown_key", `"noul_true"`, "noul_true does not apply to a score question"}}},
		{name: "shared keys on every kind", text: contractJSON("", caseJSON("t-1",
			`"q": {"min_confidence": 0.5, "baseline_confidence": 0.9, "confidence_tolerance": 0.1}, "n": {"min_confidence": 0.5, "baseline_confidence": 0.9, "confidence_tolerance": 0.1}, "s": {"min_confidence": 0.5, "baseline_confidence": 0.9, "confidence_tolerance": 0.1}`))},
		{name: "value types", text: contractJSON("", caseJSON("t-1", `"q": {"choice": 5}, "n": {"noul_true": "yes"}, "s": {"score": "2"}`)),
			want: []want{
				{"wrong_type", `5}`, "choice must be a label (a string), got 5"},
				{"wrong_type", `"yes"`, `noul_true must be true or false, got "yes"`},
				{"wrong_type", `"2"`, `score must be a number, got "2"`},
			}},
		{name: "choice not a label", text: contractJSON("", caseJSON("t-1", `"q": {"choice": "refund"}`)),
			want: []want{{"invalid_value", `"refund"`, `choice "refund" is not a label of question "q" (labels: "billing", "general")`}}},
		{name: "ranges", text: contractJSON("", caseJSON("t-1",
			`"q": {"min_confidence": 1.01, "baseline_confidence": -0.5, "confidence_tolerance": 1.5}, "n": {"noul": 1.2, "min_noul": -0.1, "noul_tolerance": 2}, "s": {"score": 1, "score_tolerance": -0.1}`)),
			want: []want{
				{"invalid_value", `1.01`, "min_confidence must be a number from 0 to 1, got 1.01"},
				{"invalid_value", `-0.5`, "baseline_confidence must be a number from 0 to 1"},
				{"invalid_value", `1.5`, "confidence_tolerance must be a number from 0 to 1"},
				{"invalid_value", `1.2`, "noul must be a number from 0 to 1"},
				{"invalid_value", `-0.1,`, "min_noul must be a number from 0 to 1"},
				{"invalid_value", `2}`, "noul_tolerance must be a number from 0 to 1"},
				{"invalid_value", `-0.1}`, "score_tolerance must be 0 or more"},
			}},
		{name: "bounds are inclusive", text: contractJSON("", caseJSON("t-1",
			`"q": {"min_confidence": 0, "baseline_confidence": 1, "confidence_tolerance": 1}, "n": {"noul": 1, "min_noul": 0, "noul_tolerance": 0}, "s": {"score": -1, "score_tolerance": 0}`))},
		{name: "a number beyond float64", text: contractJSON("", caseJSON("t-1", `"s": {"score": 1e400}, "q": {"min_confidence": -1e999}`)),
			want: []want{
				{"invalid_value", `1e400`, "score is out of range"},
				{"invalid_value", `-1e999`, "min_confidence is out of range"},
			}},

		// At least one effective constraint.
		{name: "tolerance-only choice", text: contractJSON("", caseJSON("t-1", `"q": {"confidence_tolerance": 0.1}`)),
			want: []want{{"missing_field", `{"confidence_tolerance"`, `expect "q" states no effective constraint`}}},
		{name: "tolerance-only noul", text: contractJSON("", caseJSON("t-1", `"n": {"noul_tolerance": 0.1}`)),
			want: []want{{"missing_field", `{"noul_tolerance"`, "a tolerance alone checks nothing"}}},
		{name: "tolerance-only score", text: contractJSON("", caseJSON("t-1", `"s": {"score_tolerance": 0.3}`)),
			want: []want{{"missing_field", `{"score_tolerance"`, "give score, min_confidence or baseline_confidence"}}},
		{name: "baseline-confidence-only", text: contractJSON("", caseJSON("t-1", `"q": {"baseline_confidence": 0.95}`)),
			want: []want{{"missing_field", `{"baseline_confidence"`, "baseline_confidence is no constraint without a confidence_tolerance or min_confidence"}}},
		{name: "baseline-confidence-only, noul", text: contractJSON(`"defaults": {"noul_tolerance": 0.1, "score_tolerance": 0.2}`, caseJSON("t-1", `"n": {"baseline_confidence": 0.95}`)),
			want: []want{{"missing_field", `{"baseline_confidence"`, "baseline_confidence is no constraint"}}},
		{name: "baseline_confidence with a default tolerance", text: contractJSON(`"defaults": {"confidence_tolerance": 0.1}`, caseJSON("t-1", `"q": {"baseline_confidence": 0.95}`))},
		{name: "baseline_confidence with a default floor", text: contractJSON(`"defaults": {"min_confidence": 0.5}`, caseJSON("t-1", `"q": {"baseline_confidence": 0.95}`))},
		// The cases are checked as they are parsed, the contract's own keys after them: defaults that
		// follow the cases count all the same, and a parse that stops reports that alone.
		{name: "defaults after the cases", text: `{"version": "0.1", "baseline_model": "jev-1.13", "cases": [` + caseJSON("t-1", `"q": {"baseline_confidence": 0.95}`) + `],
"defaults": {"confidence_tolerance": 0.1}}`},
		{name: "defaults after the cases, without a tolerance", text: `{"cases": [` + caseJSON("t-1", `"q": {"baseline_confidence": 0.95}`) + `, ` + caseJSON("t-2", `"x": {"choice": "a"}`) + `],
"defaults": {"noul_tolerance": 0.1}, "version": "0.1", "baseline_model": "jev-1.13"}`,
			want: []want{
				{"missing_field", `{"baseline_confidence"`, `expect "q": baseline_confidence is no constraint`},
				{"unknown_key", `"x": {"choice"`, `expect names "x", which is not a question of the case`},
			}},
		{name: "a faulty case, then a syntax error", text: contractJSON("", caseJSON("t-1", `"x": {"choice": "a"}`), caseJSON("t-1", `"q": {"choice": "billing"}`)) + ",",
			want: []want{{"syntax_error", "L6:1", "after the JSON value"}}},
		{name: "cases twice", text: `{"version": "0.1", "baseline_model": "jev-1.13", "cases": [` + ok + `], "cases": [{"id": 3}]}`,
			want: []want{{"duplicate_key", `"cases": [{"id": 3`, `duplicate key "cases" in the root object`}}},
		{name: "cases of a root array", text: `[{"cases": [` + ok + `]}]`,
			want: []want{{"wrong_type", "@1:1", "a JSON contract must be an object"}}},
		{name: "baseline_confidence with its own tolerance", text: contractJSON("", caseJSON("t-1", `"s": {"baseline_confidence": 0.95, "confidence_tolerance": 0.1}`))},
		{name: "min_confidence alone", text: contractJSON("", caseJSON("t-1", `"q": {"min_confidence": 0.8}`))},
		{name: "kind keys alone", text: contractJSON("", caseJSON("t-1", `"n": {"min_noul": 0.5}`), caseJSON("t-2", `"n": {"noul": 0.7}`),
			caseJSON("t-3", `"n": {"noul_true": false}`), caseJSON("t-4", `"s": {"score": 0}`))},

		// JSONL.
		{name: "jsonl", file: "c.jsonl", text: `{"_meta": true, "version": "0.1", "name": "x", "baseline_model": "jev-1.13", "defaults": {"min_confidence": 0.5}}
` + ok + "\n\n   \n" + strings.Replace(ok, "t-1", "t-2", 1) + "\n"},
		{name: "jsonl version defaults", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-1.13"}` + "\r\n" + ok + "\r\n"},
		{name: "jsonl without _meta needs --baseline-model", file: "c.jsonl", text: ok + "\n",
			want: []want{{"missing_field", "", "a JSONL contract without a _meta line needs --baseline-model"}}},
		{name: "jsonl without _meta, with --baseline-model", file: "c.jsonl", text: ok + "\n", opts: Options{BaselineModel: "jev-1.13"}},
		{name: "jsonl _meta without baseline_model", file: "c.jsonl", text: "\n" + `{"_meta": true}` + "\n" + ok,
			want: []want{{"missing_field", `{"_meta"`, "without a baseline_model in its _meta line needs --baseline-model"}}},
		{name: "jsonl _meta after a case", file: "c.jsonl", text: ok + "\n" + `{"_meta": true, "baseline_model": "jev-1.13"}` + "\n",
			opts: Options{BaselineModel: "jev-1.13"},
			want: []want{{"invalid_value", `"_meta"`, "a _meta line must be the first line"}}},
		{name: "jsonl second _meta", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-1.13"}` + "\n" + ` {"_meta": true}` + "\n" + ok,
			want: []want{{"invalid_value", "L2:3", "must be the first line"}}},
		{name: "jsonl _meta false", file: "c.jsonl", text: `{"_meta": false, "baseline_model": "jev-1.13"}` + "\n" + ok,
			want: []want{{"invalid_value", `false`, "_meta must be true, got false"}}},
		{name: "jsonl _meta keys", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-1.13", "version": "1", "cases": []}` + "\n" + ok,
			want: []want{
				{"invalid_value", `"1"`, `unsupported contract version "1"`},
				{"unknown_key", `"cases"`, "the cases of a JSONL contract are its lines"},
			}},
		{name: "jsonl alias baseline", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-latest"}` + "\n" + ok,
			want: []want{{"invalid_value", `"jev-latest"`, "floating alias"}}},
		{name: "jsonl no cases", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-1.13"}` + "\n\n",
			want: []want{{"invalid_value", "", "the contract has no cases"}}},
		{name: "jsonl empty", file: "c.jsonl", text: "", opts: Options{BaselineModel: "jev-1.13"},
			want: []want{{"invalid_value", "", "no cases"}}},
		{name: "jsonl line faults", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-1.13"}` + "\n" + ok + "\n[1]\n{\"id\": \n" + strings.Replace(ok, `"choice": "billing"`, `"choice": "nope"`, 1) + "\n",
			want: []want{
				{"wrong_type", "L3:1", "each line of a JSONL contract must be an object"},
				{"syntax_error", "L4:8", "unexpected end"},
				{"duplicate_id", "L5:8", `duplicate case id "t-1"`},
				{"invalid_value", `"nope"`, `choice "nope" is not a label`},
			}},
		{name: "jsonl duplicate key", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-1.13", "name": "a", "name": "b"}` + "\n" + ok,
			want: []want{{"duplicate_key", `"name": "b"`, "duplicate key"}}},
		{name: "jsonl too large line", file: "c.jsonl", text: `{"_meta": true, "baseline_model": "jev-1.13"}` + "\n" + ok + "\n\"" + strings.Repeat("x", MaxJSON) + "\"\n",
			want: []want{{"too_large", "L3", "larger than 16 MiB"}}},
		{name: "too large", text: "\"" + strings.Repeat("x", MaxJSON) + "\"",
			want: []want{{"too_large", "", "larger than 16 MiB"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "c.json"
			}
			c, got := LoadContract(file, []byte(tt.text), tt.opts)
			checkPositions(t, []byte(tt.text), got)
			if len(tt.want) == 0 {
				if len(got) > 0 || c == nil {
					t.Fatalf("faults:\n%s", codes(got))
				}
				return
			}
			if c != nil {
				t.Errorf("an invalid contract was returned")
			}
			checkFaults(t, tt.text, got, tt.want, func(r diag.Result) bool {
				return r.Source == diag.SourceJev && r.Check == diag.CheckDefinition && r.Outcome == diag.Fail && r.File == file && r.Severity == diag.SeverityError
			})
		})
	}
}

// TestFaultsBounded: a file's faults past maxFaults are counted, not kept: a contract of thousands of
// empty cases reports the first thousand faults, then one that says how many more there are, at the
// first one it did not keep; a replay the same. A file with as many faults as the bound reports them all.
func TestFaultsBounded(t *testing.T) {
	empties := func(n int) []string { return slices.Repeat([]string{"{}"}, n) }
	for _, c := range []struct {
		name  string
		load  func(text []byte) []diag.Result
		text  string
		found int // every fault the file has
	}{
		{"contract", func(b []byte) []diag.Result { _, rs := LoadContract("c.json", b, Options{}); return rs },
			contractJSON("", empties(3000)...), 3000 * 4}, // id, state, questions and expect missing
		{"contract, within the bound", func(b []byte) []diag.Result { _, rs := LoadContract("c.json", b, Options{}); return rs },
			contractJSON("", empties(250)...), 250 * 4},
		{"replay", func(b []byte) []diag.Result { _, rs := LoadReplay("r.json", b); return rs },
			"{" + strings.Repeat(`"a": 1, `, 2500) + `"b": 1}`, 2 + 2499}, // two responses not objects; "a" 2,499 times again
	} {
		rs := c.load([]byte(c.text))
		if c.found <= maxFaults {
			if len(rs) != c.found {
				t.Errorf("%s: %d faults, want all %d", c.name, len(rs), c.found)
			}
			continue
		}
		if len(rs) != maxFaults+1 {
			t.Fatalf("%s: %d faults, want %d and the one that counts the rest", c.name, len(rs), maxFaults)
		}
		last := rs[len(rs)-1]
		want := fmt.Sprintf("%d more faults in this file are not reported", c.found-maxFaults)
		if !strings.HasSuffix(last.Message, want) || !last.Pos.Known() || diag.Compare(&rs[len(rs)-2], &last) > 0 {
			t.Errorf("%s: the last fault is %+v, want %q after the others", c.name, last, want)
		}
	}
}
