package grader

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/sitegen"
)

// What a site's generator serves beyond its content root, read from the generator's own config where
// it says (README "Links on real sites"): a Docusaurus site's instances, a Hugo site's module mounts,
// an Astro site's own pages and import aliases.

// mounted indexes the pages a Hugo site's config mounts into its content (sitegen.ReadHugo), from the
// site folder above the content root, site: a folder's pages below the target's URL, a file at the target's.
// A source outside the repository is none evalgate reads.
func (s *builtinSite) mounted(site string, mounts []sitegen.HugoMount, walk func(dir, prefix, kind string), add func(url, file string),
	rules []sitegen.HugoPermalink) {
	for _, m := range mounts {
		src, err := repofs.Within(s.repo, site, filepath.FromSlash(m.Source))
		if err != nil {
			continue
		}
		fi, err := os.Stat(src)
		switch {
		case err != nil:
		case fi.IsDir():
			walk(src, "/"+m.Target, "")
		case fi.Mode().IsRegular() && builtinPageExts[strings.ToLower(filepath.Ext(src))]:
			for _, u := range s.pageURLs("", "", m.Target, src, rules) {
				add(u, src)
			}
		}
	}
}

// builtinFolder is a folder of a Docusaurus site's pages: the instance it is (docs, blog or pages) and
// the URL prefix it is served at ("/docs", "" for the site root).
type builtinFolder struct{ dir, prefix, kind string }

// folders are a Docusaurus site's folders of pages: the content plugin instances its config names
// (sitegen.ReadDocusaurus: docs, blog and src/pages unless it says otherwise, a folder beside the
// site's as well, inside the repository), then every other top-level folder holding pages, served at
// /FOLDER as a docs instance the config may name in a way evalgate cannot read.
func (s *builtinSite) folders() []builtinFolder {
	var out []builtinFolder
	taken := map[string]bool{}
	for _, in := range sitegen.ReadDocusaurus(s.repo, s.root) {
		dir, err := repofs.Within(s.repo, s.root, filepath.FromSlash(in.Path))
		if err != nil || taken[dir] {
			continue // a folder outside the repository is none evalgate reads
		}
		prefix := ""
		if in.Route != "" {
			prefix = "/" + in.Route
		}
		out = append(out, builtinFolder{dir: dir, prefix: prefix, kind: in.Kind})
		taken[dir] = true
	}
	entries, _ := os.ReadDir(s.root)
	for _, e := range entries {
		n := e.Name()
		dir := filepath.Join(s.root, n)
		if !e.IsDir() || taken[dir] || sitegen.NotInstance(n) {
			continue
		}
		out = append(out, builtinFolder{dir: dir, prefix: "/" + n, kind: "docs"})
	}
	return out
}

// builtinGenerated are the URL prefixes an instance serves pages at that no file holds: a docs
// instance's tag and category indexes, a blog's tag, author, archive and list pages.
func builtinGenerated(f builtinFolder) []string {
	switch f.kind {
	case "docs":
		return []string{f.prefix + "/tags", f.prefix + "/category/"}
	case "blog":
		return []string{f.prefix + "/tags", f.prefix + "/authors", f.prefix + "/archive", f.prefix + "/page/"}
	}
	return nil
}

// astro indexes what the Astro site around the content root (root's src/content/docs) serves besides
// it: src/pages, each file at its path, a dynamic route everything below its folder, and the import
// aliases of its tsconfig.json that links may start with; and which locale an untranslated page falls
// back to.
func (s *builtinSite) astro(ix *builtinSiteIndex, walk func(dir, prefix, kind string)) {
	site, ok := strings.CutSuffix(s.root, filepath.Join("src", "content", "docs"))
	if !ok {
		return
	}
	ix.defaultLocale = sitegen.StarlightDefaultLocale(s.repo, site)
	pages := filepath.Join(site, "src", "pages")
	walk(pages, "", "astro")
	ix.generated = append(ix.generated, builtinAstroRoutes(pages)...)
	for _, a := range sitegen.ReadAliases(s.repo, site) {
		if dir, err := repofs.Within(s.repo, site, filepath.FromSlash(a.Dir)); err == nil {
			ix.aliases = append(ix.aliases, builtinAlias{prefix: a.Prefix, dir: dir})
		}
	}
}

