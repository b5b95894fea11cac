package evalcase

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// baseCase is a valid case with every field; schema tests change one thing.
const baseCase = `{"schema_version": 1, "id": "placeholder.printf.001", "source_locale": "en-US", "target_locale": "zh-Hans", "domain": "game-ui", "source": "Welcome, %s!", "required_tokens": ["%s"], "references": ["欢迎，%s！"], "assertions": [{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "printf", "allow_reorder": true}}], "provenance": {"kind": "synthetic", "license": "GPL-3.0-or-later"}, "context": {"screen": "title"}, "difficulty": "basic", "tags": ["printf", "placeholder"]}`

// withField returns baseCase with field set to the JSON value raw, or
// removed when raw is "".
func withField(t *testing.T, field, raw string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(baseCase), &m); err != nil {
		t.Fatal(err)
	}
	if raw == "" {
		delete(m, field)
	} else {
		m[field] = json.RawMessage(raw)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return string(b)
}

// assertion returns an assertions array holding one assertion.
func assertion(name, params string) string {
	if params == "" {
		return `[{"name": "` + name + `", "severity": "hard"}]`
	}
	return `[{"name": "` + name + `", "severity": "hard", "params": ` + params + `}]`
}

// lineFaults runs the authoritative validation of one case line, as pass 2 does for a line the fast path
// doubts.
func lineFaults(line string) []fault {
	fs, _ := validateCase([]byte(line), 1)
	return fs.list
}

type wantFault struct {
	code string
	key  string // the fault's key: its path, as pathString writes it
	msg  string // a part of the message; "" for any
}

