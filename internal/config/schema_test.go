package config_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/testfs"
)

// beyondSchema reports whether the faults include one JSON Schema cannot
// express, or one of the YAML reader itself.
func beyondSchema(faults []diag.Result) bool {
	for _, r := range faults {
		switch {
		case r.Code == "duplicate_id", r.Code == "unknown_use", r.Code == "syntax_error", r.Code == "duplicate_key":
			return true
		case strings.Contains(r.Message, "not a valid glob"), strings.Contains(r.Message, "may not exceed"), strings.Contains(r.Message, "not valid RE2"),
			strings.Contains(r.Message, "finite"),
			// The judge a config names among its providers.
			strings.Contains(r.Message, "names no provider"):
			return true
		}
	}
	return false
}

// TestSchemaAgrees: ConfigJSONSchema compiles and agrees with Parse (valid
// or not) on every testdata config and on a table, except for faults beyond
// JSON Schema.
func TestSchemaAgrees(t *testing.T) {
	raw := config.ConfigJSONSchema()
	if !json.Valid(raw) {
		t.Fatal("ConfigJSONSchema is not JSON")
	}
	sch := testfs.Schema(t, raw)

	type example struct{ name, text string }
	var examples []example
	for _, f := range testfs.Files(t, filepath.Join("testdata", "*", "*.yaml")) {
		examples = append(examples, example{f.Path, string(f.Text)})
	}
	for _, text := range []string{
		"version: 1",
		"version: 1.0",
		"version: 2",
		"{}",
		"version: 1\npages: {include: []}",
		"version: 1\npages: {include: [/x]}",
		"version: 1\npages: {include: [a/../b]}",
		"version: 1\npages: {exclude: [C:/x]}",
		"version: 1\nevals: {Bad: {assertion: x}}",
		"version: 1\nevals: {a: {id: a, assertion: x}}",
		"version: 1\nevals: {a: {assertion: x, skip: true}}",
		"version: 1\nevals: {a: {grader: command}}",
		"version: 1\nsuites: {s: {}}",
		"version: 1\nsuites: {s: {evals: A.}}",
		"version: 1\nsuites: {s: {evals: [A.], target-pass-rate: 0}}",
		"version: 1\nsuites: {s: {evals: [A.], target-pass-rate: 1.01}}",
		"version: 1\ntools: {tool:x: {command: [x]}}",
		"version: 1\ntools: {tool:links: {command: [x]}}",
		"version: 1\ntools: {tool:code-fences: {command: [x]}}",
		"version: 1\ntools: {x: {command: [x]}}",
		"version: 1\ncommands: {pass-env: [NPM_TOKEN, github_token_x]}",
		"version: 1\ncommands: {pass-env: [Github_Token]}",
		"version: 1\ncommands: {pass-env: [Actions_X]}",
		"version: 1\ncommands: {timeout-ms: 2147483647}",
		"version: 1\ncommands: {timeout-ms: 2147483648}",
		"version: 1\njev: [{contract: a}]",
		"version: 1\njev: [{contract: a, from: b}]",
		"version: 1\njev: [{contract: ../a}]",
		"version: 1\njev: []",
		"version: 1\nai: {}",
		"version: 1\nai: {x: 1}",
		"version: 1\nai: {runs: 0}",
		"version: 1\nai: {temperature: null, max-calls: null, cache: ''}",
		"version: 1\nai: {temperature: 3}",
		"version: 1\nai: {agreement: 0}",
		"version: 1\nai: {providers: {m: {kind: openai, model: gpt, api-key-env: K}}, judge: m}",
		"version: 1\nai: {providers: {m: {kind: gemini}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: gpt, api-key-env: 1K}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, auth: none}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, auth: x-api-key, api-key-env: K}}}",
		"version: 1\nai: {providers: {m: {kind: anthropic, model: m}}}",
		"version: 1\nai: {providers: {m: {kind: anthropic, model: m, api-key-env: K}}}",
		"version: 1\nai: {providers: {m: {kind: anthropic, model: m, api-key-env: K, auth: bearer}}}",
		"version: 1\nai: {providers: {m: {kind: openai, api-key-env: K}}}",
		"version: 1\nai: {providers: {m: {kind: command}}}",
		"version: 1\nai: {providers: {m: {kind: command, command: [j]}}}",
		"version: 1\nai: {providers: {m: {kind: command, command: [j], api-key-env: K}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, command: [j], api-key-env: K}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, api-key-env: GITHUB_TOKEN}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, api-key-env: K, base-url: ftp://x}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, api-key-env: K, base-url: 'https://u:p@x'}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, api-key-env: K, base-url: 'HTTP://x:8/v1?a=b'}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, api-key-env: K, headers: {Authorization: x}}}}",
		"version: 1\nai: {providers: {m: {kind: openai, model: m, api-key-env: K, headers: {X-Org: x}}}}",
		"version: 1\nai: {max-calls: 1000000000}",
		"version: 1\nai: {max-calls: 1000000001}",
		"version: 1\nai: {max-calls: 1.5}",
		"version: 1\nai: {cache: /tmp/c}",
		"version: 1\nai: {cache: ../c}",
		"version: 1\nai: {cache: .git/c}",
		"version: 1\nai: {cache: .cache/judge}",
		"version: 1\nsuites: {s: {pages: []}}",
		"version: 1\nevals: {x: {grader: tool:length}}",
		"version: 1\nevals: {x: {grader: tool:length, options: {max-chars: 9007199254740993}}}",
		"version: 1\nevals: {x: {grader: command, command: [x], success-exit-codes: [9007199254740992]}}",
		"version: 1\nevals: {x: {grader: command, command: [x], success-exit-codes: [-9007199254740993]}}",
		"version: 1\nai: {max-output-tokens: 9007199254740993}",
	} {
		examples = append(examples, example{text, text})
	}
	// The bounds of README "Limits": 1,000 globs a list, 1,000 suites.
	globs := func(n int) string { return "[" + strings.Repeat("'a/*.md', ", n-1) + "'b.md']" }
	suites := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "  s%d: {evals: [A.]}\n", i)
		}
		return b.String()
	}
	for _, ex := range []example{
		{"1,000 globs", "version: 1\npages: {exclude: " + globs(1000) + "}"},
		{"1,001 globs", "version: 1\npages: {exclude: " + globs(1001) + "}"},
		{"1,001 suite globs", "version: 1\nsuites: {s: {evals: [A.], pages: " + globs(1001) + "}}"},
		{"1,000 suites", "version: 1\nsuites:\n" + suites(1000)},
		{"1,001 suites", "version: 1\nsuites:\n" + suites(1001)},
	} {
		if _, faults := config.Parse([]byte(ex.text), "c.yaml", "/r"); (len(faults) == 0) != strings.HasPrefix(ex.name, "1,000") {
			t.Errorf("%s: faults %s", ex.name, render(faults))
		}
		examples = append(examples, ex)
	}
	for _, ex := range examples {
		_, faults := config.Parse([]byte(ex.text), "c.yaml", "/r")
		if beyondSchema(faults) {
			continue
		}
		root, _ := frontmatter.ParseYAML([]byte(ex.text), 1)
		var v any
		if root != nil {
			v = root.JSONValue()
		}
		err := sch.Validate(v)
		if got, want := err == nil, len(faults) == 0; got != want {
			t.Errorf("%s: schema valid=%t, Parse valid=%t\nschema: %v\nfaults: %s", ex.name, got, want, err, render(faults))
		}
	}
}
