// Package shape is the one checking kit of evalgate's vocabularies: the shapes of their values as data (closed
// or open objects, types, enums, ranges, patterns, required keys, rules between keys), one checker that holds
// a positioned frontmatter.Node against a shape with one wording per fault, and the JSON Schema export of the
// same shapes (`evalgate schema`). A vocabulary declares its tables once; its parser reads the values that
// passed, and its schema is rendered from the tables, so the two cannot drift (README "Development").
package shape

import (
	"regexp"
	"slices"
)

// Kind is the JSON kind a Type accepts.
type Kind int

const (
	Any    Kind = iota // every value
	String             // a string
	Bool               // true or false
	Int                // an integral number (3.0 and 1e3 are integers)
	Number             // a finite number
	List               // a list
	Map                // a mapping
)

// Type is the shape of one value. The zero Type accepts anything.
type Type struct {
	Kind Kind
	Doc  string // the description in the JSON Schema export

	// NonEmpty: a String of at least one character, a List of at least one item.
	NonEmpty bool
	// NonBlank: a String that is not only white space (implies NonEmpty).
	NonBlank bool
	// Enum: a String among these values, named in messages in this order.
	Enum []string
	// Pattern: a String matching it (RE2, also valid ECMA-262 for the export).
	Pattern *Pattern
	// RE2: a String that is itself a valid RE2 expression (Go's regexp).
	RE2 bool

	// Min and Max bound an Int or a Number (inclusive); MinExclusive makes Min exclusive. Nil is no bound.
	Min, Max     *float64
	MinExclusive bool
	// RangeHint follows a range fault's message ("write skip: true to disable an eval").
	RangeHint string

	// Items is the Type of a List's items (nil: any); Unique forbids equal String items; MaxItems, when
	// above 0, bounds a List's length (README "Limits").
	Items    *Type
	Unique   bool
	MaxItems int

	// Object is the shape of a Map (nil: any mapping).
	Object *Object

	// Ref, when set, is the name of a $defs entry the export points at instead of rendering this Type.
	Ref string
	// Schema is merged into the export of this Type, for what the kit does not model (a "not" of patterns).
	Schema map[string]any
}

// Pattern is a string pattern with the words a message uses for it.
type Pattern struct {
	RE   *regexp.Regexp
	Says string // "kebab-case (lowercase letters, digits and hyphens, not starting with a hyphen)"
	Code string // the fault's code; "" is invalid_value
	// Near are the names a value that does not match may be a misspelling of, for the fault's
	// "did you mean" (diag.Suggest).
	Near []string
}

// NewPattern compiles expr (panicking on a bad expression: patterns are constants).
func NewPattern(expr, says, code string) *Pattern {
	return &Pattern{RE: regexp.MustCompile(expr), Says: says, Code: code}
}

// Field is one key of an Object.
type Field struct {
	Name     string
	Type     *Type
	Required bool
	// Missing is the message of a missing required key; "" says "WHAT needs NAME".
	Missing string
}

// Object is the shape of a mapping: closed, its keys are its fields.
type Object struct {
	// Name is what messages call the object when the checker is given no name for it (the top level of a
	// document: "the config").
	Name   string
	Fields []Field
	// Rules are the constraints between keys, checked when the keys they name are well-typed.
	Rules []Rule
	// Hint follows an unknown-key fault ("a companion target takes source: file and path").
	Hint string
	// NoList leaves the allowed keys out of an unknown-key message (an object with many keys).
	NoList bool
}

// Names returns the names of the fields in order.
func (o *Object) Names() []string {
	names := make([]string, len(o.Fields))
	for i, f := range o.Fields {
		names[i] = f.Name
	}
	return names
}

// Field returns the field named name, or nil.
func (o *Object) Field(name string) *Field {
	if i := slices.IndexFunc(o.Fields, func(f Field) bool { return f.Name == name }); i >= 0 {
		return &o.Fields[i]
	}
	return nil
}

// RuleKind is the constraint a Rule states.
type RuleKind int

const (
	// AtLeastOne: at least one of Keys is present (JSON Schema anyOf of required).
	AtLeastOne RuleKind = iota
	// NotBoth: at most one of Keys is present; the fault is at the later key.
	NotBoth
	// Requires: when Keys[0] is present, every other key is too (dependentRequired).
	Requires
	// NotAbove: the number at Keys[0] does not exceed the number at Keys[1].
	NotAbove
)

// Rule is a constraint between keys of one Object. Message is the whole fault message after the object's
// name; Code defaults to missing_field for AtLeastOne and Requires, invalid_value otherwise.
type Rule struct {
	Kind    RuleKind
	Keys    []string
	Message string
	Code    string
}

// Ptr returns a pointer to f, for Type.Min and Type.Max.
func Ptr(f float64) *float64 { return &f }

// Common types.
var (
	AnyString      = &Type{Kind: String}
	NonEmptyString = &Type{Kind: String, NonEmpty: true}
	Boolean        = &Type{Kind: Bool}
	AnyMap         = &Type{Kind: Map}
)
