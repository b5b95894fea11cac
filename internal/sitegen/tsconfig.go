package sitegen

import (
	"path"
	"regexp"
	"strings"
)

// Alias is an import alias of an Astro (Vite) site, which Markdown images may use too: Prefix
// ("@assets/") names Dir ("src/assets/"), relative to the site folder.
type Alias struct{ Prefix, Dir string }

// tsconfig's compilerOptions: baseUrl, and each "@x/*": ["dir/*", ...] of paths (the first target is the
// one taken). tsconfig.json is JSON with comments, so it is read for these entries alone.
var (
	tsBaseURL = regexp.MustCompile(`"baseUrl"\s*:\s*"([^"]*)"`)
	tsPath    = regexp.MustCompile(`"([^"*]+)\*"\s*:\s*\[\s*"([^"*]*)\*"`)
)

// ReadAliases reads the path aliases of the site in dir from its tsconfig.json (inside the repository
// repo): the ones Astro's Markdown images resolve, as Vite does (Astro docs: guides/imports, aliases).
func ReadAliases(repo, dir string) []Alias {
	b, ok := ReadConfig(repo, dir, "tsconfig.json")
	if !ok {
		return nil
	}
	base := "."
	if m := tsBaseURL.FindSubmatch(b); m != nil {
		base = string(m[1])
	}
	var out []Alias
	for _, m := range tsPath.FindAllSubmatch(b, -1) {
		prefix, target := string(m[1]), string(m[2])
		if !strings.HasSuffix(prefix, "/") || strings.HasPrefix(target, "/") {
			continue // "@x*" or an absolute target: none a link would spell
		}
		out = append(out, Alias{Prefix: prefix, Dir: path.Join(base, target)})
	}
	return out
}
