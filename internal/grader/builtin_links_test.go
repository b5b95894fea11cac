package grader

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/google/go-cmp/cmp"
)

// builtinLinksRepo is the repository of the link tests: docs/page.md links to the rest.
func builtinLinksRepo(t testing.TB, body string) (root string, in *ToolInput) {
	t.Helper()
	files := map[string]string{
		"README.md": "# Read me\n",
		"docs/guide.md": "---\ntitle: Hidden\n---\n# Guide\n\n## Installation\n\n## Installation\n\n" +
			"## What's New? (v2.0)\n\n## Café Ünïcödé\n\n## `run` *options*\n\n<a id=\"custom-id\"></a>\n\n" +
			"<div name='legacy'>\n\nx\n\n</div>\n\nText with <span id=Inline>inline</span> HTML.\n",
		"docs/Guide2.md":       "# Two\n",
		"docs/a b.md":          "# Spaced\n",
		"docs/img.png":         "png",
		"docs/notes.txt":       "plain",
		"docs/sub/index.md":    "# Sub\n",
		"docs/escape.md":       "symlink:../../outside/secret.md",
		"docs/inside-link.md":  "symlink:guide.md",
		"docs/out-dir":         "symlink:../../outside",
		"docs/in-dir":          "symlink:sub",
		"docs/page.md":         "---\ntitle: Page\nevals: [links]\n---\n" + body,
		"../outside/secret.md": "# Secret\n",
	}
	// The outside file lives next to the repository, in the same temporary directory.
	root = builtinTestRepo(t, map[string]string{"repo/": ""})
	repo := filepath.Join(root, "repo")
	for name, content := range files {
		builtinTestWrite(t, filepath.Join(repo, filepath.FromSlash(name)), content)
	}
	return repo, &ToolInput{
		Target:     []byte(body),
		TargetKind: "body",
		File:       "docs/page.md",
		FirstLine:  5,
		Dir:        filepath.Join(repo, "docs"),
		OptionsDir: filepath.Join(repo, "docs"),
		RepoRoot:   repo,
		Pages:      NewPageCache(),
	}
}

