package config

import (
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/shape"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// The config's tables (README "Configuration"): Parse holds each section against them with the checking kit,
// and ConfigJSONSchema renders them, so the checks and the schema cannot drift. What a table cannot say (glob
// syntax, paths inside the repository, variables never passed, named evals and suite entries, which are
// docmeta's) is checked by the section's reader in parse.go.

// globList is a list of globs (README "Which files are checked"); each is a non-empty string, its syntax
// checked by parser.globs.
var globList = &shape.Type{Kind: shape.List, Items: shape.NonEmptyString, Ref: "globs", MaxItems: maxGlobs}

// maxGlobs bounds a list of globs, and maxSuites the suites (README "Limits"): every page is matched
// against each, so 100,000 exclude globs made a run on 4,000 pages take 11 s, and 15,000 suites by path
// one on 64,000 pages 38 s.
const (
	maxGlobs  = 1000
	maxSuites = 1000
)

// configPath is a path relative to the config's directory, checked by parser.relPath.
var configPath = &shape.Type{Kind: shape.String, NonEmpty: true, Ref: "path"}

var pagesSection = &shape.Object{Fields: []shape.Field{
	{Name: "include", Type: &shape.Type{Kind: shape.List, Items: shape.NonEmptyString, Ref: "globs", MaxItems: maxGlobs,
		Doc: `Default ["**/*.md", "**/*.markdown", "**/*.mdx"].`}},
	{Name: "exclude", Type: globList},
}}

var evalcaseSection = &shape.Object{Fields: []shape.Field{
	{Name: "include", Type: globList},
	{Name: "candidates", Type: globList},
}}

var commandsSection = &shape.Object{Fields: []shape.Field{
	{Name: "timeout-ms", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(1), Max: shape.Ptr(docmeta.MaxTimeoutMS)}},
	{Name: "frontmatter", Type: &shape.Type{Kind: shape.String, Enum: []string{"allow", "deny"}}},
	{Name: "allow", Type: &shape.Type{Kind: shape.List, Items: shape.NonEmptyString}},
	{Name: "pass-env", Type: &shape.Type{Kind: shape.List, Items: shape.NonEmptyString,
		Schema: map[string]any{"items": map[string]any{
			"type": "string", "pattern": `^[^=\x00]+$`, "not": map[string]any{"pattern": anyCase(neverPassed)},
		}}}},
}}

var jevEntry = &shape.Object{
	Fields: []shape.Field{
		{Name: "contract", Type: configPath, Required: true, Missing: "needs contract (the jevcheck contract's path)"},
		{Name: "answers", Type: configPath},
		{Name: "candidate-model", Type: shape.NonEmptyString},
		{Name: "baseline-model", Type: shape.NonEmptyString},
		{Name: "allow-unpinned", Type: shape.Boolean},
		{Name: "from", Type: configPath},
	},
	Rules: []shape.Rule{{Kind: shape.Requires, Keys: []string{"from", "answers"},
		Message: "from (the baseline replay) needs answers (the candidate replay) to compare"}},
}

var suiteEntry = &shape.Object{Fields: []shape.Field{
	{Name: "target-pass-rate", Type: &shape.Type{Kind: shape.Number, Min: shape.Ptr(0), Max: shape.Ptr(1)}},
	{Name: "evals", Type: &shape.Type{Ref: "evals"}, Required: true, Missing: "needs evals (a list of entries as on a page)"},
	{Name: "pages", Type: &shape.Type{Kind: shape.List, NonEmpty: true, Items: shape.NonEmptyString, Ref: "globs", MaxItems: maxGlobs,
		Doc: "Applies the suite to every selected page these globs match, besides the pages naming it with eval-suite."}},
	{Name: "exclude", Type: &shape.Type{Kind: shape.List, Items: shape.NonEmptyString, Ref: "globs", MaxItems: maxGlobs,
		Doc: "Pages the suite's pages globs match that it does not apply to."}},
}, Rules: []shape.Rule{{Kind: shape.Requires, Keys: []string{"exclude", "pages"},
	Message: "exclude narrows pages: a suite with exclude needs pages"}}}

var toolEntry = &shape.Object{Fields: []shape.Field{
	{Name: "command", Type: &shape.Type{Kind: shape.List, NonEmpty: true, Items: shape.NonEmptyString},
		Required: true, Missing: "needs command (an argv list)"},
	{Name: "findings", Type: &shape.Type{Doc: `How the tool reports findings: "sarif" (SARIF 2.1.0 on stdout) or {pattern: RE2} with named groups line (required), column, severity, code and message, matched against each line of stdout (stderr when stdout is empty).`,
		Schema: map[string]any{"oneOf": []any{
			map[string]any{"const": "sarif"},
			(&shape.Type{Kind: shape.Map, Object: findingsPattern}).JSONSchema(),
		}}}},
}}

// findingsPattern is the object form of a tool's findings.
var findingsPattern = &shape.Object{Fields: []shape.Field{
	{Name: "pattern", Type: &shape.Type{Kind: shape.String, NonEmpty: true, RE2: true}, Required: true,
		Missing: "needs pattern (an RE2 pattern with a named group line)"},
}}

