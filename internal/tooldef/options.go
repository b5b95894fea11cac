package tooldef

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// Option checking. Tools describe their options with opt and check them with checkOpts; the
// typed getters read options that passed the check.

type optKind int

const (
	optString  optKind = iota // a string
	optBool                   // a boolean
	optCount                  // an integer >= 0 (3.0 and 1e3 are integers: README "Decisions where the specs are silent")
	optStrings                // a non-empty list of non-blank strings
)

type opt struct {
	name string
	kind optKind
}

// checkOpts checks that opts is a mapping whose keys are among allowed and whose values have their
// kinds. It returns the problems and the entries by name, for the tool's own cross-option rules.
func checkOpts(tool string, opts *frontmatter.Node, allowed ...opt) ([]diag.Problem, map[string]*frontmatter.Entry) {
	if opts == nil || opts.Kind == frontmatter.Null {
		return nil, nil
	}
	if opts.Kind != frontmatter.Map {
		return []diag.Problem{{Pos: opts.Pos, Code: "wrong_type",
			Message: fmt.Sprintf("%s: options must be a mapping, not a %s", tool, opts.TypeName())}}, nil
	}
	var probs []diag.Problem
	found := map[string]*frontmatter.Entry{}
	for i := range opts.Entries {
		e := &opts.Entries[i]
		var spec *opt
		for j := range allowed {
			if allowed[j].name == e.Key {
				spec = &allowed[j]
			}
		}
		if spec == nil {
			probs = append(probs, diag.Problem{Pos: e.KeyPos, Code: "unknown_key",
				Message: fmt.Sprintf("%s: unknown option %q%s", tool, e.Key, optHint(allowed))})
			continue
		}
		found[e.Key] = e
		probs = append(probs, checkOptValue(tool, e, spec.kind)...)
	}
	return probs, found
}

func optHint(allowed []opt) string {
	if len(allowed) == 0 {
		return " (it takes no options)"
	}
	names := make([]string, len(allowed))
	for i, o := range allowed {
		names[i] = o.name
	}
	return " (options: " + strings.Join(names, ", ") + ")"
}

func checkOptValue(tool string, e *frontmatter.Entry, kind optKind) []diag.Problem {
	v := e.Value
	if v == nil {
		v = &frontmatter.Node{Kind: frontmatter.Null, Pos: e.KeyPos}
	}
	wrong := func(want string) []diag.Problem {
		return []diag.Problem{{Pos: v.Pos, Code: "wrong_type",
			Message: fmt.Sprintf("%s: option %q must be %s, not %s", tool, e.Key, want, article(v.TypeName()))}}
	}
	switch kind {
	case optString:
		if v.Kind != frontmatter.String {
			return wrong("a string")
		}
	case optBool:
		if v.Kind != frontmatter.Bool {
			return wrong("a boolean")
		}
	case optCount:
		if v.Kind != frontmatter.Number {
			return wrong("an integer")
		}
		if !v.IsFinite() {
			return []diag.Problem{{Pos: v.Pos, Code: "invalid_value",
				Message: fmt.Sprintf("%s: option %q must be a finite integer, not %s", tool, e.Key, v.Text)}}
		}
		if !v.IsInt() {
			return wrong("an integer")
		}
		if v.Num < 0 {
			return []diag.Problem{{Pos: v.Pos, Code: "invalid_value",
				Message: fmt.Sprintf("%s: option %q must be 0 or more, not %s", tool, e.Key, v.Text)}}
		}
	case optStrings:
		if v.Kind != frontmatter.List {
			return wrong("a list of strings")
		}
		if len(v.Items) == 0 {
			return []diag.Problem{{Pos: v.Pos, Code: "invalid_value",
				Message: fmt.Sprintf("%s: option %q must list at least one string", tool, e.Key)}}
		}
		var probs []diag.Problem
		for _, it := range v.Items {
			switch {
			case it.Kind != frontmatter.String:
				probs = append(probs, diag.Problem{Pos: it.Pos, Code: "wrong_type",
					Message: fmt.Sprintf("%s: items of %q must be strings, not %s", tool, e.Key, article(it.TypeName()))})
			case strings.TrimSpace(it.Text) == "":
				probs = append(probs, diag.Problem{Pos: it.Pos, Code: "invalid_value",
					Message: fmt.Sprintf("%s: items of %q must not be empty", tool, e.Key)})
			}
		}
		return probs
	}
	return nil
}

func article(typeName string) string {
	switch typeName {
	case "integer":
		return "an integer"
	case "null", "nothing":
		return typeName
	}
	return "a " + typeName
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

// missing is the missing_field problem of a required option, at the options mapping (zero Pos when
// unknown: the caller uses the eval entry's position).
func missing(opts *frontmatter.Node, msg string) diag.Problem {
	var pos diag.Pos
	if opts != nil {
		pos = opts.Pos
	}
	return diag.Problem{Pos: pos, Code: "missing_field", Message: msg}
}
