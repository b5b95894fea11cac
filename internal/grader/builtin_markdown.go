package grader

import (
	"bufio"
	"bytes"
	stdhtml "html"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// builtinMD parses Markdown as GitHub does (CommonMark plus the GFM extensions and footnotes, which GitHub,
// Hugo, Docusaurus and Starlight render and MkDocs sites turn on: a definition "[^x]:" whose text starts on
// the next line is a footnote, not a link to its first word). goldmark's parser keeps no state between
// calls, so one value serves every goroutine.
var builtinMD = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

// builtinMDAttr is builtinMD with heading attributes: "## Title {#custom-id}" has the id custom-id and the
// text "Title", as Hugo, Docusaurus and MkDocs (attr_list) read it.
var builtinMDAttr = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote),
	goldmark.WithParserOptions(parser.WithHeadingAttribute()))

// builtinParse parses src. Node positions (ast.Node.Pos, text segments) are byte offsets into src.
func builtinParse(src []byte) ast.Node { return builtinParseWith(builtinMD, src) }

func builtinParseWith(md goldmark.Markdown, src []byte) ast.Node {
	return md.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
}

// The outline parsers: builtinMD and builtinMDAttr as headings, code fences and anchors need them, for a
// fraction of the cost. Without GFM's bare-URL autolinks (goldmark's Linkify), which try every space of
// every paragraph: they change no block, and no inline text that holds none of "www.", "://" and "@"
// (the only starts of a match). And with builtinOutlineInline, which leaves unread the inline text of
// what is not a heading, unless it may hold an HTML id.
var (
	builtinOutlineExts     = goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote)
	builtinOutlineInlines  = goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(builtinOutlineInline{}, 0)))
	builtinMDOutline       = goldmark.New(builtinOutlineExts, builtinOutlineInlines)
	builtinMDAttrOutline   = goldmark.New(builtinOutlineExts, builtinOutlineInlines, goldmark.WithParserOptions(parser.WithHeadingAttribute()))
	builtinOutlineTriggers = func() []byte {
		b := []byte{' '} // goldmark asks at each line's start with ' ' unless the line starts with punctuation
		for c := range 256 {
			if util.IsPunct(byte(c)) {
				b = append(b, byte(c))
			}
		}
		return b
	}()
)

// builtinOutlineInline is an inline parser that goldmark asks first wherever inline markup could start.
// Outside a heading, it takes the rest of the line, and the lines after it, as one plain text up to a line
// that holds a "<" (raw HTML, which may carry an id) or a "`" (a code span, which may hide one): emphasis,
// links and the rest of a paragraph are not parsed. What raw HTML the full parse finds, it finds the same: a tag or a code span reaching
// past its line is read from the line it starts on, which is never skipped.
type builtinOutlineInline struct{}

func (builtinOutlineInline) Trigger() []byte { return builtinOutlineTriggers }

func (builtinOutlineInline) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	if parent.Kind() == ast.KindHeading {
		return nil
	}
	line, seg := block.PeekLine()
	if bytes.ContainsAny(line, "<`") {
		return nil
	}
	start, stop := seg.Start, seg.Stop
	for line != nil && !bytes.ContainsAny(line, "<`") { // this line and those after it that hold neither
		stop = seg.Stop
		block.AdvanceLine()
		line, seg = block.PeekLine()
	}
	run := text.NewSegment(start, stop)
	return ast.NewTextSegment(run.TrimRightSpace(block.Source()))
}

// builtinParseBlocks parses src for its blocks (code fences); the inline text of what it returns is
// not all parsed (builtinOutlineInline).
func builtinParseBlocks(src []byte) ast.Node { return builtinParseWith(builtinMDOutline, src) }

