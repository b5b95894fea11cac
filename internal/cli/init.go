package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/siteinit"
)

const initUsage = `Usage: evalgate init [--site hugo|docusaurus|mkdocs|starlight|github]

Writes .evalgate.yaml at the repository root for the documentation site in
the working directory or a folder above it (or, at the root, in one of its
folders): the site's
page globs and a suite that runs tool:links with the site's preset on every
page. Without --site, the generator is found from its config file (hugo.toml,
docusaurus.config.*, mkdocs.yml, astro.config.* with Starlight). It never
overwrites a config (exit 2).
`

// runInit is `evalgate init` (README "Start on an existing site").
func runInit(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("init")
	site := fs.String("site", "", "")
	rest, code, ok := parseFlags(fs, initUsage, args, stdout, stderr)
	switch {
	case !ok:
		return code
	case len(rest) > 0:
		return usageErr(stderr, "init takes no arguments, got %q", rest[0])
	case *site != "" && !slices.Contains(siteinit.Sites, *site):
		return usageErr(stderr, "--site: unknown site %q (want hugo, docusaurus, mkdocs, starlight or github)", *site)
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	root, _ := engine.FindRoot(dir)
	for _, name := range config.Names {
		if _, err := os.Lstat(filepath.Join(root, name)); err == nil {
			return usageErr(stderr, "init: %s exists; init never overwrites a config", name)
		}
	}
	s, err := siteinit.Detect(root, dir, *site)
	if err != nil {
		return usageErr(stderr, "init: %v", err)
	}
	name := filepath.Join(root, config.Names[0])
	// O_EXCL: never through a symlink, never over a file that appeared meanwhile.
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return usageErr(stderr, "init: cannot write %s: %v", config.Names[0], err)
	}
	_, werr := f.Write(s.Config())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return usageErr(stderr, "init: cannot write %s: %v", config.Names[0], werr)
	}
	where := "the repository root"
	if s.Dir != "" {
		where = s.Dir
	}
	fmt.Fprintln(stderr, report.Notice(fmt.Sprintf("evalgate: wrote %s for a %s site in %s; run evalgate check --all, then evalgate baseline to accept what is there", config.Names[0], s.Generator, where)))
	if n := len(s.Ignore); n > 0 {
		// Live in the config, so that the first check is not drowned: a person confirms them.
		fmt.Fprintln(stderr, report.Notice(fmt.Sprintf("evalgate: %s ignores %d bare link target(s) that many pages use and no file answers (%s): confirm or remove them under its ignore", config.Names[0], n, s.Ignore[0].Target)))
	}
	return exitOK
}
