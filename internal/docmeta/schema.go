package docmeta

import (
	"encoding/json"

	"github.com/evalgate/evalgate/internal/shape"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// obj is a JSON Schema object under construction.
type obj = map[string]any

// ref points at one of the $defs.
func ref(name string) obj { return obj{"$ref": "#/$defs/" + name} }

// required is the JSON Schema test "these keys are present".
func required(keys ...string) obj { return obj{"required": keys} }

// graderIs is the test "grader is present and equals g".
func graderIs(g string) obj {
	return obj{"required": []string{"grader"}, "properties": obj{"grader": obj{"const": g}}}
}

// EvalsJSONSchema returns a JSON Schema (draft 2020-12) of the page-root keys
// of docmeta:evals:1.0.0-proposal.2, for YAML language servers and other
// editors (`evalgate schema evals`). It encodes the rules JSON Schema can
// express, as ValidatePage applies them; what it cannot express (unique ids
// on a page, suites and use: names of the config, built-in tool options) is
// checked by evalgate alone. Patterns avoid lookahead, which RE2 and several
// validators lack: the reserved-prefix guard is a propertyNames
// construction.
func EvalsJSONSchema() []byte {
	s := obj{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         "https://github.com/evalgate/evalgate/schema/evals.json",
		"title":       "docmeta:evals:1.0.0-proposal.2",
		"description": "Per-page quality assertions (docmeta evals), as evalgate validates them. The root is open: keys of other vocabularies are allowed, but any other eval-* key is reserved.",
		"type":        "object",
		"properties":  pageProperties(),
		// The root is open; only eval-* keys other than the three are
		// rejected (proposal.2's prefix guard, case-sensitive).
		"propertyNames": obj{"not": obj{"allOf": []any{
			obj{"pattern": "^eval-"},
			obj{"not": obj{"enum": []string{keySuite, keySkip, keyProvenance}}},
		}}},
		"$defs": SchemaDefs(),
	}
	return marshal(s)
}

// pageProperties returns the schema of the four page-root keys, with $refs
// into SchemaDefs.
func pageProperties() map[string]any {
	return obj{
		keyEvals: obj{
			"description": "One assertion, or the list of evals of this page.",
			"$ref":        "#/$defs/evals",
		},
		keySuite: obj{
			"description": "A suite of the config whose evals run on this page first; on an id collision the page's entry wins.",
			"type":        "string", "minLength": 1,
		},
		keySkip: obj{
			"description": "Skip this page's evals (definitions are still validated); the skip is reported.",
			"type":        "boolean",
		},
		keyProvenance: obj{
			"description": "Machine-proposal trail: one entry per model; delete an entry once a human has reviewed its evals.",
			"$ref":        "#/$defs/provenance",
		},
	}
}

// SchemaDefs returns the $defs of EvalsJSONSchema: evals, evalEntry,
// evalReference, inlineEval, namedEval (a config eval: inlineEval without
// id), provenance and their parts. The config schema embeds them. Each call
// returns a fresh value.
func SchemaDefs() map[string]any {
	severity := obj{"enum": []string{"error", "warning", "info"}}
	return obj{
		"nonEmptyString": obj{"type": "string", "minLength": 1},
		"id":             obj{"type": "string", "pattern": IDPattern},
		"severity":       severity,
		"weight": obj{
			"description":      "How much this eval's outcome moves a suite or run score; never its own outcome.",
			"type":             "number",
			"exclusiveMinimum": 0,
		},
		"type": obj{
			"description": "capability evals never block when they fail.",
			"enum":        []string{"regression", "capability"},
		},
		"options": obj{"type": "object", "description": "Settings of the grader (built-in tool:* options are checked by evalgate)."},
		"evals": obj{
			"if":   obj{"type": "string"},
			"then": obj{"minLength": 1},
			"else": obj{"type": "array", "minItems": 1, "items": ref("evalEntry")},
		},
		"evalEntry": obj{
			"if":   obj{"type": "string"},
			"then": obj{"description": "An assertion judged by ai at error severity.", "minLength": 1},
			"else": obj{
				"if":   obj{"type": "object", "required": []string{"use"}},
				"then": ref("evalReference"),
				"else": ref("inlineEval"),
			},
		},
		"evalReference": withDoc((&shape.Type{Kind: shape.Map, Object: referenceShape}).JSONSchema(),
			"A reference to a named eval of the config; it may override skip, type, severity, weight and options."),
		"inlineEval": inlineSchema(false),
		"namedEval":  inlineSchema(true),
		"target": obj{
			"description": "What the grader receives: body (default), raw, frontmatter, or {source: file, path} for a companion file relative to the page.",
			"if":          obj{"type": "object"},
			"then": obj{
				"required": []string{"source", "path"},
				"properties": obj{
					"source": obj{"const": "file"},
					"path":   ref("nonEmptyString"),
				},
				"additionalProperties": false,
			},
			"else": obj{"enum": []string{TargetBody, TargetRaw, TargetFrontmatter}},
		},
		"anchors": obj{
			"if":   obj{"type": "string"},
			"then": obj{"minLength": 1},
			"else": obj{"type": "array", "minItems": 1, "uniqueItems": true, "items": ref("nonEmptyString")},
		},
		"provenance": obj{
			"type":        "array",
			"minItems":    1,
			"uniqueItems": true,
			"items": obj{
				"type":     "object",
				"required": []string{"generated-by"},
				"properties": obj{
					"generated-by": obj{"description": "The model that proposed the evals.", "$ref": "#/$defs/nonEmptyString"},
					"evals":        obj{"type": "array", "minItems": 1, "uniqueItems": true, "items": ref("id")},
					"confidence": obj{
						"type":                 "object",
						"propertyNames":        obj{"pattern": IDPattern},
						"additionalProperties": obj{"type": "number", "minimum": 0, "maximum": 1},
					},
				},
				"additionalProperties": false,
			},
		},
	}
}

// inlineSchema is the schema of an inline eval, or with named set of a
// config's named eval (no id; see NamedEval). The conditionals are
// allOf 1-8 of proposal.2's draft schema.
func inlineSchema(named bool) obj {
	props := (&shape.Type{Kind: shape.Map, Object: inlineShape}).JSONSchema()["properties"].(map[string]any)
	s := obj{
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
		"dependentRequired":    obj{"generated-assertion-hash": []string{"command"}},
		"allOf": []any{
			obj{"if": graderIs("ai"), "then": required("assertion")},
			obj{"if": obj{"not": required("grader")}, "then": required("assertion")},
			obj{"if": graderIs("command"), "then": obj{"anyOf": []any{required("assertion"), required("command")}}},
			obj{"if": graderIs("human"), "then": required("assertion")},
			obj{"if": required("command"), "then": graderIs("command")},
			obj{"if": obj{"anyOf": []any{required("success-exit-codes"), required("timeout-ms")}}, "then": graderIs("command")},
			obj{
				"if":   obj{"anyOf": []any{required("provider"), required("model"), required("runs")}},
				"then": obj{"properties": obj{"grader": obj{"const": "ai"}}},
			},
		},
	}
	// Each built-in tool's options, rendered from its table (package tooldef).
	allOf := s["allOf"].([]any)
	for _, t := range tooldef.Builtins {
		then := obj{"properties": obj{"options": t.OptionsSchema(), "severity-map": obj{"propertyNames": obj{"enum": t.CodeNames()}}}}
		if t.NeedsOptions() {
			then["required"] = []string{"options"}
		}
		allOf = append(allOf, obj{"if": graderIs(t.Name), "then": then})
	}
	s["allOf"] = allOf
	if named {
		delete(props, "id")
		s["description"] = "A named eval: the fields of an inline eval except id, which is its key."
	} else {
		s["required"] = []string{"id"}
		s["description"] = "An inline eval."
	}
	return s
}

// marshal renders a schema as indented JSON with a final newline. Map keys
// come out sorted, so the output is stable.
func marshal(s obj) []byte {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic("docmeta: schema does not marshal: " + err.Error())
	}
	return append(b, '\n')
}

// MarshalSchema renders a schema (such as the config's, which embeds
// SchemaDefs) the way EvalsJSONSchema is rendered: indented, keys sorted,
// with a final newline.
func MarshalSchema(s map[string]any) []byte { return marshal(s) }

// withDoc sets a schema's description.
func withDoc(s map[string]any, doc string) map[string]any {
	s["description"] = doc
	return s
}