// aiSection is the judge's settings (README "The AI judge"); ai: {} means no judge.
var aiSection = &shape.Object{Fields: []shape.Field{
	{Name: "judge", Type: &shape.Type{Kind: shape.String, NonBlank: true, Doc: "The provider ai evals use unless an eval's provider: names another."}},
	{Name: "providers", Type: &shape.Type{Kind: shape.Map,
		Schema: map[string]any{"additionalProperties": providerSchema()}}},
	{Name: "runs", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(1), Max: shape.Ptr(50), Doc: "Runs of an ai eval that sets none."}},
	{Name: "temperature", Type: &shape.Type{Doc: "Sent only when set: a number from 0 to 2, or null.",
		Schema: map[string]any{"type": []string{"number", "null"}, "minimum": 0, "maximum": 2}}},
	{Name: "max-output-tokens", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(1)}},
	{Name: "timeout-ms", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(1), Max: shape.Ptr(docmeta.MaxTimeoutMS), Doc: "One request."}},
	{Name: "retries", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(0), Max: shape.Ptr(10)}},
	{Name: "concurrency", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(1), Max: shape.Ptr(64), Doc: "Judge requests in flight, apart from --jobs."}},
	{Name: "max-calls", Type: &shape.Type{Doc: "A budget of requests per run, or null for none.",
		Schema: map[string]any{"type": []string{"integer", "null"}, "minimum": 0, "maximum": maxCalls}}},
	{Name: "agreement", Type: &shape.Type{Kind: shape.Number, Min: shape.Ptr(0), MinExclusive: true, Max: shape.Ptr(1),
		Doc: "The share of all runs the majority verdict needs."}},
	{Name: "max-target-bytes", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(1)}},
	{Name: "cache", Type: &shape.Type{Kind: shape.String, Doc: `The verdict cache's folder, relative to the config's directory; "" turns it off.`,
		Schema: map[string]any{"anyOf": []any{map[string]any{"const": ""}, map[string]any{"$ref": "#/$defs/path"}}}}},
}}

// providerEntry is one judge provider.
var providerEntry = &shape.Object{
	Fields: []shape.Field{
		{Name: "kind", Type: &shape.Type{Kind: shape.String, Enum: []string{"openai", "anthropic", "command"}}, Required: true,
			Missing: "needs kind (openai, anthropic or command)"},
		{Name: "base-url", Type: &shape.Type{Kind: shape.String, NonBlank: true}},
		{Name: "api-key-env", Type: &shape.Type{Kind: shape.String,
			Pattern: shape.NewPattern(`^[A-Za-z_][A-Za-z0-9_]*$`, "an environment variable's name", "")}},
		{Name: "auth", Type: &shape.Type{Kind: shape.String, Enum: []string{"bearer", "api-key", "none", "x-api-key"}}},
		{Name: "model", Type: &shape.Type{Kind: shape.String, NonBlank: true}},
		{Name: "headers", Type: &shape.Type{Kind: shape.Map, Schema: map[string]any{"additionalProperties": map[string]any{"type": "string"}}}},
		{Name: "query", Type: &shape.Type{Kind: shape.Map, Schema: map[string]any{"additionalProperties": map[string]any{"type": "string"}}}},
		{Name: "command", Type: &shape.Type{Kind: shape.List, NonEmpty: true, Items: shape.NonEmptyString}},
	},
}

// rootShape is the config's top level. Each section's reader holds the section against its own table, so
// here a section is only its export (section); evals, suites and tools have keys of the user's, checked by
// their readers (named evals with docmeta).
var rootShape = &shape.Object{Name: "the config", Fields: []shape.Field{
	{Name: "version", Required: true, Missing: "needs version: 1",
		Type: &shape.Type{Doc: "The config's version: 1.", Schema: map[string]any{"const": 1}}},
	{Name: "pages", Type: section(pagesSection)},
	{Name: "evals", Type: &shape.Type{Schema: map[string]any{
		"description":          "Named evals: a page refers to one with use: ID.",
		"type":                 "object",
		"propertyNames":        map[string]any{"pattern": docmeta.IDPattern},
		"additionalProperties": map[string]any{"$ref": "#/$defs/namedEval"},
	}}},
	{Name: "suites", Type: &shape.Type{Schema: map[string]any{
		"description":          "A page names one with eval-suite: NAME; pages applies one by path.",
		"type":                 "object",
		"maxProperties":        maxSuites,
		"propertyNames":        map[string]any{"minLength": 1},
		"additionalProperties": (&shape.Type{Kind: shape.Map, Object: suiteEntry}).JSONSchema(),
	}}},
	{Name: "tools", Type: &shape.Type{Schema: map[string]any{
		"description": "More tool:* integrations, each run like a command grader with options as JSON in EVALGATE_OPTIONS.",
		"type":        "object",
		"propertyNames": map[string]any{
			"pattern": toolKey.String(),
			"not":     map[string]any{"enum": tooldef.Names()},
		},
		"additionalProperties": (&shape.Type{Kind: shape.Map, Object: toolEntry}).JSONSchema(),
	}}},
	{Name: "commands", Type: section(commandsSection)},
	{Name: "evalcase", Type: section(evalcaseSection)},
	{Name: "jev", Type: &shape.Type{Schema: (&shape.Type{Kind: shape.List, Items: &shape.Type{Kind: shape.Map, Object: jevEntry}}).JSONSchema()}},
	{Name: "ai", Type: section(aiSection)},
	{Name: "reviews", Type: &shape.Type{Kind: shape.String, NonEmpty: true, Ref: "path",
		Doc: "The human reviews file (default .evalgate/reviews.jsonl at the repository root)."}},
}}

// section is a section at the top level: checked by its reader against o, exported from o.
func section(o *shape.Object) *shape.Type {
	return &shape.Type{Schema: (&shape.Type{Kind: shape.Map, Object: o}).JSONSchema()}
}
