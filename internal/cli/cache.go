package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/report"
)

const cacheUsage = `Usage: evalgate cache prune [--config FILE]

Deletes the judge's cache entries (ai.cache, default .evalgate/cache) that no
ai eval of the repository would ask for now: runs of evals since edited or
deleted, of another model or of an older prompt template.
`

// runCache is `evalgate cache prune` (README "The AI judge").
func runCache(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "prune" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprint(stdout, cacheUsage)
			return exitOK
		}
		return usageErr(stderr, "cache: the only subcommand is prune (evalgate cache prune)")
	}
	fs := newFlagSet("cache prune")
	configFlag := fs.String("config", "", "")
	pos, code, ok := parseFlags(fs, cacheUsage, args[1:], stdout, stderr)
	switch {
	case !ok:
		return code
	case len(pos) > 0:
		return usageErr(stderr, "cache prune takes no arguments, got %q", pos[0])
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	res, err := engine.PruneCache(context.Background(), engine.Options{Dir: dir, ConfigFlag: *configFlag, Env: os.Environ()})
	if err != nil {
		code, _ := runStatus(nil, err, stderr)
		return code
	}
	fmt.Fprintln(stderr, report.Notice(fmt.Sprintf("evalgate: pruned %d of the entries in %s; %d kept for %d ai evals",
		res.Removed, res.Dir, res.Kept, res.Evals)))
	return exitOK
}