func TestBuiltinLinks(t *testing.T) {
	// Each case is one paragraph of the body; want is "" when the link holds. col is the link's column in
	// code points, 1 unless given.
	cases := []struct {
		md   string
		want string
		col  int
		key  string // the finding's key when it is not the inline destination
	}{
		{md: "[ok](guide.md)"},
		// A footnote whose text starts on the line after "[^n]:" is no link to its first word.
		{md: "A claim[^n].\n\n[^n]:\n    The\n    [guide](guide.md) says so."},
		{md: "[dot](./guide.md)"},
		{md: "[anchor](guide.md#installation)"},
		{md: "[second of two](guide.md#installation-1)"},
		{md: "[no third](guide.md#installation-2)", want: "missing_anchor"},
		{md: "[punctuation dropped](guide.md#whats-new-v20)"},
		{md: "[unicode kept](guide.md#café-ünïcödé)"},
		{md: "[unicode encoded](guide.md#caf%C3%A9-%C3%BCn%C3%AFc%C3%B6d%C3%A9)"},
		{md: "[markup](guide.md#run-options)"},
		{md: "[explicit id](guide.md#custom-id)"},
		{md: "[explicit name](guide.md#legacy)"},
		{md: "[inline html id](guide.md#Inline)"},
		{md: "[id is case-sensitive](guide.md#inline)", want: "missing_anchor"},
		{md: "[frontmatter is no heading](guide.md#title-hidden)", want: "missing_anchor"},
		{md: "[missing](guide.md#nope)", want: "missing_anchor"},
		{md: "[self](#local-heading)"},
		{md: "[self by name](page.md#local-heading)"},
		{md: "[self missing](#nowhere)", want: "missing_anchor"},
		{md: "[top](#top)"},
		{md: "[empty anchor](guide.md#)"},
		{md: "[case differs](guide2.md)", want: "broken_link"},
		{md: "[case matches](Guide2.md)"},
		{md: "[dir case differs](Sub/index.md)", want: "broken_link"},
		{md: "[percent](a%20b.md)"},
		{md: "[angle](<a b.md>)"},
		{md: "[query](guide.md?plain=1#installation)"},
		{md: "[rooted](/README.md)"},
		{md: "[rooted anchor](/docs/guide.md#guide)"},
		{md: "[rooted missing](/docs/nope.md)", want: "broken_link"},
		{md: "[repo root](/)"},
		{md: "[up](../README.md)"},
		{md: "[escape](../../outside/secret.md)", want: "broken_link"},
		{md: "[far escape](../../../../../../../../etc/passwd)", want: "broken_link"},
		{md: "[symlink out](escape.md)", want: "broken_link"},
		{md: "[symlink in](inside-link.md#installation)"},
		{md: "[through a folder out](out-dir/secret.md)", want: "broken_link"},
		{md: "[through a folder in](in-dir/index.md)"},
		{md: "[through a folder in, case differs](in-dir/Index.md)", want: "broken_link"},
		{md: "[deep missing](sub/x/y/z.md)", want: "broken_link"},
		{md: "[file as folder](guide.md/x.md)", want: "broken_link"},
		{md: "[dir](sub)"},
		{md: "[dir slash](sub/)"},
		{md: "[dir anchor](sub#whatever)"},
		{md: "[file slash](guide.md/)", want: "broken_link"},
		{md: "[not markdown](notes.txt#L3)"},
		{md: "![image](img.png)"},
		{md: "![image missing](nope.png)", want: "broken_link"},
		{md: "[![badge](img.png)](nope.md)", want: "broken_link", key: "nope.md"},
		{md: "[https](https://example.com/x.md)"},
		{md: "[mailto](mailto:someone@example.com)"},
		{md: "[scheme-relative](//example.com/x)"},
		{md: "<https://example.com/nope.md>"},
		{md: "www.example.com/nope.md"},
		{md: "[reference][r1]", want: "broken_link", key: "missing-ref.md"},
		{md: "[collapsed][]", want: "broken_link", key: "missing-ref.md"},
		{md: "[good reference][r2]"},
		{md: "Ça été très — «déjà» [after non-ASCII](nope2.md)", want: "broken_link", col: 22},
		{md: "> quoted [q](nope3.md)", want: "broken_link", col: 10},
		{md: "- item\n\n  nested [n](nope4.md)", want: "broken_link", col: 10},
		{md: "| a | b |\n| - | - |\n| [cell](nope5.md) | x |", want: "broken_link", col: 3},
		{md: "`[code](nope.md)` and\n\n    [indented](nope.md)"},
		{md: "## Local heading"},
		{md: "[bad escape](a%zz.md)", want: "broken_link"},
	}
	var b strings.Builder
	type finding struct {
		Pos  diag.Pos
		Code string
		Key  string
	}
	var want []finding
	line := 5 // the body's first line in docs/page.md
	for _, c := range cases {
		if c.want != "" {
			col := c.col
			if col == 0 {
				col = 1
			}
			l := line
			if strings.HasPrefix(c.md, "- item") {
				l += 2
			} else if strings.HasPrefix(c.md, "| a") {
				l += 2
			}
			key := c.key
			if key == "" { // the key is the destination as written
				start := strings.Index(c.md, "](")
				end := strings.Index(c.md[start:], ")")
				key = c.md[start+2 : start+end]
			}
			want = append(want, finding{diag.Pos{Line: l, Col: col}, c.want, key})
		}
		b.WriteString(c.md)
		b.WriteString("\n\n")
		line += strings.Count(c.md, "\n") + 2
	}
	b.WriteString("[r1]: missing-ref.md\n[collapsed]: missing-ref.md\n[r2]: guide.md#guide\n")
	body := b.String()
	_, in := builtinLinksRepo(t, body)
	got, err := builtinTestRun(t, "tool:links", in)
	if err != nil {
		t.Fatal(err)
	}
	var gotF []finding
	for _, f := range got {
		gotF = append(gotF, finding{f.Pos, f.Code, f.Key})
		if f.Message == "" || strings.Contains(f.Message, "\n") {
			t.Errorf("%v: message %q must be one line", f.Pos, f.Message)
		}
		if f.Evidence["link"] != f.Key {
			t.Errorf("%v: evidence %v does not name the link", f.Pos, f.Evidence)
		}
	}
	if len(want) < 20 {
		t.Fatalf("only %d expected findings", len(want))
	}
	if diff := cmp.Diff(want, gotF); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
		for _, f := range got {
			t.Logf("%v %s %s", f.Pos, f.Code, f.Message)
		}
	}
}

