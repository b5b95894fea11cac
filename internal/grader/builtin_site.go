package grader

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/yuin/goldmark/ast"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/shape"
	"github.com/evalgate/evalgate/internal/sitegen"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// tool:links on documentation sites (README "Links on real sites"): a site preset says how its generator
// turns page files into URLs, and a link is resolved the way the built site serves it. The facts behind
// each preset are the generators' own documentation and source; README lists them.

// builtinPreset is what a site preset fixes.
type builtinPreset struct {
	root   string   // the default content root, relative to the eval's directory
	static []string // the default static directories, relative to the eval's directory
	// lower: the generator lowercases URLs (Hugo), or slugs each segment (Starlight, which lowercases).
	lower, slugSegments bool
	// indexNames are the file names (without extension) served at their directory's URL.
	indexNames []string
	// headingIDs: {#custom-id} at the end of a heading sets its id (Hugo, Docusaurus, MkDocs attr_list).
	headingIDs bool
	// hugoMounts: the site's config may mount other folders and files into its content (Hugo's module
	// mounts), which are pages at their target's URL.
	hugoMounts bool
	// trimSlugs: a heading's text is trimmed before it is slugged (Hugo).
	trimSlugs bool
	// shortcodeHeadings: a heading's shortcodes render what no static check sees (an icon, mostly), so
	// the slug of the heading without them is an anchor too (Hugo).
	shortcodeHeadings bool
	// mkdocsSlugs: heading ids by Python-Markdown's toc slugify (ASCII, "_1" for repeats), not GitHub's.
	mkdocsSlugs bool
	// footnoteIDs: a footnote [^label] is the anchor fn:label, its reference fnref:label (Python-Markdown's
	// footnotes extension, which MkDocs sites enable).
	footnoteIDs bool
	// fileRelative: a relative link to a page file (a/b.md) resolves from the file's directory, as the
	// generator rewrites it (MkDocs, Docusaurus, Hugo's link render hook).
	fileRelative bool
	// contentOnly: a file is served only from the content root (a page's resources, MkDocs' docs_dir):
	// a relative link that reaches a file of the repository outside it (../../hugo.toml, ../README.md)
	// names no URL of the built site (Hugo, MkDocs; Docusaurus and Astro bundle any file a page links).
	contentOnly bool
	// getPage: a relative link is also a page path, tried from the page's directory and then from the
	// content root, with or without .md (Hugo's link render hook, Page.GetPage).
	getPage bool
	// termIDs: definition-list terms ("Term" then ": definition") get ids as headings do (Hugo's
	// autoDefinitionTermID).
	termIDs bool
	// mdxBlocks: ```mdx-code-block fences are MDX, whose id attributes are anchors (Docusaurus).
	mdxBlocks bool
	// numberPrefixes: "01-intro.md" is served as "intro" (Docusaurus).
	numberPrefixes bool
	// bareURLs: a page is served at its URL without the trailing slash as well (Docusaurus' default,
	// trailingSlash undefined), where a browser resolves a relative URL from the page's folder.
	bareURLs bool
	// instances: the root is a Docusaurus site folder, whose content plugin instances its config names
	// (docs, blog and src/pages by default), and whose every other top-level folder holding pages is
	// served at /FOLDER (another docs instance).
	instances bool
	// localeFallback: /LOCALE/x/ falls back to /x/ when the page has no translation (Starlight).
	localeFallback bool
	// astroPages: the Astro site around the content root (root's src/content/docs) also serves
	// src/pages, each file at its path (Starlight: a playground, a landing page).
	astroPages bool
	// generated are URL prefixes the generator serves pages at that no file holds; a Docusaurus site's
	// come from its instances too (builtinGenerated), in the site's index.
	generated []string
	// siteAlias is a prefix naming the site directory in links (Docusaurus' @site/).
	siteAlias string
	// themeFiles are files the generator's default theme serves at the site root (MkDocs' favicon).
	themeFiles []string
	// frontmatter keys that change or add a page's URLs.
	slugKey, urlKey, aliasesKey, idKey bool
	// includes matches what pulls other content into a page (its ids unseen), or nil.
	includes *regexp.Regexp
}