// builtinAstroRoutes are the URL prefixes an Astro site's dynamic routes serve below (src/pages/tools/[name].astro
// serves /tools/...); a dynamic route at the top ([...slug].astro) names none, or no URL would be checked.
func builtinAstroRoutes(pages string) []string {
	var out []string
	_ = filepath.WalkDir(pages, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !builtinAstroPage[strings.ToLower(filepath.Ext(p))] && !builtinPageExts[strings.ToLower(filepath.Ext(p))] {
			return nil
		}
		rel, err := filepath.Rel(pages, p)
		if err != nil || !strings.Contains(rel, "[") {
			return nil
		}
		var prefix []string
		for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
			if strings.Contains(seg, "[") {
				break
			}
			prefix = append(prefix, seg)
		}
		if len(prefix) > 0 {
			out = append(out, "/"+strings.Join(prefix, "/")+"/")
		}
		return nil
	})
	return out
}

// builtinAstroPage are the page files of an Astro site's src/pages besides Markdown (Astro docs:
// basics/astro-pages); a dynamic route ([slug].astro) serves URLs no file names.
var builtinAstroPage = map[string]bool{".astro": true, ".html": true}

// permalink is the URL a Hugo site's permalinks rules serve the page file abs at (sitegen.Permalink),
// rel being its path below the folder walked, which is served at prefix; false when no rule covers it.
func (s *builtinSite) permalink(rules []sitegen.HugoPermalink, prefix, rel, abs string, fm *frontmatter.Node) (string, bool) {
	if len(rules) == 0 {
		return "", false
	}
	dir, file := path.Split(rel)
	base := strings.TrimSuffix(file, path.Ext(file))
	if lang := path.Ext(base); lang != "" && builtinLocale.MatchString(lang[1:]) {
		base = strings.TrimSuffix(base, lang) // x.fr.md is x in French
	}
	segs := strings.Split(strings.Trim(path.Join(prefix, dir), "/"), "/")
	if segs[0] == "" {
		segs = nil
	}
	pg := sitegen.HugoPage{Kind: "page", BaseName: base, Date: sitegen.HugoDate(fm)}
	if e := fm.Get("title"); e != nil && e.Value.Kind == frontmatter.String {
		pg.Title = e.Value.Text
	}
	if e := fm.Get("slug"); e != nil && e.Value.Kind == frontmatter.String {
		pg.Slug = e.Value.Text
	}
	pagePath := segs
	switch base {
	case "_index":
		if len(segs) == 0 {
			return "", false // the home page
		}
		pg.Kind, pg.Sections = "section", segs
	case "index":
		if len(segs) > 0 {
			pg.BaseName = segs[len(segs)-1] // a bundle: its folder names it
		}
	default:
		pagePath = append(slices.Clip(segs), base)
	}
	if pg.Kind == "page" {
		// The current section: the nearest folder above the page that is a section, a bundle's folder
		// being the page itself.
		folder, n := filepath.Dir(abs), len(segs)
		if base == "index" {
			folder, n = filepath.Dir(folder), n-1
		}
		mountN := 0 // the leading segments that are the prefix's, no folder walked
		if p := strings.Trim(prefix, "/"); p != "" {
			mountN = strings.Count(p, "/") + 1
		}
		for ; n > 1; n, folder = n-1, filepath.Dir(folder) {
			if n > mountN && builtinHasIndex(folder) {
				break
			}
		}
		if n > 0 {
			pg.Sections = segs[:n]
		}
	}
	pg.Path = strings.ToLower(strings.ReplaceAll("/"+strings.Join(pagePath, "/"), " ", "-"))
	return sitegen.Permalink(rules, pg)
}

// builtinHasIndex reports whether a folder holds an _index page, which makes it a Hugo section.
func builtinHasIndex(folder string) bool {
	for ext := range builtinPageExts {
		if fi, err := os.Stat(filepath.Join(folder, "_index"+ext)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}
