package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/report"
)

const jevUsage = `evalgate jev replays jevcheck v0.1 contracts.

Usage:
  evalgate jev eval CONTRACT --answers REPLAY [flags]
  evalgate jev compare CONTRACT --from BASELINE_REPLAY --answers CANDIDATE_REPLAY [flags]

eval checks the candidate's replayed answers against the contract's expect;
compare makes the baseline replay's answers the expectations (keeping the
contract's floors and tolerances), then checks the candidate's.

Flags (before or after CONTRACT; -- ends flags):
  --answers FILE         the candidate's replay file (required)
  --from FILE            compare: the baseline's replay file (required)
  --candidate-model M    every candidate response must come from M, exactly
  --baseline-model M     overrides the contract's baseline_model (needed for a
                         JSONL contract without a _meta line)
  --allow-unpinned       allow floating aliases (names containing latest or
                         preview) for the baseline and the candidate
  --format FORMAT        stdout format: text (the summary) or json (default text)

Exit status: 0 compatible, 1 breaking (an answer flip or a confidence
regression), 2 invalid contract or replay, or usage error.
`

// runJev runs `evalgate jev eval|compare` (README "Commands", "jevcheck v0.1 contracts").
func runJev(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, jevUsage)
		return exitUsage
	}
	sub := args[0]
	switch sub {
	case "eval", "compare":
	case "help", "-h", "--help":
		fmt.Fprint(stdout, jevUsage)
		return exitOK
	default:
		return usageErr(stderr, "jev: unknown command %q (want eval or compare)", sub)
	}
	fs := newFlagSet("jev " + sub)
	var (
		answers   = fs.String("answers", "", "")
		from      = fs.String("from", "", "")
		candidate = fs.String("candidate-model", "", "")
		baseline  = fs.String("baseline-model", "", "")
		allow     = fs.Bool("allow-unpinned", false, "")
		format    = fs.String("format", string(report.FormatText), "")
	)
	pos, code, ok := parseFlags(fs, jevUsage, args[1:], stdout, stderr)
	if !ok {
		return code
	}
	var empty []string
	fs.Visit(func(f *flag.Flag) {
		if f.Value.String() == "" {
			empty = append(empty, "--"+f.Name)
		}
	})
	switch {
	case len(empty) > 0:
		return usageErr(stderr, "jev %s: %s must not be empty", sub, empty[0])
	case len(pos) != 1:
		return usageErr(stderr, "jev %s takes one CONTRACT, got %d arguments", sub, len(pos))
	case *answers == "":
		return usageErr(stderr, "jev %s: --answers is required (the candidate's replay file; evalgate calls no API)", sub)
	case sub == "compare" && *from == "":
		return usageErr(stderr, "jev compare: --from is required (the baseline's replay file)")
	case sub == "eval" && *from != "":
		return usageErr(stderr, "jev eval: --from belongs to jev compare")
	case *format != string(report.FormatText) && *format != string(report.FormatJSON):
		return usageErr(stderr, "--format: unknown format %q (want text or json)", *format)
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	ctx, stopper := notifyStop(context.Background()) // SIGINT, SIGTERM, SIGHUP: exit 3
	defer stopper.stop()
	var keep func(*diag.Result) bool
	if *format != string(report.FormatJSON) {
		keep = func(*diag.Result) bool { return false } // the summary reads only their counts
	}
	rep, err := engine.Run(ctx, engine.Options{
		Mode: engine.ModeJev, Dir: dir, FailOn: diag.SeverityError, Version: versionString(), Keep: keep,
		Jev: &jev.Entry{
			Contract: filepath.ToSlash(pos[0]), Answers: filepath.ToSlash(*answers), From: filepath.ToSlash(*from),
			CandidateModel: *candidate, BaselineModel: *baseline, AllowUnpinned: *allow,
		},
		Notice: func(s string) { fmt.Fprintln(stderr, report.Notice(s)) },
	})
	if errors.Is(err, engine.ErrJevInvalid) {
		return jevInvalid(rep, *format, stdout, stderr)
	}
	if code, stopped := stopper.before(stderr, rep); stopped {
		return code
	}
	code, done := runStatus(rep, err, stderr)
	if done {
		return code
	}
	write := report.WriteJevSummary
	if *format == string(report.FormatJSON) {
		write = report.WriteJSON
	}
	if err := write(stdout, rep); err != nil {
		return internalErr(stderr, err)
	}
	return stopper.exit(stderr, code)
}

// jevInvalid reports the faults of an invalid contract or replay: one line
// each on stderr (file:line:col: message [code]), and the JSON report under
// --format json. It returns exit status 2 (README "Exit statuses").
func jevInvalid(rep *report.Report, format string, stdout, stderr io.Writer) int {
	for f := range rep.Results.All() {
		fmt.Fprintln(stderr, report.Line(fmt.Sprintf("%s: %s [%s]",
			report.OneLine(f.Location()), report.OneLine(f.Message), report.OneLine(f.Code))))
	}
	if format == string(report.FormatJSON) {
		if err := report.WriteJSON(stdout, rep); err != nil {
			return internalErr(stderr, err)
		}
	}
	return exitUsage
}
