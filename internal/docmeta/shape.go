package docmeta

import (
	"github.com/evalgate/evalgate/internal/shape"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// The eval entries' tables for the checking kit (README "Development"): each key of an inline eval and of a
// use: reference with the type its value must have. checkInline and checkReference hold every value against
// its field's type and read what passed; the rules between keys (proposal.2's draft schema, allOf 1-8) and the
// values no table can state (target, examples, severity with its "notice" hint) are theirs. EvalsJSONSchema
// renders the same tables.

var (
	graderType = &shape.Type{Kind: shape.String, Doc: "ai (default), command, human, or tool:NAME.",
		Pattern: graderPattern()}
	runsType    = &shape.Type{Kind: shape.Int, Min: shape.Ptr(1), Max: shape.Ptr(50), Doc: "ai only: ensemble runs."}
	commandType = &shape.Type{Kind: shape.List, NonEmpty: true, Items: &shape.Type{Kind: shape.String, NonEmpty: true, Ref: "nonEmptyString"},
		Doc: "grader: command only: argv, run without a shell; {file}, {target} and {id} are replaced."}
	exitCodesType = &shape.Type{Kind: shape.List, NonEmpty: true, Items: &shape.Type{Kind: shape.Int}, Doc: "grader: command only; default [0]."}
	timeoutType   = &shape.Type{Kind: shape.Int, Min: shape.Ptr(1), Max: shape.Ptr(maxTimeoutMS), Doc: "grader: command only."}
	hashType      = &shape.Type{Kind: shape.String,
		Doc: "Lowercase hex SHA-256 of the assertion the command was generated from; needs command."}
	optionsType = &shape.Type{Kind: shape.Map, Ref: "options"}
	skipType    = &shape.Type{Kind: shape.Bool}

	// The values checked by their readers (target, examples, severity, severity-map): Any for the checker,
	// their schema for the export.
	targetType      = &shape.Type{Ref: "target"}
	examplesType    = &shape.Type{Schema: map[string]any{"type": "object", "properties": map[string]any{"pass": ref("anchors"), "fail": ref("anchors")}, "additionalProperties": false}}
	severityType    = &shape.Type{Ref: "severity"}
	severityMapType = &shape.Type{Schema: map[string]any{"type": "object", "additionalProperties": ref("severity")}}
)

// graderPattern is grader's pattern; a value outside it may be a misspelt grader ("hmn", "tool-links"),
// whose fault offers the closest of the closed graders and the built-in tools.
func graderPattern() *shape.Pattern {
	p := shape.NewPattern(GraderPattern, "ai, command, human or tool:NAME (NAME kebab-case)", "")
	p.Near = []string{"ai", "command", "human"}
	for _, t := range tooldef.Builtins {
		p.Near = append(p.Near, t.Name)
	}
	return p
}

// nonEmpty is a non-empty string with a description, exported as a $ref to nonEmptyString.
func nonEmpty(doc string) *shape.Type {
	return &shape.Type{Kind: shape.String, NonEmpty: true, Doc: doc, Ref: "nonEmptyString"}
}

// inlineShape is an inline eval (proposal.2's draft schema: inlineEval, a closed object), keys in documentation
// order; a named eval of the config takes the same keys except id.
var inlineShape = &shape.Object{NoList: true, Fields: []shape.Field{
	{Name: "id", Type: &shape.Type{Kind: shape.String, Pattern: idType.Pattern, Ref: "id", Doc: "Kebab-case id, unique on the page."}},
	{Name: "assertion", Type: nonEmpty("What must be true of the page.")},
	{Name: "type", Type: &shape.Type{Kind: shape.String, Enum: evalTypes.Enum, Ref: "type"}},
	{Name: "grader", Type: graderType},
	{Name: "provider", Type: nonEmpty("ai only: the judge's provider.")},
	{Name: "model", Type: nonEmpty("ai only: the judging model.")},
	{Name: "runs", Type: runsType},
	{Name: "target", Type: targetType},
	// A finite number > 0. Zero is excluded: a weightless eval is a silent
	// disable, and skip already means that.
	{Name: "weight", Type: &shape.Type{Kind: shape.Number, Min: weightType.Min, MinExclusive: true, RangeHint: weightType.RangeHint, Ref: "weight"}},
	{Name: "evidence", Type: nonEmpty("Where to look.")},
	{Name: "examples", Type: examplesType},
	{Name: "command", Type: commandType},
	{Name: "success-exit-codes", Type: exitCodesType},
	{Name: "timeout-ms", Type: timeoutType},
	{Name: "generated-assertion-hash", Type: hashType},
	{Name: "options", Type: optionsType},
	{Name: "severity", Type: severityType},
	{Name: "severity-map", Type: severityMapType},
	{Name: "skip", Type: skipType},
}}

// referenceShape is a use: reference (proposal.2's draft schema: evalReference, proposal.2's later bytes, which add
// weight). Every other key legal inline is use_override_not_allowed: provider, model, runs and target say
// how a named eval executes, and it must read the same bytes on every page.
var referenceShape = &shape.Object{Fields: []shape.Field{
	{Name: "use", Type: nonEmpty("The id of a named eval of the config."), Required: true},
	{Name: "type", Type: inlineShape.Field("type").Type},
	{Name: "skip", Type: skipType},
	{Name: "severity", Type: severityType},
	{Name: "weight", Type: inlineShape.Field("weight").Type},
	{Name: "options", Type: optionsType},
}}
