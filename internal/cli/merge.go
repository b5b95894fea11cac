package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/report"
)

const mergeUsage = `Usage: evalgate merge [--json FILE] [--sarif FILE] [--junit FILE] [--format text|json|github]
                      [--category NAME] [--fail-on LEVEL] [--baseline FILE] REPORT.json...

Joins the JSON reports of one shard set (evalgate check --all --shard K/N
--json FILE, for each K of N) into the report of one run, and writes it in
every format as check would: one SARIF run, so that one upload replaces the
last. The exit status is check's for the joined report; 2 when the reports
are not one complete set. When the shards applied a baseline, merge applies
it again to the whole: run it in the repository, with the shards' --baseline.
`

// runMerge is `evalgate merge` (README "Shards").
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("merge")
	var (
		format    = fs.String("format", defaultFormat(), "")
		jsonFile  = fs.String("json", "", "")
		sarifFile = fs.String("sarif", "", "")
		junitFile = fs.String("junit", "", "")
		category  = fs.String("category", "", "")
		baseline  = fs.String("baseline", "", "")
		failOn    = fs.String("fail-on", "error", "")
	)
	files, code, ok := parseFlags(fs, mergeUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	f, level, err := reportFlags(*format, *failOn)
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	rep, err := engine.Merge(engine.MergeOptions{Dir: dir, Files: files, FailOn: level, Category: *category, Baseline: *baseline})
	code, done := runStatus(rep, err, stderr)
	if done {
		return code
	}
	for _, n := range rep.Notices { // the shards' and the merge's, on stderr as check gives its own
		fmt.Fprintln(stderr, report.Notice(n))
	}
	term := detectTerminal(stdout, stderr, isTerminal, os.Getenv)
	out := reportFiles{json: *jsonFile, sarif: *sarifFile, junit: *junitFile}
	if werr := out.write(rep, f, stdout, term); werr != nil {
		fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(werr.Error()))
		return exitInternal
	}
	return code
}
