package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/evalcase"
	"github.com/evalgate/evalgate/internal/report"
)

const casesUsage = `Usage: evalgate cases [--candidates FILE]... [--format text|json|jsonl] [--config FILE] [FIXTURE...]

Validates EvalCase v1 fixtures and runs each case's assertions on its
candidate. Without FIXTURE, the fixtures evalcase.include selects; candidates
come from evalcase.candidates and every --candidates FILE. With FIXTURE,
results are reported for those fixtures and the --candidates files; every
selected fixture is still indexed, so case ids stay unique across all.

  --candidates FILE  a JSONL file of candidates {case_id, text, raw_response};
                     may be repeated
  --format FORMAT    text (default), json (the JSON report) or jsonl (the
                     contract's result objects, one per line, for assertion
                     results only; every other result goes to stderr)
  --config FILE      config file (default .evalgate.yaml or .evalgate.yml at
                     the repository root)

Exit status: 0 nothing blocking, 1 something blocking (a failed hard
assertion, an invalid fixture or candidate, an error; report assertions never
block), 2 usage error, invalid config or no fixture.
`

// casesFormatJSONL is the contract's own result objects, one per line.
const casesFormatJSONL = "jsonl"

// casesFileList is a repeatable flag.
type casesFileList []string

func (l *casesFileList) String() string { return strings.Join(*l, ",") }

func (l *casesFileList) Set(v string) error {
	if v == "" {
		return errors.New("empty file name")
	}
	*l = append(*l, v)
	return nil
}

// runCases is `evalgate cases` (README "Commands", "EvalCase v1 fixtures"): flags here, the run in the
// engine, as for check and validate.
func runCases(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("cases")
	var candidatesFlag casesFileList
	fs.Var(&candidatesFlag, "candidates", "")
	format := fs.String("format", string(report.FormatText), "")
	configFlag := fs.String("config", "", "")
	fixtureArgs, code, ok := parseFlags(fs, casesUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	switch *format {
	case string(report.FormatText), string(report.FormatJSON), casesFormatJSONL:
	default:
		return usageErr(stderr, "--format: unknown format %q (want text, json or jsonl)", *format)
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	ctx, stopper := notifyStop(context.Background()) // SIGINT, SIGTERM, SIGHUP: report what finished, exit 3
	defer stopper.stop()
	term := detectTerminal(stdout, stderr, isTerminal, os.Getenv)
	rep, err := engine.Run(ctx, engine.Options{
		Mode: engine.ModeCases, Dir: dir, ConfigFlag: *configFlag, Fixtures: fixtureArgs, Candidates: candidatesFlag,
		FailOn: diag.SeverityError, Env: os.Environ(), Version: versionString(),
		Keep:   reportFiles{}.keep(report.Format(*format)), // jsonl is no report format: every result
		Notice: func(s string) { fmt.Fprintln(stderr, report.Notice(s)) },
	})
	if code, stopped := stopper.before(stderr, rep); stopped {
		return code
	}
	code, done := runStatus(rep, err, stderr)
	if done {
		return code
	}
	if err := writeCases(rep, *format, stdout, stderr, term); err != nil {
		return internalErr(stderr, err)
	}
	return stopper.exit(stderr, code)
}

// writeCases writes the report in format: text and json are the usual
// reports; jsonl writes the contract's result objects of the assertion
// results to stdout and every other result as one text line to stderr.
func writeCases(rep *report.Report, format string, stdout, stderr io.Writer, term terminal) error {
	if format != casesFormatJSONL {
		return reportFiles{}.write(rep, report.Format(format), stdout, term)
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	var line []byte
	for r := range rep.Results.All() {
		c, ok := evalcase.ToContract(*r)
		if !ok {
			fmt.Fprintln(stderr, report.TextLine(r))
			continue
		}
		var err error
		if line, err = appendContractJSON(line[:0], &c); err != nil {
			return err
		}
		out.Write(line) // guarded as it was written
	}
	return out.Flush()
}

// appendContractJSON appends c as one JSONL line, the bytes encoding/json writes for it (HTML
// characters as they are), guarded as report.GuardJSON guards them: the contract result of every
// assertion goes through here, so its fields are written directly (FuzzContractJSON checks the two
// agree).
func appendContractJSON(b []byte, c *evalcase.ContractResult) ([]byte, error) {
	for _, f := range []struct{ name, value string }{{`{"case_id":`, c.CaseID}, {`,"assertion":`, c.Assertion}} {
		b = report.AppendJSONString(append(b, f.name...), f.value)
	}
	b = strconv.AppendBool(append(b, `,"passed":`...), c.Passed)
	for _, f := range []struct{ name, value string }{{`,"severity":`, c.Severity}, {`,"code":`, c.Code}, {`,"message":`, c.Message}} {
		b = report.AppendJSONString(append(b, f.name...), f.value)
	}
	b, err := report.AppendJSON(append(b, `,"evidence":`...), c.Evidence)
	return append(b, "}\n"...), err
}
