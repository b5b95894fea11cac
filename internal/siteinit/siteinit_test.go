package siteinit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/testfs"
)

// TestConfigIsValid: for every generator, at the root and in a folder,
// what init writes is a config evalgate accepts, with the preset's folders.
func TestConfigIsValid(t *testing.T) {
	for _, gen := range Sites {
		for _, dir := range []string{"", "site"} {
			s := &Site{Generator: gen, Dir: dir, Evidence: "x"}
			tmp := t.TempDir()
			s.layout(tmp, tmp)
			s.Static = s.staticDirs()
			s.Ignore = []Frequent{{Target: "g.x", Uses: 30, Pages: 9, ExampleFiles: []string{"a.md"}}}
			text := s.Config()
			cfg, faults := config.Parse(text, ".evalgate.yaml", "/repo")
			if len(faults) > 0 {
				t.Errorf("%s in %q: the config has faults %v:\n%s", gen, dir, faults, text)
				continue
			}
			su := cfg.Catalog.Suites["site"]
			if su == nil || len(su.Pages) == 0 || len(cfg.PathSuites) != 1 {
				t.Errorf("%s in %q: no site suite by path:\n%s", gen, dir, text)
			}
			if !strings.Contains(string(text), `"^g\\.x$"`) || !strings.Contains(string(text), "site: "+gen) {
				t.Errorf("%s in %q: preset or ignore missing:\n%s", gen, dir, text)
			}
		}
	}
}

// TestManyFolders: a Docusaurus site with more top folders of Markdown than init lists one by one is
// checked as a whole folder, and the config it writes is valid (501 folders made 1,002 globs, past the
// 1,000 a config list holds).
func TestManyFolders(t *testing.T) {
	files := map[string]string{"docusaurus.config.js": "module.exports = {};\n"}
	for i := range 501 {
		files[fmt.Sprintf("f%03d/a.md", i)] = "# x\n"
	}
	root := testfs.Tree(t, files)
	s, err := Detect(root, root, "")
	if err != nil {
		t.Fatal(err)
	}
	cfg, probs := config.Parse(s.Config(), ".evalgate.yaml", root)
	if len(probs) > 0 {
		t.Fatalf("faults %v", probs)
	}
	if want := []string{"**/*.md", "**/*.mdx"}; !slices.Equal(cfg.Pages.Include, want) {
		t.Errorf("include %q, want %q", cfg.Pages.Include, want)
	}
}

// TestConfigNamesStayText: the names init writes from the repository (the file that revealed the site,
// the pages a frequent link target was seen on) are text in comments, whatever they hold: a newline in
// one ended its comment, and what followed became config, a command eval say.
func TestConfigNamesStayText(t *testing.T) {
	evil := "x\n      - id: pwn\n        grader: command\n        command: [touch, pwned]\ncommands: {allow: [touch]}\n\u2028#"
	s := &Site{Generator: "mkdocs", Evidence: evil + "/mkdocs.yml", Pages: []string{"docs/**/*.md"},
		Ignore: []Frequent{{Target: "gloss", Uses: 30, Pages: 9, ExampleFiles: []string{evil + ".md", "b.md"}}}}
	text := s.Config()
	cfg, faults := config.Parse(text, ".evalgate.yaml", "/repo")
	if len(faults) > 0 {
		t.Fatalf("the config has faults %v:\n%s", faults, text)
	}
	su := cfg.Catalog.Suites["site"]
	if len(cfg.Catalog.Suites) != 1 || su == nil || len(su.Evals) != 1 || su.Evals[0].Grader != "tool:links" || len(cfg.Commands.Allow) > 0 {
		t.Errorf("the names became config:\n%s", text)
	}
}