var builtinPresets = map[string]*builtinPreset{
	"hugo": {root: "content", static: []string{"static"}, lower: true, indexNames: []string{"_index", "index"},
		headingIDs: true, trimSlugs: true, shortcodeHeadings: true, hugoMounts: true, termIDs: true, fileRelative: true, getPage: true, slugKey: true, urlKey: true, aliasesKey: true,
		contentOnly: true,
		// The default taxonomies' list and term pages, the sitemap and the home RSS feed (Hugo docs:
		// content-management/taxonomies, templates/sitemap, templates/rss).
		generated: []string{"/tags/", "/categories/", "/sitemap.xml", "/index.xml"}, includes: builtinHugoIncludes},
	"docusaurus": {root: ".", static: []string{"static"}, indexNames: []string{"index", "readme", "README"},
		headingIDs: true, mdxBlocks: true, fileRelative: true, numberPrefixes: true, bareURLs: true, instances: true, slugKey: true, idKey: true,
		generated: []string{"/__docusaurus/debug"}, siteAlias: "@site/", includes: builtinMDXIncludes},
	"mkdocs": {root: "docs", indexNames: []string{"index", "README"}, headingIDs: true, mkdocsSlugs: true, footnoteIDs: true,
		fileRelative: true, contentOnly: true, themeFiles: []string{"img/favicon.ico"}, includes: builtinMkDocsIncludes},
	"starlight": {root: "src/content/docs", static: []string{"public"}, slugSegments: true, lower: true,
		indexNames: []string{"index"}, localeFallback: true, astroPages: true, slugKey: true, includes: builtinMDXIncludes},
}

// builtinSite is a resolved site: its preset and its absolute directories.
type builtinSite struct {
	*builtinPreset
	name   string
	repo   string // the repository root, which every folder stays inside
	root   string // absolute content root
	static []string
	ignore *regexp.Regexp // any of the ignore patterns; nil without them
}

// within reports whether the absolute path p is dir or inside it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// contentName names the content root for a message: repository-relative, with a final slash.
func (s *builtinSite) contentName() string {
	if rel, err := filepath.Rel(s.repo, s.root); err == nil && rel != "." {
		return filepath.ToSlash(rel) + "/"
	}
	return "the content root"
}

// builtinTemplated matches a link target holding templating or a shortcode: it is no path to check.
var builtinTemplated = regexp.MustCompile(`\{\{|\{%|%\}|\}\}`)

// builtinSiteOf reads the site options of tool:links; nil for the github preset without ignore. Paths
// must stay inside the repository.
func builtinSiteOf(in *ToolInput) (*builtinSite, error) {
	name, _ := tooldef.OptString(in.Options, "site")
	ignore, err := builtinIgnore(tooldef.OptList(in.Options, "ignore"))
	if err != nil {
		return nil, err
	}
	preset := builtinPresets[name]
	if preset == nil {
		preset = &builtinPreset{}
		name = "github"
	}
	s := &builtinSite{builtinPreset: preset, name: name, repo: in.RepoRoot, ignore: ignore}
	dir := in.OptionsDir
	if dir == "" {
		dir = in.Dir
	}
	within := func(rel string) (string, error) {
		abs, err := repofs.Within(in.RepoRoot, dir, filepath.FromSlash(rel))
		if err != nil {
			return "", builtinRefused(fmt.Sprintf("tool:links: directory %q %s", rel, builtinRefusal(err)))
		}
		return abs, nil
	}
	root, given := tooldef.OptString(in.Options, "root")
	switch {
	case given:
	case preset.root != "":
		root = preset.root
	}
	if root != "" {
		abs, err := within(root)
		if err != nil {
			return nil, err
		}
		s.root = abs
	}
	statics := preset.static
	if in.Options.Get("static") != nil {
		statics = tooldef.OptList(in.Options, "static")
	}
	for _, d := range statics {
		abs, err := within(d)
		if err != nil {
			return nil, err
		}
		s.static = append(s.static, abs)
	}
	return s, nil
}