func TestBuiltinLinksMessages(t *testing.T) {
	body := "[a](../../outside/secret.md) [b](nope.md) ![c](guide.md#nope) [d](#nope)\n"
	_, in := builtinLinksRepo(t, body)
	got, err := builtinTestRun(t, "tool:links", in)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range got {
		msgs = append(msgs, f.Message)
	}
	want := []string{
		`broken link "../../outside/secret.md": it leaves the repository`,
		`broken link "nope.md": no such file`,
		`missing anchor "guide.md#nope": no heading or id "nope" in docs/guide.md`,
		`missing anchor "#nope": no heading or id "nope" in this page`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if got[1].Evidence["path"] != "docs/nope.md" {
		t.Errorf("evidence %v: want path docs/nope.md", got[1].Evidence)
	}
}

func TestBuiltinLinksTargets(t *testing.T) {
	body := "# Local\n\n[x](nope.md) [y](#local)\n"
	_, in := builtinLinksRepo(t, body)

	// A frontmatter target has no lines of the file: positions stay zero.
	in.TargetKind, in.FirstLine = "frontmatter", 0
	got, err := builtinTestRun(t, "tool:links", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Pos != (diag.Pos{}) || got[0].Code != "broken_link" {
		t.Errorf("frontmatter target: got %+v, want one broken_link without position", got)
	}

	// A raw target starts at line 1.
	in.TargetKind, in.FirstLine = "raw", 1
	in.Target = []byte("---\na: 1\n---\n" + body)
	got, err = builtinTestRun(t, "tool:links", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Pos != (diag.Pos{Line: 6, Col: 1}) {
		t.Errorf("raw target: got %+v, want one finding at 6:1", got)
	}
}

func TestBuiltinLinksUnreadablePage(t *testing.T) {
	_, in := builtinLinksRepo(t, "[x](broken.md#a)\n")
	// A dangling symlink is no file: the link is broken, the tool still reaches a verdict.
	builtinTestSymlink(t, "missing-target.md", filepath.Join(in.Dir, "broken.md"))
	got, err := builtinTestRun(t, "tool:links", in)
	if err != nil || len(got) != 1 || got[0].Code != "broken_link" {
		t.Fatalf("got %+v, %v; want one broken_link", got, err)
	}
	// A linked page that exists but cannot be read leaves the tool without a verdict.
	if _, _, _, err := (&PageCache{}).builtinPageAnchors(context.Background(), &builtinSite{builtinPreset: &builtinPreset{}, name: "github"}, in.Dir); !errors.Is(err, ErrUnreadable) {
		t.Errorf("reading a directory as a page: err = %v, want ErrUnreadable", err)
	}
}

func TestBuiltinLinksCanceled(t *testing.T) {
	_, in := builtinLinksRepo(t, "[x](guide.md)\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := builtinLinks.Run(ctx, in); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestBuiltinSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Hello World", "hello-world"},
		{"What's New? (v2.0)", "whats-new-v20"},
		{"Café Ünïcödé", "café-ünïcödé"},
		{"snake_case and-dash", "snake_case-and-dash"},
		{"C++ & C#", "c--c"},
		{"emoji 🎉 party", "emoji--party"},
		{"日本語の見出し", "日本語の見出し"},
		{"Ελληνικά Κεφαλαία", "ελληνικά-κεφαλαία"},
		{"a  b", "a--b"},
		{"हिन्दी", "हिन्दी"}, // combining marks stay
		{"100% 'quoted' «text»", "100-quoted-text"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := builtinSlug(tt.in); got != tt.want {
			t.Errorf("builtinSlug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var s builtinSlugger
	var got []string
	for _, h := range []string{"A", "A", "A-1", "A", "B"} {
		got = append(got, s.slug(h))
	}
	if diff := cmp.Diff([]string{"a", "a-1", "a-1-1", "a-2", "b"}, got); diff != "" {
		t.Errorf("duplicate slugs (-want +got):\n%s", diff)
	}
}

func TestBuiltinStripFrontmatter(t *testing.T) {
	tests := []struct{ in, want string }{
		{"---\na: 1\n---\nbody\n", "\n\n\nbody\n"},
		{"---\r\na: 1\r\n...\r\nbody", "\n\n\nbody"},
		{"+++\na = 1\n+++\n# T\n", "\n\n\n# T\n"},
		{"# no frontmatter\n---\n", "# no frontmatter\n---\n"},
		{"---\nunclosed\n", "---\nunclosed\n"},
	}
	for _, tt := range tests {
		if got := string(builtinStripFrontmatter([]byte(tt.in))); got != tt.want {
			t.Errorf("builtinStripFrontmatter(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// BenchmarkLinks checks a generated page of about 20 KB, with a new PageCache each time: links to files,
// anchors in this page and in a linked page, images and external links.
func BenchmarkLinks(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 20<<10; i++ {
		fmt.Fprintf(&sb, "## Section %d\n\nSee [the guide](guide.md#installation), [section %d](#section-%d), "+
			"![img](img.png), [home](https://example.com/%d) and [sub](sub/index.md). Ça va, déjà vu.\n\n", i, i, i, i)
	}
	body := sb.String()
	_, in := builtinLinksRepo(b, body)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		in.Pages = NewPageCache() // one page of a run: every target is resolved once
		got, err := builtinLinks.Run(context.Background(), in)
		if err != nil || len(got) != 0 {
			b.Fatalf("got %d findings, %v", len(got), err)
		}
	}
}

// TestBuiltinLocateLongPath: a link longer than any path the system takes is missing at once. Its
// folders were located one by one, each cached under its own path: the square of the link's length,
// 24 GB for a link of 200 KB. The cache keeps a few entries for it, and the link's finding quotes it cut.
func TestBuiltinLocateLongPath(t *testing.T) {
	root := builtinTestRepo(t, map[string]string{"docs/guide.md": "# G\n"})
	pages := NewPageCache()
	long := strings.Repeat("a/", 50_000) + "guide.md"
	if _, st, _ := pages.builtinLocate(root, filepath.Join(root, "docs"), long); st != builtinPathMissing {
		t.Fatalf("a 100 KB path: state %v, want missing", st)
	}
	n := 0
	pages.entries.Range(func(any, any) bool { n++; return true })
	if n > 2 {
		t.Errorf("%d cache entries for one long path", n)
	}
	// A long link that cleans up short is located as any other.
	if _, st, _ := pages.builtinLocate(root, filepath.Join(root, "docs"), strings.Repeat("x/../", 2000)+"guide.md"); st != builtinPathFile {
		t.Errorf("a 10 KB link that cleans to guide.md: state %v, want a file", st)
	}
	// Just within the bound, a deep path is located folder by folder as any other.
	deep := strings.Repeat("a/", (4096-len(root)-64)/2) + "guide.md" // Linux's PATH_MAX
	if _, st, _ := pages.builtinLocate(root, filepath.Join(root, "docs"), deep); st != builtinPathMissing {
		t.Fatalf("a deep path: state %v, want missing", st)
	}
}

// TestBuiltinLocateExactCase simulates a case-insensitive file system, where a differently spelt name
// stats fine: the directory listing decides.
func TestBuiltinLocateExactCase(t *testing.T) {
	root := builtinTestRepo(t, map[string]string{"docs/guide.md": "# G\n"})
	pages := NewPageCache()
	docs := filepath.Join(root, "docs")
	if _, st, _ := pages.builtinLocate(root, docs, "guide.md"); st != builtinPathFile {
		t.Fatalf("guide.md: state %v, want a file", st)
	}
	fake := NewPageCache() // the listing a case-insensitive file system spelling the file Guide.md gives
	fake.builtinGet("dir\x00"+docs, func() (any, error) { return map[string]bool{"Guide.md": true}, nil })
	if _, st, _ := fake.builtinLocate(root, docs, "guide.md"); st != builtinPathMissing {
		t.Errorf("guide.md listed as Guide.md: state %v, want missing", st)
	}
	fake = NewPageCache()
	fake.builtinGet("dir\x00"+root, func() (any, error) { return map[string]bool{"Docs": true}, nil })
	if _, st, _ := fake.builtinLocate(root, root, "docs/guide.md"); st != builtinPathMissing {
		t.Errorf("docs listed as Docs: state %v, want missing", st)
	}
	if _, st, _ := pages.builtinLocate(root, docs, "../.."); st != builtinPathOutside {
		t.Errorf("../..: state %v, want outside", st)
	}
	if _, st, _ := pages.builtinLocate(root, docs, "."); st != builtinPathDir {
		t.Errorf(".: state %v, want a directory", st)
	}
}

// TestBuiltinAnchorBudget: past the budget, the cached anchors of linked pages are dropped and read
// again when linked again, so what a run keeps stays bounded, and every verdict is the same.
func TestBuiltinAnchorBudget(t *testing.T) {
	defer func(b int64) { builtinAnchorBudget = b }(builtinAnchorBudget)
	builtinAnchorBudget = 1 << 10
	var body strings.Builder
	for i := range 40 {
		fmt.Fprintf(&body, "[t%d](t%d.md#heading-%d) [bad%d](t%d.md#nope)\n\n", i, i, i, i, i)
	}
	repo, in := builtinLinksRepo(t, body.String()+body.String()) // each page linked twice, far apart
	for i := range 40 {
		builtinTestWrite(t, filepath.Join(repo, "docs", fmt.Sprintf("t%d.md", i)), fmt.Sprintf("# Heading %d\n\n%s\n", i, strings.Repeat("## Filler\n\n", 20)))
	}
	got, err := builtinTestRun(t, "tool:links", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 80 {
		t.Errorf("%d findings, want the 80 missing anchors", len(got))
	}
	for _, f := range got {
		if f.Code != "missing_anchor" || !strings.Contains(f.Key, "#nope") {
			t.Errorf("finding %s %q", f.Code, f.Key)
		}
	}
	n := 0
	in.Pages.entries.Range(func(k, _ any) bool {
		if strings.HasPrefix(k.(string), "anchors\x00") {
			n++
		}
		return true
	})
	if n > 10 || in.Pages.anchorBytes.Load() > builtinAnchorBudget {
		t.Errorf("%d pages' anchors (%d bytes) kept past a budget of %d bytes", n, in.Pages.anchorBytes.Load(), builtinAnchorBudget)
	}
}

// TestBuiltinLinkedParseBudget: a page whose links alternate between linked pages too large to keep has
// them parsed again link after link; past the budget of linked text parsed again for one page's links,
// the eval is too_large rather than a minute of parsing. A page that links each of them once is within
// it, however large they are.
func TestBuiltinLinkedParseBudget(t *testing.T) {
	oldAnchors, oldParse := builtinAnchorBudget, builtinLinkedParseBudget
	builtinAnchorBudget, builtinLinkedParseBudget = 64<<10, 1<<20 // one target's anchors overflow the cache
	defer func() { builtinAnchorBudget, builtinLinkedParseBudget = oldAnchors, oldParse }()
	target := strings.Repeat("# a\n\n", 40_000) // 200 KB, 40,000 anchors
	files := map[string]string{"t0.md": target, "t1.md": target, "t2.md": target}
	var alternate, once strings.Builder
	for i := range 12 {
		fmt.Fprintf(&alternate, "[x](t%d.md#a-%d)\n\n", i%3, i+1)
	}
	for i := range 3 {
		fmt.Fprintf(&once, "[x](t%d.md#a-%d)\n\n", i, i+1)
	}
	repo := builtinTestRepo(t, files)
	run := func(body string) error {
		_, err := builtinTestRun(t, "tool:links", &ToolInput{Target: []byte(body), TargetKind: "body", File: "p.md",
			FirstLine: 1, Dir: repo, OptionsDir: repo, RepoRoot: repo, Pages: NewPageCache()})
		return err
	}
	if err := run(once.String()); err != nil {
		t.Errorf("three pages linked once: %v", err)
	}
	if err := run(alternate.String()); !errors.Is(err, ErrTooMuchWork) || !strings.Contains(err.Error(), "linked pages parsed again") {
		t.Errorf("three pages linked in turn, 12 links: %v, want the parse budget spent", err)
	}
}