// builtinParseHeadings parses src for its headings (their levels, texts and ids) and anchors, as
// builtinParse does (builtinMDAttr's way when attr), with the outline parsers unless a heading holds what
// Linkify could make a link of, and then again in full. Other inline text of what it returns is not all
// parsed.
func builtinParseHeadings(src []byte, attr bool) ast.Node {
	fast, full := builtinMDOutline, builtinMD
	if attr {
		fast, full = builtinMDAttrOutline, builtinMDAttr
	}
	doc := builtinParseWith(fast, src)
	linkable := false
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		for i := range h.Lines().Len() {
			seg := h.Lines().At(i)
			if v := seg.Value(src); bytes.Contains(v, []byte("www.")) || bytes.Contains(v, []byte("://")) ||
				bytes.IndexByte(v, '@') >= 0 {
				linkable = true
				return ast.WalkStop, nil
			}
		}
		return ast.WalkSkipChildren, nil
	})
	if linkable {
		return builtinParseWith(full, src)
	}
	return doc
}

// builtinNodePos returns the byte offset where n starts in the source, or -1: goldmark records it for
// blocks and inlines; a node without one falls back to its first line or its first text segment.
func builtinNodePos(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
		if p := builtinNodePos(c); p >= 0 {
			return p
		}
	}
	return -1
}

// builtinPlainText is the text content of an inline tree as a browser shows it: text, code spans and
// autolink labels; raw HTML and image alt text are left out (they are not text content of the rendered
// heading, which is what GitHub slugs). A soft line break becomes a space. Adjacent texts are unescaped
// together: the outline parse splits a text at each punctuation mark, "&amp" from ";", where the full
// parse keeps it whole.
func builtinPlainText(n ast.Node, src []byte) string {
	var b strings.Builder
	var text []byte // the adjacent texts not yet unescaped
	flush := func() {
		b.Write(builtinUnescape(text))
		text = text[:0]
	}
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				v := c.Segment.Value(src)
				if c.IsRaw() {
					flush()
					b.Write(v)
				} else {
					text = append(text, v...)
				}
				if c.SoftLineBreak() || c.HardLineBreak() {
					flush()
					b.WriteByte(' ')
				}
			case *ast.String:
				flush()
				b.Write(c.Value)
			case *ast.RawHTML, *ast.Image:
				flush()
			case *ast.AutoLink:
				flush()
				b.Write(c.Label(src))
			default:
				flush()
				walk(c)
			}
		}
	}
	walk(n)
	flush()
	return b.String()
}

// builtinUnescape is Markdown text as its reader sees it: backslash escapes and character references
// resolved in one pass, as CommonMark reads them and goldmark's HTML writer writes them ("\\&copy;" stays
// "&copy;"). The writer's HTML is unescaped back to text.
func builtinUnescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return v
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	html.DefaultWriter.Write(w, v)
	_ = w.Flush() // a bytes.Buffer takes every write
	return []byte(stdhtml.UnescapeString(b.String()))
}