// skip reports whether a link target is not checked: templating, or an ignore pattern.
func (s *builtinSite) skip(target string) bool {
	if builtinTemplated.MatchString(target) {
		return true
	}
	return s.ignore != nil && s.ignore.MatchString(target)
}

// builtinIgnore compiles tool:links' ignore patterns into one alternation, each a group of its own (a
// flag such as (?i) lasts to its group's end), so a link is tried once, not once a pattern: 16,000
// patterns over 10,000 links took a minute, and shape.Compile, which keeps no expression past 4 KiB or
// its 4,096th, compiled every one again for each page. The alternation is remembered whole, for the few
// lists a run has (builtinIgnoreMax).
func builtinIgnore(patterns []string) (*regexp.Regexp, error) {
	if len(patterns) == 0 {
		return nil, nil
	}
	if len(patterns) == 1 {
		return builtinCompileIgnore(patterns[0])
	}
	key := strings.Join(patterns, "\x00")
	if re, ok := builtinIgnores.Load(key); ok {
		return re.(*regexp.Regexp), nil
	}
	var b strings.Builder
	for i, p := range patterns {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString("(?:" + p + ")")
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		for _, p := range patterns { // name the pattern at fault (CheckOptions has refused it already)
			if _, err := builtinCompileIgnore(p); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("ignore patterns: %v", err)
	}
	if builtinIgnoreN.Load() < builtinIgnoreMax {
		if _, loaded := builtinIgnores.LoadOrStore(key, re); !loaded {
			builtinIgnoreN.Add(1)
		}
	}
	return re, nil
}

func builtinCompileIgnore(p string) (*regexp.Regexp, error) {
	re, err := shape.Compile(p) // CheckOptions compiled it already: this is the same one
	if err != nil {
		return nil, fmt.Errorf("ignore pattern %q: %v", p, err)
	}
	return re, nil
}

// builtinIgnoreMax bounds the ignore lists remembered: a config's evals have a few.
const builtinIgnoreMax = 64

var (
	builtinIgnores sync.Map // patterns joined by NUL -> their alternation
	builtinIgnoreN atomic.Int32
)

// builtinSiteIndex maps the site's URLs to their page files.
type builtinSiteIndex struct {
	pages map[string]string // URL key -> absolute page file
	urls  map[string]string // absolute page file -> its URL path ("/a/b/")
	// dirs are the folders whose page files are reachable by file path: a Docusaurus site's instances,
	// none for the other presets (their root is the content).
	dirs []string
	// generated are the URL prefixes the site serves pages at that no file holds: the preset's, and
	// its instances'.
	generated []string
	// indexes are the URL keys of single pages the site generates from metadata: a Docusaurus
	// category's index with a slug of its own.
	indexes map[string]bool
	// folders are a Docusaurus site's folders of pages, with their URL prefixes.
	folders []builtinFolder
	// build is what git said of page files a link would be served from (builtinSite.builtPages).
	build builtinBuild
	// defaultLocale is a Starlight site's defaultLocale when it is not the root locale ("en").
	defaultLocale string
	// aliases are the import aliases an Astro site's links may start with ("@assets/").
	aliases []builtinAlias
	// permalinks are a Hugo site's rules that serve pages at URLs made of their dates and titles.
	permalinks []sitegen.HugoPermalink
}

// builtinAlias is an import alias and the absolute folder it names.
type builtinAlias struct{ prefix, dir string }

// key normalises a URL path for lookup: percent-decoded already, no trailing slash, no index.html or
// .html, lowercased or slugged as the generator does.
func (s *builtinSite) key(p string) string {
	p = strings.TrimSuffix(p, "/index.html")
	p = strings.TrimSuffix(p, ".html")
	p = strings.Trim(p, "/")
	if s.slugSegments {
		p = eachSegment(p, builtinSlug)
	} else if s.lower {
		p = strings.ToLower(p)
	}
	return p
}

// index returns the site's URL index, built once per site and root. A build the run's end stops (a
// signal: README "Exit statuses") is the run's error, for every page that asks.
func (s *builtinSite) index(ctx context.Context, c *PageCache) (*builtinSiteIndex, error) {
	v, err := c.builtinGet("site\x00"+s.name+"\x00"+s.root, func() (any, error) {
		return s.build(ctx)
	})
	if err != nil {
		return nil, err
	}
	return v.(*builtinSiteIndex), nil
}

// builtinWalkCheck is how many files a site walk passes between two looks at the run's context: a
// site of 64,000 pages took 6 s to index.
const builtinWalkCheck = 256

// builtinPageExts are the page files of a site.
var builtinPageExts = map[string]bool{".md": true, ".mdx": true, ".markdown": true}

// builtinReactPage are Docusaurus' React pages in src/pages, served like Markdown pages.
var builtinReactPage = map[string]bool{".js": true, ".jsx": true, ".ts": true, ".tsx": true}

func (s *builtinSite) build(ctx context.Context) (*builtinSiteIndex, error) {
	ix := &builtinSiteIndex{pages: map[string]string{}, urls: map[string]string{}, generated: slices.Clone(s.generated),
		indexes: map[string]bool{}}
	add := func(url, file string) {
		k := s.key(url)
		if _, taken := ix.pages[k]; !taken {
			ix.pages[k] = file
		}
		if _, ok := ix.urls[file]; !ok {
			ix.urls[file] = "/" + strings.Trim(url, "/") + "/"
		}
	}
	var stopped error // the run's end, which stops every walk
	seen := 0
	walk := func(dir, prefix, kind string) {
		if stopped != nil {
			return
		}
		stopped = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if seen++; seen%builtinWalkCheck == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if err != nil {
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if _, err := repofs.Within(s.repo, filepath.Dir(p), name); err != nil {
					return nil // a symlink that leaves the repository, or enters .git, is no file of the site
				}
			}
			if kind == "docs" && builtinCategoryFiles[name] {
				if slug := builtinCategorySlug(p); slug != "" {
					ix.indexes[s.key(path.Join("/", prefix, slug))] = true
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(name))
			if !builtinPageExts[ext] && !(kind == "pages" && builtinReactPage[ext]) && !(kind == "astro" && builtinAstroPage[ext]) ||
				strings.HasPrefix(name, "_") && !s.isIndex(name) {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return nil
			}
			for _, u := range s.pageURLs(prefix, kind, filepath.ToSlash(rel), p, ix.permalinks) {
				add(u, p)
			}
			return nil
		})
	}
	switch {
	case s.root == "":
	case s.instances:
		ix.folders = s.folders()
		for _, f := range ix.folders {
			walk(f.dir, f.prefix, f.kind)
			ix.dirs = append(ix.dirs, f.dir)
			ix.generated = append(ix.generated, builtinGenerated(f)...)
		}
	default:
		site, hugo := "", sitegen.Hugo{}
		if s.hugoMounts {
			if dir, ok := sitegen.FindHugo(s.repo, s.root); ok {
				site, hugo = dir, sitegen.ReadHugo(s.repo, dir)
				ix.permalinks = hugo.Permalinks
			}
		}
		walk(s.root, "", "")
		if site != "" {
			s.mounted(site, hugo.Mounts, walk, add, ix.permalinks)
		}
		if s.astroPages {
			s.astro(ix, walk)
		}
	}
	if stopped != nil {
		return nil, stopped
	}
	return ix, nil
}

