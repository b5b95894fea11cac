package tooldef

import (
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
)

// CheckOptions validates an eval's options (a Map node; nil or null means none) against the tool's Options
// table (README "Built-in tool:* graders"). what names the options in messages ("evals[0].options"). An
// unknown option is unknown_key at its key; an ill-typed value wrong_type at the value; a bad value (an
// invalid RE2 pattern, a negative limit, an empty list) invalid_value at the value; a missing required option
// missing_field at opts.Pos, which is the zero Pos when opts is nil or has no position: the caller then uses
// the eval entry's position.
func (t *Tool) CheckOptions(opts *frontmatter.Node, what string) []diag.Problem {
	if opts == nil || opts.Kind == frontmatter.Null {
		opts = &frontmatter.Node{Kind: frontmatter.Map}
	}
	o := *t.optionsShape()
	o.Hint = t.Name + " takes no options"
	if len(o.Fields) > 0 {
		o.Hint = t.Name + " takes " + strings.Join(o.Names(), ", ")
	}
	var k shape.Checker
	k.Object(opts, &o, what, nil)
	return k.Problems()
}

// optionsShape is the tool's Options, or the empty closed object of a tool without options.
func (t *Tool) optionsShape() *shape.Object {
	if t.Options == nil {
		return &shape.Object{}
	}
	return t.Options
}

// NeedsOptions reports whether an eval of the tool must have options: no options at all does not
// pass its table (a required option, or "at least one of").
func (t *Tool) NeedsOptions() bool { return len(t.CheckOptions(nil, "options")) > 0 }

// OptionsSchema is the JSON Schema of the tool's options, rendered from the same table CheckOptions uses.
func (t *Tool) OptionsSchema() map[string]any {
	return (&shape.Type{Kind: shape.Map, Object: t.optionsShape()}).JSONSchema()
}

// OptString returns option name's string value and whether it is set.
func OptString(opts *frontmatter.Node, name string) (string, bool) {
	e := opts.Get(name)
	if e == nil || e.Value == nil || e.Value.Kind != frontmatter.String {
		return "", false
	}
	return e.Value.Text, true
}

func optBoolValue(opts *frontmatter.Node, name string) bool {
	e := opts.Get(name)
	return e != nil && e.Value != nil && e.Value.Kind == frontmatter.Bool && e.Value.Bool
}

// OptInt returns option name's integer value and whether it is set.
func OptInt(opts *frontmatter.Node, name string) (int, bool) {
	e := opts.Get(name)
	if e == nil || !e.Value.IsInt() {
		return 0, false
	}
	return int(e.Value.Num), true
}

// OptList returns option name's strings, nil when unset.
func OptList(opts *frontmatter.Node, name string) []string {
	e := opts.Get(name)
	if e == nil || e.Value == nil || e.Value.Kind != frontmatter.List {
		return nil
	}
	out := make([]string, 0, len(e.Value.Items))
	for _, it := range e.Value.Items {
		if it.Kind == frontmatter.String {
			out = append(out, it.Text)
		}
	}
	return out
}
