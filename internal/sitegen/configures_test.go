package sitegen

import (
	"testing"

	"github.com/evalgate/evalgate/internal/testfs"
)

func TestConfigures(t *testing.T) {
	repo := t.TempDir()
	testfs.Write(t, repo, map[string]string{
		"site/content/_index.md": "# Home\n",
		"tools/lint/README.md":   "# Lint\n",
	})
	tests := []struct {
		rel  string
		want bool
	}{
		{"docusaurus.config.js", true},
		{"website/docusaurus.config.ts", true},
		{"docs/astro.config.mjs", true},
		{"tsconfig.json", true},
		{"hugo.toml", true},
		{"site/hugo.yaml", true},
		{"config/_default/permalinks.toml", true},
		{"site/config/_default/menus.yaml", true},
		{"site/config.toml", true},        // beside content/: a Hugo site's
		{"tools/lint/config.yaml", false}, // another tool's
		{"config.json", false},
		{"docs/intro.md", false},
		{"myconfig/_default/x.toml", false},
		{"sidebars.js", false},
	}
	for _, tt := range tests {
		if got := Configures(repo, tt.rel); got != tt.want {
			t.Errorf("Configures(%q) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}