// isIndex reports whether a file name is served at its directory's URL.
func (s *builtinSite) isIndex(name string) bool {
	base := strings.TrimSuffix(name, filepath.Ext(name))
	for _, n := range s.indexNames {
		if base == n {
			return true
		}
	}
	return false
}

// builtinNumberPrefix matches Docusaurus' number prefix ("01-", "2_", "3. "), not a date or version.
var builtinNumberPrefix = regexp.MustCompile(`^\d+\s*[-_.]+\s*`)
var builtinDateLike = regexp.MustCompile(`^\d+[-_.]\d+`)

// builtinBlogDate matches a Docusaurus blog post's dated name: YYYY-MM-DD-slug or YYYY/MM/DD/slug.
var builtinBlogDate = regexp.MustCompile(`^(\d{4})[-/](\d{2})[-/](\d{2})[-/](.+)$`)

// pageURLs are the URLs a page file is served at: its path URL and those its frontmatter adds. The first
// is the page's own, which a relative URL on it resolves from: its url (Hugo), else its slug, else its id
// (Docusaurus), else its path URL; aliases only lead to it.
func (s *builtinSite) pageURLs(prefix, kind, rel, abs string, rules []sitegen.HugoPermalink) []string {
	dir, file := path.Split(rel)
	base := strings.TrimSuffix(file, path.Ext(file))
	dir = strings.TrimSuffix(dir, "/")
	if s.numberPrefixes {
		dir, base = eachSegment(dir, stripNumberPrefix), stripNumberPrefix(base)
	}
	last := base
	if s.isIndex(file) || s.instances && dir != "" && strings.EqualFold(path.Base(dir), base) {
		last = ""
	}
	if kind == "blog" {
		if m := builtinBlogDate.FindStringSubmatch(strings.Trim(dir+"/"+base, "/")); m != nil {
			dir, last = m[1]+"/"+m[2]+"/"+m[3], strings.TrimSuffix(m[4], "/index")
		}
	}
	urls := []string{path.Join(prefix, dir, last)}
	if !s.slugKey && !s.urlKey && !s.aliasesKey && !s.idKey && len(rules) == 0 {
		return urls
	}
	fm := builtinFrontmatter(abs)
	if fm == nil && len(rules) == 0 {
		return urls
	}
	str := func(key string) string {
		if e := fm.Get(key); e != nil && e.Value.Kind == frontmatter.String {
			return e.Value.Text
		}
		return ""
	}
	own := 0
	u, permalinked := s.permalink(rules, prefix, rel, abs, fm)
	if permalinked {
		// The pattern makes the page's URL of its slug, if it has one (Hugo docs: configuration/permalinks).
		urls = append(urls, u)
		own = len(urls) - 1
	} else if v := str("id"); s.idKey && v != "" && last != "" {
		urls = append(urls, path.Join(prefix, dir, v))
		own = len(urls) - 1
	}
	if v := str("slug"); s.slugKey && v != "" && !permalinked {
		switch {
		case s.name == "hugo":
			urls = append(urls, path.Join(prefix, dir, v))
		case strings.HasPrefix(v, "/") || s.name == "starlight" || kind == "blog":
			// A blog post's slug is its whole path below the blog's (plugin-content-blog).
			urls = append(urls, path.Join(prefix, v))
		default:
			urls = append(urls, path.Join(prefix, dir, v))
		}
		own = len(urls) - 1
	}
	if v := str("url"); s.urlKey && v != "" {
		urls = append(urls, v)
		own = len(urls) - 1
	}
	urls[0], urls[own] = urls[own], urls[0]
	if e := fm.Get("aliases"); s.aliasesKey && e != nil && e.Value.Kind == frontmatter.List {
		for _, it := range e.Value.Items {
			if it.Kind == frontmatter.String {
				a := it.Text
				if !strings.HasPrefix(a, "/") {
					a = path.Join(prefix, dir, a)
				}
				urls = append(urls, a)
			}
		}
	}
	return urls
}

