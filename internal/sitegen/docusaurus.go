// Package sitegen reads what a site generator's own configuration says about where its pages live, for
// `evalgate init` and the site presets of tool:links (README "Links on real sites"): Docusaurus' content
// plugin instances, Hugo's content root and module mounts, an Astro site's import aliases. It reads a
// config file only inside the repository, as repofs judges every path page or config text names, and
// never runs one.
package sitegen

import (
	"slices"
	"strings"
)

// DocusaurusConfigs are the names of a Docusaurus site's config file, in the order Docusaurus looks for
// them in the site folder.
var DocusaurusConfigs = []string{"docusaurus.config.ts", "docusaurus.config.js", "docusaurus.config.mjs",
	"docusaurus.config.mts", "docusaurus.config.cjs", "docusaurus.config.cts"}

// MaxConfig is the most of a generator's config file read (1 MiB); a larger one is read as none.
const MaxConfig = 1 << 20

// ReadDocusaurus is the content plugin instances of the Docusaurus site in dir, inside the repository
// repo, as its config file says (DocusaurusInstances); without a readable one, the defaults.
func ReadDocusaurus(repo, dir string) []Instance {
	for _, name := range DocusaurusConfigs {
		if b, ok := ReadConfig(repo, dir, name); ok {
			return DocusaurusInstances(b)
		}
	}
	return DocusaurusInstances(nil)
}

// Instance is one content plugin instance of a Docusaurus site: a folder of pages and the URL prefix
// they are served at.
type Instance struct {
	Kind  string // "docs", "blog" or "pages"
	Path  string // the folder, relative to the site folder, slash-separated and cleaned ("../docs")
	Route string // the URL prefix, without slashes: "docs", or "" for the site root
}

// The instances of the classic preset when its config says nothing of them: plugin-content-docs, -blog
// and -pages, whose path and routeBasePath default to docs, blog and src/pages at /.
var defaultInstances = []Instance{
	{Kind: "docs", Path: "docs", Route: "docs"},
	{Kind: "blog", Path: "blog", Route: "blog"},
	{Kind: "pages", Path: "src/pages", Route: ""},
}

// DocusaurusInstances reads a docusaurus.config.{js,ts,mjs,...} text for the site's content plugin
// instances: the classic preset's docs, blog and pages options (`docs: {path: "../docs",
// routeBasePath: "/"}`, or `docs: false`) and each `["@docusaurus/plugin-content-docs", {id, path,
// routeBasePath}]` among the plugins. Options may be written in place or as a variable the file
// assigns an object literal to (`const docsOptions = {...}`, then `docs: docsOptions` or
// `[plugin, docsOptions]`).
//
// It does not run the file, it reads its object literals: an instance whose path or route is not a
// string literal (a call, a condition) is left out, and so is what a syntax it does not follow hides
// (a regular expression holding a quote). An option the text does not give keeps its default; a text
// that gives none (or no text) is every default instance.
func DocusaurusInstances(src []byte) []Instance {
	sc := &jsScanner{src: src}
	sc.scan()
	sc.resolve()
	var out []Instance
	for _, def := range defaultInstances {
		if in, given := sc.preset[def.Kind]; given {
			if in != nil {
				out = append(out, *in)
			}
			continue
		}
		out = append(out, def)
	}
	for _, p := range sc.plugins {
		if p.id == "" {
			// The plugin's default instance, which a site gives as a plugin instead of through the
			// preset: it takes the place of the preset's.
			out = slices.DeleteFunc(out, func(in Instance) bool { return in.Kind == p.Kind })
		}
		if !slices.Contains(out, p.Instance) {
			out = append(out, p.Instance)
		}
	}
	return out
}

// NotInstance reports whether a top folder of a Docusaurus site is no instance whatever it holds: a
// hidden or partial (_) folder, node_modules, src (src/pages is an instance of its own), static, i18n,
// build, and versioned_* (the earlier versions of a docs instance).
func NotInstance(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, "versioned_") ||
		slices.Contains([]string{"node_modules", "src", "static", "i18n", "build"}, name)
}

// pluginKinds are the content plugins by the words their names hold (`@docusaurus/plugin-content-docs`,
// its short form `content-docs`, or a path ending in either).
var pluginKinds = []struct{ word, kind string }{
	{"content-docs", "docs"}, {"content-blog", "blog"}, {"content-pages", "pages"},
}

// pluginKind is the kind of content plugin a plugin's name says, or "".
func pluginKind(name string) string {
	for _, pk := range pluginKinds {
		if strings.Contains(name, pk.word) {
			return pk.kind
		}
	}
	return ""
}

// resolve takes the options given by a variable's name from the object the text assigns it, where it
// assigns one: a preset's, where the text gave the preset none in place, and a plugin's.
func (sc *jsScanner) resolve() {
	for _, r := range sc.presetRefs {
		f := sc.vars[r.name]
		if f == nil {
			continue
		}
		_, hasPath := f.strs["path"]
		_, hasRoute := f.strs["routeBasePath"]
		if in, ok := instanceOf(r.kind, f); !ok {
			sc.preset[r.kind] = nil
		} else if hasPath || hasRoute {
			sc.preset[r.kind] = &in
		}
	}
	for _, r := range sc.pluginRefs {
		if f := sc.vars[r.name]; f != nil {
			if in, ok := instanceOf(r.kind, f); ok {
				sc.plugins = append(sc.plugins, plugin{Instance: in, id: f.strs["id"]})
			}
		}
	}
}

// plugin is an instance given in plugins, with its id ("" for the default instance).
type plugin struct {
	Instance
	id string
}