// TestDetect: each generator by its config file, in the working directory
// or a folder of the root; the first detector wins; none is github.
func TestDetect(t *testing.T) {
	tests := []struct {
		files      map[string]string
		gen, dir   string
		root, from string
	}{
		{map[string]string{"hugo.yaml": "", "content/a.md": ""}, "hugo", "", "content", "hugo.yaml"},
		{map[string]string{"config/_default/hugo.toml": "contentDir = 'pages'\n"}, "hugo", "", "pages", "config/_default/hugo.toml"},
		{map[string]string{"website/docusaurus.config.ts": "", "website/docs/a.mdx": ""}, "docusaurus", "website", ".", "website/docusaurus.config.ts"},
		{map[string]string{"mkdocs.yaml": "docs_dir: 'src'\n"}, "mkdocs", "", "src", "mkdocs.yaml"},
		// docs_dir's value is YAML: quoted with a space in it, or followed by a comment.
		{map[string]string{"mkdocs.yml": "site_name: x\ndocs_dir: \"user guide\"\n"}, "mkdocs", "", "user guide", "mkdocs.yml"},
		{map[string]string{"mkdocs.yml": "docs_dir: pages/ # the sources\nnav: !!python/name:x\n"}, "mkdocs", "", "pages", "mkdocs.yml"},
		{map[string]string{"docs/astro.config.mjs": "import starlight from '@astrojs/starlight'"}, "starlight", "docs", "src/content/docs", "docs/astro.config.mjs"},
		{map[string]string{"astro.config.mjs": "export default {}"}, "github", "", "", ""},
		// A monorepo's site, one folder deeper; a folder of the root is looked at first.
		{map[string]string{"packages/website/docusaurus.config.mts": "", "packages/api/README.md": ""}, "docusaurus", "packages/website", ".", "packages/website/docusaurus.config.mts"},
		{map[string]string{"apps/docs/mkdocs.yml": "", "site/hugo.toml": ""}, "hugo", "site", "content", "site/hugo.toml"},
		{map[string]string{"site/config/_default/hugo.yaml": "contentDir: pages\n"}, "hugo", "site", "pages", "site/config/_default/hugo.yaml"},
		// The older config.toml, with Hugo's folders beside it; without them it says nothing.
		{map[string]string{"daprdocs/config.toml": "", "daprdocs/content/_index.md": "", "daprdocs/layouts/x.html": ""}, "hugo", "daprdocs", "content", "daprdocs/config.toml"},
		{map[string]string{"tool/config.toml": "", "tool/content/a.md": ""}, "github", "", "", ""},
	}
	for _, tt := range tests {
		root := testfs.Tree(t, tt.files)
		s, err := Detect(root, root, "")
		if err != nil {
			t.Fatal(err)
		}
		if s.Generator != tt.gen || s.Dir != tt.dir || s.Root != tt.root || s.Evidence != tt.from {
			t.Errorf("%v: detected %+v; want %s in %q, root %q, from %q", tt.files, s, tt.gen, tt.dir, tt.root, tt.from)
		}
	}
	if _, err := Detect(t.TempDir(), filepath.Join(t.TempDir(), "x"), ""); err == nil {
		t.Error("a working directory outside the repository is accepted")
	}
}

// TestDetectOutside: a generator's config file, or a page, that is a symlink leaving the repository
// or entering .git tells init nothing: no site is recognised by it, no docs_dir is read from it, no
// link of it is counted.
func TestDetectOutside(t *testing.T) {
	outside := t.TempDir()
	var page strings.Builder
	for range 30 {
		page.WriteString("[a](secretword)\n")
	}
	testfs.Write(t, outside, map[string]string{
		"mkdocs.yml":       "docs_dir: secret\n",
		"astro.config.mjs": "import starlight from '@astrojs/starlight'",
		"page.md":          page.String(),
	})
	link := func(t *testing.T, root string, links map[string]string) {
		for name, target := range links {
			if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
				t.Fatal(err)
			}
		}
	}

	for name, target := range map[string]string{"mkdocs.yml": filepath.Join(outside, "mkdocs.yml"), "hugo.toml": ".git/config",
		"site/astro.config.mjs": filepath.Join(outside, "astro.config.mjs")} {
		root := testfs.Tree(t, map[string]string{".git/config": "docs_dir: git\n", "site/x.md": "", "pages/a.md": ""})
		if !filepath.IsAbs(target) {
			target = filepath.Join(root, filepath.FromSlash(target))
		}
		link(t, root, map[string]string{name: target})
		s, err := Detect(root, root, "")
		if err != nil {
			t.Fatal(err)
		}
		if s.Generator != "github" || s.Evidence != "" {
			t.Errorf("%s, a symlink to %s, was taken: %+v", name, target, s)
		}
	}

	root := testfs.Tree(t, map[string]string{"mkdocs.yml": "site_name: x\n", "docs/index.md": ""})
	var names []string
	for i := range 6 {
		name := fmt.Sprintf("docs/p%d.md", i)
		names = append(names, name)
		link(t, root, map[string]string{name: filepath.Join(outside, "page.md")})
	}
	s, err := Detect(root, root, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Generator != "mkdocs" || s.Root != "docs" || len(s.Ignore) != 0 {
		t.Errorf("pages outside the repository (%v) were read: %+v", names, s)
	}

	// A content folder the config puts outside the repository or in .git, by its path or through a
	// symlink, is neither read nor named: the generator's default stands. A Hugo mount from outside is
	// not walked.
	secret := filepath.Join(outside, "secret")
	testfs.Write(t, secret, map[string]string{"p1.md": page.String(), "p2.md": page.String(), "p3.md": page.String(),
		"p4.md": page.String(), "p5.md": page.String()})
	for _, c := range []struct {
		files     map[string]string
		symlinkTo string // lnk, a symlink to it
		gen, want string
	}{
		{map[string]string{"mkdocs.yml": "docs_dir: ../secret\n"}, "", "mkdocs", "docs"},
		{map[string]string{"mkdocs.yml": "docs_dir: .git\n", ".git/notes/p.md": page.String()}, "", "mkdocs", "docs"},
		{map[string]string{"mkdocs.yml": "docs_dir: lnk\n"}, secret, "mkdocs", "docs"},
		{map[string]string{"hugo.toml": "contentDir = '../secret'\n"}, "", "hugo", "content"},
		{map[string]string{"hugo.toml": "[[module.mounts]]\nsource = '" + outside + "'\ntarget = 'content'\n"}, "", "hugo", "content"},
		{map[string]string{"hugo.toml": "[[module.mounts]]\nsource = 'lnk'\ntarget = 'content'\n"}, secret, "hugo", "content"},
	} {
		root := testfs.Tree(t, c.files)
		if c.symlinkTo != "" {
			link(t, root, map[string]string{"lnk": c.symlinkTo})
		}
		s, err := Detect(root, root, "")
		if err != nil {
			t.Fatal(err)
		}
		if s.Generator != c.gen || s.Root != c.want || len(s.Ignore) != 0 || strings.Contains(string(s.Config()), "secret") {
			t.Errorf("%v: %+v, want %s with root %s, nothing from outside", c.files, s, c.gen, c.want)
		}
	}
}

