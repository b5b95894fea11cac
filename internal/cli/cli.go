// Package cli is evalgate's command line: flags, subcommands, exit statuses.
// It calls the engine and the report writers and holds no checking logic.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/report"
)

// version is stamped by the build (-ldflags "-X ...cli.version=v1.2.3");
// otherwise the module version from the build info is used.
var version = ""

const usage = `evalgate gates documentation and eval fixtures in CI.

Usage:
  evalgate check [flags] [PATH...]     validate, run graders, report
  evalgate validate [flags] [PATH...]  validate only; runs nothing
  evalgate baseline [check flags]      check everything and write the baseline of its
                                       fails (.evalgate-baseline.json, or --baseline FILE)
  evalgate cases [--candidates FILE]... [--format text|json|jsonl] [FIXTURE...]
                                       EvalCase v1 assertions on candidate outputs
  evalgate jev eval CONTRACT --answers REPLAY [--candidate-model M]
               [--baseline-model M] [--allow-unpinned] [--format text|json]
                                       a jevcheck contract against a replayed candidate
  evalgate jev compare CONTRACT --from BASELINE --answers CANDIDATE [...]
                                       the baseline replay's answers become the expectations
  evalgate init [--site SITE]          write .evalgate.yaml for the documentation site here
  evalgate review PAGE EVAL_ID --pass|--fail [--note TEXT] [--by NAME]
                                       record a human review of one eval
  evalgate merge [flags] REPORT.json... join the JSON reports of a shard set into one run
  evalgate cache prune                 delete the judge's cache entries no ai eval asks for now
  evalgate explain [CODE|tool:NAME]    what a result code means and how to fix it;
                                       without CODE, every code; a built-in grader's doc
  evalgate list [PATH...|--all]        the selected pages with their resolved evals,
                                       fixtures and contracts with their case counts
  evalgate schema [evals|config]       print a JSON Schema, for editors
  evalgate version                     print version, commit and Go version

Flags of check and validate (before or after PATH; -- ends flags):
  --config FILE      config file (default .evalgate.yaml or .evalgate.yml at the repository root)
  --all              check every selected file of the repository
  --base REF         check what changed since the merge base of REF and HEAD,
                     plus uncommitted and untracked files
  --format FORMAT    stdout format: text, json or github (default github in
                     GitHub Actions, else text)
  --json FILE        also write the JSON report to FILE
  --sarif FILE       also write SARIF 2.1.0 to FILE, for code scanning
  --junit FILE       also write JUnit XML to FILE
  --category NAME    the SARIF category (automationDetails.id NAME/)
  --jobs N           graders run in parallel (default: number of CPUs)
  --fail-on LEVEL    least severity of a failure that blocks: error, warning, info or none (default error)
  --allow-untrusted-commands
                     run commands on privileged events and fork pull requests
  --baseline FILE    the baseline of known failures (default .evalgate-baseline.json
                     at the repository root, when it exists)
  --no-baseline      apply no baseline
  --judge NAME       the ai.providers entry that judges ai evals naming none (default ai.judge)
  --no-judge         ask no judge: every ai eval is pending no_judge
  --max-judge-calls N
                     ask the judge at most N times in this run (default ai.max-calls)
  --no-cache         neither read nor write the judge's cache
  --shard K/N        with --all, check part K of N of the selected files; join the
                     N JSON reports with evalgate merge

Exit status: 0 nothing blocking, 1 something blocking, 2 usage or config error
or nothing to evaluate, 3 internal failure.
`

const schemaUsage = `Usage: evalgate schema [evals|config]

Prints the JSON Schema of the frontmatter vocabulary (evals, the default) or
of the config (.evalgate.yaml), for an editor's YAML language server.
`

// Main runs evalgate with args (without the program name) and returns the
// exit status. It never panics: an internal failure is one line and exit 3.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "evalgate: internal error: %s\n", report.Line(fmt.Sprint(v)))
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	if run, ok := commands[cmd]; ok {
		return run(rest, stdout, stderr)
	}
	switch cmd {
	case "version", "--version":
		return written(stdout, stderr, []byte("evalgate "+versionLine()+"\n"))
	case "help", "-h", "--help":
		return written(stdout, stderr, []byte(usage))
	}
	return usageErr(stderr, "unknown command %q (see evalgate help)", cmd)
}

// A command runs one subcommand with its arguments and returns the exit status.
type command func(args []string, stdout, stderr io.Writer) int

