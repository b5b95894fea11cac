package sitegen

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/testfs"
)

var (
	docs  = Instance{Kind: "docs", Path: "docs", Route: "docs"}
	blog  = Instance{Kind: "blog", Path: "blog", Route: "blog"}
	pages = Instance{Kind: "pages", Path: "src/pages", Route: ""}
)

func TestDocusaurusInstances(t *testing.T) {
	tests := []struct {
		name, src string
		want      []Instance
	}{
		{"no config", "", []Instance{docs, blog, pages}},
		{"classic preset, defaults", `
module.exports = {
  presets: [['classic', {docs: {sidebarPath: require.resolve('./sidebars.js')}, blog: {showReadingTime: true}}]],
};`, []Instance{docs, blog, pages}},
		{"docs beside the site folder, as a monorepo keeps them", `
const config = {
  presets: [
    [
      "classic",
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: {
          // The docs live at the repository root.
          editUrl: ({ docPath }) => ` + "`${GITHUB_URL}/edit/main/docs/${docPath}`" + `,
          path: "../docs",
          sidebarPath: "./sidebars.json",
        },
        blog: { editUrl: ` + "`${GITHUB_URL}/edit/main/website/blog/`" + ` },
      }),
    ],
  ],
};
export default config;`, []Instance{{Kind: "docs", Path: "../docs", Route: "docs"}, blog, pages}},
		{"docs-only mode", `export default {presets: [['@docusaurus/preset-classic', {docs: {routeBasePath: '/'}, blog: false}]]};`,
			[]Instance{{Kind: "docs", Path: "docs", Route: ""}, pages}},
		{"TypeScript, quoted keys, a second docs instance", `
import type {Config} from '@docusaurus/types';
const config: Config = {
  presets: [['classic', {'docs': {'path': 'guides/', 'routeBasePath': '/guides/'}} satisfies Preset.Options]],
  plugins: [
    ['@docusaurus/plugin-content-docs', {id: 'community', path: 'community', routeBasePath: 'community'}],
    ["content-blog", {id: "changelog", path: "changelog", routeBasePath: "/changelog"}],
  ],
  themeConfig: {docs: {sidebar: {hideable: true}}, navbar: {items: [{to: '/docs', label: "a ' quote"}]}},
};
export default config;`, []Instance{{Kind: "docs", Path: "guides", Route: "guides"}, blog, pages,
			{Kind: "docs", Path: "community", Route: "community", ID: "community"}, {Kind: "blog", Path: "changelog", Route: "changelog", ID: "changelog"}}},
		{"options assigned to variables, as a monorepo's TypeScript config writes them", `
import type {Options as PluginContentDocsOptions} from '@docusaurus/plugin-content-docs';
const presetClassicOptions: PresetClassicOptions = {
  blog: blogOptions,
  docs: {id: 'rules-docs', path: '../eslint-plugin/docs/rules', routeBasePath: 'rules'},
};
const blogOptions = {path: 'news', routeBasePath: 'news'}, unused = {path: 'x'};
const pluginContentDocsOptions: PluginContentDocsOptions = {
  editUrl: ` + "`${githubUrl}/edit/main/`" + `,
  id: 'base-docs',
  path: '../../docs',
  routeBasePath: '/',
};
const isProd = a === b, arrow = () => ({path: 'not-options'});
export default {
  plugins: [['@docusaurus/plugin-content-docs', pluginContentDocsOptions], ['@docusaurus/plugin-content-docs', missing]],
  presets: [['classic', presetClassicOptions]],
};`, []Instance{{Kind: "docs", Path: "../eslint-plugin/docs/rules", Route: "rules", ID: "rules-docs"}, {Kind: "blog", Path: "news", Route: "news"}, pages,
			{Kind: "docs", Path: "../../docs", Route: "", ID: "base-docs"}}},
		{"the docs plugin without the preset", `module.exports = {plugins: [["@docusaurus/plugin-content-docs", {path: "content"}]]}`,
			[]Instance{blog, pages, {Kind: "docs", Path: "content", Route: "docs"}}},
		{"lastVersion alone keeps the default place", `module.exports = {presets: [['classic', {docs: {lastVersion: 'current', sidebarPath: './sidebars.js'}}]]}`,
			[]Instance{{Kind: "docs", Path: "docs", Route: "docs", LastVersion: "current"}, blog, pages}},
		{"a path the text does not spell out", `module.exports = {presets: [['classic', {docs: {path: path.resolve(__dirname, '../docs')}}]]}`,
			[]Instance{blog, pages}},
		{"a route behind a condition", `module.exports = {presets: [['classic', {docs: {routeBasePath: prod ? '/' : 'docs'}}]]}`,
			[]Instance{blog, pages}},
		{"an absolute path is no folder of the site", `module.exports = {presets: [['classic', {docs: {path: '/etc'}}]]}`,
			[]Instance{blog, pages}},
		{"comments and strings hide what they hold", `
// docs: {path: "nope"}
/* blog: false */
const s = "docs: {path: 'nope'}", t = ` + "`blog: false ${'}'} ${`nested ${1}`}`" + `;
module.exports = {presets: [['classic', {docs: {path: 'real'}}]]};`,
			[]Instance{{Kind: "docs", Path: "real", Route: "docs"}, blog, pages}},
		{"unclosed text ends the scan with what it read", `module.exports = {presets: [['classic', {docs: {path: 'kept'}, blog: {path: "cut`,
			[]Instance{{Kind: "docs", Path: "kept", Route: "docs"}, blog, pages}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, DocusaurusInstances([]byte(tt.src))); diff != "" {
				t.Errorf("instances (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDocusaurusHostile: deep nesting, long runs of brackets and of comments are read in one pass (each
// input here is a few hundred milliseconds of work at the most), giving no more than the defaults.
func TestDocusaurusHostile(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("{", 1<<20),
		strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20),
		strings.Repeat("`${", 1<<18),
		strings.Repeat("docs: {", 1<<18),
		strings.Repeat("/*", 1<<18),
	} {
		if got := DocusaurusInstances([]byte(src)); len(got) > 3 {
			t.Errorf("%.20q...: %d instances", src, len(got))
		}
	}
}

// FuzzDocusaurusInstances: any text gives instances without a panic, each of a known kind, its path
// relative and clean, its route without slashes at either end.
func FuzzDocusaurusInstances(f *testing.F) {
	f.Add([]byte(`module.exports = {presets: [['classic', {docs: {path: '../docs', routeBasePath: '/'}, blog: false}]],
plugins: [['@docusaurus/plugin-content-docs', {id: 'x', path: 'x/y/', routeBasePath: 'a/b'}]]};`))
	f.Add([]byte("const a = `${`${'}'}`}`; export default {docs: {path: \"p\"}}"))
	f.Add([]byte("{'docs': {\"path\": 'a\\'b'}} /* x"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, in := range DocusaurusInstances(src) {
			if !isKind(in.Kind) {
				t.Fatalf("kind %q", in.Kind)
			}
			if in.Path == "" || strings.HasPrefix(in.Path, "/") || in.Path != path.Clean(in.Path) {
				t.Fatalf("path %q", in.Path)
			}
			if strings.HasPrefix(in.Route, "/") || strings.HasSuffix(in.Route, "/") {
				t.Fatalf("route %q", in.Route)
			}
		}
	})
}

func TestNotInstance(t *testing.T) {
	for name, want := range map[string]bool{
		"docs": false, "community": false, "blog": false, "src": true, "static": true, "i18n": true, "build": true,
		"node_modules": true, ".docusaurus": true, "_drafts": true, "versioned_docs": true, "versioned": false,
	} {
		if got := NotInstance(name); got != want {
			t.Errorf("NotInstance(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestDocusaurusVersions: a docs instance's versions file names its earlier versions, each served at
// the route and its name but for the one served first; an instance with an id has its own file; a name
// Docusaurus refuses, a version without its folder, or a file that is no list of names, gives none.
func TestDocusaurusVersions(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		"versions.json":                    `["30.4", "30.0", "29.7", "28.0", "27.0"]`, // 28.0 has no folder, 27.0's leaves
		"community_versions.json":          `["current", "2.x", "../up", "a/b", "", "1.x"]`,
		"api_versions.json":                `{"1.0": true}`,
		"versioned_docs/version-30.4/a.md": "", "versioned_docs/version-30.0/a.md": "", "versioned_docs/version-29.7/a.md": "",
		"community_versioned_docs/version-2.x/a.md": "", "community_versioned_docs/version-1.x/a.md": "",
		"api_versioned_docs/version-1.0/a.md": "", "up/a.md": "",
	})
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "versioned_docs", "version-27.0")); err != nil {
		t.Fatal(err)
	}
	v := func(path, route, id string) Instance {
		return Instance{Kind: "docs", Path: path, Route: route, ID: id, Version: strings.TrimPrefix(path[strings.LastIndex(path, "/")+1:], "version-")}
	}
	tests := []struct {
		name string
		in   Instance
		want []Instance
	}{
		{"the first version at the route", docs,
			[]Instance{v("versioned_docs/version-30.4", "docs", ""), v("versioned_docs/version-30.0", "docs/30.0", ""), v("versioned_docs/version-29.7", "docs/29.7", "")}},
		{"docs at the site root", Instance{Kind: "docs", Path: "../docs", Route: ""},
			[]Instance{v("versioned_docs/version-30.4", "", ""), v("versioned_docs/version-30.0", "30.0", ""), v("versioned_docs/version-29.7", "29.7", "")}},
		{"lastVersion current: every version at its name", Instance{Kind: "docs", Path: "docs", Route: "docs", LastVersion: "current"},
			[]Instance{v("versioned_docs/version-30.4", "docs/30.4", ""), v("versioned_docs/version-30.0", "docs/30.0", ""), v("versioned_docs/version-29.7", "docs/29.7", "")}},
		{"lastVersion an older one", Instance{Kind: "docs", Path: "docs", Route: "docs", LastVersion: "30.0"},
			[]Instance{v("versioned_docs/version-30.4", "docs/30.4", ""), v("versioned_docs/version-30.0", "docs", ""), v("versioned_docs/version-29.7", "docs/29.7", "")}},
		{"an instance's own file; names Docusaurus refuses are left out", Instance{Kind: "docs", Path: "community", Route: "community", ID: "community"},
			[]Instance{v("community_versioned_docs/version-2.x", "community", "community"), v("community_versioned_docs/version-1.x", "community/1.x", "community")}},
		{"no list of names", Instance{Kind: "docs", Path: "api", Route: "api", ID: "api"}, nil},
		{"no versions file", Instance{Kind: "docs", Path: "guides", Route: "guides", ID: "guides"}, nil},
		{"a blog has no versions", blog, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, DocusaurusVersions(dir, dir, tt.in)); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
		})
	}
	next := docs
	next.Route = "docs/next" // the newest version is served at /docs
	want := append([]Instance{next, blog, pages}, tests[0].want...)
	if diff := cmp.Diff(want, ReadDocusaurus(dir, dir)); diff != "" {
		t.Errorf("ReadDocusaurus: the instances, then the versions (-want +got):\n%s", diff)
	}
	for name, ok := range map[string]bool{"1.0.0": true, "next beta": true, " ": false, "a:b": false, "x\ty": false,
		strings.Repeat("9", 32): true, strings.Repeat("9", 33): false, "..": false, `a\b`: false} {
		if versionName(name) != ok {
			t.Errorf("versionName(%q) = %v", name, !ok)
		}
	}
}