// TestDetectAbove: init run inside a site's folder finds the generator's config in a folder above it,
// up to the root, before the root's subfolders.
func TestDetectAbove(t *testing.T) {
	root := testfs.Tree(t, map[string]string{
		"mkdocs.yml": "", "docs/guide/a.md": "",
		"website/docusaurus.config.js": "", "website/src/pages/x.md": "",
	})
	for wd, want := range map[string]string{
		"docs":               "mkdocs in \"\"",
		"docs/guide":         "mkdocs in \"\"",
		"website/src/pages":  "docusaurus in \"website\"",
		"website/docs-extra": "docusaurus in \"website\"",
	} {
		dir := filepath.Join(root, filepath.FromSlash(wd))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		s, err := Detect(root, dir, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%s in %q", s.Generator, s.Dir); got != want {
			t.Errorf("from %s: %s, want %s", wd, got, want)
		}
	}
}

// TestConfigGlobNames: a folder's glob meta characters are escaped in the globs init writes, which then
// match the folder's pages and no other; a folder name that is not UTF-8 stops init.
func TestConfigGlobNames(t *testing.T) {
	root := testfs.Tree(t, map[string]string{
		"hugo.toml": "contentDir = '[locale]'\n", "[locale]/a.md": "",
	})
	s, err := Detect(root, root, "")
	if err != nil {
		t.Fatal(err)
	}
	cfg, probs := config.Parse(s.Config(), ".evalgate.yaml", root)
	if len(probs) > 0 {
		t.Fatalf("%s\n%v", s.Config(), probs)
	}
	want := []string{`\[locale\]/**/*.md`, `\[locale\]/**/*.mdx`}
	if !slices.Equal(cfg.Pages.Include, want) {
		t.Fatalf("include %q, want %q", cfg.Pages.Include, want)
	}
	for name, match := range map[string]bool{"[locale]/a.md": true, "l/a.md": false, "e/x/b.md": false} {
		if ok, _ := doublestar.Match(want[0], name); ok != match {
			t.Errorf("%s matches %s: %v, want %v", want[0], name, ok, match)
		}
	}
	if got := escapeGlob(`a*b?{c}\d`); got != `a\*b\?\{c\}\\d` {
		t.Errorf("escapeGlob = %q", got)
	}

	bad := testfs.Tree(t, map[string]string{"mkdocs.yml": "docs_dir: x\xffy\n"})
	if err := os.MkdirAll(filepath.Join(bad, "x\xffy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Detect(bad, bad, ""); err == nil || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("a folder name that is not UTF-8: %v, want an error naming it", err)
	}
}
