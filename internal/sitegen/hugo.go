package sitegen

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/repofs"
)

// HugoConfigs are the names of a Hugo site's config file that say a folder is a Hugo site: its root
// config, or the config directory's default environment, in TOML, YAML or JSON (Hugo docs:
// configuration/introduction).
var HugoConfigs = []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json",
	"config/_default/hugo.toml", "config/_default/hugo.yaml", "config/_default/hugo.yml", "config/_default/hugo.json",
	"config/_default/config.toml", "config/_default/config.yaml", "config/_default/config.yml", "config/_default/config.json"}

// HugoOlderConfigs are the older names of a Hugo site's root config, which ReadHugo and FindHugo read
// after HugoConfigs; alone they say little (many other tools keep a config.toml).
var HugoOlderConfigs = []string{"config.toml", "config.yaml", "config.yml", "config.json"}

// hugoAllConfigs are both, in the order they are read.
var hugoAllConfigs = append(slices.Clone(HugoConfigs), HugoOlderConfigs...)

// Hugo is what a Hugo site's config says of its content.
type Hugo struct {
	// Content is the content root, relative to the site folder: the module mount onto content (Hugo's
	// own docs mount content/en; of several, one for each language, the one with the most pages), else
	// contentDir, else content.
	Content string
	// Mounts are the module mounts onto a path inside content (a file of the repository mounted as a
	// page: `{source: ../AGENTS.md, target: content/project/repo/AGENTS.md}`).
	Mounts []HugoMount
	// Permalinks are the rules that serve pages at URLs other than their paths, in the order the config
	// gives them: its permalinks setting, or the config directory's permalinks file.
	Permalinks []HugoPermalink
}

// HugoMount is a module mount onto content: Source relative to the site folder (slash-separated, as
// written), Target relative to content ("project/repo/AGENTS.md").
type HugoMount struct{ Source, Target string }

// ReadHugo reads the config of the Hugo site in dir, inside the repository repo; a site without a
// readable one has the defaults.
func ReadHugo(repo, dir string) Hugo {
	h := Hugo{Content: "content"}
	for _, name := range hugoAllConfigs {
		if n := readConfigNode(repo, dir, name); n != nil {
			h.read(n, repo, dir)
			break
		}
	}
	// A file of the config directory named after a setting holds that setting (Hugo docs:
	// configuration/introduction, "Configuration directory").
	for _, name := range []string{"permalinks.toml", "permalinks.yaml", "permalinks.yml", "permalinks.json"} {
		if n := readConfigNode(repo, dir, "config/_default/"+name); n != nil {
			h.Permalinks = readHugoPermalinks(n)
			break
		}
	}
	return h
}

// read takes what the root config n of the site in dir, inside the repository repo, says.
func (h *Hugo) read(n *frontmatter.Node, repo, dir string) {
	root, most := "", -1
	if m := n.Get("module"); m != nil {
		if mounts := m.Value.Get("mounts"); mounts != nil {
			for _, it := range mounts.Value.Items {
				src, tgt := it.Get("source"), it.Get("target")
				if src == nil || tgt == nil || src.Value.Kind != frontmatter.String || tgt.Value.Kind != frontmatter.String || src.Value.Text == "" {
					continue
				}
				source, target := strings.TrimSuffix(src.Value.Text, "/"), path.Clean(tgt.Value.Text)
				if sub, ok := strings.CutPrefix(target, "content/"); ok {
					h.Mounts = append(h.Mounts, HugoMount{Source: source, Target: sub})
				} else if target == "content" {
					abs, err := repofs.Within(repo, dir, filepath.FromSlash(source))
					if err != nil {
						continue // outside the repository or inside .git: none of its pages, and not walked
					}
					if pages := countMarkdown(abs); pages > most {
						root, most = strings.Trim(source, "/"), pages
					}
				}
			}
		}
	}
	switch c := n.Get("contentDir"); {
	case root != "":
		h.Content = root
	case c != nil && c.Value.Kind == frontmatter.String && c.Value.Text != "":
		h.Content = strings.Trim(c.Value.Text, "/")
	}
	if p := n.Get("permalinks"); p != nil {
		h.Permalinks = readHugoPermalinks(p.Value)
	}
}

// readConfigNode parses the config file name of the site in dir by its extension (ReadConfig), or nil.
func readConfigNode(repo, dir, name string) *frontmatter.Node {
	b, ok := ReadConfig(repo, dir, name)
	if !ok {
		return nil
	}
	var n *frontmatter.Node
	switch path.Ext(name) {
	case ".toml":
		n, _ = frontmatter.ParseTOML(b, 1)
	case ".json":
		n, _ = frontmatter.ParseJSON(b, 1)
	default:
		n, _ = frontmatter.ParseYAML(b, 1)
	}
	return n
}

// FindHugo is the folder of the Hugo site whose content root is root: root or the nearest folder above it,
// up to the repository's own, that holds a Hugo config file; false when there is none.
func FindHugo(repo, root string) (string, bool) {
	for dir := root; ; dir = filepath.Dir(dir) {
		for _, name := range hugoAllConfigs {
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
				return dir, true
			}
		}
		if rel, err := filepath.Rel(repo, dir); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			return "", false
		}
	}
}

// ReadConfig reads the config file name of the site in dir, a regular file inside the repository repo
// (repofs: a symlink that leaves it, or enters .git, is none), up to MaxConfig.
func ReadConfig(repo, dir, name string) ([]byte, bool) {
	abs, err := repofs.Within(repo, dir, filepath.FromSlash(name))
	if err != nil {
		return nil, false
	}
	b, err := repofs.ReadFile(abs, MaxConfig)
	return b, err == nil
}

// countMarkdown is how many Markdown files are under dir.
func countMarkdown(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if ext := strings.ToLower(filepath.Ext(p)); ext == ".md" || ext == ".mdx" {
				n++
			}
		}
		return nil
	})
	return n
}
