package grader

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestBuiltinSchemaWork counts the applications a validation takes at worst: a recursive schema over
// nested values is linear in them; one whose two branches both recurse into the same value doubles at
// every level and is refused; a $ref cycle on one value is not followed round.
func TestBuiltinSchemaWork(t *testing.T) {
	compile := func(t *testing.T, text string) *jsonschema.Schema {
		t.Helper()
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("mem:///s.json", doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile("mem:///s.json")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	nest := func(depth int) any {
		var v any = "leaf"
		for range depth {
			v = map[string]any{"x": v, "y": []any{1, 2}}
		}
		return v
	}
	tree := compile(t, `{"properties": {"x": {"$ref": "#"}, "y": {"items": {"type": "integer"}}}}`)
	if n, ok := builtinSchemaWork(tree, nest(500), 1_000_000); !ok || n > 6*500 {
		t.Errorf("a tree schema over 500 levels: %d applications, within %v; want about 5 a level", n, ok)
	}
	branching := compile(t, `{"anyOf": [{"properties": {"x": {"$ref": "#"}}}, {"properties": {"x": {"$ref": "#"}}}]}`)
	if n, ok := builtinSchemaWork(branching, nest(15), 1_000_000); !ok || n < 1<<15 {
		t.Errorf("two branches into one value, 15 levels: %d applications, within %v; want over 2^15", n, ok)
	}
	if _, ok := builtinSchemaWork(branching, nest(40), 1_000_000); ok {
		t.Error("two branches into one value, 40 levels: within the bound, want refused")
	}
	cycle := compile(t, `{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}`)
	if n, ok := builtinSchemaWork(cycle, nest(1), 1_000_000); !ok || n > 10 {
		t.Errorf("a $ref cycle: %d applications, within %v", n, ok)
	}
	// $dynamicRef goes, when validated, to the outermost schema of its anchor: three branches that each
	// lead back to the root through it triple the work at every level, though the reference as written
	// names only the leaf.
	dynamic := compile(t, `{"$dynamicAnchor": "n", "anyOf": [{"$ref": "#/$defs/leaf"}, {"$ref": "#/$defs/leaf"}, {"$ref": "#/$defs/leaf"}],
		"$defs": {"leaf": {"$id": "leaf", "$dynamicAnchor": "n", "properties": {"a": {"$dynamicRef": "#n"}}, "required": ["zz"]}}}`)
	deep := func(depth int) any {
		var v any = map[string]any{}
		for range depth {
			v = map[string]any{"a": v}
		}
		return v
	}
	if _, ok := builtinSchemaWork(dynamic, deep(13), 1_000_000); ok {
		t.Error("a $dynamicRef back to the root through three branches, 13 levels: within the bound, want refused")
	}
	if n, ok := builtinSchemaWork(dynamic, deep(3), 1_000_000); !ok || n < 3*3*3 {
		t.Errorf("the same, 3 levels: %d applications, within %v; want at least 3^3", n, ok)
	}
}
