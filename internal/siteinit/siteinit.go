// Package siteinit is `evalgate init` (README "Start on an existing site"): it finds which generator
// builds a documentation site from the generator's config file, and writes the commented .evalgate.yaml
// that selects the site's pages and runs tool:links on every one of them with the site's preset.
package siteinit

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/sitegen"
)

// Sites are the generators init knows, in detection order.
var Sites = []string{"hugo", "docusaurus", "mkdocs", "starlight", "github"}

// Site is a detected site: its generator, its directory (repository-relative, "" for the root), the
// generator's config file that told, and the folders tool:links needs.
type Site struct {
	Generator string
	Dir       string // the site's folder, relative to the repository root ('/'), "" for the root
	Evidence  string // the file the generator was recognised by, relative to the repository root
	Root      string // the content root, relative to Dir; "" for the preset's default
	Static    []string
	Pages     []string // page globs, relative to Dir
	Exclude   []string
	Ignore    []Frequent // link targets that resolve nowhere yet are used everywhere
}

// Frequent is a bare link target that many pages use and no file answers: a site convention (a link
// render hook's keyword, say) that a static check cannot follow.
type Frequent struct {
	Target       string
	Uses, Pages  int
	ExampleFiles []string
}

// detectors recognise a generator in the folder dir of the repository root, returning the file that
// says so: a regular file inside the repository (a symlink that leaves it, or enters .git, says nothing).
var detectors = []struct {
	name  string
	match func(root, dir string) string
}{
	{"hugo", func(root, dir string) string {
		if f := anyFile(sitegen.HugoConfigs...)(root, dir); f != "" {
			return f
		}
		// The older config.toml (.yaml, .json) is a Hugo site's when Hugo's folders stand beside it:
		// content/ and one of archetypes/, layouts/, themes/ (many other tools keep a config.toml).
		hugoish := func(names ...string) bool {
			for _, n := range names {
				if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.IsDir() {
					return true
				}
			}
			return false
		}
		if hugoish("content") && hugoish("archetypes", "layouts", "themes") {
			return anyFile(sitegen.HugoOlderConfigs...)(root, dir)
		}
		return ""
	}},
	{"docusaurus", anyFile(sitegen.DocusaurusConfigs...)},
	{"mkdocs", anyFile("mkdocs.yml", "mkdocs.yaml")},
	{"starlight", func(root, dir string) string {
		for _, n := range sitegen.AstroConfigs {
			if b, ok := sitegen.ReadConfig(root, dir, n); ok && bytes.Contains(b, []byte("@astrojs/starlight")) {
				return n
			}
		}
		return ""
	}},
}

func anyFile(names ...string) func(root, dir string) string {
	return func(root, dir string) string {
		for _, n := range names {
			if abs, err := repofs.Within(root, dir, filepath.FromSlash(n)); err == nil {
				if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
					return n
				}
			}
		}
		return ""
	}
}

// Detect finds the site of the repository at root, looking in dir (the working directory, inside
// root), then in each folder above it up to the root (init run in a site's docs/ finds the mkdocs.yml
// above), and, when nothing is found there, in the root's subfolders (website/, docs/): the first
// generator whose config file is there. force names the generator instead (--site), with the site in
// dir. A repository with none is a github site at dir. A site whose folder names are not UTF-8 cannot be
// written in a YAML config: an error says which.
func Detect(root, dir, force string) (*Site, error) {
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%s is outside the repository %s", dir, root)
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		rel = ""
	}
	var s *Site
	if force != "" {
		s = &Site{Generator: force, Dir: rel}
		for _, d := range detectors {
			if d.name == force {
				s.Evidence = path.Join(rel, d.match(root, dir))
			}
		}
	} else {
		for up := rel; s == nil; up = path.Dir(up) {
			if up == "." {
				up = ""
			}
			s = detectIn(root, filepath.Join(root, filepath.FromSlash(up)), up)
			if up == "" {
				break
			}
		}
		if s == nil {
			s = detectBelow(root)
		}
		if s == nil {
			s = &Site{Generator: "github", Dir: rel}
		}
	}
	siteDir := filepath.Join(root, filepath.FromSlash(s.Dir))
	s.layout(root, siteDir)
	for _, d := range s.staticDirs() {
		if fi, err := os.Stat(filepath.Join(siteDir, d)); err == nil && fi.IsDir() {
			s.Static = append(s.Static, d)
		}
	}
	for _, name := range append([]string{s.Dir, s.Root}, s.Pages...) {
		if !utf8.ValidString(name) {
			return nil, fmt.Errorf("the folder name %q is not UTF-8, which a YAML config cannot hold: rename it, or write the config by hand", name)
		}
	}
	s.Ignore = frequentTargets(root, siteDir, s)
	return s, nil
}

