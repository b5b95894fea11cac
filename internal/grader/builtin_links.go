package grader

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/yuin/goldmark/ast"
)

var builtinLinks = &Tool{Tool: tooldef.Links, Run: builtinRunLinks}

// builtinScheme matches a URL scheme (RFC 3986 section 3.1) at the start of a link.
var builtinScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// builtinMarkdownExts are the extensions of files whose anchors tool:links checks.
var builtinMarkdownExts = map[string]bool{
	".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".mkdn": true, ".mdwn": true, ".mdx": true,
}

func builtinRunLinks(ctx context.Context, in *ToolInput) ([]Finding, error) {
	pages := builtinPages(in)
	site, err := builtinSiteOf(in)
	if err != nil {
		return nil, err
	}
	src, jsx := builtinMarkdown(in)
	doc, err := builtinParseGuarded(ctx, "the target", src, in.FirstLine, func() ast.Node { return site.parse(src) })
	if err != nil {
		return nil, err
	}
	pm := builtinNewPosMap(in)
	lc := &builtinLinkCheck{ctx: ctx, in: in, pages: pages, doc: doc, src: src, jsx: jsx, site: site}
	var out builtinFindings
	var built [][]string // the page files of out.list[at[i]]'s URL
	var at []int
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
		lc.built = nil
		f, err = lc.check(string(dest), kind)
		if err != nil {
			return ast.WalkStop, err
		}
		if f != nil && out.room() {
			f.Pos = pm.at(builtinNodePos(n))
			if lc.built != nil {
				built, at = append(built, lc.built), append(at, len(out.list))
			}
			out.list = append(out.list, *f)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return nil, err
	}
	if len(built) > 0 {
		// One question to git for the page's broken links. A finding dropped here leaves room that
		// findings past MaxFindings, counted and not kept, do not take back.
		ix, err := site.index(ctx, pages)
		if err != nil {
			return nil, err
		}
		gen := site.builtPages(ctx, pages, ix, built)
		drop := map[int]bool{}
		for i, g := range gen {
			drop[at[i]] = g
		}
		kept := out.list[:0]
		for i, f := range out.list {
			if !drop[i] {
				kept = append(kept, f)
			}
		}
		out.list = kept
	}
	return out.done(), nil
}

type builtinLinkCheck struct {
	ctx   context.Context // the run's: a linked page's parse stops waiting when it ends
	in    *ToolInput
	pages *PageCache
	doc   ast.Node
	src   []byte          // what doc was parsed from (an MDX page's with its ESM and JSX blanked)
	jsx   []byte          // an MDX page's JSX lines, whose id attributes are anchors too
	site  *builtinSite    // the site's URL rules (the github preset: files as GitHub renders them)
	own   map[string]bool // this target's anchors, computed on first use
	// ownOpen: this target includes other content, so an anchor not found in it is not judged.
	ownOpen bool
	// built are the page files that would serve the broken link check last judged, had the site's
	// build generated one (builtinSite.builtPages), or nil.
	built []string
	// parsedAgain is the linked pages' text this check had parsed again for their anchors, once the
	// cache had let them go (builtinLinkedParseBudget); parsed are the pages it had parsed.
	parsedAgain int64
	parsed      map[string]bool
}

// builtinLinkedParseBudget bounds the linked pages' text one page's links may have parsed again for their
// anchors (README "Limits"). Linked pages' anchors are kept within builtinAnchorBudget: a page whose links
// alternate between a few pages too large for it to keep had each of them parsed again for every link
// (2 MB of headings, a second each: 48 links took 45 s). A page parsed once for a page's links is not
// counted: an index page may link thousands.
var builtinLinkedParseBudget int64 = 16 << 20