func TestSchema(t *testing.T) {
	tests := []struct {
		name  string
		field string // the field to set ("" : line is used as is)
		raw   string // its JSON value ("-" removes it)
		line  string
		want  []wantFault
	}{
		{name: "valid", line: baseCase},
		{name: "required fields only", line: `{"schema_version": 1, "id": "a.b", "source_locale": "en-US", "target_locale": "de-DE", "domain": "d", "source": "", "assertions": [{"name": "number_fidelity", "severity": "report"}], "provenance": {"kind": "public-domain", "license": "CC0-1.0"}}`},

		// schema_version: exactly the integer 1.
		{name: "schema_version missing", field: "schema_version", raw: "-", want: []wantFault{{"missing_field", "", "schema_version"}}},
		{name: "schema_version string", field: "schema_version", raw: `"1"`, want: []wantFault{{"wrong_type", "schema_version", "integer 1"}}},
		{name: "schema_version fraction", field: "schema_version", raw: `1.5`, want: []wantFault{{"wrong_type", "schema_version", ""}}},
		{name: "schema_version 2", field: "schema_version", raw: `2`, want: []wantFault{{"invalid_value", "schema_version", "must be 1"}}},
		{name: "schema_version 1.0 is the integer 1", field: "schema_version", raw: `1.0`},
		{name: "schema_version null", field: "schema_version", raw: `null`, want: []wantFault{{"wrong_type", "schema_version", "null"}}},

		// id.
		{name: "id missing", field: "id", raw: "-", want: []wantFault{{"missing_field", "", "id"}}},
		{name: "id number", field: "id", raw: `1`, want: []wantFault{{"wrong_type", "id", ""}}},
		{name: "id uppercase", field: "id", raw: `"Placeholder.Printf.001"`, want: []wantFault{{"invalid_id", "id", `write "placeholder.printf.001"`}}},
		{name: "id one segment", field: "id", raw: `"placeholder"`, want: []wantFault{{"invalid_id", "id", "two dot-separated"}}},
		{name: "id underscore", field: "id", raw: `"placeholder_printf.001"`, want: []wantFault{{"invalid_id", "id", "hyphens"}}},
		{name: "id empty segment", field: "id", raw: `"placeholder..001"`, want: []wantFault{{"invalid_id", "id", ""}}},
		{name: "id trailing hyphen", field: "id", raw: `"placeholder.printf-.001"`, want: []wantFault{{"invalid_id", "id", ""}}},
		{name: "id empty", field: "id", raw: `""`, want: []wantFault{{"invalid_id", "id", "empty"}}},
		{name: "id hyphenated", field: "id", raw: `"protocol.item-count.002"`},

		// Locales in canonical case.
		{name: "locale underscore", field: "source_locale", raw: `"en_us"`, want: []wantFault{{"invalid_value", "source_locale", `write "en-US"`}}},
		{name: "locale case", field: "target_locale", raw: `"EN-us"`, want: []wantFault{{"invalid_value", "target_locale", `write "en-US"`}}},
		{name: "locale script case", field: "target_locale", raw: `"zh-hans"`, want: []wantFault{{"invalid_value", "target_locale", `write "zh-Hans"`}}},
		{name: "locale script and region", field: "target_locale", raw: `"zh-Hant-TW"`},
		{name: "locale UN region", field: "target_locale", raw: `"es-419"`},
		{name: "locale unknown language", field: "target_locale", raw: `"xx-YY"`, want: []wantFault{{"invalid_value", "target_locale", "not a known"}}},
		{name: "locale extension", field: "target_locale", raw: `"ja-JP-u-ca-japanese"`, want: []wantFault{{"invalid_value", "target_locale", "extensions"}}},
		{name: "locale und", field: "target_locale", raw: `"und"`, want: []wantFault{{"invalid_value", "target_locale", "not a language"}}},
		{name: "locale empty", field: "source_locale", raw: `""`, want: []wantFault{{"invalid_value", "source_locale", ""}}},
		{name: "locale number", field: "source_locale", raw: `7`, want: []wantFault{{"wrong_type", "source_locale", ""}}},

		// domain and source.
		{name: "domain blank", field: "domain", raw: `"  "`, want: []wantFault{{"invalid_value", "domain", "blank"}}},
		{name: "domain array", field: "domain", raw: `["ui"]`, want: []wantFault{{"wrong_type", "domain", ""}}},
		{name: "source number", field: "source", raw: `3`, want: []wantFault{{"wrong_type", "source", ""}}},
		{name: "source missing", field: "source", raw: "-", want: []wantFault{{"missing_field", "", "source"}}},

		// assertions.
		{name: "assertions missing", field: "assertions", raw: "-", want: []wantFault{{"missing_field", "", "assertions"}}},
		{name: "assertions string", field: "assertions", raw: `"placeholder_integrity"`, want: []wantFault{{"wrong_type", "assertions", "array of assertion objects"}}},
		{name: "assertions empty", field: "assertions", raw: `[]`, want: []wantFault{{"invalid_value", "assertions", "at least one"}}},
		{name: "assertions bare strings", field: "assertions", raw: `["protocol", "placeholder_set", "number_fidelity"]`, want: []wantFault{
			{"wrong_type", "assertions[0]", `bare string "protocol"`}, {"wrong_type", "assertions[1]", `{"name": "placeholder_integrity", "severity": "hard"}`}, {"wrong_type", "assertions[2]", "M8 design doc"}}},
		{name: "assertion number", field: "assertions", raw: `[3]`, want: []wantFault{{"wrong_type", "assertions[0]", ""}}},
		{name: "assertion without name", field: "assertions", raw: `[{"severity": "hard"}]`, want: []wantFault{{"missing_field", "assertions[0]", "name"}}},
		{name: "assertion unknown name", field: "assertions", raw: `[{"name": "bleu", "severity": "hard"}]`, want: []wantFault{{"invalid_value", "assertions[0].name", "v1 vocabulary"}}},
		{name: "assertion old name", field: "assertions", raw: `[{"name": "placeholder_set", "severity": "hard"}]`, want: []wantFault{{"invalid_value", "assertions[0].name", "placeholder_integrity"}}},
		{name: "assertion name wrong type", field: "assertions", raw: `[{"name": 1, "severity": "hard"}]`, want: []wantFault{{"wrong_type", "assertions[0].name", ""}}},
		{name: "assertion without severity", field: "assertions", raw: `[{"name": "number_fidelity"}]`, want: []wantFault{{"missing_field", "assertions[0]", "severity"}}},
		{name: "assertion severity error", field: "assertions", raw: `[{"name": "number_fidelity", "severity": "error"}]`, want: []wantFault{{"invalid_value", "assertions[0].severity", "write hard"}}},
		{name: "assertion severity warning", field: "assertions", raw: `[{"name": "number_fidelity", "severity": "warning"}]`, want: []wantFault{{"invalid_value", "assertions[0].severity", "write report"}}},
		{name: "assertion unknown key", field: "assertions", raw: `[{"name": "number_fidelity", "severity": "hard", "weight": 2}]`, want: []wantFault{{"unknown_key", "assertions[0].weight", "weight"}}},
		{name: "assertion params not an object", field: "assertions", raw: `[{"name": "number_fidelity", "severity": "hard", "params": []}]`, want: []wantFault{{"wrong_type", "assertions[0].params", ""}}},
		{name: "assertion twice", field: "assertions", raw: `[{"name": "number_fidelity", "severity": "hard"}, {"name": "number_fidelity", "severity": "report"}]`, want: []wantFault{{"invalid_value", "assertions[1].name", "twice"}}},

		// Params, closed per assertion (README "EvalCase v1 fixtures").
		{name: "protocol without params", field: "assertions", raw: assertion("protocol_complete", "")},
		{name: "protocol all params", field: "assertions", raw: assertion("protocol_complete", `{"expected_items": 3, "terminator": "---END---", "allow_extra_items": true}`)},
		{name: "protocol expected_items 3.0", field: "assertions", raw: assertion("protocol_complete", `{"expected_items": 3.0}`)},
		{name: "protocol expected_items 0", field: "assertions", raw: assertion("protocol_complete", `{"expected_items": 0}`), want: []wantFault{{"invalid_value", "assertions[0].params.expected_items", "at least 1"}}},
		{name: "protocol expected_items string", field: "assertions", raw: assertion("protocol_complete", `{"expected_items": "3"}`), want: []wantFault{{"wrong_type", "assertions[0].params.expected_items", ""}}},
		{name: "protocol expected_items fraction", field: "assertions", raw: assertion("protocol_complete", `{"expected_items": 2.5}`), want: []wantFault{{"wrong_type", "assertions[0].params.expected_items", ""}}},
		{name: "protocol terminator empty", field: "assertions", raw: assertion("protocol_complete", `{"terminator": ""}`), want: []wantFault{{"invalid_value", "assertions[0].params.terminator", "empty"}}},
		{name: "protocol terminator number", field: "assertions", raw: assertion("protocol_complete", `{"terminator": 1}`), want: []wantFault{{"wrong_type", "assertions[0].params.terminator", ""}}},
		{name: "protocol allow_extra_items string", field: "assertions", raw: assertion("protocol_complete", `{"allow_extra_items": "yes"}`), want: []wantFault{{"wrong_type", "assertions[0].params.allow_extra_items", "true or false"}}},
		{name: "protocol unknown param", field: "assertions", raw: assertion("protocol_complete", `{"expectedItems": 3}`), want: []wantFault{{"unknown_key", "assertions[0].params.expectedItems", `did you mean "expected_items"?`}}},
		{name: "placeholder syntax unknown", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "ruby"}`), want: []wantFault{{"invalid_value", "assertions[0].params.syntax", "auto, printf, python, icu, custom"}}},
		{name: "placeholder allow_reorder string", field: "assertions", raw: assertion("placeholder_integrity", `{"allow_reorder": "true"}`), want: []wantFault{{"wrong_type", "assertions[0].params.allow_reorder", ""}}},
		{name: "placeholder custom without patterns", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom"}`), want: []wantFault{{"missing_field", "assertions[0].params", "patterns"}}},
		{name: "placeholder custom", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom", "patterns": ["\\$[A-Z]+\\$"]}`)},
		{name: "placeholder auto with patterns", field: "assertions", raw: assertion("placeholder_integrity", `{"patterns": ["\\$[A-Z]+\\$"]}`)},
		{name: "placeholder printf with patterns", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "printf", "patterns": ["x"]}`), want: []wantFault{{"invalid_value", "assertions[0].params.patterns", "custom or auto"}}},
		{name: "placeholder bad pattern", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom", "patterns": ["("]}`), want: []wantFault{{"invalid_value", "assertions[0].params.patterns[0]", "RE2"}}},
		{name: "placeholder Perl-only pattern", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom", "patterns": ["(?<=x)y"]}`), want: []wantFault{{"invalid_value", "assertions[0].params.patterns[0]", "RE2"}}},
		{name: "placeholder pattern matching nothing", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom", "patterns": ["x*"]}`), want: []wantFault{{"invalid_value", "assertions[0].params.patterns[0]", "empty string"}}},
		{name: "placeholder patterns empty", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom", "patterns": []}`), want: []wantFault{{"invalid_value", "assertions[0].params.patterns", "at least one"}}},
		{name: "placeholder patterns string", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom", "patterns": "x"}`), want: []wantFault{{"wrong_type", "assertions[0].params.patterns", ""}}},
		{name: "placeholder pattern number", field: "assertions", raw: assertion("placeholder_integrity", `{"syntax": "custom", "patterns": [1]}`), want: []wantFault{{"wrong_type", "assertions[0].params.patterns[0]", ""}}},
		{name: "forbidden without params", field: "assertions", raw: assertion("forbidden_renderings", ""), want: []wantFault{{"missing_field", "assertions[0]", "params.patterns"}}},
		{name: "forbidden without patterns", field: "assertions", raw: assertion("forbidden_renderings", `{}`), want: []wantFault{{"missing_field", "assertions[0].params", "params.patterns"}}},
		{name: "forbidden", field: "assertions", raw: assertion("forbidden_renderings", `{"patterns": ["(?i)todo", "\\bTK\\b"]}`)},
		{name: "max_chars without max", field: "assertions", raw: assertion("max_chars", `{"unit": "graphemes"}`), want: []wantFault{{"missing_field", "assertions[0].params", "params.max"}}},
		{name: "max_chars max 0", field: "assertions", raw: assertion("max_chars", `{"max": 0}`), want: []wantFault{{"invalid_value", "assertions[0].params.max", ""}}},
		{name: "max_chars unit bytes", field: "assertions", raw: assertion("max_chars", `{"max": 10, "unit": "bytes"}`), want: []wantFault{{"invalid_value", "assertions[0].params.unit", "code_points, graphemes"}}},
		{name: "max_chars graphemes", field: "assertions", raw: assertion("max_chars", `{"max": 10, "unit": "graphemes"}`)},
		{name: "number_fidelity takes no params", field: "assertions", raw: assertion("number_fidelity", `{"locale": "de"}`), want: []wantFault{{"unknown_key", "assertions[0].params.locale", "takes no params"}}},
		{name: "number_fidelity empty params", field: "assertions", raw: assertion("number_fidelity", `{}`)},
		{name: "required_tokens takes no params", field: "assertions", raw: assertion("required_tokens", `{"tokens": ["x"]}`), want: []wantFault{{"unknown_key", "assertions[0].params.tokens", "takes no params"}}},

		// provenance (contract §3.4).
		{name: "provenance missing", field: "provenance", raw: "-", want: []wantFault{{"missing_field", "", "provenance"}}},
		{name: "provenance string", field: "provenance", raw: `"synthetic"`, want: []wantFault{{"wrong_type", "provenance", ""}}},
		{name: "provenance empty", field: "provenance", raw: `{}`, want: []wantFault{{"missing_field", "provenance", "kind"}, {"missing_field", "provenance", "license"}}},
		{name: "provenance kind", field: "provenance", raw: `{"kind": "scraped", "license": "MIT"}`, want: []wantFault{{"invalid_value", "provenance.kind", "authorized-regression"}}},
		{name: "provenance license unknown", field: "provenance", raw: `{"kind": "synthetic", "license": "unknown"}`, want: []wantFault{{"invalid_value", "provenance.license", "forbids"}}},
		{name: "provenance license fair-use", field: "provenance", raw: `{"kind": "synthetic", "license": "Fair-Use"}`, want: []wantFault{{"invalid_value", "provenance.license", "forbids"}}},
		{name: "provenance license fair_use", field: "provenance", raw: `{"kind": "synthetic", "license": "fair_use"}`, want: []wantFault{{"invalid_value", "provenance.license", "forbids"}}},
		{name: "provenance license SPDX NOASSERTION", field: "provenance", raw: `{"kind": "synthetic", "license": "NOASSERTION"}`, want: []wantFault{{"invalid_value", "provenance.license", "forbids"}}},
		{name: "provenance license blank", field: "provenance", raw: `{"kind": "synthetic", "license": " "}`, want: []wantFault{{"invalid_value", "provenance.license", "blank"}}},
		{name: "provenance license number", field: "provenance", raw: `{"kind": "synthetic", "license": 3}`, want: []wantFault{{"wrong_type", "provenance.license", ""}}},
		{name: "provenance source and transformation", field: "provenance", raw: `{"kind": "compatible-licensed", "license": "CC-BY-4.0", "source": "https://example.org/x", "transformation": "shortened"}`},
		{name: "provenance source blank", field: "provenance", raw: `{"kind": "synthetic", "license": "MIT", "source": ""}`, want: []wantFault{{"invalid_value", "provenance.source", ""}}},
		{name: "provenance transformation number", field: "provenance", raw: `{"kind": "synthetic", "license": "MIT", "transformation": 1}`, want: []wantFault{{"wrong_type", "provenance.transformation", ""}}},
		{name: "provenance unknown key", field: "provenance", raw: `{"kind": "synthetic", "license": "MIT", "url": "x"}`, want: []wantFault{{"unknown_key", "provenance.url", "kind, license, source, transformation"}}},

		// Optional fields.
		{name: "context open", field: "context", raw: `{"anything": [1, {"x": null}], "max_chars": 20}`},
		{name: "context string", field: "context", raw: `"title"`, want: []wantFault{{"wrong_type", "context", ""}}},
		{name: "context null", field: "context", raw: `null`, want: []wantFault{{"wrong_type", "context", "null"}}},
		{name: "required_tokens string", field: "required_tokens", raw: `"%s"`, want: []wantFault{{"wrong_type", "required_tokens", ""}}},
		{name: "required_tokens number item", field: "required_tokens", raw: `[1]`, want: []wantFault{{"wrong_type", "required_tokens[0]", ""}}},
		{name: "required_tokens empty item", field: "required_tokens", raw: `[""]`, want: []wantFault{{"invalid_value", "required_tokens[0]", "empty"}}},
		{name: "references number item", field: "references", raw: `["a", 2]`, want: []wantFault{{"wrong_type", "references[1]", ""}}},
		{name: "difficulty", field: "difficulty", raw: `"hard"`, want: []wantFault{{"invalid_value", "difficulty", "basic, intermediate, advanced"}}},
		{name: "tags uppercase", field: "tags", raw: `["Printf"]`, want: []wantFault{{"invalid_value", "tags[0]", `write "printf"`}}},
		{name: "tags space", field: "tags", raw: `["two words"]`, want: []wantFault{{"invalid_value", "tags[0]", "white space"}}},
		{name: "tags empty item", field: "tags", raw: `[""]`, want: []wantFault{{"invalid_value", "tags[0]", "empty"}}},
		{name: "tags null", field: "tags", raw: `null`, want: []wantFault{{"wrong_type", "tags", ""}}},
		{name: "tags not lowercase ASCII but lowercase", field: "tags", raw: `["größe", "日本語", "zh-hans"]`},
		// The case's required_tokens default to [] (the spec): the assertion then holds at once.
		{name: "required_tokens assertion without tokens", line: withoutTokens(assertion("required_tokens", "")), want: nil},
		{name: "required_tokens assertion with empty tokens", field: "assertions", raw: assertion("required_tokens", ""), want: nil},

		// Unknown fields are rejected with the field named.
		{name: "unknown field", field: "owner", raw: `"me"`, want: []wantFault{{"unknown_key", "owner", `"owner"`}}},
		{name: "old glossary field", field: "glossary", raw: `[]`, want: []wantFault{{"unknown_key", "glossary", "required_tokens"}}},
		{name: "camelCase field", field: "sourceLocale", raw: `"en-US"`, want: []wantFault{{"unknown_key", "sourceLocale", `did you mean "source_locale"?`}}},

		// Lines that are not cases.
		{name: "syntax error", line: `{"id": "a.b",}`, want: []wantFault{{"syntax_error", "", "invalid JSON"}}},
		{name: "truncated", line: `{"id": "a.b"`, want: []wantFault{{"syntax_error", "", ""}}},
		{name: "trailing text", line: baseCase + ` x`, want: []wantFault{{"syntax_error", "", ""}}},
		{name: "two objects", line: baseCase + baseCase, want: []wantFault{{"syntax_error", "", ""}}},
		{name: "array", line: `[1, 2]`, want: []wantFault{{"wrong_type", "", "JSON object"}}},
		{name: "string", line: `"case"`, want: []wantFault{{"wrong_type", "", "JSON object"}}},
		{name: "invalid UTF-8", line: strings.Replace(baseCase, "Welcome", "Wel\xffcome", 1), want: []wantFault{{"invalid_utf8", "", "0xff"}}},
		{name: "duplicate key", line: strings.Replace(baseCase, `"domain": "game-ui"`, `"domain": "game-ui", "domain": "ui"`, 1), want: []wantFault{{"duplicate_key", "", `"domain"`}}},
		{name: "nested duplicate key", line: strings.Replace(baseCase, `"kind": "synthetic"`, `"kind": "synthetic", "kind": "synthetic"`, 1), want: []wantFault{{"duplicate_key", "", `"kind"`}}},
		{name: "duplicate key in open context", line: strings.Replace(baseCase, `{"screen": "title"}`, `{"screen": "title", "screen": "x"}`, 1), want: []wantFault{{"duplicate_key", "", `"screen"`}}},
		{name: "escaped duplicate key", line: strings.Replace(baseCase, `"domain": "game-ui"`, `"domain": "game-ui", "dom\u0061in": "ui"`, 1), want: []wantFault{{"duplicate_key", "", `"domain"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := tt.line
			switch {
			case line != "":
			case tt.raw == "-":
				line = withField(t, tt.field, "")
			default:
				line = withField(t, tt.field, tt.raw)
			}
			got := lineFaults(line)
			if len(got) != len(tt.want) {
				t.Fatalf("%s\ngot %d faults, want %d:\n%s", line, len(got), len(tt.want), dumpFaults(got))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.code != w.code || g.key != w.key || !strings.Contains(g.msg, w.msg) {
					t.Errorf("fault %d = %s %q %q, want %s %q containing %q", i, g.code, g.key, g.msg, w.code, w.key, w.msg)
				}
			}
			// The fast path accepts exactly the valid lines it can decode
			// without doubt, and never an invalid one.
			if _, ok := fastCase([]byte(line)); ok && len(got) > 0 {
				t.Errorf("the fast path accepts an invalid line")
			}
		})
	}
}

func withoutTokens(assertions string) string {
	var m map[string]json.RawMessage
	json.Unmarshal([]byte(baseCase), &m)
	delete(m, "required_tokens")
	m["assertions"] = json.RawMessage(assertions)
	b, _ := json.Marshal(m)
	return string(b)
}

func dumpFaults(fs []fault) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.pos.String() + " " + f.code + " " + f.key + ": " + f.msg + "\n")
	}
	return b.String()
}

func TestFastPathAcceptsValidCases(t *testing.T) {
	for _, line := range []string{baseCase, strings.Replace(seedCase, "null", "true", 1)} {
		if fs := lineFaults(line); len(fs) > 0 {
			t.Fatalf("%s\n%s", line, dumpFaults(fs))
		}
		w, ok := fastCase([]byte(line))
		if !ok || w.ID == "" {
			t.Errorf("the fast path rejects a valid case: %s", line)
		}
	}
}

func TestCandidateSchema(t *testing.T) {
	tests := []struct {
		line string
		want []string // codes
	}{
		{`{"case_id": "a.b", "text": "x", "raw_response": null}`, nil},
		{`{"case_id": "a.b", "text": "", "raw_response": "[1] x"}`, nil},
		{`{"case_id": "a.b", "text": "x"}`, nil},
		{`{"text": "x"}`, []string{"missing_field"}},
		{`{"case_id": "a.b"}`, []string{"missing_field"}},
		{`{"case_id": 1, "text": "x"}`, []string{"wrong_type"}},
		{`{"case_id": "", "text": "x"}`, []string{"invalid_value"}},
		{`{"case_id": "a.b", "text": null}`, []string{"wrong_type"}},
		{`{"case_id": "a.b", "text": "x", "raw_response": 3}`, []string{"wrong_type"}},
		{`{"case_id": "a.b", "text": "x", "model": "m"}`, []string{"unknown_key"}},
		{`{"case_id": "a.b", "case_id": "a.c", "text": "x"}`, []string{"duplicate_key"}},
		{`["a.b", "x"]`, []string{"wrong_type"}},
		{`{"case_id": "a.b", "text": "x"`, []string{"syntax_error"}},
	}
	for _, tt := range tests {
		var got []string
		fs, _, _ := validateCandidate([]byte(tt.line), 1)
		for _, f := range fs.list {
			got = append(got, f.code)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: codes %q, want %q", tt.line, got, tt.want)
		}
		if _, ok := fastCandidate([]byte(tt.line)); ok != (tt.want == nil) {
			t.Errorf("%s: fast path ok=%v", tt.line, ok)
		}
	}
}

// TestFaultPositions pins where the authoritative validation puts faults: at the node frontmatter.ParseJSON
// gives each of them, on the line's own number (here 3), in code points.
func TestFaultPositions(t *testing.T) {
	deep := `{"context": ` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`
	tests := []struct {
		name, line string
		candidate  bool
		want       []string // "col code key"
	}{
		{name: "a value", candidate: true, line: `{"case_id": "a.b", "text": 3}`, want: []string{"28 wrong_type text"}},
		{name: "after wide characters", candidate: true, line: `{"case_id": "日本.語", "text": 3}`, want: []string{"29 wrong_type text"}},
		{name: "an unknown key", candidate: true, line: `{"case_id": "a.b", "text": "x", "model": 1}`, want: []string{"33 unknown_key model"}},
		{name: "a missing field", candidate: true, line: `  {"case_id": "a.b"}`, want: []string{"3 missing_field "}},
		// After a duplicate key the first entry counts, and the fault about its value is at that value. The
		// parser's problems come first.
		{name: "a duplicate key", candidate: true, line: `{"case_id": "a.b", "text": 3, "text": "x"}`, want: []string{"31 duplicate_key ", "28 wrong_type text"}},
		// A duplicate key before a syntax error is reported too; parsing stops at the syntax error.
		{name: "duplicate then broken", candidate: true, line: `{"text": "x", "text": "y", "case_id": }`, want: []string{"15 duplicate_key ", "39 syntax_error "}},
		// A leading zero is pointed at, not the digit after it.
		{name: "leading zero", candidate: true, line: `{"case_id": 01}`, want: []string{"13 syntax_error "}},
		// A text that ends inside a literal is pointed at its end, after its last character.
		{name: "truncated literal", candidate: true, line: `{"case_id": "a.b", "text": "x", "raw_response": nul`, want: []string{"52 syntax_error "}},
		// The first fault in the text: a syntax error before invalid UTF-8 is the syntax error.
		{name: "syntax before invalid UTF-8", candidate: true, line: `{"case_id" "a.b", "text": "` + "\xff" + `"}`, want: []string{"12 syntax_error "}},
		{name: "invalid UTF-8", candidate: true, line: `{"case_id": "a.b", "text": "x` + "\xff" + `"}`, want: []string{"30 invalid_utf8 "}},
		// The 1,000th "[" is level 1,001 (the root is level 1).
		{name: "nesting deeper than 1000 levels", line: deep, want: []string{"1012 syntax_error "}},
		{name: "a param's key", line: withFieldLine(assertion("number_fidelity", `{"locale": "de"}`)), want: []string{"283 unknown_key assertions[0].params.locale"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := []byte(tt.line)
			var fs faults
			if tt.candidate {
				fs, _, _ = validateCandidate(text, 3)
			} else {
				fs, _ = validateCase(text, 3)
			}
			var got []string
			for _, f := range fs.list {
				if f.pos.Line != 3 {
					t.Errorf("%s at line %d, want 3", f.code, f.pos.Line)
				}
				got = append(got, strconv.Itoa(f.pos.Col)+" "+f.code+" "+f.key)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s\ngot  %q\nwant %q", tt.line, got, tt.want)
			}
			if _, ok := fastCase(text); ok {
				t.Errorf("the fast path accepts a faulty case line")
			}
			if _, ok := fastCandidate(text); ok {
				t.Errorf("the fast path accepts a faulty candidate line")
			}
		})
	}
}

// withFieldLine is baseCase with its assertions replaced.
func withFieldLine(assertions string) string {
	return strings.Replace(baseCase, `[{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "printf", "allow_reorder": true}}]`, assertions, 1)
}

// TestCheckLicense: a license is refused when blank or, in lower case (as strings.ToLower lowers it),
// one of the statements the contract forbids; an ASCII license is checked without an allocation.
func TestCheckLicense(t *testing.T) {
	for _, tt := range []struct {
		license string
		refused bool
	}{
		{"Apache-2.0", false}, {"CC-BY-4.0", false}, {"GPL-3.0-or-later", false}, {"Unknownish", false},
		{"", true}, {"  \t", true}, {"unknown", true}, {"UNKNOWN", true}, {" Fair Use ", true}, {"FAIR-USE", true},
		{"FairUse", true},
		{"UN\u212aNOWN", true},   // a Kelvin sign lowers to k
		{"fair-u\u017fe", false}, // a long s does not lower to s (it only folds to it)
		{"fair-usé", false},
	} {
		if got := checkLicense(tt.license) != nil; got != tt.refused {
			t.Errorf("checkLicense(%q) refuses: %v, want %v", tt.license, got, tt.refused)
		}
	}
	if n := testing.AllocsPerRun(100, func() { checkLicense("Apache-2.0") }); n != 0 {
		t.Errorf("checking an ASCII license: %v allocations", n)
	}
}