// detectBelow looks for a site in the folders of the repository root (website/, docs/), then in
// theirs (a monorepo's packages/website/), in name order; hidden folders and node_modules are passed over.
func detectBelow(root string) *Site {
	folders := func(rel string) []string {
		var out []string
		entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "node_modules" {
				out = append(out, path.Join(rel, e.Name()))
			}
		}
		return out
	}
	top := folders("")
	for _, rel := range top {
		if s := detectIn(root, filepath.Join(root, filepath.FromSlash(rel)), rel); s != nil {
			return s
		}
	}
	for _, parent := range top {
		for _, rel := range folders(parent) {
			if s := detectIn(root, filepath.Join(root, filepath.FromSlash(rel)), rel); s != nil {
				return s
			}
		}
	}
	return nil
}

func detectIn(root, dir, rel string) *Site {
	for _, d := range detectors {
		if f := d.match(root, dir); f != "" {
			return &Site{Generator: d.name, Dir: rel, Evidence: path.Join(rel, f)}
		}
	}
	return nil
}

// layout fills the content root, static folders and page globs of the site in dir (inside the
// repository root) from the generator's defaults and what its config says (Hugo's contentDir and
// module mounts, Docusaurus' instances, MkDocs' docs_dir).
func (s *Site) layout(root, dir string) {
	md := func(root string) []string {
		if root == "" || root == "." {
			return []string{"**/*.md", "**/*.mdx"}
		}
		return []string{escapeGlob(root) + "/**/*.md", escapeGlob(root) + "/**/*.mdx"}
	}
	switch s.Generator {
	case "hugo":
		s.Root = sitegen.ReadHugo(root, dir).Content
		s.Pages = md(s.Root)
	case "docusaurus":
		s.Root = "."
		// Docusaurus leaves out partials: _file.md and anything under _folder/.
		s.Exclude = []string{"**/_*", "**/_*/**"}
		folders := s.instances(root, dir)
		if len(folders) > maxFolders {
			// More folders than a config's globs should list (a config reads at most 1,000): the
			// site's whole folder, and those beside it.
			s.Pages = md("")
			folders = slices.DeleteFunc(folders, func(n string) bool { return !strings.HasPrefix(n, "../") })
		}
		for _, n := range folders {
			s.Pages = append(s.Pages, md(n)...)
			if strings.HasPrefix(n, "../") {
				s.Exclude = append(s.Exclude, escapeGlob(n)+"/**/_*", escapeGlob(n)+"/**/_*/**")
			}
		}
	case "mkdocs":
		s.Root = mkdocsDocsDir(root, dir)
		s.Pages = md(s.Root)
	case "starlight":
		s.Root = defaultRoot["starlight"]
		s.Pages = md(s.Root)
		s.Exclude = []string{"**/_*", "**/_*/**"}
	default:
		s.Pages = []string{"**/*.md", "**/*.markdown", "**/*.mdx"}
	}
	// A content folder that the generator's config puts outside the repository or inside .git, itself
	// or through a symlink, holds none of the repository's pages: init neither reads it nor names it.
	// The generator's default stands instead, or the site's folder.
	for _, fallback := range []string{defaultRoot[s.Generator], "."} {
		if s.Root == "" || s.Root == "." || inside(root, dir, s.Root) {
			break
		}
		s.Root = fallback
		s.Pages = md(fallback)
	}
	if len(s.Pages) == 0 {
		s.Pages = md("")
	}
}

// maxFolders is how many folders of a Docusaurus site init names one by one, two globs each.
const maxFolders = 100

// defaultRoot is each generator's own content folder (Hugo's, sitegen.ReadHugo's default).
var defaultRoot = map[string]string{"hugo": "content", "mkdocs": "docs", "starlight": "src/content/docs"}

// inside reports whether the folder rel of the site in dir stays inside the repository root and out
// of .git, after following symlinks.
func inside(root, dir, rel string) bool {
	_, err := repofs.Within(root, dir, filepath.FromSlash(rel))
	return err == nil
}