// builtinHeadingSource is a heading's source text without its markers, trimmed.
func builtinHeadingSource(h *ast.Heading, src []byte) string {
	var parts []string
	for i := 0; i < h.Lines().Len(); i++ {
		seg := h.Lines().At(i)
		parts = append(parts, strings.TrimSpace(string(seg.Value(src))))
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// builtinSlug is GitHub's heading anchor before de-duplication: lowercase, keep letters (with their combining
// marks), decimal digits, spaces, '-' and '_', then turn each space into '-'. Other punctuation, symbols and
// emoji are dropped.
func builtinSlug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// builtinSlugger de-duplicates slugs as GitHub does: the second "intro" is "intro-1", the third
// "intro-2", skipping any slug already taken. With trim, a heading's text loses its white space at
// either end first, as Hugo's heading ids do ("Doc-rooted sites <a id=x></a>" is doc-rooted-sites,
// hugo/markup/goldmark autoid); GitHub keeps it (foo- for "Foo <a id=x></a>"). With shortcodes, a
// heading holding Hugo shortcodes is also an anchor by its text without them (withoutShortcodes).
type builtinSlugger struct {
	trim, shortcodes bool
	seen             map[string]int
}

// builtinShortcode matches a Hugo shortcode call, {{< name >}} or {{% name %}}.
var builtinShortcode = regexp.MustCompile(`\{\{[<%].*?[>%]\}\}`)

// withoutShortcodes is the slug of a heading's text without its Hugo shortcodes, when the slugger
// takes them out and the text holds one: what they render is unseen (an icon, mostly), so a link may
// name the heading by the rest.
func (s *builtinSlugger) withoutShortcodes(text string) (string, bool) {
	if !s.shortcodes || !strings.Contains(text, "{{") {
		return "", false
	}
	return builtinSlug(strings.TrimSpace(builtinShortcode.ReplaceAllString(text, ""))), true
}

func (s *builtinSlugger) slug(text string) string {
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	if s.trim {
		text = strings.TrimSpace(text)
	}
	base := builtinSlug(text)
	slug := base
	if _, taken := s.seen[base]; taken {
		for {
			s.seen[base]++
			slug = base + "-" + strconv.Itoa(s.seen[base])
			if _, taken := s.seen[slug]; !taken {
				break
			}
		}
	}
	s.seen[slug] = 0
	return slug
}

// builtinHTMLTag matches one HTML start tag; builtinHTMLAnchor an id or name attribute inside it.
var (
	builtinHTMLTag    = regexp.MustCompile(`<[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?>`)
	builtinHTMLAnchor = regexp.MustCompile(`(?i)\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>` + "`" + `]+))`)
)

// builtinHTMLAnchors appends the id and name attribute values of the start tags in html.
func builtinHTMLAnchors(dst map[string]bool, html []byte) {
	for _, tag := range builtinHTMLTag.FindAll(html, -1) {
		for _, m := range builtinHTMLAnchor.FindAllSubmatch(tag, -1) {
			v := m[1]
			if v == nil {
				v = m[2]
			}
			if v == nil {
				v = m[3]
			}
			dst[stdhtml.UnescapeString(string(v))] = true // HTML: references, no backslash escapes
		}
	}
}

// builtinAnchors returns the anchors of a parsed page: the GitHub slug of every heading by slugs (none when
// slugs is nil: the site slugs them its own way) and every explicit HTML id and name.
func builtinAnchors(doc ast.Node, src []byte, slugs *builtinSlugger) map[string]bool {
	anchors := map[string]bool{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if _, explicit := n.AttributeString("id"); explicit || slugs == nil {
				break // its {#id} replaces the slug (builtinHeadingIDs adds it)
			}
			text := builtinPlainText(n, src)
			anchors[slugs.slug(text)] = true
			if slug, ok := slugs.withoutShortcodes(text); ok {
				anchors[slug] = true
			}
		case *ast.HTMLBlock:
			var b bytes.Buffer
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			if n.HasClosure() {
				b.Write(n.ClosureLine.Value(src))
			}
			builtinHTMLAnchors(anchors, b.Bytes())
		case *ast.RawHTML:
			var b bytes.Buffer
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(src))
			}
			builtinHTMLAnchors(anchors, b.Bytes())
		}
		return ast.WalkContinue, nil
	})
	return anchors
}

// builtinStripFrontmatter returns a page's body: the text after its frontmatter, with the removed lines kept
// as empty lines so offsets stay on their lines. A page without frontmatter is all body.
func builtinStripFrontmatter(page []byte) []byte {
	d := frontmatter.Split(page)
	if d.Format == frontmatter.FormatNone {
		return page
	}
	return append(bytes.Repeat([]byte("\n"), d.BodyLine-1), d.Body...)
}

// builtinHeadingIDs adds the ids headings carry as attributes ({#custom-id}, as written) and, for MkDocs,
// the slug Python-Markdown's toc gives each heading ("_1", "_2" for repeats).
func builtinHeadingIDs(doc ast.Node, src []byte, anchors map[string]bool, mkdocs bool) {
	seen := map[string]int{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if v, ok := h.AttributeString("id"); ok {
			if b, ok := v.([]byte); ok {
				anchors[string(b)] = true
				return ast.WalkSkipChildren, nil
			}
		}
		if mkdocs {
			slug := builtinMkDocsSlug(builtinPlainText(h, src))
			if n := seen[slug]; n > 0 {
				anchors[slug+"_"+strconv.Itoa(n)] = true
			} else {
				anchors[slug] = true
			}
			seen[slug]++
		}
		return ast.WalkSkipChildren, nil
	})
}
