package sitegen

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/evalgate/evalgate/internal/frontmatter"
)

// Hugo's permalinks (Hugo docs: configuration/permalinks; resources/page/permalinks.go): a rule serves
// the pages of a kind under a section at the URL its pattern makes of each page's date, title, slug,
// file name and sections, instead of at the page's path.

// HugoPermalink is one rule: the pages of Kind ("page" or "section"; "" is any kind) whose Hugo path
// matches the glob Path ("/{blog,blog/**}") are served at Pattern ("/:year/:month/:day/:slug/").
type HugoPermalink struct{ Kind, Path, Pattern string }

// HugoPage is what a permalink pattern reads of one page.
type HugoPage struct {
	Kind string // "page", or "section" for a folder's _index file
	// Path is the page's Hugo path: the file's path below the content root, lowercased, without its
	// extension; a bundle's index file and a section's _index file have their folder's path ("/blog/2024/x").
	Path string
	// Sections are the folders of its current section, from the top: a section page's own, else the
	// nearest folder above the page that is a section (every top-level folder, and each folder with an
	// _index file), or none at the root.
	Sections    []string
	Title, Slug string
	Date        time.Time
	// BaseName is the file's name without its extension and language ("x" of x.fr.md); a bundle's
	// index file has its folder's name; a section's _index file "_index".
	BaseName string
}

// hugoPermalinkKinds are the kinds a rule may name; taxonomy and term pages are generated (/tags/).
var hugoPermalinkKinds = map[string]bool{"page": true, "section": true, "taxonomy": true, "term": true}

// readHugoPermalinks reads the permalinks setting n: a map of section to pattern (pages and terms
// of that section), a map of kind to such a map, or a list of {target: {kind, path}, pattern}. A
// value of another shape is left out, as Hugo would refuse the config.
func readHugoPermalinks(n *frontmatter.Node) []HugoPermalink {
	var out []HugoPermalink
	switch n.Kind {
	case frontmatter.List:
		for _, it := range n.Items {
			pattern, target := it.Get("pattern"), it.Get("target")
			if pattern == nil || pattern.Value.Kind != frontmatter.String {
				continue
			}
			rule := HugoPermalink{Pattern: pattern.Value.Text}
			if target != nil {
				if k := target.Value.Get("kind"); k != nil && k.Value.Kind == frontmatter.String {
					rule.Kind = strings.ToLower(k.Value.Text)
				}
				if p := target.Value.Get("path"); p != nil && p.Value.Kind == frontmatter.String {
					rule.Path = strings.ToLower(p.Value.Text)
				}
			}
			out = append(out, rule)
		}
	case frontmatter.Map:
		for _, e := range n.Entries {
			switch v := e.Value; {
			case v.Kind == frontmatter.String:
				out = append(out, HugoPermalink{Kind: "page", Path: hugoSectionGlob(e.Key), Pattern: v.Text})
			case v.Kind == frontmatter.Map && hugoPermalinkKinds[strings.ToLower(e.Key)]:
				for _, s := range v.Entries {
					if s.Value.Kind == frontmatter.String {
						out = append(out, HugoPermalink{Kind: strings.ToLower(e.Key), Path: hugoSectionGlob(s.Key), Pattern: s.Value.Text})
					}
				}
			}
		}
	}
	return out
}

// hugoSectionGlob is the glob of the page paths a section's rule covers: the section and everything
// below it; " " or "/" is the root's pages.
func hugoSectionGlob(section string) string {
	section = strings.ToLower(strings.Trim(section, " /"))
	if section == "" {
		return "/*"
	}
	return "/{" + section + "," + section + "/**}"
}

// hugoAttribute matches a pattern's attribute: ":slug", ":sections[1:]". A colon written "\:" is text.
var hugoAttribute = regexp.MustCompile(`:\w+(\[.+?\])?`)

// hugoReferenceTime tells a Go time layout (":2006", ":Jan") from a name: it formats to something else.
var hugoReferenceTime = time.Date(2019, time.November, 9, 23, 1, 42, 1, time.UTC)

// Permalink is the URL path the first rule matching pg serves it at; false when no rule matches, or
// the rule's pattern names an attribute Hugo does not know (Hugo refuses such a config).
func Permalink(rules []HugoPermalink, pg HugoPage) (string, bool) {
	for _, r := range rules {
		if r.Kind != "" && r.Kind != pg.Kind {
			continue
		}
		if r.Path != "" {
			if ok, err := doublestar.Match(r.Path, pg.Path); err != nil || !ok {
				continue
			}
		}
		return expandPermalink(r.Pattern, pg)
	}
	return "", false
}

// expandPermalink replaces each attribute of pattern with what it says of pg; "\:" is a colon that
// starts none.
func expandPermalink(pattern string, pg HugoPage) (string, bool) {
	known := true
	parts := strings.Split(pattern, `\:`)
	for i, part := range parts {
		parts[i] = hugoAttribute.ReplaceAllStringFunc(part, func(m string) string {
			v, ok := hugoAttributeValue(m[1:], pg)
			known = known && ok
			return v
		})
	}
	if !known {
		return "", false
	}
	return strings.Join(parts, ":"), true
}