// instances are a Docusaurus site's folders holding pages, relative to the site folder: the content
// plugin instances its config names (docs, blog and src/pages unless it says otherwise; a folder
// beside the site's, as a monorepo keeps its docs, when it is inside the repository) and the folder of
// their earlier versions (versioned_docs), then its other top folders with Markdown (docs plugin
// instances the config may name in a way evalgate cannot read).
func (s *Site) instances(root, dir string) []string {
	var out []string
	for _, in := range sitegen.ReadDocusaurus(root, dir) {
		folder := in.Path
		if in.Version != "" {
			folder = path.Dir(folder) // versioned_docs, one folder for every version
		}
		if p := path.Join(s.Dir, folder); p == ".." || strings.HasPrefix(p, "../") || !inside(root, dir, folder) || slices.Contains(out, folder) {
			continue // outside the repository, or inside .git
		}
		if hasMarkdown(filepath.Join(dir, filepath.FromSlash(folder))) {
			out = append(out, folder)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || slices.Contains(out, n) || sitegen.NotInstance(n) {
			continue
		}
		if hasMarkdown(filepath.Join(dir, n)) {
			out = append(out, n)
		}
	}
	return out
}

func hasMarkdown(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".md" || ext == ".mdx") {
			found = true
			return fs.SkipAll // one is enough
		}
		return nil
	})
	return found
}

// mkdocsDocsDir is the docs_dir of the mkdocs.yml in dir, default docs.
func mkdocsDocsDir(root, dir string) string {
	for _, name := range []string{"mkdocs.yml", "mkdocs.yaml"} {
		b, ok := sitegen.ReadConfig(root, dir, name)
		if !ok {
			continue
		}
		// mkdocs.yml uses !!python tags the YAML reader refuses: docs_dir's line is read alone, its value
		// as YAML ("user guide" quoted, a comment after it).
		if m := docsDirLine.FindSubmatch(b); m != nil {
			var v struct {
				Dir string `yaml:"docs_dir"`
			}
			if yaml.Unmarshal(m[0], &v) != nil { // not YAML (its name not UTF-8, say): the word as written
				if f := strings.Fields(strings.TrimPrefix(string(m[0]), "docs_dir:")); len(f) > 0 {
					v.Dir = strings.Trim(f[0], `"'`)
				}
			}
			if dir := strings.Trim(v.Dir, "/ "); dir != "" {
				return dir
			}
		}
	}
	return defaultRoot["mkdocs"]
}

var docsDirLine = regexp.MustCompile(`(?m)^docs_dir:[ \t]*[^\r\n]*`)

// fenced matches a fenced code block.
var fenced = regexp.MustCompile("(?ms)^[ \t]*(```|~~~).*?^[ \t]*(```|~~~)")

// codeSpan matches an inline code span.
var codeSpan = regexp.MustCompile("`[^`\n]*`")

// bareTarget matches an inline link whose target is a bare word: no slash, dot, colon or anchor.
var bareTarget = regexp.MustCompile(`\]\(([A-Za-z][A-Za-z0-9_-]*)\)`)

