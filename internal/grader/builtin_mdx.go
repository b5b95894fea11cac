package grader

import (
	"bytes"
	"path"
	"strings"
)

// MDX pages (README "Built-in tool:* graders") are Markdown with ESM lines (import, export) and JSX. The
// built-in tools read them as Markdown with those parts blanked out: every byte of an ESM statement, a JSX
// tag on its own lines or an expression line ({/* comment */}) becomes a space, newlines kept, so offsets,
// lines and columns stay those of the file, and the Markdown between a component's tags is still read
// (a heading inside <TabItem> is a heading). JSX id="..." attributes are kept as anchors.

// builtinIsMDX reports whether the target bytes of in are an MDX page's (not re-serialised frontmatter).
func builtinIsMDX(in *ToolInput) bool {
	return in.TargetKind != "frontmatter" && strings.EqualFold(path.Ext(in.File), ".mdx")
}

// builtinMDX is an MDX text read as Markdown.
type builtinMDX struct {
	blanked []byte // the text with its ESM and JSX lines blanked: what is parsed
	kept    []byte // the text without those lines: what is measured
	jsx     []byte // the JSX lines' text, for their id attributes
}

// builtinMarkdown is what the built-in tools parse as Markdown: the target, or for MDX the target with
// its ESM and JSX blanked, and the JSX tags' text (for their id attributes).
func builtinMarkdown(in *ToolInput) (src, jsx []byte) {
	if !builtinIsMDX(in) {
		return in.Target, nil
	}
	m := builtinBlankMDX(in.Target)
	return m.blanked, m.jsx
}

// builtinBlankMDX blanks the ESM and JSX lines of an MDX text outside code fences.
func builtinBlankMDX(src []byte) builtinMDX {
	out := bytes.Clone(src)
	var kept, jsx []byte
	var fence []byte // the open code fence's marker run, nil outside one
	inESM, inTag, blanked := false, false, false
	blank := func(line []byte, start int) {
		blanked = true
		for i := range line {
			if c := line[i]; c != '\n' && c != '\r' {
				out[start+i] = ' '
			}
		}
	}
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start + 1
		}
		line := src[start:end]
		trimmed := bytes.TrimSpace(line)
		blanked = false
		switch {
		case fence != nil:
			if bytes.HasPrefix(trimmed, fence) && len(bytes.TrimLeft(trimmed, string(fence[:1]))) == 0 {
				fence = nil
			}
		case builtinFenceOpen(trimmed) != nil:
			fence = builtinFenceOpen(trimmed)
		case inESM:
			// A statement runs until a blank line.
			if len(trimmed) == 0 {
				inESM = false
			} else {
				blank(line, start)
			}
		case inTag:
			jsx = append(jsx, line...)
			blank(line, start)
			inTag = !bytes.HasSuffix(trimmed, []byte(">"))
		case line[0] != ' ' && line[0] != '\t' && (bytes.HasPrefix(line, []byte("import ")) || bytes.HasPrefix(line, []byte("export "))):
			blank(line, start)
			inESM = true
		case builtinJSXLine(trimmed):
			jsx = append(jsx, line...)
			blank(line, start)
			inTag = !bytes.HasSuffix(trimmed, []byte(">"))
		case bytes.HasPrefix(trimmed, []byte("{")) && bytes.HasSuffix(trimmed, []byte("}")):
			blank(line, start)
		}
		if !blanked {
			kept = append(kept, line...)
		}
		start = end
	}
	return builtinMDX{blanked: out, kept: kept, jsx: jsx}
}

// builtinJSXLine reports whether a trimmed line starts a JSX element: a component (<Tabs, </Tabs, <Tabs.Item)
// or a fragment (<>, </>). Lowercase tags are HTML, which Markdown reads already.
func builtinJSXLine(t []byte) bool {
	if len(t) < 2 || t[0] != '<' {
		return false
	}
	c := t[1]
	if c == '/' && len(t) > 2 {
		c = t[2]
	}
	return c == '>' || c >= 'A' && c <= 'Z'
}

// builtinFenceOpen returns the marker run of a code fence the trimmed line opens (``` or ~~~, three or
// more), or nil.
func builtinFenceOpen(t []byte) []byte {
	for _, m := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == m {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return nil
}