// hugoAttributeValue is one attribute's text for pg (resources/page/permalinks.go).
func hugoAttributeValue(attr string, pg HugoPage) (string, bool) {
	d := pg.Date
	switch attr {
	case "year":
		return strconv.Itoa(d.Year()), true
	case "month":
		return pad2(int(d.Month())), true
	case "monthname":
		return d.Month().String(), true
	case "day":
		return pad2(d.Day()), true
	case "weekday":
		return strconv.Itoa(int(d.Weekday())), true
	case "weekdayname":
		return d.Weekday().String(), true
	case "yearday":
		return strconv.Itoa(d.YearDay()), true
	case "section":
		// The top-level folder a page is under, or a section is; "" for a page at the root.
		first, rest, below := strings.Cut(strings.Trim(pg.Path, "/"), "/")
		if pg.Kind == "section" || below && rest != "" {
			return first, true
		}
		return "", true
	case "sections":
		return path.Join(pg.Sections...), true
	case "title":
		return HugoURLize(pg.Title), true
	case "slug":
		if pg.Slug != "" {
			return HugoURLize(pg.Slug), true
		}
		return HugoURLize(pg.Title), true
	case "filename", "slugorfilename":
		if attr == "slugorfilename" && pg.Slug != "" {
			return HugoURLize(pg.Slug), true
		}
		if pg.BaseName == "_index" {
			return "", true
		}
		return HugoURLize(pg.BaseName), true
	case "contentbasename", "slugorcontentbasename":
		if attr == "slugorcontentbasename" && pg.Slug != "" {
			return HugoURLize(pg.Slug), true
		}
		name := pg.BaseName
		if name == "_index" {
			name = path.Base(pg.Path)
		}
		return HugoURLize(name), true
	}
	if cut, ok := strings.CutPrefix(attr, "sections["); ok {
		return path.Join(sliceSections(pg.Sections, strings.TrimSuffix(cut, "]"))...), true
	}
	if hugoReferenceTime.Format(attr) != attr {
		return d.Format(attr), true
	}
	return "", false
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// sliceSections is s cut as ":sections[low:high]" says: "1:", ":last", "2", "last"; an index out of
// range gives none rather than an error, as Hugo does.
func sliceSections(s []string, cut string) []string {
	cut = strings.ToLower(strings.TrimSpace(cut))
	index := func(v string, low bool) int {
		switch {
		case v == "" && low:
			return 0
		case v == "":
			return len(s)
		case v == "last":
			return len(s) - 1
		}
		n, _ := strconv.Atoi(v)
		if n >= len(s) {
			if low {
				return -1
			}
			return len(s)
		}
		return max(n, 0)
	}
	if len(s) == 0 {
		return nil
	}
	lo, hi, isRange := strings.Cut(cut, ":")
	if !isRange {
		if i := index(lo, true); i >= 0 {
			return s[i : i+1]
		}
		return nil
	}
	i, j := index(lo, true), index(hi, false)
	if i < 0 || j < 0 || i > j {
		return nil
	}
	return s[i:j]
}

// HugoURLize is a title or slug as Hugo puts it in a URL (helpers.PathSpec.MakePathSanitized): letters,
// digits, marks and . / \ _ # + ~ - kept, a "%" only before two hex digits, a run of spaces between
// kept characters one "-", everything else dropped; lowercased.
func HugoURLize(s string) string {
	rs := []rune(s)
	var b strings.Builder
	pendingHyphen, wasHyphen := false, false
	for i, r := range rs {
		keep := strings.ContainsRune(`./\_#+~-`, r) || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) ||
			r == '%' && i+2 < len(rs) && isHex(rs[i+1]) && isHex(rs[i+2])
		switch {
		case keep:
			wasHyphen = r == '-'
			if pendingHyphen && !wasHyphen {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
		case b.Len() > 0 && unicode.IsSpace(r) && !wasHyphen:
			pendingHyphen = true
		}
	}
	return strings.ToLower(b.String())
}

func isHex(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
}

// hugoDateKeys are the front matter keys a page's date comes from, the first one set (Hugo's default
// frontmatter.date: date, publishdate, pubdate, published, lastmod, modified).
var hugoDateKeys = []string{"date", "publishdate", "pubdate", "published", "lastmod", "modified"}

// HugoDate is a page's date from its front matter fm (keys in any case, as Hugo reads them), or the
// zero time (year 1) when none is set or none parses, as Hugo's is. A date without an offset is UTC.
func HugoDate(fm *frontmatter.Node) time.Time {
	if fm == nil || fm.Kind != frontmatter.Map {
		return time.Time{}
	}
	for _, key := range hugoDateKeys {
		for _, e := range fm.Entries {
			if !strings.EqualFold(e.Key, key) || e.Value.Kind != frontmatter.String {
				continue
			}
			if t, ok := parseHugoDate(strings.TrimSpace(e.Value.Text)); ok {
				return t
			}
		}
	}
	return time.Time{}
}

// hugoDateLayouts are the date forms front matter holds: TOML's and YAML's date-times and dates, and
// the forms with a space.
var hugoDateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02", "2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07:00", "2006-01-02 15:04:05", "2006-01-02T15:04:05-0700",
	"2006-01-02T15:04"}

func parseHugoDate(s string) (time.Time, bool) {
	for _, layout := range hugoDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
