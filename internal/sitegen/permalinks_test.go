package sitegen

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/testfs"
)

// TestReadHugoPermalinks: every form of the setting Hugo reads, from the root config or from the
// config directory's own file, which wins.
func TestReadHugoPermalinks(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []HugoPermalink
	}{
		{"a section's pattern, in TOML", map[string]string{"hugo.toml": "[permalinks]\nposts = '/:year/:title/'\n"},
			[]HugoPermalink{{"page", "/{posts,posts/**}", "/:year/:title/"}}},
		{"by kind, the root's pages, and kinds and values Hugo refuses left out", map[string]string{"hugo.yaml": `permalinks:
  page: {"/": "/:slug/", Tutorials: /training/:slug/, bad: 7}
  section: {tutorials: /training/}
  home: {x: /y/}
`}, []HugoPermalink{{"page", "/*", "/:slug/"}, {"page", "/{tutorials,tutorials/**}", "/training/:slug/"},
			{"section", "/{tutorials,tutorials/**}", "/training/"}}},
		{"the list of targets, in JSON", map[string]string{"hugo.json": `{"permalinks": [
  {"target": {"kind": "Page", "path": "/Docs/**"}, "pattern": "/d/:filename/"},
  {"pattern": "/all/:slug/"},
  {"target": {"kind": "page"}}
]}`}, []HugoPermalink{{"page", "/docs/**", "/d/:filename/"}, {"", "", "/all/:slug/"}}},
		{"the config directory's file", map[string]string{"config/_default/hugo.yaml": "permalinks: {a: /a/}\n",
			"config/_default/permalinks.yaml": "page:\n  blog: /:year/:month/:day/:slug/\n"},
			[]HugoPermalink{{"page", "/{blog,blog/**}", "/:year/:month/:day/:slug/"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfs.Write(t, dir, tt.files)
			if diff := cmp.Diff(tt.want, ReadHugo(dir, dir).Permalinks); diff != "" {
				t.Errorf("Permalinks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPermalink(t *testing.T) {
	date := time.Date(2024, time.August, 3, 9, 0, 0, 0, time.UTC)
	post := HugoPage{Kind: "page", Path: "/blog/2024/x", Sections: []string{"blog", "2024"}, Title: "Hello, World!", Date: date, BaseName: "x"}
	slugged := post
	slugged.Slug = "Announcing 2.16"
	bundle := HugoPage{Kind: "page", Path: "/docs/guide/setup", Sections: []string{"docs", "guide"}, Title: "Set up", BaseName: "setup"}
	section := HugoPage{Kind: "section", Path: "/docs/guide", Sections: []string{"docs", "guide"}, Title: "Guide", BaseName: "_index"}
	root := HugoPage{Kind: "page", Path: "/about", Title: "About", BaseName: "about"}
	blog := []HugoPermalink{{"page", hugoSectionGlob("blog"), "/:year/:month/:day/:slug/"}}
	tests := []struct {
		name    string
		rules   []HugoPermalink
		page    HugoPage
		want    string
		matched bool
	}{
		{"date and title", blog, post, "/2024/08/03/hello-world/", true},
		{"the slug is urlized", blog, slugged, "/2024/08/03/announcing-2.16/", true},
		{"another section is not covered", blog, bundle, "", false},
		{"a page rule leaves sections alone", []HugoPermalink{{"page", hugoSectionGlob("docs"), "/x/"}}, section, "", false},
		{"the first rule that matches", []HugoPermalink{{"section", "/docs/**", "/s/:sections/"}, {"", "", "/any/:filename/"}}, bundle,
			"/any/setup/", true},
		{"a section's sections and its filename", []HugoPermalink{{"section", "/docs/**", "/s/:sections/:filename/:contentbasename"}}, section,
			"/s/docs/guide//guide", true},
		{"no rules", nil, post, "", false},
		// A Go layout is one word: ":2006-01" is the year, then "-01".
		{"date names and Go layouts", []HugoPermalink{{"", "", "/:monthname/:weekday/:weekdayname/:yearday/:2006/:01/:2006-01/"}}, post,
			"/August/6/Saturday/216/2024/08/2024-01/", true},
		{"section slices", []HugoPermalink{{"", "", "/:section/:sections[1:]/:sections[last]/:sections[0]/:sections[5]/:sections[:1]"}}, post,
			"/blog/2024/2024/blog//blog", true},
		{"the root's pages have no section", []HugoPermalink{{"page", hugoSectionGlob("/"), "/r/:section/:slugorfilename/"}}, root, "/r//about/", true},
		{"an escaped colon is text", []HugoPermalink{{"", "", `/x\:y/:slugorcontentbasename/`}}, slugged, "/x:y/announcing-2.16/", true},
		{"an unknown attribute: Hugo refuses the config", []HugoPermalink{{"", "", "/:nope/"}}, post, "", false},
		{"no date is year 1", blog, HugoPage{Kind: "page", Path: "/blog/y", Title: "Y"}, "/1/01/01/y/", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Permalink(tt.rules, tt.page)
			if got != tt.want || ok != tt.matched {
				t.Errorf("Permalink = %q, %v; want %q, %v", got, ok, tt.want, tt.matched)
			}
		})
	}
}

func TestHugoURLize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Hello, World!", "hello-world"},
		{"  leading  and   inner spaces ", "leading-and-inner-spaces"},
		{"a - b", "a-b"},
		{"C++ & C# ~ 50%off %2F", "c++-c#-~-50off-%2f"},
		{"Ünïcödé Straße", "ünïcödé-straße"},
		{"path/to.file_name", "path/to.file_name"},
		{"日本語 テキスト", "日本語-テキスト"},
	}
	for _, tt := range tests {
		if got := HugoURLize(tt.in); got != tt.want {
			t.Errorf("HugoURLize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHugoDate(t *testing.T) {
	tests := []struct {
		fm   string
		want time.Time
	}{
		{"date: 2024-08-13T09:30:00Z\n", time.Date(2024, 8, 13, 9, 30, 0, 0, time.UTC)},
		{"date: 2024-08-13\n", time.Date(2024, 8, 13, 0, 0, 0, 0, time.UTC)},
		{"Date: 2024-08-13 10:00:00\n", time.Date(2024, 8, 13, 10, 0, 0, 0, time.UTC)},
		{"publishDate: 2021-01-02T23:00:00-05:00\n", time.Date(2021, 1, 2, 23, 0, 0, 0, time.FixedZone("", -5*3600))},
		{"date: soon\nlastmod: 2020-02-03\n", time.Date(2020, 2, 3, 0, 0, 0, 0, time.UTC)},
		{"title: none\n", time.Time{}},
	}
	for _, tt := range tests {
		n, probs := frontmatter.ParseYAML([]byte(tt.fm), 1)
		if len(probs) > 0 {
			t.Fatalf("%q: %v", tt.fm, probs)
		}
		got := HugoDate(n)
		if !got.Equal(tt.want) || got.Day() != tt.want.Day() {
			t.Errorf("HugoDate(%q) = %v, want %v", tt.fm, got, tt.want)
		}
	}
}

// FuzzPermalink: any pattern, title and sections expand without a panic, and a pattern with no
// attribute is itself.
func FuzzPermalink(f *testing.F) {
	f.Add("/:year/:month/:day/:slug/", "Hello, World", "blog/2024")
	f.Add("/:sections[1:3]/:sections[last]/:sections[-2:9]/:sections[]/", "", "a/b/c")
	f.Add(`/\:x/:2006-01-02/:filename`, "  ", "")
	f.Fuzz(func(t *testing.T, pattern, title, sections string) {
		pg := HugoPage{Kind: "page", Path: "/" + sections + "/x", Title: title, Slug: title, BaseName: "x",
			Sections: strings.Split(sections, "/")}
		got, ok := Permalink([]HugoPermalink{{Pattern: pattern}}, pg)
		if !strings.Contains(pattern, ":") && (!ok || got != pattern) {
			t.Errorf("Permalink(%q) = %q, %v; want the pattern", pattern, got, ok)
		}
		_ = HugoURLize(title)
	})
}