// check judges one link destination as written in the source; it returns a finding without a position,
// or nil when the link holds.
func (lc *builtinLinkCheck) check(written, kind string) (*Finding, error) {
	dest := strings.TrimSpace(string(builtinUnescape([]byte(written))))
	if dest == "" || builtinScheme.MatchString(dest) || strings.HasPrefix(dest, "//") || lc.site.skip(dest) {
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
			lc.own, lc.ownOpen = lc.site.anchors(lc.src, lc.in.Target)
			builtinHTMLAnchors(lc.own, lc.jsx)
		}
		if lc.own[frag] || lc.ownOpen {
			return nil, nil
		}
		return &Finding{Code: "missing_anchor", Key: written,
			Message:  fmt.Sprintf("missing anchor %q: no heading or id %q in this page", written, frag),
			Evidence: map[string]any{"link": written, "anchor": frag}}, nil
	}

	if lc.site.name != "github" {
		return lc.checkSite(written, kind, pathPart, frag)
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
	return lc.checkAnchor(written, frag, abs, st, ev)
}

// checkAnchor judges a link's #frag in the file it resolved to: only a Markdown file has anchors to check.
func (lc *builtinLinkCheck) checkAnchor(written, frag, abs string, st builtinPathState, ev map[string]any) (*Finding, error) {
	if frag == "" || frag == "top" || st != builtinPathFile || !builtinMarkdownExts[strings.ToLower(filepath.Ext(abs))] {
		return nil, nil
	}
	anchors, open, parsed, err := lc.pages.builtinPageAnchors(lc.ctx, lc.site, abs)
	if err != nil {
		return nil, err
	}
	if parsed > 0 {
		if lc.parsed[abs] {
			lc.parsedAgain += parsed
		}
		if lc.parsed == nil {
			lc.parsed = map[string]bool{}
		}
		lc.parsed[abs] = true
	}
	if lc.parsedAgain > builtinLinkedParseBudget {
		return nil, fmt.Errorf("tool:links: %w: the page's links had %s of linked pages parsed again for their anchors, past %s (pages too large to keep, linked in turn)",
			ErrTooMuchWork, repofs.Size(lc.parsedAgain), repofs.Size(builtinLinkedParseBudget))
	}
	if anchors[frag] || open {
		return nil, nil
	}
	if r, err := filepath.Rel(filepath.Clean(lc.in.RepoRoot), abs); err == nil {
		ev["path"] = filepath.ToSlash(r)
	}
	ev["link"], ev["anchor"] = written, frag
	return &Finding{Code: "missing_anchor", Key: written, Evidence: ev,
		Message: fmt.Sprintf("missing anchor %q: no heading or id %q in %s", written, frag, ev["path"])}, nil
}

