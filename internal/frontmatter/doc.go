// Package frontmatter splits a Markdown page into its frontmatter and body and
// parses frontmatter (YAML or TOML) and config files into position-carrying
// Nodes, with every position in the file's own lines and columns.
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
