// Package tooldef describes the built-in tool:* graders as data: names, titles, docs, codes, options and
// which options name files. Validation (docmeta, config) and the engine read it without importing the
// graders that run the tools (package grader), and the JSON Schema export, README and `--help` render it.
// Adding a built-in grader adds its definition here (builtins.go) and its Run in package grader.
package tooldef

import (
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/shape"
)

// Tool is one built-in grader's definition (README "Built-in tool:* graders").
type Tool struct {
	Name  string // "tool:links", ...
	Title string // one line, no trailing period
	// Doc says what the tool checks, its options and its codes; it feeds README and `--help`.
	Doc string
	// Codes are the finding codes the tool can produce, documented as every code is (group "builtin"); they
	// join the registry, Codes, in the tool's place.
	Codes []diag.CodeInfo
	// Markdown reports that the tool parses its target with goldmark; the engine parses pages only for evals
	// that need it (README "Built-in tool:* graders").
	Markdown bool
	// Frontmatter reports that the tool grades the page's parsed frontmatter unless its target is a
	// companion file, and that its findings point at keys of that frontmatter.
	Frontmatter bool
	// PathOptions are the options whose string value names a file, relative to the eval's directory: it
	// must stay inside the repository, and a change to it re-checks the page (README "Which files are
	// checked", dependents).
	PathOptions []string
	// Options is the table of the tool's options (nil: it takes none). CheckOptions holds an eval's options
	// against it, and the JSON Schema export renders it.
	Options *shape.Object
}

// Names are the built-in graders' names, in Builtins order.
func Names() []string {
	names := make([]string, len(Builtins))
	for i, t := range Builtins {
		names[i] = t.Name
	}
	return names
}

// Lookup returns the built-in grader named name ("tool:links"), or nil.
func Lookup(name string) *Tool {
	for _, t := range Builtins {
		if t.Name == name {
			return t
		}
	}
	return nil
}