// commands are the subcommands by name (README "Commands").
var commands = map[string]command{
	"check":    func(args []string, stdout, stderr io.Writer) int { return runCheck("check", args, stdout, stderr) },
	"validate": func(args []string, stdout, stderr io.Writer) int { return runCheck("validate", args, stdout, stderr) },
	"baseline": func(args []string, stdout, stderr io.Writer) int { return runCheck("baseline", args, stdout, stderr) },
	"cases":    runCases,
	"jev":      runJev,
	"explain":  runExplain,
	"init":     runInit,
	"review":   runReview,
	"cache":    runCache,
	"merge":    runMerge,
	"list":     runList,
	"schema":   runSchema,
}

// parseArgs parses flags that may come before or after positional
// arguments; "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseFlags parses a subcommand's flags with parseArgs. When ok is false the command is done and
// returns code: -h or --help wrote help to stdout (exit 0), or a bad flag was a usage error naming
// the flag set (exit 2).
func parseFlags(fs *flag.FlagSet, help string, args []string, stdout, stderr io.Writer) (pos []string, code int, ok bool) {
	pos, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, help)
		return nil, exitOK, false
	case err != nil:
		return nil, usageErr(stderr, "%s: %v", fs.Name(), err), false
	}
	return pos, 0, true
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// emptyBase is the usage error of --base given empty (--base "" or
// --base=), which the flag package cannot tell from no --base: an empty REF
// resolves to no commit, so it is exit 2 like any REF that does not resolve
// (README "Which files are checked"), never a run that checks everything.
func emptyBase(fs *flag.FlagSet, stderr io.Writer) (int, bool) {
	var empty bool
	fs.Visit(func(f *flag.Flag) { empty = empty || (f.Name == "base" && f.Value.String() == "") })
	if !empty {
		return 0, false
	}
	return usageErr(stderr, "--base \"\": an empty REF names no commit"), true
}

// runCheck runs check, validate or baseline (a scope-all check that writes
// the baseline of its fails, README "Baseline").
func runCheck(name string, args []string, stdout, stderr io.Writer) int {
	mode := engine.ModeCheck
	if name == "validate" {
		mode = engine.ModeValidate
	}
	fs := newFlagSet(name)
	var (
		configFlag = fs.String("config", "", "")
		all        = fs.Bool("all", false, "")
		base       = fs.String("base", "", "")
		format     = fs.String("format", defaultFormat(), "")
		jsonFile   = fs.String("json", "", "")
		sarifFile  = fs.String("sarif", "", "")
		junitFile  = fs.String("junit", "", "")
		category   = fs.String("category", "", "")
		jobs       = fs.Int("jobs", 0, "")
		failOn     = fs.String("fail-on", "error", "")
		untrusted  = fs.Bool("allow-untrusted-commands", false, "")
		baseline   = fs.String("baseline", "", "")
		noBaseline = fs.Bool("no-baseline", false, "")
		judgeName  = fs.String("judge", "", "")
		noJudge    = fs.Bool("no-judge", false, "")
		maxCalls   = fs.Int("max-judge-calls", -1, "")
		noCache    = fs.Bool("no-cache", false, "")
		shardFlag  = fs.String("shard", "", "")
	)
	paths, code, ok := parseFlags(fs, usage, args, stdout, stderr)
	if !ok {
		return code
	}
	if code, ok := emptyBase(fs, stderr); ok {
		return code
	}
	switch {
	case *baseline == "" && flagSet(fs, "baseline"):
		return usageErr(stderr, "--baseline: give a file")
	case *noBaseline && *baseline != "":
		return usageErr(stderr, "--baseline and --no-baseline exclude each other")
	case name == "baseline" && (len(paths) > 0 || *base != ""):
		return usageErr(stderr, "baseline checks everything: it takes no PATH and no --base")
	case name == "baseline" && *noBaseline:
		return usageErr(stderr, "baseline: --no-baseline has no meaning here (it reads no baseline)")
	case *judgeName == "" && flagSet(fs, "judge"):
		return usageErr(stderr, "--judge: give a provider's name")
	case *noJudge && *judgeName != "":
		return usageErr(stderr, "--judge and --no-judge exclude each other")
	case *maxCalls < 0 && flagSet(fs, "max-judge-calls"):
		return usageErr(stderr, "--max-judge-calls: must be 0 or more")
	}
	shard, err := parseShard(*shardFlag, flagSet(fs, "shard"))
	if err != nil {
		return usageErr(stderr, "--shard: %v", err)
	}
	judging := engine.JudgeOptions{Judge: *judgeName, Off: *noJudge, NoCache: *noCache}
	if flagSet(fs, "max-judge-calls") {
		judging.MaxCalls = maxCalls
	}
	f, level, err := reportFlags(*format, *failOn)
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	if *jobs < 0 || *jobs > maxJobs { // 0, the default, is the number of CPUs (README "Commands")
		return usageErr(stderr, "--jobs: give 1 to %d, or 0 for the number of CPUs; got %d", maxJobs, *jobs)
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	ctx, stopper := notifyStop(context.Background()) // SIGINT, SIGTERM, SIGHUP: kill the graders, report what finished, exit 3
	defer stopper.stop()
	term := detectTerminal(stdout, stderr, isTerminal, os.Getenv)
	files := reportFiles{json: *jsonFile, sarif: *sarifFile, junit: *junitFile}
	if err := files.check(); err != nil {
		fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
		return exitInternal
	}
	opts := engine.Options{
		Mode: mode, Dir: dir, ConfigFlag: *configFlag, Paths: paths, All: *all, Base: *base,
		Jobs: *jobs, FailOn: level, AllowUntrusted: *untrusted, Env: os.Environ(),
		Version: versionString(), Category: *category,
		Baseline: *baseline, NoBaseline: *noBaseline, WriteBaseline: name == "baseline", Judging: judging, Shard: shard,
		Keep:   files.keep(f),
		Notice: func(s string) { fmt.Fprintln(stderr, report.Notice(s)) },
	}
	if name == "baseline" {
		opts.All = true
	}
	stopProgress := func() {}
	if term.progress {
		// The progress line shares stderr with the notices (README "On a terminal").
		p := newProgressLine(stderr, time.Now)
		opts.Notice = func(s string) { p.println(report.Notice(s)) }
		opts.Progress = p.set
		stopProgress = p.run()
		defer stopProgress()
	}
	rep, err := engine.Run(ctx, opts)
	stopProgress() // erased before any other line or the report
	if code, stopped := stopper.before(stderr, rep); stopped {
		return code
	}
	code, done := runStatus(rep, err, stderr)
	if done {
		return code
	}
	if f == report.FormatText && !term.stdout && !errors.Is(err, engine.ErrConfigInvalid) && !errors.Is(err, engine.ErrBaselineInvalid) {
		// The terminal form shows what the run saw; a piped report stays as it is.
		// An invalid config saw nothing.
		fmt.Fprintln(stderr, report.Notice(report.SeenLine(rep)))
	}
	if werr := files.write(rep, f, stdout, term); werr != nil {
		fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(werr.Error()))
		return exitInternal
	}
	if name == "baseline" && code == exitBlocking {
		code = exitOK // the file is written: what it holds is accepted
	}
	return stopper.exit(stderr, code)
}

