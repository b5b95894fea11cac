package sitegen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/testfs"
)

func TestReadHugo(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  Hugo
	}{
		{"no config", nil, Hugo{Content: "content"}},
		{"contentDir in TOML", map[string]string{"hugo.toml": "contentDir = \"pages/\"\n"}, Hugo{Content: "pages"}},
		{"the biggest language's mount, in YAML, and mounts into content", map[string]string{
			"config/_default/hugo.yaml": `module:
  mounts:
    - {source: content/fr, target: content}
    - {source: content/en, target: content}
    - {source: ../AGENTS.md, target: content/project/repo/AGENTS.md}
    - {source: ../guides/, target: content/guides/}
    - {source: assets, target: assets}
    - {source: 7, target: content/bad}
`,
			"content/fr/_index.md": "", "content/en/_index.md": "", "content/en/docs/a.md": ""},
			Hugo{Content: "content/en", Mounts: []HugoMount{{"../AGENTS.md", "project/repo/AGENTS.md"}, {"../guides", "guides"}}}},
		{"JSON, the older config name", map[string]string{"config.json": `{"contentDir": "docs"}`}, Hugo{Content: "docs"}},
		{"a config that does not parse keeps the defaults", map[string]string{"hugo.yaml": "module: [unclosed\n"}, Hugo{Content: "content"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfs.Write(t, dir, tt.files)
			if diff := cmp.Diff(tt.want, ReadHugo(dir, dir)); diff != "" {
				t.Errorf("ReadHugo (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFindHugo: the site folder is the nearest one at or above the content root with a Hugo config,
// never above the repository.
func TestFindHugo(t *testing.T) {
	repo := t.TempDir()
	testfs.Write(t, repo, map[string]string{"site/config/_default/hugo.yaml": "{}\n", "site/content/en/_index.md": "", "other/content/x.md": ""})
	if got, ok := FindHugo(repo, filepath.Join(repo, "site", "content", "en")); !ok || got != filepath.Join(repo, "site") {
		t.Errorf("FindHugo = %q, %v; want the site folder", got, ok)
	}
	if got, ok := FindHugo(repo, filepath.Join(repo, "other", "content")); ok {
		t.Errorf("FindHugo = %q, want none", got)
	}
	// Every name ReadHugo reads, the older config.yml too.
	testfs.Write(t, repo, map[string]string{"older/config.yml": "contentDir: pages\n", "older/pages/a.md": ""})
	if got, ok := FindHugo(repo, filepath.Join(repo, "older", "pages")); !ok || got != filepath.Join(repo, "older") {
		t.Errorf("FindHugo = %q, %v; want the folder of config.yml", got, ok)
	}
}

// TestConfigOutside: a config file that is a symlink leaving the repository, or into .git, is read as
// none: its paths never decide what is checked.
func TestConfigOutside(t *testing.T) {
	outside := t.TempDir()
	testfs.Write(t, outside, map[string]string{"hugo.toml": "contentDir = \"elsewhere\"\n",
		"docusaurus.config.js": "module.exports = {presets: [['classic', {docs: {path: 'elsewhere'}}]]}",
		"versions.json":        `["1.0"]`})
	repo := t.TempDir()
	testfs.Write(t, repo, map[string]string{".git/config": "[core]\n"})
	for name, target := range map[string]string{"hugo.toml": filepath.Join(outside, "hugo.toml"),
		"docusaurus.config.js": filepath.Join(outside, "docusaurus.config.js"), "config.toml": filepath.Join(repo, ".git", "config"),
		"versions.json": filepath.Join(outside, "versions.json")} {
		if err := os.Symlink(target, filepath.Join(repo, name)); err != nil {
			t.Fatal(err)
		}
	}
	if got := ReadHugo(repo, repo); got.Content != "content" {
		t.Errorf("ReadHugo read a config outside: %+v", got)
	}
	if diff := cmp.Diff(DocusaurusInstances(nil), ReadDocusaurus(repo, repo)); diff != "" {
		t.Errorf("ReadDocusaurus read a config outside (-want +got):\n%s", diff)
	}
}

func TestReadAliases(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"tsconfig.json": `{
  // JSON with comments, as tsconfig is
  "extends": "astro/tsconfigs/strict",
  "compilerOptions": {
    "baseUrl": ".",
    "paths": {
      "@components/*": ["src/components/*"],
      "@assets/*": ["src/assets/*", "other/*"],
      "~*": ["src/*"],
      "@abs/*": ["/etc/*"],
    },
  },
}`})
	want := []Alias{{"@components/", "src/components"}, {"@assets/", "src/assets"}}
	if diff := cmp.Diff(want, ReadAliases(dir, dir)); diff != "" {
		t.Errorf("ReadAliases (-want +got):\n%s", diff)
	}
	if got := ReadAliases(dir, filepath.Join(dir, "none")); got != nil {
		t.Errorf("no tsconfig: %v", got)
	}
}
