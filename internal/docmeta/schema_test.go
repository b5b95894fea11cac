package docmeta_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/testfs"
)

func compileEvalsSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw := docmeta.EvalsJSONSchema()
	if !json.Valid(raw) || !bytes.HasSuffix(raw, []byte("}\n")) {
		t.Fatalf("EvalsJSONSchema is not one JSON document ending in a newline")
	}
	return testfs.Schema(t, raw)
}

// beyondSchema reports whether a page's faults include one JSON Schema
// cannot express: ids unique on a page, names of the config, built-in tool
// options, and .inf/.nan (JSON has no such numbers).
func beyondSchema(p *docmeta.Page) bool {
	for _, r := range p.Results {
		switch {
		case r.Verdictless:
		case r.Code == "duplicate_id", r.Code == "unknown_use", r.Code == "unknown_suite":
			return true
		case strings.Contains(r.Message, "may not exceed"), strings.Contains(r.Message, "not valid RE2"):
			return true
		case strings.Contains(r.Message, "finite"):
			return true
		}
	}
	return false
}

func hasFault(p *docmeta.Page) bool {
	for _, r := range p.Results {
		if !r.Verdictless {
			return true
		}
	}
	return false
}

// TestSchemaAgrees checks that the exported schema and ValidatePage agree
// (valid or not) on every page of testdata and on a table of frontmatters,
// except where a fault is beyond what JSON Schema can express.
func TestSchemaAgrees(t *testing.T) {
	sch := compileEvalsSchema(t)
	cat := loadCatalog(t)

	type example struct {
		name string
		text []byte
	}
	var examples []example
	for _, f := range testfs.Files(t, filepath.Join("testdata", "*", "*.md")) {
		examples = append(examples, example{f.Path, f.Text})
	}
	for _, fm := range []string{
		"title: x",
		"Eval-Suite: x\neval_skip: 1",
		"evals: A.",
		"evals: [A., B.]",
		"evals: [{id: a, assertion: x}]",
		"evals: [{id: a}]",
		"evals: [{id: a, grader: tool:x}]",
		"evals: [{id: a, grader: command}]",
		"evals: [{id: a, grader: command, success-exit-codes: [0]}]",
		"evals: [{id: a, grader: command, command: [x], success-exit-codes: [9007199254740992]}]",
		"evals: [{id: a, grader: command, command: [x], success-exit-codes: [9007199254740993]}]",
		"evals: [{id: a, grader: tool:contains}]",
		"evals: [{id: a, grader: tool:absent}]",
		"evals: [{id: a, grader: tool:length}]",
		"evals: [{id: a, grader: tool:frontmatter-schema}]",
		"evals: [{id: a, grader: tool:headings}]",
		"evals: [{id: a, grader: tool:length, options: {max-chars: 9007199254740993}}]",
		"evals: [{id: a, grader: command, command: [x], generated-assertion-hash: ''}]",
		"evals: [{id: a, grader: tool:x, generated-assertion-hash: h}]",
		"evals: [{id: a, grader: tool:x, command: [x]}]",
		"evals: [{id: a, assertion: x, provider: p, model: m, runs: 50}]",
		"evals: [{id: a, assertion: x, grader: ai, runs: 3.0}]",
		"evals: [{id: a, assertion: x, grader: human, runs: 3}]",
		"evals: [{id: a, assertion: x, timeout-ms: 1}]",
		"evals: [{id: a, assertion: x, grader: command, timeout-ms: 2147483648}]",
		"evals: [{id: a, assertion: x, target: {source: file, path: p}}]",
		"evals: [{id: a, assertion: x, target: {source: file}}]",
		"evals: [{id: a, assertion: x, examples: {}}]",
		"evals: [{id: a, assertion: x, examples: {pass: [a, b], fail: c}}]",
		"evals: [{id: a, assertion: x, examples: {pass: [a, a]}}]",
		"evals: [{id: a, assertion: x, weight: 0.001}]",
		"evals: [{id: a, assertion: x, severity-map: {}}]",
		"evals: [{use: x, weight: 2, type: capability, skip: true, severity: info, options: {a: 1}}]",
		"evals: [{use: x, target: raw}]",
		"evals: [{use: ''}]",
		"eval-provenance: [{generated-by: m, confidence: {a: 0, b: 1}}]",
		"eval-provenance: [{generated-by: m}, {generated-by: m}]",
		"eval-provenance: [{generated-by: m, evals: [a-b, c]}]",
		"eval-skip: false\neval-suite: s",
		"eval-suite: ''",
		"eval-: 1",
	} {
		examples = append(examples, example{fm, []byte("---\n" + fm + "\n---\n")})
	}

	// A catalog where every use: and eval-suite of the table resolves.
	cat.Evals["x"] = cat.Evals["judge-tone"]
	cat.Suites["s"] = cat.Suites["how-to"]

	for _, ex := range examples {
		root, probs := frontmatter.Parse(frontmatter.Split(ex.text))
		if len(probs) > 0 || root == nil {
			t.Fatalf("%s: does not parse: %v", ex.name, probs)
		}
		page := docmeta.ValidatePage(root, cat, nil)
		if beyondSchema(page) {
			continue
		}
		err := sch.Validate(root.JSONValue())
		if got, want := err == nil, !hasFault(page); got != want {
			t.Errorf("%s: schema valid=%t, ValidatePage valid=%t\nschema: %v\nresults: %s", ex.name, got, want, err, render(ex.name, page.Results))
		}
	}
}

// TestSchemaPrefixGuard pins the lookahead-free prefix guard on key names.
func TestSchemaPrefixGuard(t *testing.T) {
	sch := compileEvalsSchema(t)
	for key, ok := range map[string]bool{
		"eval-suite": true, "eval-skip": true, "eval-provenance": true, "evals": true,
		"Eval-Suite": true, "eval_suite": true, "evals-x": true, "evalsuite": true, "title": true,
		"eval-": false, "eval-suites": false, "eval-suite-name": false, "eval-skipped": false,
	} {
		v := map[string]any{key: map[string]any{}}
		switch key {
		case "eval-suite":
			v[key] = "s"
		case "eval-skip":
			v[key] = true
		case "eval-provenance":
			v[key] = []any{map[string]any{"generated-by": "m"}}
		case "evals":
			v[key] = "A."
		}
		if err := sch.Validate(v); (err == nil) != ok {
			t.Errorf("key %q: schema valid=%t, want %t (%v)", key, err == nil, ok, err)
		}
	}
}