// checkSite judges a link on a documentation site (README "Links on real sites"): a /-rooted link names
// a URL of the site (a page, a static file, a file under the content root); a relative one a file next
// to the page, or a URL relative to the page's own URL, as a browser resolves it.
func (lc *builtinLinkCheck) checkSite(written, kind, pathPart, frag string) (*Finding, error) {
	s, root := lc.site, filepath.Clean(lc.in.RepoRoot)
	ix, err := s.index(lc.ctx, lc.pages)
	if err != nil {
		return nil, err
	}
	found := func(abs string) (*Finding, error) {
		return lc.checkAnchor(written, frag, abs, builtinPathFile, map[string]any{})
	}
	exists := func(base, rel string) (string, builtinPathState) {
		if base == "" {
			return "", builtinPathMissing
		}
		abs, st, _ := lc.pages.builtinLocate(root, base, filepath.FromSlash(rel))
		if st == builtinPathFile && strings.HasSuffix(rel, "/") && !s.fileRelative {
			// A file is no directory; a generator that rewrites file links normalises a/b.md/ (MkDocs).
			st = builtinPathMissing
		}
		return abs, st
	}
	page := func(st builtinPathState, abs string) (*Finding, error) {
		if st == builtinPathDir {
			return nil, nil
		}
		return found(abs)
	}
	if strings.HasPrefix(pathPart, "/") {
		rel := strings.TrimLeft(pathPart, "/")
		if f := s.lookup(ix, pathPart); f != "" {
			return found(f)
		}
		for _, d := range append(append(slices.Clone(s.static), s.root), ix.dirs...) {
			if abs, st := exists(d, rel); st == builtinPathFile || st == builtinPathDir {
				return page(st, abs)
			}
		}
		if s.generatedURL(ix, pathPart) {
			return nil, nil
		}
		lc.built = s.pageFiles(ix, pathPart)
		return lc.brokenSite(written, kind, "no page, static file or file under the site's root has that URL"), nil
	}
	if rel, ok := strings.CutPrefix(pathPart, s.siteAlias); ok && s.siteAlias != "" {
		if abs, st := exists(s.root, rel); st == builtinPathFile || st == builtinPathDir {
			return page(st, abs)
		}
		return lc.brokenSite(written, kind, "no such file in the site's directory"), nil
	}
	for _, a := range ix.aliases {
		if rel, ok := strings.CutPrefix(pathPart, a.prefix); ok {
			if abs, st := exists(a.dir, rel); st == builtinPathFile {
				return found(abs)
			}
			return lc.brokenSite(written, kind, "no such file in "+a.prefix+"'s folder"), nil
		}
	}
	pageFile := builtinPageExts[strings.ToLower(path.Ext(pathPart))]
	abs, st := exists(lc.in.Dir, pathPart)
	if (st == builtinPathFile || st == builtinPathDir) && s.contentOnly && within(s.root, lc.in.Dir) && !within(s.root, abs) {
		// The file is there, but the site serves no file outside its content root at that path.
		for _, d := range s.static {
			if rel, err := filepath.Rel(d, abs); err == nil && within(d, abs) {
				return lc.brokenSite(written, kind, "the file is a static file, which the site serves at /"+filepath.ToSlash(rel)+": link that URL"), nil
			}
		}
		return lc.brokenSite(written, kind, "the file exists in the repository, but outside "+s.contentName()+", which is all the site serves from files"), nil
	}
	if (st == builtinPathFile || st == builtinPathDir) && (s.fileRelative || !pageFile || kind == "image") {
		return page(st, abs)
	}
	if st == builtinPathFile {
		// A generator that does not rewrite links serves no page at a .md file's path (Starlight).
		return lc.brokenSite(written, kind, "the file exists, but "+s.name+" does not rewrite links to page files: link to the page's URL"), nil
	}
	if s.generatedURL(ix, pathPart) {
		return nil, nil
	}
	if pageFile && s.fileRelative && !strings.HasPrefix(pathPart, ".") {
		// A bare page file: Docusaurus tries the content directories (and Hugo's GetPage the root).
		for _, d := range append(slices.Clone(ix.dirs), s.root) {
			if abs, st := exists(d, pathPart); st == builtinPathFile {
				return found(abs)
			}
		}
	}
	if s.getPage {
		// Hugo's GetPage tries a page path from the page's own directory first; a leaf bundle's page
		// (index.md) is its folder, so its page paths also start from the folder's parent.
		dirs := []string{lc.in.Dir}
		if name := path.Base(lc.in.File); strings.TrimSuffix(name, path.Ext(name)) == "index" {
			dirs = append(dirs, filepath.Dir(lc.in.Dir))
		}
		for _, dir := range dirs {
			if rel, err := filepath.Rel(s.root, dir); err == nil && !strings.HasPrefix(rel, "..") {
				if f := s.lookup(ix, path.Join("/", filepath.ToSlash(rel), strings.TrimSuffix(pathPart, path.Ext(pathPart)))); f != "" {
					return found(f)
				}
			}
		}
	}
	self := filepath.Join(root, filepath.FromSlash(lc.in.File))
	if u, ok := ix.urls[self]; ok {
		urls := []string{path.Join(u, pathPart)}
		if s.bareURLs {
			// Served without its trailing slash, the page's URL is a file of its folder's.
			urls = append(urls, path.Join(path.Dir(strings.TrimSuffix(u, "/")), pathPart))
		}
		// The URL may name a file the site serves as it is: a static file, or one of the content root's
		// that is no page (a page bundle's resources, Hugo; a page file is served rendered).
		served := append(slices.Clone(s.static), s.root)
		for _, url := range urls {
			if f := s.lookup(ix, url); f != "" {
				return found(f)
			}
			if s.generatedURL(ix, url) {
				return nil, nil
			}
			for _, d := range served {
				rel := strings.TrimLeft(url, "/")
				if d == s.root && builtinPageExts[strings.ToLower(path.Ext(rel))] {
					continue
				}
				if abs, st := exists(d, rel); st == builtinPathFile {
					return found(abs)
				}
			}
		}
	}
	if s.getPage && !strings.HasPrefix(pathPart, ".") {
		// Hugo's GetPage tries a page path from the content root too.
		if f := s.lookup(ix, "/"+strings.TrimSuffix(strings.TrimSuffix(pathPart, path.Ext(pathPart)), "/")); f != "" {
			return found(f)
		}
	}
	if pageFile {
		lc.built = append(lc.built, filepath.Join(lc.in.Dir, filepath.FromSlash(pathPart)))
	}
	if u, ok := ix.urls[self]; ok {
		lc.built = append(lc.built, s.pageFiles(ix, path.Join(u, pathPart))...)
		if s.bareURLs {
			lc.built = append(lc.built, s.pageFiles(ix, path.Join(path.Dir(strings.TrimSuffix(u, "/")), pathPart))...)
		}
	}
	return lc.brokenSite(written, kind, "no file next to the page and no page at that URL relative to the page's"), nil
}

