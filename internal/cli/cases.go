package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/evalgate/evalgate/internal/config"
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

// runCases is `evalgate cases` (README "Commands", §10).
func runCases(args []string, stdout, stderr io.Writer) int {
	start := time.Now()
	fs := newFlagSet("cases")
	var candidatesFlag casesFileList
	fs.Var(&candidatesFlag, "candidates", "")
	format := fs.String("format", string(report.FormatText), "")
	configFlag := fs.String("config", "", "")
	fixtureArgs, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, casesUsage)
		return exitOK
	}
	if err != nil {
		return usageErr(stderr, "cases: %v", err)
	}
	switch *format {
	case string(report.FormatText), string(report.FormatJSON), casesFormatJSONL:
	default:
		return usageErr(stderr, "--format: unknown format %q (want text, json or jsonl)", *format)
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
		return exitInternal
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	root, isRepo := engine.FindRoot(dir)
	rep := &report.Report{
		Tool:  report.Tool{Name: "evalgate", Version: versionString()},
		Scope: report.Scope{Mode: report.ScopeAll},
	}

	cfg, cfgResults, err := casesConfig(root, dir, *configFlag)
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	if len(cfgResults) > 0 {
		// An invalid config checks nothing: exit 2, with its results.
		rep.Results = cfgResults
		finishCases(rep, start)
		fmt.Fprintln(stderr, "evalgate: the config is invalid; nothing was checked")
		if err := writeCases(rep, *format, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
			return exitInternal
		}
		return exitUsage
	}

	sel, err := selectCases(ctx, root, isRepo, dir, cfg, fixtureArgs, candidatesFlag)
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	if len(sel.fixtures) == 0 {
		return usageErr(stderr, "nothing to evaluate: no FIXTURE given and evalcase.include selects no fixture (%s)", cfgName(cfg))
	}
	req := evalcase.Request{
		Root: root, Fixtures: sel.fixtures, Candidates: sel.candidates,
		ReadCandidates: true, CandidatesConfigured: len(cfg.EvalCase.Candidates) > 0 || len(candidatesFlag) > 0,
	}
	if sel.scope != nil {
		req.InScope = func(f string) bool { return sel.scope[f] }
		rep.Scope.Mode = report.ScopePaths
	}
	for _, f := range append(slices.Clone(sel.fixtures), sel.candidates...) {
		if req.InScope == nil || req.InScope(f) {
			rep.Scope.Files = append(rep.Scope.Files, f)
		}
	}
	slices.Sort(rep.Scope.Files)
	rep.Scope.Files = slices.Compact(rep.Scope.Files)
	rep.Results, err = evalcase.Check(ctx, req)
	if err != nil {
		fmt.Fprintf(stderr, "evalgate: internal error: %s\n", report.Line(err.Error()))
		return exitInternal
	}
	finishCases(rep, start)
	if err := writeCases(rep, *format, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
		return exitInternal
	}
	if rep.Summary.Blocking > 0 {
		return exitBlocking
	}
	return exitOK
}

// casesConfig loads --config (relative to the working directory) or the
// repository's default config, or the defaults when there is none.
func casesConfig(root, dir, flagValue string) (*config.Config, []diag.Result, error) {
	rel := ""
	if flagValue != "" {
		abs := flagValue
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, abs)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, nil, fmt.Errorf("--config %s: no such file", flagValue)
		}
		var ok bool
		if rel, ok = casesRel(root, abs); !ok {
			return nil, nil, fmt.Errorf("--config %s: outside the repository %s", flagValue, root)
		}
	}
	cfg, results, err := config.Load(root, rel)
	if err != nil {
		return nil, nil, fmt.Errorf("config %s: %v", cmp.Or(rel, "(default)"), err)
	}
	return cfg, results, nil
}

func cfgName(cfg *config.Config) string {
	if cfg.Path == "" {
		return "no config"
	}
	return cfg.Path
}

// casesSelection is what `evalgate cases` checks.
type casesSelection struct {
	fixtures   []string        // repository-relative, sorted, unique
	candidates []string        // repository-relative, sorted, unique
	scope      map[string]bool // the files whose results are reported; nil: all
}

