package grader

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestSiteKey(t *testing.T) {
	site := func(name string) *builtinSite { return &builtinSite{builtinPreset: builtinPresets[name], name: name} }
	for _, tt := range []struct{ site, in, want string }{
		{"hugo", "/Docs/Getting-Started/", "docs/getting-started"},
		{"hugo", "/docs/index.html", "docs"},
		{"docusaurus", "/docs/FeedType", "docs/FeedType"}, // case kept
		{"starlight", "/Guides/Getting Started/", "guides/getting-started"},
		{"starlight", "/ja/すべて/", "ja/すべて"},
		{"mkdocs", "/a/b.html", "a/b"},
	} {
		if got := site(tt.site).key(tt.in); got != tt.want {
			t.Errorf("%s key(%q) = %q, want %q", tt.site, tt.in, got, tt.want)
		}
	}
}

func TestStripNumberPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"01-intro": "intro", "2_setup": "setup", "3. api": "api", "10": "10",
		"2024-05-01-hello": "2024-05-01-hello", "1.2-notes": "1.2-notes", "intro": "intro",
	} {
		if got := stripNumberPrefix(in); got != want {
			t.Errorf("stripNumberPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMkDocsSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Café options": "cafe-options", "Hello, World!": "hello-world", "a  -  b": "a-b",
		"日本語 title": "title", "snake_case": "snake_case",
	} {
		if got := builtinMkDocsSlug(in); got != want {
			t.Errorf("builtinMkDocsSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPageURLs: a page's URLs from its path (index files, number prefixes,
// blog dates) before frontmatter adds any.
func TestPageURLs(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		site, prefix, kind, rel string
		want                    []string
	}{
		{"hugo", "", "", "docs/_index.md", []string{"docs"}},
		{"hugo", "", "", "docs/bundle/index.md", []string{"docs/bundle"}},
		{"hugo", "", "", "docs/Page.md", []string{"docs/Page"}},
		{"docusaurus", "/docs", "docs", "01-guides/02-deploy.mdx", []string{"/docs/guides/deploy"}},
		{"docusaurus", "/docs", "docs", "guides/guides.md", []string{"/docs/guides"}},
		{"docusaurus", "", "docs", "guides/intro.md", []string{"guides/intro"}},
		{"docusaurus", "/blog", "blog", "2024-05-01-hello.md", []string{"/blog/2024/05/01/hello"}},
		{"docusaurus", "/blog", "blog", "2024/05-01-hello/index.md", []string{"/blog/2024/05/01/hello"}},
		{"docusaurus", "/news", "blog", "2024-05-01-hello.md", []string{"/news/2024/05/01/hello"}},
		{"docusaurus", "/docs", "docs", "2024-05-01-hello.md", []string{"/docs/2024-05-01-hello"}},
		{"mkdocs", "", "", "guide/README.md", []string{"guide"}},
		{"starlight", "", "", "de/index.mdx", []string{"de"}},
	} {
		s := &builtinSite{builtinPreset: builtinPresets[tt.site], name: tt.site}
		if got := s.pageURLs(tt.prefix, tt.kind, tt.rel, dir+"/none.md", nil); !slices.Equal(got, tt.want) {
			t.Errorf("%s pageURLs(%q, %q, %q) = %q, want %q", tt.site, tt.prefix, tt.kind, tt.rel, got, tt.want)
		}
	}
}

// TestBuiltinIncludes: what pulls other content into a page of each generator, so that an anchor not
// found in it is not judged, and what does not; one generator's syntax is text on another's pages.
func TestBuiltinIncludes(t *testing.T) {
	for _, tt := range []struct {
		site, src string
		want      bool
	}{
		{"hugo", `{{% include "partial.md" %}}`, true},
		{"hugo", `{{< include file="x.md" >}}`, true},
		{"hugo", `{{% readfile file="/includes/install.md" %}}`, true}, // Docsy
		{"hugo", `{{< figure src="x.png" >}}`, false},
		{"hugo", "--8<-- \"snippets/usage.md\"", false},
		{"docusaurus", "import Partial from './_partial.mdx';", true},
		{"starlight", "import Setup from '../../partials/setup.md';", true},
		{"docusaurus", "import React from 'react';", false},
		{"docusaurus", "::: tip\n\nAn admonition.\n\n:::", false},
		{"starlight", "{{% include \"x.md\" %}}", false},
		{"mkdocs", "--8<-- \"snippets/usage.md\"", true},
		{"mkdocs", "::: mypackage.module", true},
		{"mkdocs", "# Settings\n\n{{ pydantic_settings }}\n", true},
		{"mkdocs", "  {{ render_table('x', 2) }}  ", true},
		{"mkdocs", `{% include "snippets/table.md" %}`, true},
		{"mkdocs", `{%- include 'x.md' %}`, true},
		{"mkdocs", "{{ a }} and more text on the line", false},
		{"mkdocs", "The value is {{ version }} today.", false},
		{"mkdocs", "Text with ::: inside", false},
		{"mkdocs", "import Partial from './_partial.mdx';", false},
		{"mkdocs", "```\n{{ not_a_macro_in_code }}\n```", true}, // code is not told apart: lenient
	} {
		if got := builtinPresets[tt.site].includes.MatchString(tt.src); got != tt.want {
			t.Errorf("%s includes(%q) = %v, want %v", tt.site, tt.src, got, tt.want)
		}
	}
}

// TestBuiltinCategorySlug: a Docusaurus category's metadata names the URL of its generated index only
// when it asks for a generated index with a slug; anything else, malformed text included, names none.
func TestBuiltinCategorySlug(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, text, want string }{
		{"_category_.json", `{"label": "Guides", "link": {"type": "generated-index", "slug": "/get-started/"}}`, "get-started"},
		{"_category_.yml", "link:\n  type: generated-index\n  slug: tools/all # relative, still below the version\n", "tools/all"},
		{"_category_.yaml", "link: {type: generated-index}\n", ""}, // /category/LABEL, generated already
		{"_category_.json", `{"link": {"type": "doc", "id": "intro", "slug": "/x"}}`, ""},
		{"_category_.json", `{"link": {"type": "generated-index", "slug": 3}}`, ""},
		{"_category_.json", `{"link": "generated-index"}`, ""},
		{"_category_.json", `{"link": {"type": "generated-index", "slug": "/x"`, ""},
		{"_category_.yml", "link: [: bad\n", ""},
		{"_category_.yml", "\xff\xfe\x00binary", ""},
	} {
		p := filepath.Join(dir, tt.name)
		if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := builtinCategorySlug(p); got != tt.want {
			t.Errorf("%s %q: slug %q, want %q", tt.name, tt.text, got, tt.want)
		}
	}
	if got := builtinCategorySlug(filepath.Join(dir, "none.json")); got != "" {
		t.Errorf("no file: slug %q", got)
	}
}

// TestBuiltinIgnore: the alternation of the ignore patterns matches a link exactly when one of them does,
// each keeping its own flags and anchors.
func TestBuiltinIgnore(t *testing.T) {
	patterns := []string{`(?i)^HTTPS?://example\.com`, `^/api/`, `\.pdf$`, `x{2}`}
	re, err := builtinIgnore(patterns)
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"http://EXAMPLE.com/a", "https://example.org", "/api/v1", "/docs/api/", "a.pdf", "a.PDF",
		"xx", "x", "HTTPS://example.com", "/API/v1", ""} {
		any := false
		for _, p := range patterns {
			any = any || regexp.MustCompile(p).MatchString(link)
		}
		if got := re.MatchString(link); got != any {
			t.Errorf("%q: the alternation says %v, the patterns %v", link, got, any)
		}
	}
	if _, err := builtinIgnore([]string{"ok", "a("}); err == nil || !strings.Contains(err.Error(), `"a("`) {
		t.Errorf("a bad pattern: %v, want it named", err)
	}
}

// TestSiteIndexStops: the site's index stops walking once the run ends (a signal), and the run's error
// is what every page asking for the index gets; the same site indexes every page in a run still going.
func TestSiteIndexStops(t *testing.T) {
	repo := t.TempDir()
	content := filepath.Join(repo, "content")
	for i := range 2 * builtinWalkCheck {
		dir := filepath.Join(content, fmt.Sprintf("s%d", i%8))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.md", i)), []byte("# P\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	site := &builtinSite{builtinPreset: builtinPresets["hugo"], name: "hugo", repo: repo, root: content}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	pages := NewPageCache()
	for range 2 {
		if ix, err := site.index(ended, pages); ix != nil || !errors.Is(err, context.Canceled) {
			t.Fatalf("index in an ended run = %v, %v; want context.Canceled", ix, err)
		}
	}
	ix, err := site.index(context.Background(), NewPageCache())
	if err != nil || len(ix.urls) != 2*builtinWalkCheck {
		t.Fatalf("index = %d pages, %v; want %d", len(ix.urls), err, 2*builtinWalkCheck)
	}
}
