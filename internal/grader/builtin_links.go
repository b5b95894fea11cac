package grader

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/yuin/goldmark/ast"
)

var builtinLinks = &Tool{Tool: tooldef.Links,
	Run: builtinRunLinks}

// builtinScheme matches a URL scheme (RFC 3986 section 3.1) at the start of a link.
var builtinScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// builtinMarkdownExts are the extensions of files whose anchors tool:links checks.
var builtinMarkdownExts = map[string]bool{
	".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".mkdn": true, ".mdwn": true, ".mdx": true,
}

func builtinRunLinks(ctx context.Context, in *ToolInput) ([]Finding, error) {
	pages := builtinPages(in)
	src, jsx := builtinMarkdown(in)
	doc := builtinParse(src)
	pm := builtinNewPosMap(in)
	lc := &builtinLinkCheck{in: in, pages: pages, doc: doc, src: src, jsx: jsx}
	var out builtinFindings
	var err error
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		kind := "link"
		switch n := n.(type) {
		case *ast.Link:
			dest = n.Destination
		case *ast.Image:
			dest, kind = n.Destination, "image"
		default:
			return ast.WalkContinue, nil
		}
		if err = ctx.Err(); err != nil {
			return ast.WalkStop, err
		}
		var f *Finding
		f, err = lc.check(string(dest), kind)
		if err != nil {
			return ast.WalkStop, err
		}
		if f != nil && out.room() {
			f.Pos = pm.at(builtinNodePos(n))
			out.list = append(out.list, *f)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return nil, err
	}
	return out.done(), nil
}

type builtinLinkCheck struct {
	in    *ToolInput
	pages *PageCache
	doc   ast.Node
	src   []byte          // what doc was parsed from (an MDX page's with its ESM and JSX blanked)
	jsx   []byte          // an MDX page's JSX lines, whose id attributes are anchors too
	own   map[string]bool // this target's anchors, computed on first use
}

// check judges one link destination as written in the source; it returns a finding without a position,
// or nil when the link holds.
func (lc *builtinLinkCheck) check(written, kind string) (*Finding, error) {
	dest := strings.TrimSpace(string(builtinUnescape([]byte(written))))
	if dest == "" || builtinScheme.MatchString(dest) || strings.HasPrefix(dest, "//") {
		return nil, nil
	}
	pathPart, frag, _ := strings.Cut(dest, "#")
	pathPart, _, _ = strings.Cut(pathPart, "?")
	broken := func(why string, ev map[string]any) *Finding {
		ev["link"] = written
		return &Finding{Code: "broken_link", Key: written, Evidence: ev,
			Message: fmt.Sprintf("broken %s %q: %s", kind, written, why)}
	}
	p, err := url.PathUnescape(pathPart)
	if err != nil {
		return broken("invalid percent-encoding", map[string]any{}), nil
	}
	pathPart = p
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if pathPart == "" {
		if frag == "" || frag == "top" {
			return nil, nil
		}
		if lc.own == nil {
			lc.own = builtinAnchors(lc.doc, lc.src)
			builtinHTMLAnchors(lc.own, lc.jsx)
		}
		if lc.own[frag] {
			return nil, nil
		}
		return &Finding{Code: "missing_anchor", Key: written,
			Message:  fmt.Sprintf("missing anchor %q: no heading or id %q in this page", written, frag),
			Evidence: map[string]any{"link": written, "anchor": frag}}, nil
	}

	root := filepath.Clean(lc.in.RepoRoot)
	base, rel := lc.in.Dir, pathPart
	if strings.HasPrefix(pathPart, "/") {
		base, rel = root, strings.TrimLeft(pathPart, "/")
		if rel == "" {
			rel = "."
		}
	}
	abs, st, why := lc.pages.builtinLocate(root, base, filepath.FromSlash(rel))
	ev := map[string]any{}
	if r, err := filepath.Rel(root, abs); err == nil && st != builtinPathOutside {
		ev["path"] = filepath.ToSlash(r)
	}
	switch st {
	case builtinPathOutside:
		return broken("it "+builtinRefusal(why), ev), nil
	case builtinPathMissing:
		return broken("no such file", ev), nil
	case builtinPathFile:
		if strings.HasSuffix(pathPart, "/") {
			return broken("not a directory", ev), nil
		}
	}
	if frag == "" || frag == "top" || st != builtinPathFile || !builtinMarkdownExts[strings.ToLower(filepath.Ext(abs))] {
		return nil, nil
	}
	anchors, err := lc.pages.builtinPageAnchors(abs)
	if err != nil {
		return nil, err
	}
	if anchors[frag] {
		return nil, nil
	}
	ev["link"], ev["anchor"] = written, frag
	return &Finding{Code: "missing_anchor", Key: written, Evidence: ev,
		Message: fmt.Sprintf("missing anchor %q: no heading or id %q in %s", written, frag, ev["path"])}, nil
}

// builtinPageAnchors returns the anchors of the Markdown file at abs (its frontmatter left out), cached.
func (c *PageCache) builtinPageAnchors(abs string) (map[string]bool, error) {
	v, err := c.builtinGet("anchors\x00"+abs, func() (any, error) {
		// A linked page past the limit gives the anchors of its first BodyLimit bytes.
		data, err := repofs.ReadFile(abs, repofs.BodyLimit)
		if err != nil && !errors.Is(err, repofs.ErrTooLarge) {
			return nil, fmt.Errorf("tool:links: %w linked page: %v", ErrUnreadable, err)
		}
		body := builtinStripFrontmatter(data)
		var jsx []byte
		if strings.EqualFold(filepath.Ext(abs), ".mdx") {
			m := builtinBlankMDX(body)
			body, jsx = m.blanked, m.jsx
		}
		anchors := builtinAnchors(builtinParse(body), body)
		builtinHTMLAnchors(anchors, jsx)
		return anchors, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(map[string]bool), nil
}