// selectCases lists the fixtures evalcase.include selects plus the FIXTURE
// arguments, and the candidates files evalcase.candidates selects plus the
// --candidates files. With FIXTURE arguments, results are reported for them
// and for the --candidates files only.
func selectCases(ctx context.Context, root string, isRepo bool, dir string, cfg *config.Config, fixtureArgs, candidateArgs []string) (*casesSelection, error) {
	sel := &casesSelection{}
	if len(cfg.EvalCase.Include) > 0 || len(cfg.EvalCase.Candidates) > 0 {
		files, err := engine.ListFiles(ctx, root, isRepo)
		if err != nil {
			return nil, fmt.Errorf("cannot list the repository's files: %v", err)
		}
		prefix := ""
		if d := path.Dir(cfg.Path); cfg.Path != "" && d != "." {
			prefix = d + "/"
		}
		for _, f := range files {
			rel, ok := strings.CutPrefix(f, prefix)
			if !ok {
				continue
			}
			switch {
			case casesMatch(cfg.EvalCase.Include, rel):
				sel.fixtures = append(sel.fixtures, f)
			case casesMatch(cfg.EvalCase.Candidates, rel):
				sel.candidates = append(sel.candidates, f)
			}
		}
	}
	if len(fixtureArgs) > 0 {
		sel.scope = map[string]bool{}
	}
	for _, a := range fixtureArgs {
		rel, err := casesPathArg(root, dir, a)
		if err != nil {
			return nil, err
		}
		sel.fixtures = append(sel.fixtures, rel)
		sel.scope[rel] = true
	}
	for _, a := range candidateArgs {
		rel, err := casesPathArg(root, dir, a)
		if err != nil {
			return nil, fmt.Errorf("--candidates %v", err)
		}
		sel.candidates = append(sel.candidates, rel)
		if sel.scope != nil {
			sel.scope[rel] = true
		}
	}
	slices.Sort(sel.fixtures)
	sel.fixtures = slices.Compact(sel.fixtures)
	slices.Sort(sel.candidates)
	sel.candidates = slices.Compact(sel.candidates)
	// A file given as both is a fixture.
	sel.candidates = slices.DeleteFunc(sel.candidates, func(f string) bool {
		_, found := slices.BinarySearch(sel.fixtures, f)
		return found
	})
	return sel, nil
}

// casesMatch reports whether name matches one of the doublestar patterns.
func casesMatch(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, name); ok {
			return true
		}
	}
	return false
}

// casesPathArg turns an argument into a repository-relative path; a path
// that does not exist, is a directory or leaves the repository is a usage
// error.
func casesPathArg(root, dir, p string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, p)
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", fmt.Errorf("%s: no such file", p)
	}
	if fi.IsDir() {
		return "", fmt.Errorf("%s: is a directory (give JSONL files)", p)
	}
	rel, ok := casesRel(root, abs)
	if !ok {
		return "", fmt.Errorf("%s: outside the repository %s", p, root)
	}
	return rel, nil
}

// casesRel returns p relative to root with '/', or false when it is outside.
func casesRel(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// finishCases decides blocking (README "Results, outcomes and blocking": a fail of severity error
// and every error block; report assertions, severity warning, never do),
// sorts and counts, and records the run's wall time since start.
func finishCases(rep *report.Report, start time.Time) {
	rep.Duration = time.Since(start)
	for i := range rep.Results {
		r := &rep.Results[i]
		r.Blocking = r.Outcome == diag.Error || (r.Outcome == diag.Fail && r.Severity == diag.SeverityError)
		r.Evidence = diag.BoundEvidence(r.Evidence)
	}
	diag.Sort(rep.Results)
	rep.Count()
}

// writeCases writes the report in format: text and json are the usual
// reports; jsonl writes the contract's result objects of the assertion
// results to stdout and every other result as one text line to stderr.
func writeCases(rep *report.Report, format string, stdout, stderr io.Writer) error {
	switch format {
	case string(report.FormatText):
		return report.WriteText(stdout, rep)
	case string(report.FormatJSON):
		return report.WriteJSON(stdout, rep)
	}
	out := bufio.NewWriter(stdout)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range rep.Results {
		c, ok := evalcase.ToContract(r)
		if !ok {
			fmt.Fprintln(stderr, report.TextLine(&r))
			continue
		}
		buf.Reset()
		if err := enc.Encode(c); err != nil {
			return err
		}
		out.Write(report.GuardJSON(buf.Bytes()))
	}
	return out.Flush()
}