func (lc *builtinLinkCheck) brokenSite(written, kind, why string) *Finding {
	return &Finding{Code: "broken_link", Key: written, Evidence: map[string]any{"link": written, "site": lc.site.name},
		Message: fmt.Sprintf("broken %s %q: %s", kind, written, why)}
}

// builtinPageAnchors returns the anchors of the Markdown file at abs (its frontmatter left out) by the
// site's rules, and whether it includes other content, cached; parsed is the bytes this call parsed
// (0 when the cache had them).
func (c *PageCache) builtinPageAnchors(ctx context.Context, site *builtinSite, abs string) (ids map[string]bool, open bool, parsed int64, err error) {
	type anchors struct {
		ids  map[string]bool
		open bool
	}
	var size int64 // set when this call parsed the page
	v, err := c.builtinGet("anchors\x00"+site.name+"\x00"+abs, func() (any, error) {
		// A linked page past the limit gives the anchors of its first BodyLimit bytes.
		data, err := repofs.ReadFile(abs, repofs.BodyLimit)
		if err != nil && !errors.Is(err, repofs.ErrTooLarge) {
			return nil, fmt.Errorf("tool:links: %w linked page: %v", ErrUnreadable, err)
		}
		raw := builtinStripFrontmatter(data)
		parsed = int64(len(raw))
		body, jsx := raw, []byte(nil)
		if strings.EqualFold(filepath.Ext(abs), ".mdx") {
			m := builtinBlankMDX(raw)
			body, jsx = m.blanked, m.jsx
		}
		// raw keeps the lines of data: its frontmatter is blank lines.
		a, err := builtinParseGuarded(ctx, "linked page "+filepath.Base(abs), body, 1, func() anchors {
			ids, open := site.anchors(body, raw)
			return anchors{ids, open}
		})
		if err != nil {
			return nil, err
		}
		builtinHTMLAnchors(a.ids, jsx)
		size = 128 + int64(len(abs))
		for id := range a.ids {
			size += 48 + int64(len(id))
		}
		return a, nil
	})
	if size > 0 && c.anchorBytes.Add(size) > builtinAnchorBudget {
		c.dropAnchors()
	}
	if err != nil {
		return nil, false, parsed, err
	}
	a := v.(anchors)
	return a.ids, a.open, parsed, nil
}

// builtinAnchorBudget bounds the memory of the linked pages' anchors a run keeps (README "Memory"): a
// site of 64,000 pages that link to each other's headings kept 162 MB of them. Past it, every cached
// page's anchors are dropped, and a page linked again is parsed again.
var builtinAnchorBudget int64 = 32 << 20

// dropAnchors forgets every linked page's anchors (those being read meanwhile are kept by their callers).
func (c *PageCache) dropAnchors() {
	c.entries.Range(func(k, _ any) bool {
		if strings.HasPrefix(k.(string), "anchors\x00") {
			c.entries.Delete(k)
		}
		return true
	})
	c.anchorBytes.Store(0)
}
