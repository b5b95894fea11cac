package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/repofs"
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

// runJev runs `evalgate jev eval|compare` (README "Commands", §10).
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
	pos, err := parseArgs(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, jevUsage)
		return exitOK
	}
	if err != nil {
		return usageErr(stderr, "jev %s: %v", sub, err)
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
	j := &jevRun{stdout: stdout, stderr: stderr, json: *format == string(report.FormatJSON), start: time.Now()}
	contractFile := filepath.ToSlash(pos[0])
	j.files = []string{contractFile, filepath.ToSlash(*answers)}
	if *from != "" {
		j.files = append(j.files, filepath.ToSlash(*from))
	}

	text, code := j.read(pos[0], !strings.EqualFold(filepath.Ext(pos[0]), ".jsonl"), false)
	if code >= 0 {
		return code
	}
	c, faults := jev.LoadContract(contractFile, text, jev.Options{
		CandidateModel: *candidate, BaselineModel: *baseline, AllowUnpinned: *allow,
	})
	if len(faults) > 0 {
		return j.invalid(faults)
	}
	if c.Overridden() {
		fmt.Fprintln(stderr, report.Notice(fmt.Sprintf("--baseline-model %s overrides the contract's baseline_model %s",
			report.OneLine(c.BaselineModel), report.OneLine(c.ContractBaselineModel))))
	}
	if mp := c.ModelProblems(); len(mp) > 0 {
		for _, p := range mp {
			fmt.Fprintln(stderr, report.Line(fmt.Sprintf("evalgate: --%s: %s", p.Option, report.OneLine(p.Message))))
		}
		return exitUsage
	}
	// Every fault of both replays and of the run is reported together.
	cand, faults, code := j.replay(*answers)
	if code >= 0 {
		return code
	}
	var base *jev.Replay
	if *from != "" {
		var bf []diag.Result
		base, bf, code = j.replay(*from)
		if code >= 0 {
			return code
		}
		faults = append(faults, bf...)
	}
	if cand == nil || (*from != "" && base == nil) {
		return j.invalid(faults)
	}
	var rep *jev.Report
	var rf []diag.Result
	if base != nil {
		rep, rf = jev.Compare(c, base, cand)
	} else {
		rep, rf = jev.Eval(c, cand)
	}
	if faults = append(faults, rf...); len(faults) > 0 {
		return j.invalid(faults)
	}
	if j.json {
		if err := j.writeJSON(rep.Results()); err != nil {
			fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
			return exitInternal
		}
	} else if err := writeJevSummary(stdout, rep); err != nil {
		fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
		return exitInternal
	}
	if rep.Breaking() {
		return exitBlocking
	}
	return exitOK
}

// jevRun is one `evalgate jev` run's output.
type jevRun struct {
	stdout, stderr io.Writer
	json           bool
	files          []string
	start          time.Time // the report's wall time runs from here
}

// read reads a file named on the command line; a JSON file (whole) over
// jev.MaxJSON is too_large and is not read. code is -1 when the text was
// read, else the exit status, the error written.
func (j *jevRun) read(name string, whole, isReplay bool) ([]byte, int) {
	fi, err := os.Stat(name)
	if err == nil && fi.IsDir() {
		err = errors.New("is a directory")
	}
	if err == nil && whole && fi.Size() > jev.MaxJSON {
		msg := fmt.Sprintf("the file is larger than %d MiB and is not read", jev.MaxJSON>>20)
		r := diag.Result{Source: diag.SourceJev, File: filepath.ToSlash(name), Pos: diag.Pos{Line: 1}, Check: diag.CheckDefinition,
			Outcome: diag.Fail, Code: "too_large", Message: msg}
		if isReplay {
			r.Check, r.Outcome, r.Code = jev.CheckReplay, diag.Error, "replay_invalid"
		}
		return nil, j.invalid([]diag.Result{r})
	}
	var text []byte
	if err == nil {
		// Only a regular file, and never past its limit: /dev/zero would never end.
		limit := int64(jev.MaxJSONL)
		if whole {
			limit = jev.MaxJSON
		}
		text, err = repofs.ReadFile(name, limit)
	}
	if err != nil {
		var pe *fs.PathError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			err = errors.New("no such file")
		case errors.As(err, &pe):
			err = pe.Err
		}
		return nil, usageErr(j.stderr, "%s: %v", name, err)
	}
	return text, -1
}

// replay reads and loads a replay file: the replay (nil when it is not
// one) and its faults. code is -1 unless the file could not be read.
func (j *jevRun) replay(name string) (*jev.Replay, []diag.Result, int) {
	text, code := j.read(name, true, true)
	if code >= 0 {
		return nil, nil, code
	}
	r, faults := jev.LoadReplay(filepath.ToSlash(name), text)
	return r, faults, -1
}

// invalid reports the faults of an invalid contract or replay: one line each
// on stderr (file:line:col: message [code]), and the JSON report under
// --format json. It returns exit status 2 (README "Exit statuses").
func (j *jevRun) invalid(faults []diag.Result) int {
	diag.Sort(faults)
	for i := range faults {
		f := &faults[i]
		fmt.Fprintln(j.stderr, report.Line(fmt.Sprintf("%s: %s [%s]",
			report.OneLine(f.Location()), report.OneLine(f.Message), report.OneLine(f.Code))))
	}
	if j.json {
		if err := j.writeJSON(faults); err != nil {
			fmt.Fprintf(j.stderr, "evalgate: %s\n", report.Line(err.Error()))
			return exitInternal
		}
	}
	return exitUsage
}

// writeJSON writes the JSON report of README "Results, outcomes and blocking" with the results; every
// fail and error blocks (all have severity error).
func (j *jevRun) writeJSON(results []diag.Result) error {
	files := slices.Clone(j.files)
	slices.Sort(files)
	rep := &report.Report{
		Tool:    report.Tool{Name: "evalgate", Version: versionString()},
		Scope:   report.Scope{Mode: report.ScopePaths, Files: slices.Compact(files)},
		Results: results,
	}
	rep.Finish(diag.SeverityError, j.start)
	return report.WriteJSON(j.stdout, rep)
}
