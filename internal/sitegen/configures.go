package sitegen

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Configures reports whether the file rel (repository-relative, slash-separated; it may be deleted) of
// the repository repo is one the site readers take URLs from: a Hugo, Docusaurus or Astro config, a
// file of Hugo's config directory, the tsconfig.json of an Astro site's aliases. A change to one moves
// pages' URLs, so a changed-files run checks every page's links (README "Which files are checked").
// Hugo's older names (config.toml, ...) say little alone: they count in a folder that looks like a Hugo
// site's, with a content, layouts, archetypes or themes folder.
func Configures(repo, rel string) bool {
	dir, base := path.Split(rel)
	switch {
	case slices.Contains(DocusaurusConfigs, base), slices.Contains(AstroConfigs, base), base == "tsconfig.json",
		slices.Contains(HugoConfigs, base), strings.HasSuffix("/"+dir, "/config/_default/"):
		return true
	case slices.Contains(HugoOlderConfigs, base):
		for _, sub := range []string{"content", "layouts", "archetypes", "themes"} {
			if fi, err := os.Stat(filepath.Join(repo, filepath.FromSlash(dir), sub)); err == nil && fi.IsDir() {
				return true
			}
		}
	}
	return false
}
