package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/report"
)

const listUsage = `Usage: evalgate list [--config FILE] [--all | --base REF | PATH...] [--format text|json]

Lists what check and validate would select: each page with its resolved
evals (id, grader, and where each comes from: the page, its eval-suite, or a
use: of a config eval; a page without evals says "no evals"), then each
EvalCase fixture and jevcheck contract with its case count. Nothing is
graded. The selection is validate's: --all, --base REF or PATH arguments,
else everything (outside GitHub Actions).

  --config FILE      config file (default .evalgate.yaml or .evalgate.yml at
                     the repository root)
  --all              every selected file of the repository
  --base REF         what changed since the merge base of REF and HEAD
  --format FORMAT    text (default) or json

Exit status: 0, 2 for a usage error or an invalid config, 3 for an internal
failure.
`

// runList is `evalgate list`.
func runList(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("list")
	var (
		configFlag = fs.String("config", "", "")
		all        = fs.Bool("all", false, "")
		base       = fs.String("base", "", "")
		format     = fs.String("format", string(report.FormatText), "")
	)
	paths, code, ok := parseFlags(fs, listUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if code, ok := emptyBase(fs, stderr); ok {
		return code
	}
	write := report.WriteListText
	switch report.Format(*format) {
	case report.FormatText:
	case report.FormatJSON:
		write = report.WriteListJSON
	default:
		return usageErr(stderr, "--format: unknown format %q (want text or json)", *format)
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	listing, cfgResults, err := engine.List(context.Background(), engine.Options{
		Dir: dir, ConfigFlag: *configFlag, Paths: paths, All: *all, Base: *base,
		Env: os.Environ(), Version: versionString(),
		Notice: func(s string) { fmt.Fprintln(stderr, report.Notice(s)) },
	})
	var uerr *engine.UsageError
	switch {
	case errors.As(err, &uerr):
		return usageErr(stderr, "%s", uerr.Msg)
	case err != nil:
		fmt.Fprintf(stderr, "evalgate: internal error: %s\n", report.Line(err.Error()))
		return exitInternal
	case len(cfgResults) > 0:
		for i := range cfgResults {
			fmt.Fprintln(stderr, report.TextLine(&cfgResults[i]))
		}
		fmt.Fprintln(stderr, "evalgate: the config is invalid; nothing was listed")
		return exitUsage
	}
	if err := write(stdout, listing); err != nil {
		return internalErr(stderr, err)
	}
	return exitOK
}
