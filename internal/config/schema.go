package config

import (
	"maps"
	"strings"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/shape"
)

type obj = map[string]any

// neverPassed lists the variables envpolicy.NeverPassed refuses, as one
// pattern; JSON Schema patterns have no case-insensitive flag, so each
// letter is a class ([gG]).
const neverPassed = `^(GITHUB_TOKEN|ACTIONS_.*|INPUT_.*|GITHUB_OUTPUT|GITHUB_ENV|GITHUB_PATH|GITHUB_STEP_SUMMARY|GITHUB_STATE)$`

// anyCase turns the capital letters of a pattern into classes of both cases; an escaped letter (\S)
// stays as it is.
func anyCase(pattern string) string {
	var b strings.Builder
	escaped := false
	for _, r := range pattern {
		if escaped || r == '\\' {
			escaped = !escaped
			b.WriteRune(r)
			continue
		}
		if 'A' <= r && r <= 'Z' {
			b.WriteString("[" + string(r) + string(r+'a'-'A') + "]")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ConfigJSONSchema returns a JSON Schema (draft 2020-12) of `.evalgate.yaml`
// for editors (`evalgate schema config`), rendered from the tables Parse
// checks against (shape.go). Named evals and suite entries use the
// definitions of docmeta's schema. What JSON Schema cannot express (glob
// syntax, use: names, unique ids in a suite, built-in tool options) is
// checked by Parse alone.
func ConfigJSONSchema() []byte {
	defs := docmeta.SchemaDefs()
	outside := obj{"anyOf": []any{
		obj{"pattern": `^[/\\]`},
		obj{"pattern": `^[A-Za-z]:`},
		obj{"pattern": `(^|[/\\])\.\.([/\\]|$)`},
		obj{"pattern": `(^|[/\\])\.` + anyCase("git") + `([/\\]|$)`}, // nothing under .git is read
	}}
	defs["glob"] = obj{
		"description": "A doublestar glob relative to the config's directory.",
		"type":        "string", "minLength": 1, "not": outside,
	}
	defs["globs"] = obj{"type": "array", "items": ref("glob")}
	defs["path"] = obj{
		"description": "A path relative to the config's directory, inside it.",
		"type":        "string", "minLength": 1, "not": outside,
	}
	// A config command eval (named, or inline in a suite) may set findings, as a tools entry does; the
	// page's vocabulary has no such key.
	findingsSchema := toolEntry.Field("findings").Type
	for _, name := range []string{"namedEval", "inlineEval"} {
		def := defs[name].(map[string]any)
		props := maps.Clone(def["properties"].(map[string]any))
		props["findings"] = findingsSchema.JSONSchema()
		def["properties"] = props
	}
	s := (&shape.Type{Kind: shape.Map, Object: rootShape}).JSONSchema()
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["$id"] = "https://github.com/evalgate/evalgate/schema/config.json"
	s["title"] = "evalgate config (.evalgate.yaml)"
	s["$defs"] = defs
	return docmeta.MarshalSchema(s)
}

func ref(name string) obj { return obj{"$ref": "#/$defs/" + name} }

// maxCalls is the largest ai.max-calls: a budget past a billion calls is no budget.
const maxCalls = 1_000_000_000

// providerSchema is the JSON Schema of one judge provider: its table, and what each kind needs and
// refuses, as Parse's provider checks them (what JSON Schema cannot say exactly, such as a URL Go's
// parser refuses, Parse alone checks).
func providerSchema() obj {
	s := (&shape.Type{Kind: shape.Map, Object: providerEntry}).JSONSchema()
	kindIs := func(kinds ...string) obj {
		return obj{"properties": obj{"kind": obj{"enum": kinds}}, "required": []string{"kind"}}
	}
	has := func(keys ...string) obj {
		anyOf := make([]any, len(keys))
		for i, k := range keys {
			anyOf[i] = obj{"required": []string{k}}
		}
		return obj{"anyOf": anyOf}
	}
	s["allOf"] = []any{
		obj{"if": kindIs("command"), "then": obj{
			"required": []string{"command"},
			"not":      has("base-url", "api-key-env", "auth", "headers", "query"),
		}},
		obj{"if": kindIs("openai", "anthropic"), "then": obj{"required": []string{"model"}, "not": has("command")}},
		obj{"if": kindIs("openai"), "then": obj{
			"properties": obj{"auth": obj{"enum": []string{"bearer", "api-key", "none"}}},
			"anyOf":      []any{obj{"required": []string{"api-key-env"}}, obj{"properties": obj{"auth": obj{"const": "none"}}, "required": []string{"auth"}}},
		}},
		obj{"if": kindIs("anthropic"), "then": obj{
			"properties": obj{"auth": obj{"const": "x-api-key"}},
			"required":   []string{"api-key-env"},
		}},
	}
	// What the table's types say, and what Parse adds to them.
	props := s["properties"].(map[string]any)
	props["base-url"].(map[string]any)["pattern"] = anyCase(`^HTTPS?://[^/?#@\s]+([/?#]\S*)?$`)
	props["api-key-env"].(map[string]any)["not"] = obj{"pattern": anyCase(`^(GITHUB_|ACTIONS_|RUNNER_)`)}
	props["headers"].(map[string]any)["propertyNames"] = obj{"not": obj{"pattern": anyCase(`^(` + strings.ToUpper(strings.Join(secretHeaders, "|")) + `)$`)}}
	return s
}
