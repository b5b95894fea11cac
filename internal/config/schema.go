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

// anyCase turns the letters of a pattern into classes of both cases.
func anyCase(pattern string) string {
	var b strings.Builder
	for _, r := range pattern {
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