// reportFlags reads --format and --fail-on, each error naming its flag.
func reportFlags(format, failOn string) (report.Format, diag.Severity, error) {
	f, err := report.ParseFormat(format)
	if err != nil {
		return "", 0, fmt.Errorf("--format: %v", err)
	}
	level, err := parseFailOn(failOn)
	if err != nil {
		return "", 0, fmt.Errorf("--fail-on: %v", err)
	}
	return f, level, nil
}

// parseShard reads --shard K/N (1 <= K <= N); nil when the flag is not given.
func parseShard(s string, given bool) (*report.Shard, error) {
	if !given {
		return nil, nil
	}
	k, n, ok := strings.Cut(s, "/")
	ki, kerr := strconv.Atoi(k)
	ni, nerr := strconv.Atoi(n)
	if !ok || kerr != nil || nerr != nil || ki < 1 || ki > ni {
		return nil, fmt.Errorf("give K/N with 1 <= K <= N, got %q", s)
	}
	return &report.Shard{Index: ki, Count: ni}, nil
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// runStatus turns what engine.Run returned into an exit status (README "Exit statuses"); done reports
// that there is no report to write: a usage or internal error, already said on stderr.
func runStatus(rep *report.Report, err error, stderr io.Writer) (code int, done bool) {
	var uerr *engine.UsageError
	switch {
	case errors.As(err, &uerr):
		return usageErr(stderr, "%s", uerr.Msg), true
	case err != nil && !engine.IsNothingToEvaluate(err) && !errors.Is(err, engine.ErrConfigInvalid) && !errors.Is(err, engine.ErrBaselineInvalid):
		fmt.Fprintf(stderr, "evalgate: internal error: %s\n", report.Line(err.Error()))
		return exitInternal, true
	case err != nil:
		// An invalid config, or nothing to evaluate: the report is still written.
		fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
		return exitUsage, false
	case rep.Summary.Blocking > 0:
		return exitBlocking, false
	}
	return exitOK, false
}

// maxJobs bounds --jobs: each parallel grader holds its own state, and 99,999,999 of them took the
// machine's 24 GB (and ignored SIGTERM while they were made).
const maxJobs = 1024

// defaultFormat is github inside GitHub Actions, else text.
func defaultFormat() string {
	if os.Getenv("GITHUB_ACTIONS") == "true" {
		return string(report.FormatGitHub)
	}
	return string(report.FormatText)
}

// reportFiles are the report files a run writes besides stdout.
type reportFiles struct{ json, sarif, junit string }

// keep is what the report reads of the results when it is written to stdout alone as text, on a
// terminal or off one (report.KeepText); nil, every result whole, for every other format.
func (f reportFiles) keep(format report.Format) func(*diag.Result) bool {
	if f != (reportFiles{}) || format != report.FormatText {
		return nil
	}
	return report.KeepText
}

// reportFile is one report file a flag names.
type reportFile struct {
	flag, name string
	write      func(io.Writer, *report.Report) error
}

// files are the report files the flags name, in the order they are written.
func (f reportFiles) files() []reportFile {
	var out []reportFile
	for _, rf := range []reportFile{
		{"--json", f.json, report.WriteJSON},
		{"--sarif", f.sarif, report.WriteSARIF},
		{"--junit", f.junit, report.WriteJUnit},
	} {
		if rf.name != "" {
			out = append(out, rf)
		}
	}
	return out
}

// failed is the error of a report file that could not be written, named by its flag.
func (rf reportFile) failed(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == rf.name {
		err = pe.Err // the flag and the name say which file
	}
	return fmt.Errorf("%s %s: %w", rf.flag, rf.name, err)
}

// check makes sure, before anything runs, that every report file can be written (README "Exit
// statuses"): a missing folder was found out only after every grader and judge had run.
func (f reportFiles) check() error {
	root := reportRoot()
	for _, out := range f.files() {
		if err := repofs.CanWrite(root, out.name); err != nil {
			return out.failed(err)
		}
	}
	return nil
}

// reportRoot is the repository's root, within which no report is written through a symlink; "" outside one.
func reportRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	root, _ := engine.FindRoot(dir)
	return root
}