// frequentTargets finds bare link targets that no file next to the page answers yet that at least 20
// links on at least 5 pages use: a site convention (Hugo's docs write [term](g) for a glossary link
// that their render hook builds), which init proposes to ignore, with the numbers, for a human to
// confirm. The pages are those of the site in dir, inside the repository repo.
func frequentTargets(repo, dir string, s *Site) []Frequent {
	type count struct {
		uses  int
		pages map[string]bool
	}
	counts := map[string]*count{}
	root := filepath.Join(dir, filepath.FromSlash(s.Root))
	if s.Root == "" || s.Root == "." {
		root = dir
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := strings.ToLower(filepath.Ext(p)); ext != ".md" && ext != ".mdx" {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if _, err := repofs.Within(repo, filepath.Dir(p), d.Name()); err != nil {
				return nil // a symlink that leaves the repository, or enters .git, is no page of it
			}
		}
		b, err := repofs.ReadFile(p, repofs.BodyLimit)
		if err != nil {
			return nil
		}
		for _, m := range bareTarget.FindAllSubmatch(codeSpan.ReplaceAll(fenced.ReplaceAll(b, nil), nil), -1) { // code shows links, it has none
			t := string(m[1])
			if _, err := os.Stat(filepath.Join(filepath.Dir(p), t)); err == nil {
				continue
			}
			c := counts[t]
			if c == nil {
				c = &count{pages: map[string]bool{}}
				counts[t] = c
			}
			c.uses++
			rel, _ := filepath.Rel(dir, p)
			c.pages[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	var out []Frequent
	for t, c := range counts {
		if c.uses >= 20 && len(c.pages) >= 5 {
			files := slices.Sorted(func(yield func(string) bool) {
				for f := range c.pages {
					if !yield(f) {
						return
					}
				}
			})
			out = append(out, Frequent{Target: t, Uses: c.uses, Pages: len(c.pages), ExampleFiles: files[:min(3, len(files))]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Target < out[j].Target })
	return out
}

// Config renders the site's .evalgate.yaml, written at the repository root: globs and paths are the
// site's, prefixed with its folder.
func (s *Site) Config() []byte {
	at := func(p string) string { return path.Join(".", s.Dir, p) } // "../docs/**" of website/ is docs/**
	// Globs: the site's folder is a name, not a pattern, and its own meta characters are escaped.
	globAt := func(p string) string { return path.Join(".", escapeGlob(s.Dir), p) }
	list := func(items []string, at func(string) string) string {
		q := make([]string, len(items))
		for i, it := range items {
			q[i] = strconv.Quote(at(it))
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	globs := func(items []string) string { return list(items, globAt) }
	var b strings.Builder
	fmt.Fprintf(&b, "# evalgate's config (README \"Configuration\"), written by evalgate init.\n")
	if s.Evidence != "" {
		fmt.Fprintf(&b, "# A %s site: %s says so.\n", s.Generator, strconv.Quote(s.Evidence))
	} else {
		fmt.Fprintf(&b, "# A %s site: links resolve to files as GitHub renders them.\n", s.Generator)
	}
	b.WriteString("version: 1\n\npages:\n  # The site's pages; every other Markdown file is left alone.\n")
	fmt.Fprintf(&b, "  include: %s\n", globs(s.Pages))
	if len(s.Exclude) > 0 {
		fmt.Fprintf(&b, "  exclude: %s\n", globs(s.Exclude))
	}
	b.WriteString("\nsuites:\n  # A suite by path: its evals run on every selected page it matches, without editing a page.\n")
	b.WriteString("  site:\n")
	fmt.Fprintf(&b, "    pages: %s\n", globs(s.Pages))
	if len(s.Exclude) > 0 {
		fmt.Fprintf(&b, "    exclude: %s\n", globs(s.Exclude))
	}
	b.WriteString("    evals:\n      - id: links\n        grader: tool:links\n")
	b.WriteString("        # README \"Links on real sites\": how this preset resolves links and anchors.\n")
	fmt.Fprintf(&b, "        options:\n          site: %s\n", s.Generator)
	if s.Generator != "github" {
		fmt.Fprintf(&b, "          root: %s\n", strconv.Quote(at(s.Root)))
		if st := s.Static; len(st) > 0 {
			fmt.Fprintf(&b, "          static: %s\n", list(st, at))
		}
	}
	if len(s.Ignore) > 0 {
		b.WriteString("          # Bare link targets used on many pages that no file answers: a site convention\n")
		b.WriteString("          # (a link render hook's keyword?) a static check cannot follow. Confirm, or remove.\n")
		b.WriteString("          ignore:\n")
		for _, f := range s.Ignore {
			examples := make([]string, len(f.ExampleFiles))
			for i, e := range f.ExampleFiles {
				examples[i] = strconv.Quote(e) // a name's newline would end the comment, and the rest be config
			}
			fmt.Fprintf(&b, "            - %s   # %d links on %d pages, as in %s\n",
				strconv.Quote("^"+regexp.QuoteMeta(f.Target)+"$"), f.Uses, f.Pages, strings.Join(examples, ", "))
		}
	}
	b.WriteString("\n# Accept the faults the site has today with `evalgate baseline`; new ones still block.\n")
	return []byte(b.String())
}

// escapeGlob escapes name's glob meta characters (doublestar's: * ? [ ] { } and the backslash), so that
// a folder named "[locale]" or "a*b" is matched as it is named.
func escapeGlob(name string) string {
	var b strings.Builder
	for i := range len(name) { // bytes: a name that is not UTF-8 stays as it is, for Detect to refuse
		if strings.IndexByte(`*?[]{}\`, name[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(name[i])
	}
	return b.String()
}

// staticDirs are the preset's static folders.
func (s *Site) staticDirs() []string {
	switch s.Generator {
	case "hugo", "docusaurus":
		return []string{"static"}
	case "starlight":
		return []string{"public"}
	}
	return nil
}