// eachSegment applies f to each '/'-separated segment of p.
func eachSegment(p string, f func(string) string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = f(seg)
	}
	return strings.Join(segs, "/")
}

func stripNumberPrefix(s string) string {
	if builtinDateLike.MatchString(s) {
		return s
	}
	if loc := builtinNumberPrefix.FindStringIndex(s); loc != nil && loc[1] < len(s) {
		return s[loc[1]:]
	}
	return s
}

// builtinCategoryFiles are the names of a Docusaurus docs folder's category metadata.
var builtinCategoryFiles = map[string]bool{"_category_.json": true, "_category_.yml": true, "_category_.yaml": true}

// builtinCategorySlug is the URL of the index page Docusaurus generates for a docs folder whose
// category metadata (_category_.json or .yml) asks for one with a slug of its own (`link: {type:
// generated-index, slug: /get-started}`), relative to its version's URL; or "" (the default
// /category/LABEL is generated already, builtinGenerated). A slug is relative to the version however
// it is written (plugin-content-docs sidebars/postProcessor.ts).
func builtinCategorySlug(abs string) string {
	src, err := repofs.ReadFile(abs, frontmatter.MaxSize)
	if err != nil {
		return ""
	}
	var root *frontmatter.Node
	if strings.HasSuffix(abs, ".json") {
		root, _ = frontmatter.ParseJSON(src, 1)
	} else {
		root, _ = frontmatter.ParseYAML(src, 1)
	}
	link := root.Get("link")
	if link == nil {
		return ""
	}
	typ, slug := link.Value.Get("type"), link.Value.Get("slug")
	if typ == nil || typ.Value.Text != "generated-index" || slug == nil || slug.Value.Kind != frontmatter.String {
		return ""
	}
	return strings.Trim(slug.Value.Text, "/")
}