// write writes the report files, then the report to stdout: the text format
// takes the terminal form when stdout is a terminal.
func (f reportFiles) write(rep *report.Report, format report.Format, stdout io.Writer, term terminal) error {
	root := reportRoot()
	for _, out := range f.files() {
		// Never through a symlink a pull request committed there (README "Security model").
		err := repofs.WriteFile(root, out.name, func(w io.Writer) error { return out.write(w, rep) })
		if err != nil {
			return out.failed(err)
		}
	}
	if format == report.FormatText && term.stdout {
		return report.WriteTerminal(stdout, rep, report.TerminalOptions{Color: term.color})
	}
	if format != report.FormatGitHub {
		return report.Write(stdout, format, rep)
	}
	return report.WriteGitHub(stdout, rep, report.GitHubOptions{
		Getenv: os.Getenv, SARIFFile: absPath(f.sarif), JSONFile: absPath(f.json),
	})
}

// absPath makes a report file's path absolute for the step outputs.
func absPath(name string) string {
	if name == "" {
		return ""
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return ""
	}
	return abs
}

func parseFailOn(s string) (diag.Severity, error) {
	if l, ok := diag.ParseSeverity(s); ok {
		return l, nil
	}
	switch s {
	case "none":
		return engine.FailOnNone, nil
	}
	return 0, fmt.Errorf("unknown level %q (want error, warning, info or none)", s)
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func versionLine() string {
	commit := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				commit = s.Value
			}
		}
	}
	return fmt.Sprintf("%s (commit %s, %s %s/%s)", versionString(), commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// runSchema is `evalgate schema [evals|config]` (README "Commands").
func runSchema(args []string, stdout, stderr io.Writer) int {
	pos, code, ok := parseFlags(newFlagSet("schema"), schemaUsage, args, stdout, stderr)
	which := "evals"
	switch {
	case !ok:
		return code
	case len(pos) == 1:
		which = pos[0]
	case len(pos) > 1:
		return usageErr(stderr, "schema takes one argument: evals or config")
	}
	var b []byte
	switch strings.TrimSpace(which) {
	case "evals":
		b = docmeta.EvalsJSONSchema()
	case "config":
		b = config.ConfigJSONSchema()
	default:
		return usageErr(stderr, "schema: unknown schema %q (want evals or config)", which)
	}
	return written(stdout, stderr, b)
}

// written writes b, a command's whole output, to stdout: exit 0, or 3 when it cannot be written (a full
// disk, a closed stdout), as for any report (README "Exit statuses").
func written(stdout, stderr io.Writer, b []byte) int {
	if _, err := stdout.Write(b); err != nil {
		return internalErr(stderr, fmt.Errorf("cannot write the output: %w", err))
	}
	return exitOK
}
