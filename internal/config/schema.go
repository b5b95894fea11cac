package config

import (
	"strings"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/tooldef"
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
// for editors (`evalgate schema config`). Named evals and suite entries use
// the definitions of docmeta's schema. What JSON Schema cannot express (glob
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
	var builtins []string
	for _, t := range tooldef.Builtins {
		builtins = append(builtins, t.Name)
	}
	s := obj{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"$id":                  "https://github.com/evalgate/evalgate/schema/config.json",
		"title":                "evalgate config (.evalgate.yaml)",
		"type":                 "object",
		"required":             []string{"version"},
		"additionalProperties": false,
		"properties": obj{
			"version": obj{"description": "The config's version: 1.", "const": 1},
			"pages": obj{
				"type":                 "object",
				"additionalProperties": false,
				"properties": obj{
					"include": obj{"description": "Default [\"**/*.md\", \"**/*.markdown\"].", "$ref": "#/$defs/globs"},
					"exclude": ref("globs"),
				},
			},
			"evals": obj{
				"description":          "Named evals: a page refers to one with use: ID.",
				"type":                 "object",
				"propertyNames":        obj{"pattern": docmeta.IDPattern},
				"additionalProperties": ref("namedEval"),
			},
			"suites": obj{
				"description":   "A page names one with eval-suite: NAME.",
				"type":          "object",
				"propertyNames": obj{"minLength": 1},
				"additionalProperties": obj{
					"type":                 "object",
					"required":             []string{"evals"},
					"additionalProperties": false,
					"properties": obj{
						"target-pass-rate": obj{"type": "number", "minimum": 0, "maximum": 1},
						"evals":            ref("evals"),
					},
				},
			},
			"tools": obj{
				"description": "More tool:* integrations, each run like a command grader with options as JSON in EVALGATE_OPTIONS.",
				"type":        "object",
				"propertyNames": obj{
					"pattern": `^tool:[a-z0-9][a-z0-9-]*$`,
					"not":     obj{"enum": builtins},
				},
				"additionalProperties": obj{
					"type":                 "object",
					"required":             []string{"command"},
					"additionalProperties": false,
					"properties": obj{
						"command": obj{"type": "array", "minItems": 1, "items": ref("nonEmptyString")},
					},
				},
			},
			"commands": obj{
				"type":                 "object",
				"additionalProperties": false,
				"properties": obj{
					"timeout-ms":  obj{"type": "integer", "minimum": 1, "maximum": docmeta.MaxTimeoutMS},
					"frontmatter": obj{"enum": []string{"allow", "deny"}},
					"allow":       obj{"type": "array", "items": ref("nonEmptyString")},
					"pass-env": obj{
						"type": "array",
						"items": obj{
							"type":    "string",
							"pattern": `^[^=\x00]+$`,
							"not":     obj{"pattern": anyCase(neverPassed)},
						},
					},
				},
			},
			"evalcase": obj{
				"type":                 "object",
				"additionalProperties": false,
				"properties":           obj{"include": ref("globs"), "candidates": ref("globs")},
			},
			"jev": obj{
				"type": "array",
				"items": obj{
					"type":                 "object",
					"required":             []string{"contract"},
					"additionalProperties": false,
					"dependentRequired":    obj{"from": []string{"answers"}},
					"properties": obj{
						"contract":        ref("path"),
						"answers":         ref("path"),
						"from":            ref("path"),
						"candidate-model": ref("nonEmptyString"),
						"baseline-model":  ref("nonEmptyString"),
						"allow-unpinned":  obj{"type": "boolean"},
					},
				},
			},
			"ai": obj{"description": "Reserved: must be empty in this version.", "type": "object", "maxProperties": 0},
		},
		"$defs": defs,
	}
	return docmeta.MarshalSchema(s)
}

func ref(name string) obj { return obj{"$ref": "#/$defs/" + name} }
