// Package sitegen reads what a site generator's own configuration says about where its pages live, for
// `evalgate init` and the site presets of tool:links (README "Links on real sites"): Docusaurus' content
// plugin instances, Hugo's content root and module mounts, an Astro site's import aliases. It reads a
// config file only inside the repository, as repofs judges every path page or config text names, and
// never runs one.
package sitegen

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/repofs"
)

// DocusaurusConfigs are the names of a Docusaurus site's config file, in the order Docusaurus looks for
// them in the site folder.
var DocusaurusConfigs = []string{"docusaurus.config.ts", "docusaurus.config.js", "docusaurus.config.mjs",
	"docusaurus.config.mts", "docusaurus.config.cjs", "docusaurus.config.cts"}

// MaxConfig is the most of a generator's config file read (1 MiB); a larger one is read as none.
const MaxConfig = 1 << 20

// ReadDocusaurus is the content plugin instances of the Docusaurus site in dir, inside the repository
// repo, as its config file says (DocusaurusInstances; without a readable one, the defaults), then the
// earlier versions of its docs instances (DocusaurusVersions). When a version is served at a docs
// instance's route, the current version is served below it, at next (/docs/next).
func ReadDocusaurus(repo, dir string) []Instance {
	var out []Instance
	for _, name := range DocusaurusConfigs {
		if b, ok := ReadConfig(repo, dir, name); ok {
			out = DocusaurusInstances(b)
			break
		}
	}
	if out == nil {
		out = DocusaurusInstances(nil)
	}
	var versions []Instance
	for i, in := range out {
		vs := DocusaurusVersions(repo, dir, in)
		if slices.ContainsFunc(vs, func(v Instance) bool { return v.Route == in.Route }) {
			out[i].Route = path.Join(in.Route, "next")
		}
		versions = append(versions, vs...)
	}
	return append(out, versions...)
}

// Instance is one content plugin instance of a Docusaurus site: a folder of pages and the URL prefix
// they are served at.
type Instance struct {
	Kind  string // "docs", "blog" or "pages"
	Path  string // the folder, relative to the site folder, slash-separated and cleaned ("../docs")
	Route string // the URL prefix, without slashes: "docs", or "" for the site root

	ID          string // the instance's id option, "" when not given (the default instance)
	LastVersion string // a docs instance's lastVersion option, "" when not given
	Version     string // the name of the earlier version of a docs instance it is, "" for the current
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
		if p.ID == "" {
			// The plugin's default instance, which a site gives as a plugin instead of through the
			// preset: it takes the place of the preset's.
			out = slices.DeleteFunc(out, func(in Instance) bool { return in.Kind == p.Kind })
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// DocusaurusVersions are the earlier versions of the docs instance in of the Docusaurus site in dir
// (inside the repository repo), as the instance's versions file in the site folder names them
// (versions.json; ID_versions.json for an instance with an id), each an instance of its own: the folder
// versioned_docs/version-NAME (ID_versioned_docs/...) served at the instance's route and NAME, but for
// the version served first (lastVersion, by default the file's first, the newest), which is served at
// the route itself (plugin-content-docs versions/files.ts and version.ts). A version whose folder is
// not there (inside the repository) is none; so is every version of a versions file that is not a JSON
// array of names. A version's own path option is not read.
func DocusaurusVersions(repo, dir string, in Instance) []Instance {
	if in.Kind != "docs" {
		return nil
	}
	prefix := ""
	if in.ID != "" && in.ID != "default" {
		prefix = in.ID + "_"
	}
	b, ok := ReadConfig(repo, dir, prefix+"versions.json")
	if !ok {
		return nil
	}
	var names []string
	if json.Unmarshal(b, &names) != nil {
		return nil
	}
	first := in.LastVersion
	for _, n := range names {
		if first == "" && n != "current" {
			first = n
		}
	}
	var out []Instance
	for _, n := range names {
		folder := prefix + "versioned_docs/version-" + n
		if n == "current" || !versionName(n) || !isDir(repo, dir, folder) {
			continue
		}
		route := path.Join(in.Route, n)
		if n == first {
			route = in.Route
		}
		out = append(out, Instance{Kind: "docs", Path: folder, Route: route, ID: in.ID, Version: n})
	}
	return out
}

// isDir says whether the folder rel of dir is a directory inside the repository repo (repofs.Within).
func isDir(repo, dir, rel string) bool {
	if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil || !fi.IsDir() {
		return false // one system call for a version named but not there, before the full judgement
	}
	_, err := repofs.Within(repo, dir, filepath.FromSlash(rel))
	return err == nil
}

// versionName says whether Docusaurus accepts n as a version's name: not blank, at most 32 characters,
// no slash, backslash, <>:"|?* or control character, not . or .. (plugin-content-docs
// versions/validation.ts).
func versionName(n string) bool {
	if strings.TrimSpace(n) == "" || utf8.RuneCountInString(n) > 32 || n == "." || n == ".." {
		return false
	}
	return !strings.ContainsFunc(n, func(r rune) bool { return r < 0x20 || strings.ContainsRune(`/\<>:"|?*`, r) })
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
		if in, ok := instanceOf(r.kind, f); !ok {
			sc.preset[r.kind] = nil
		} else if placed(f) {
			sc.preset[r.kind] = &in
		}
	}
	for _, r := range sc.pluginRefs {
		if f := sc.vars[r.name]; f != nil {
			if in, ok := instanceOf(r.kind, f); ok {
				sc.plugins = append(sc.plugins, in)
			}
		}
	}
}
