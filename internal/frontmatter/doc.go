// Package frontmatter splits a Markdown page into its frontmatter and body and
// parses frontmatter (YAML or TOML) and config files into position-carrying
// Nodes, with every position in the file's own lines and columns.
//
// Positions follow diag.Pos: 1-based lines that end at "\n", 1-based columns
// that count code points (a BOM at the start of a file is one). Split finds
// the frontmatter; Parse, ParseYAML and ParseTOML read it with the YAML 1.2
// core schema or TOML 1.1, within the limits of README "Decisions where the specs are silent" (1 MiB of
// frontmatter, 1,000 levels of nesting, 10,000 nodes of alias expansion).
// Every fault is a diag.Problem; no input makes them panic, hang or take
// memory out of proportion to its size.
package frontmatter

import "sort"

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
