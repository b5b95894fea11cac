package grader

import (
	"errors"
	"reflect"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The bounds of tool:frontmatter-schema's work (README "Limits"). A schema of 1.5 KB whose anyOf
// branches each lead, by $ref, to the next level's anyOf is applied 2^21 times to one value: the
// validator took 39 s and 2 GB on it, and cannot be stopped once started. And the compiler takes time
// quadratic in a chain of $ref: 80,000 took 83 s.
const (
	// builtinSchemaMaxWork bounds the applications of subschemas to values that validating the
	// frontmatter may take, counted before it starts: about ten seconds of the validator's work.
	builtinSchemaMaxWork = 1_000_000
	// builtinSchemaMaxRefs bounds the $ref (and $dynamicRef) of a schema and the files it reaches.
	builtinSchemaMaxRefs = 10_000
)

// ErrSchemaTooComplex: a schema whose checking is more work than evalgate allows (too_large).
var ErrSchemaTooComplex = errors.New("too complex for the schema validator")

// builtinSchemaRefs counts the $ref and $dynamicRef keys of a schema document.
func builtinSchemaRefs(doc any) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef" {
					n++
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return n
}

// builtinSchemaWork counts, up to limit, how many times validating inst against sch applies a
// subschema to a value in the worst case: every applicator taken (anyOf and oneOf branches, if, then
// and else), each subschema applied to each value it reaches. It reports false past limit. A $ref
// cycle on one value is not followed round: the validator reports it.
func builtinSchemaWork(sch *jsonschema.Schema, inst any, limit int) (int, bool) {
	w := &schemaWork{limit: limit, onPath: map[schemaAt]bool{}, dynamic: map[string][]*jsonschema.Schema{}}
	w.anchors(sch, map[*jsonschema.Schema]bool{})
	w.apply(sch, inst)
	return w.n, w.n <= limit
}

type schemaWork struct {
	n, limit int
	onPath   map[schemaAt]bool // the subschemas applied to a value on the way to this one, by the same value
	// dynamic are the subschemas of each $dynamicAnchor name, and recursive those with
	// $recursiveAnchor: true. A $dynamicRef (a $recursiveRef) goes, when it is validated, to the
	// outermost of them in the dynamic scope, which no static reading knows: the count takes every one.
	dynamic   map[string][]*jsonschema.Schema
	recursive []*jsonschema.Schema
}

// anchors collects the dynamic anchors of every subschema reachable from s.
func (w *schemaWork) anchors(s *jsonschema.Schema, seen map[*jsonschema.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.DynamicAnchor != "" {
		w.dynamic[s.DynamicAnchor] = append(w.dynamic[s.DynamicAnchor], s)
	}
	if s.RecursiveAnchor {
		w.recursive = append(w.recursive, s)
	}
	for _, c := range subschemas(s) {
		w.anchors(c, seen)
	}
}

// subschemas are every subschema s names, whatever value each applies to.
func subschemas(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.PropertyNames,
		s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema}
	if s.DynamicRef != nil {
		out = append(out, s.DynamicRef.Ref)
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		out = append(out, list...)
	}
	for _, c := range s.Properties {
		out = append(out, c)
	}
	for _, c := range s.PatternProperties {
		out = append(out, c)
	}
	for _, c := range s.DependentSchemas {
		out = append(out, c)
	}
	for _, d := range s.Dependencies {
		if c, ok := d.(*jsonschema.Schema); ok {
			out = append(out, c)
		}
	}
	for _, v := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch x := v.(type) {
		case *jsonschema.Schema:
			out = append(out, x)
		case []*jsonschema.Schema:
			out = append(out, x...)
		}
	}
	return out
}

// schemaAt is a subschema applied to a value; values are told apart by identity where they have it.
type schemaAt struct {
	s *jsonschema.Schema
	v any
}

func (w *schemaWork) apply(s *jsonschema.Schema, v any) {
	if s == nil || w.n > w.limit {
		return
	}
	w.n++
	at := schemaAt{s, identity(v)}
	if w.onPath[at] {
		return // a cycle on the same value
	}
	w.onPath[at] = true
	defer delete(w.onPath, at)
	for _, c := range []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else} {
		w.apply(c, v)
	}
	if s.RecursiveRef != nil {
		for _, c := range w.recursive {
			w.apply(c, v)
		}
	}
	if d := s.DynamicRef; d != nil {
		w.apply(d.Ref, v)
		if d.Anchor != "" {
			for _, c := range w.dynamic[d.Anchor] {
				w.apply(c, v)
			}
		}
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, c := range list {
			w.apply(c, v)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, c := range s.DependentSchemas {
			w.apply(c, v)
		}
		for _, d := range s.Dependencies {
			if c, ok := d.(*jsonschema.Schema); ok {
				w.apply(c, v)
			}
		}
		additional, _ := s.AdditionalProperties.(*jsonschema.Schema)
		for k, e := range x {
			w.apply(s.PropertyNames, k)
			matched := false
			if c, ok := s.Properties[k]; ok {
				w.apply(c, e)
				matched = true
			}
			for re, c := range s.PatternProperties {
				if re.MatchString(k) {
					w.apply(c, e)
					matched = true
				}
			}
			if !matched {
				w.apply(additional, e)
			}
			w.apply(s.UnevaluatedProperties, e)
		}
	case []any:
		items, _ := s.Items.(*jsonschema.Schema)
		prefix, _ := s.Items.([]*jsonschema.Schema)
		prefix = append(prefix, s.PrefixItems...)
		additional, _ := s.AdditionalItems.(*jsonschema.Schema)
		for i, e := range x {
			switch {
			case i < len(prefix):
				w.apply(prefix[i], e)
			case items != nil:
				w.apply(items, e)
			default:
				w.apply(s.Items2020, e)
				w.apply(additional, e)
			}
			w.apply(s.Contains, e)
			w.apply(s.UnevaluatedItems, e)
		}
	}
}

// identity is what tells a value from another for the cycle check: its address for a map or a list
// (the same value is applied the same subschema again only through a cycle), itself otherwise.
func identity(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return reflect.ValueOf(x).Pointer()
	case []any:
		if len(x) == 0 {
			return "[]"
		}
		return &x[0]
	}
	return v
}
