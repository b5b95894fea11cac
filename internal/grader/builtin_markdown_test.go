package grader

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/yuin/goldmark/ast"
)

// outline is what headings and anchors read of a parsed page: each heading's level, start, text and
// id, each fence's start, language and lines, and the page's anchors.
func outline(doc ast.Node, src []byte) []string {
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			id, _ := n.AttributeString("id")
			out = append(out, fmt.Sprintf("h%d@%d %q id=%v source=%q", n.Level, builtinNodePos(n), builtinPlainText(n, src), id,
				builtinHeadingSource(n, src)))
		case *ast.FencedCodeBlock:
			out = append(out, fmt.Sprintf("fence@%d %q lines=%d", builtinNodePos(n), n.Language(src), n.Lines().Len()))
		}
		return ast.WalkContinue, nil
	})
	for _, slugs := range []*builtinSlugger{{}, nil} {
		anchors := builtinAnchors(doc, src, slugs)
		keys := make([]string, 0, len(anchors))
		for k := range anchors {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out = append(out, fmt.Sprint(keys))
	}
	return out
}

// FuzzParseHeadings: parsing for headings (without Linkify unless a heading could hold a bare URL)
// reads every heading, fence and anchor as the full GFM parse does, with heading attributes or
// without; parsing for blocks reads every fence as it does.
func FuzzParseHeadings(f *testing.F) {
	for _, s := range []string{
		"# See www.a.com/*x* and http://b.c/_y_ now\n",
		"# Install from www.example.com/\\*x\\*\n\ntext www.a.com and https://b.c/d_(e) here\n",
		"## Mail me@example.com {#mail}\n\nSee <a id=\"top\">x</a> and a@b.co.\n",
		"Setext www.x.org\n===\n\n```go\nx\n```\n",
		"# ~~old~~ *new* `code` [link](https://x.y) ![img](i.png)\n\n| a | b |\n| - | - |\n| www.t.com | c |\n",
		"> ## Quoted http://q.r/s?t=1\n\n- ## In a list {#li}\n  ~~~\n  fence\n  ~~~\n",
		"<div id=\"html\">\n\n# After HTML\n\n</div>\n\n# Title\n# Title\n",
		"# [www.a.com](#x) and <https://auto.link>\n",
		"para *one*\nsecond <a id=\"x\">y</a> and *two*\n\n`code <a id=\"no\">` <span id=\"s\"></span>\n",
		"a ` b\n<a id=q> `\n\n[label\n<a name=\"n\">](u)\n\n<!--\n<a id=c>\n-->\n",
		"| a | b |\n| - | - |\n| <a id=\"cell\"></a> | `<a id=\"code\">` |\n\n- item\n  <a id=\"li\"></a>\n",
		"# A&amp;B\n\n## Nebenbemerkungs&shy;titel &#173;&#x41; \\&copy; *&lt;em&gt;*\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, attr := range []bool{false, true} {
			full := builtinParseWith(builtinMD, src)
			if attr {
				full = builtinParseWith(builtinMDAttr, src)
			}
			want := outline(full, src)
			if got := outline(builtinParseHeadings(src, attr), src); !slices.Equal(got, want) {
				t.Fatalf("attr=%v:\n got %q\nwant %q", attr, got, want)
			}
		}
		var fences func(doc ast.Node) []string
		fences = func(doc ast.Node) []string {
			var out []string
			for _, line := range outline(doc, src) {
				if len(line) > 5 && line[:5] == "fence" {
					out = append(out, line)
				}
			}
			return out
		}
		if got, want := fences(builtinParseBlocks(src)), fences(builtinParse(src)); !slices.Equal(got, want) {
			t.Fatalf("fences:\n got %q\nwant %q", got, want)
		}
	})
}

// TestBuiltinPlainText: a heading's text is read as CommonMark reads it, character references and
// backslash escapes resolved in one pass, by the outline parse as by the full one, so its slug is the
// site's ("Nebenbemerkungs&shy;titel" is #nebenbemerkungstitel).
func TestBuiltinPlainText(t *testing.T) {
	tests := []struct{ md, text, slug string }{
		{"# A&amp;B", "A&B", "ab"},
		{"# Nebenbemerkungs&shy;titel", "Nebenbemerkungs\u00adtitel", "nebenbemerkungstitel"},
		{"# E&#173;F &#x41;", "E\u00adF A", "ef-a"},
		{"# \\&copy; 2026", "&copy; 2026", "copy-2026"},
		{"# x&nbsp;y", "x\u00a0y", "xy"},
		{"# &bogus; &copy", "&bogus; &copy", "bogus-copy"},
		{"# a\\_b \\*c\\*", "a_b *c*", "a_b-c"},
		{"# *&lt;em&gt;* `&amp;`", "<em> &amp;", "em-amp"},
	}
	for _, tt := range tests {
		src := []byte(tt.md + "\n")
		for name, doc := range map[string]ast.Node{"full": builtinParse(src), "outline": builtinParseHeadings(src, false)} {
			h, ok := doc.FirstChild().(*ast.Heading)
			if !ok {
				t.Fatalf("%q: no heading", tt.md)
			}
			if got := builtinPlainText(h, src); got != tt.text {
				t.Errorf("%s parse of %q: text %q, want %q", name, tt.md, got, tt.text)
			}
			if got := builtinSlug(builtinPlainText(h, src)); got != tt.slug {
				t.Errorf("%s parse of %q: slug %q, want %q", name, tt.md, got, tt.slug)
			}
		}
	}
}

// TestBuiltinHTMLAnchors: an id or name attribute is HTML, where a character reference is resolved and a
// backslash is a backslash.
func TestBuiltinHTMLAnchors(t *testing.T) {
	got := map[string]bool{}
	builtinHTMLAnchors(got, []byte(`<a id="x&amp;y"></a><span name='a\_b'></span><div id=plain>`))
	want := map[string]bool{"x&y": true, `a\_b`: true, "plain": true}
	if !maps.Equal(got, want) {
		t.Errorf("anchors %v, want %v", got, want)
	}
}