// builtinFrontmatter parses a page's frontmatter, or nil.
func builtinFrontmatter(abs string) *frontmatter.Node {
	src, err := repofs.ReadFile(abs, frontmatter.MaxSize+64)
	if err != nil && len(src) == 0 {
		return nil
	}
	d := frontmatter.Split(src)
	if d.Format == frontmatter.FormatNone {
		return nil
	}
	n, _ := frontmatter.Parse(d)
	return n
}

// generatedURL reports whether the generator serves p without a file (README "Links on real sites").
func (s *builtinSite) generatedURL(ix *builtinSiteIndex, p string) bool {
	if ix.indexes[s.key(p)] {
		return true
	}
	for _, g := range ix.generated {
		if p == strings.TrimSuffix(g, "/") || strings.HasPrefix(p, g) || strings.HasPrefix(p, g+"/") {
			return true
		}
	}
	return slices.Contains(s.themeFiles, strings.TrimPrefix(p, "/"))
}

// lookup finds the page a site URL path names, or "".
func (s *builtinSite) lookup(ix *builtinSiteIndex, p string) string {
	if f, ok := ix.pages[s.key(p)]; ok {
		return f
	}
	if s.localeFallback {
		// /LOCALE/x/ of an untranslated page serves the default locale's x: the root locale's, or
		// the config's defaultLocale's (/en/x/).
		segs := strings.SplitN(strings.Trim(p, "/"), "/", 2)
		if len(segs) == 2 && builtinLocaleDir(s.root, segs[0]) {
			if f, ok := ix.pages[s.key(segs[1])]; ok {
				return f
			}
			if ix.defaultLocale != "" {
				if f, ok := ix.pages[s.key(ix.defaultLocale+"/"+segs[1])]; ok {
					return f
				}
			}
		}
	}
	return ""
}

// builtinLocale matches a locale directory's name: en, pt-br, zh-cn, zh-Hans.
var builtinLocale = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z]{2,4})?$`)

func builtinLocaleDir(root, name string) bool {
	if !builtinLocale.MatchString(name) {
		return false
	}
	fi, err := os.Stat(filepath.Join(root, name))
	return err == nil && fi.IsDir()
}

// What pulls other content into a page, whose ids a static check cannot see, by generator: Hugo's
// include and readfile shortcodes (Hugo's docs, Docsy); an MDX import of a Markdown partial
// (Docusaurus, Starlight); for MkDocs, pymdownx snippets, ::: directives (mkdocstrings, mkdocs-click)
// that generate headings, and mkdocs-macros' Jinja: a line that is one expression (`{{
// pydantic_settings }}`, `{{ render("x") }}`) or an include. A generator's syntax in another's page is
// text (a Docusaurus `::: tip` admonition pulls nothing in).
var (
	builtinHugoIncludes   = regexp.MustCompile(`\{\{[<%]-?\s*(include|readfile)\b`)
	builtinMDXIncludes    = regexp.MustCompile(`(?m)^import\s+\w+\s+from\s+['"][^'"]+\.mdx?['"]`)
	builtinMkDocsIncludes = regexp.MustCompile(`--8<--|(?m)^:::[ \t]+\S|(?m)^[ \t]*\{\{\s*[A-Za-z_][\w.]*\s*(\([^\n]*\))?\s*\}\}[ \t]*$|\{%-?\s*include\b`)
)

// builtinAttrID matches an attribute list's id anywhere in a page: "{#id}", "{ #id .class }" (Hugo block
// attributes, MkDocs attr_list on any block).
var builtinAttrID = regexp.MustCompile(`\{:?\s*#([A-Za-z][\w.:-]*)[^}\n]*\}`)

// builtinTerm matches a definition-list term: a line, then a line starting with ": ".
var builtinTerm = regexp.MustCompile(`(?m)^([^\s:][^\n]*)\n:[ \t]`)

// builtinMDXBlock matches a Docusaurus ```mdx-code-block fence's content.
var builtinMDXBlock = regexp.MustCompile("(?ms)^```mdx-code-block[ \t]*\n(.*?)^```")

// parse parses a page as the site's generator does: with {#id} heading attributes where it honours them.
func (s *builtinSite) parse(src []byte) ast.Node {
	if s.headingIDs {
		return builtinParseWith(builtinMDAttr, src)
	}
	return builtinParse(src)
}

// anchors are the anchors of a page's Markdown (src, an MDX page's blanked) by the site's rules, and
// whether the page (raw, as written) includes other content whose ids it cannot see.
func (s *builtinSite) anchors(src, raw []byte) (map[string]bool, bool) {
	doc := builtinParseHeadings(src, s.headingIDs) // headings and HTML ids: no bare URL is an anchor
	var slugs *builtinSlugger
	if !s.mkdocsSlugs {
		slugs = &builtinSlugger{trim: s.trimSlugs, shortcodes: s.shortcodeHeadings}
	}
	anchors := builtinAnchors(doc, src, slugs)
	if s.headingIDs || s.mkdocsSlugs {
		builtinHeadingIDs(doc, src, anchors, s.mkdocsSlugs)
	}
	if s.headingIDs {
		for _, m := range builtinAttrID.FindAllSubmatch(src, -1) {
			anchors[string(m[1])] = true
		}
	}
	if s.termIDs {
		for _, m := range builtinTerm.FindAllSubmatch(src, -1) {
			id := builtinSlug(strings.NewReplacer("`", "", "*", "", "_", "").Replace(strings.TrimSpace(string(m[1]))))
			if anchors[id] {
				// Terms and headings share one counter: the later of the two takes id-1.
				anchors[id+"-1"] = true
			}
			anchors[id] = true
		}
	}
	if s.footnoteIDs {
		for _, m := range builtinFootnote.FindAllSubmatch(src, -1) {
			anchors["fn:"+string(m[1])] = true
			anchors["fnref:"+string(m[1])] = true
		}
	}
	if s.mdxBlocks {
		for _, m := range builtinMDXBlock.FindAllSubmatch(raw, -1) {
			builtinHTMLAnchors(anchors, m[1])
		}
	}
	// GitHub includes nothing: only a generator pulls other content in.
	return anchors, s.includes != nil && s.includes.Match(raw)
}

// builtinFootnote matches a footnote's definition, [^label]: at the start of a line.
var builtinFootnote = regexp.MustCompile(`(?m)^ {0,3}\[\^([^\]\s]+)\]:`)

// builtinMkDocsSlug is Python-Markdown's toc slugify: NFKD, ASCII only, word characters, spaces and
// hyphens kept, lowercased, runs of spaces and hyphens become one "-".
func builtinMkDocsSlug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(s) {
		switch {
		case r > unicode.MaxASCII:
		case r == ' ' || r == '-':
			dash = b.Len() > 0
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash {
				b.WriteByte('-')
				dash = false
			}
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
