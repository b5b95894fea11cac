// Package engine is the pipeline of a run, one stage a file, each handing the
// next what it needs: select.go picks the files (pages, fixtures, contracts)
// and the scope; load.go loads the config and reads, parses and validates
// pages a chunk at a time; validate.go adds what `validate` checks beyond
// definitions; grade.go grades page evals in parallel and checks EvalCase
// fixtures and jevcheck contracts; score.go computes scores and suites; the
// run ends in engine.go, which finishes the report (blocking, order, counts).
// check, validate and cases are modes of one Run; list reuses the stages.
package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/evalgate/evalgate/internal/changes"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/grader"
	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/review"
)

// Mode is what a run does with the files it selects.
type Mode int

const (
	ModeCheck    Mode = iota // validate and grade
	ModeValidate             // validate only; run nothing
	ModeCases                // `evalgate cases`: EvalCase fixtures and their candidates only
	ModeJev                  // `evalgate jev`: one contract and its replays, named by Options.Jev
)

// FailOnNone is the --fail-on value under which nothing blocks.
const FailOnNone = diag.FailOnNone

// Options configure one run.
type Options struct {
	Mode       Mode
	Dir        string   // the working directory, absolute
	ConfigFlag string   // --config as given (relative to Dir); "" for the default
	Paths      []string // PATH arguments as given (relative to Dir)
	// Fixtures and Candidates are the FIXTURE arguments and --candidates files of ModeCases, as given.
	Fixtures, Candidates []string
	// Jev is the contract and replays of ModeJev, named as given (relative
	// to Dir), with the models and the opt-in of the command line.
	Jev  *jev.Entry
	All  bool   // --all
	Base string // --base REF; "" when not given
	Jobs int    // --jobs; < 1 means the number of CPUs
	// FailOn is the least severity of a fail that blocks, or FailOnNone.
	FailOn         diag.Severity
	AllowUntrusted bool // --allow-untrusted-commands
	// Baseline is --baseline FILE as given (relative to Dir); "" for the
	// default .evalgate-baseline.json at the root, read when it exists.
	Baseline   string
	NoBaseline bool // --no-baseline: apply none
	// WriteBaseline is `evalgate baseline`: the check applies no baseline and
	// writes one of its fails (README "Baseline").
	WriteBaseline bool
	Judging       JudgeOptions // --judge, --no-judge, --max-judge-calls, --no-cache
	// Shard is --shard K/N: this run checks part K of the selected files (README "Shards"); nil
	// for the whole.
	Shard *report.Shard
	// Keep, when not nil, is which results, and what of each, the one report written from the run
	// reads (report.Results.Keep): the run counts every result but keeps only that. It does not apply
	// where a baseline marks the results or is written from them, nor to the faults of `jev`'s
	// contract and replays, which an invalid one prints.
	Keep     func(*diag.Result) bool
	Env      []string // the process environment, "K=V"
	Version  string   // evalgate's version, for the report
	Category string   // --category, for SARIF
	// Notice receives notices for stderr, one line each, unescaped.
	Notice func(string)
	// Progress, when set, is called with the evals of pages graded so far
	// and the evals found so far, when a chunk of pages brings evals to grade
	// and each time one has been graded (pages are read a chunk at a time, so
	// total grows as chunks are read). Calls come one at a time, from Run's
	// goroutine or a grading one; validate grades nothing and never calls it.
	Progress func(done, total int)
}

// UsageError is a mistake in how evalgate was called: exit 2, no report.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// run is the state of one run.
type run struct {
	opts   Options
	root   string // repository root, absolute
	isRepo bool
	cfg    *config.Config
	policy grader.Policy
	env    []string // the environment every child gets
	redact []string // values removed from it, to mask in output
	pages  *grader.PageCache
	rep    *report.Report
	whole  bool // suites are seen whole (scope all)
	// fromArgs: the files came from PATH arguments, not from a listing.
	fromArgs bool
	// listing: `evalgate list` takes PATH arguments as given, without the
	// pages that depend on them.
	listing bool

	inActions   bool                        // GITHUB_ACTIONS=true
	event       *changes.Event              // the GitHub event; nil outside Actions
	pagesM      *matcher                    // the config's page selection
	pathSuites  []pathSuite                 // the suites that apply by path, in config order
	reviews     map[[2]string]review.Record // human reviews by page and eval
	judge       *judging                    // the AI judge of check; nil in other modes
	files       []string                    // the repository's candidate files, listed once
	companionOf map[string]bool             // touched files some selected page reads
	pageEvals   bool                        // some selected page has an evals or eval-* key
	hasEvals    bool                        // pageEvals, or some fixture or contract is selected
	noVerdict   bool                        // evals were resolved, and every one was skipped or pending (score)
	scores      scores                      // the graded evals' tallies, for the scores
	reached     map[string]bool             // the suites some graded page names: only they are reported
	start       time.Time                   // when the run began, for the report's wall time
	progressMu  sync.Mutex                  // serializes calls of opts.Progress
	graded      int                         // evals graded so far, under progressMu
	toGrade     int                         // evals found so far, under progressMu
	fx          *fixtures                   // EvalCase and jevcheck inputs
	inScope     func(string) bool           // whether results about a file are reported
	links       []string                    // the symlinks git tracks, once indexedLinks listed them
	deletedOnce sync.Once                   // deleted is listed
	deleted     map[string]bool             // the files git lists as deleted from the working tree (deletedHere)
	related     func(string) bool           // of an EvalCase file out of scope, whether its cross-file faults are (nil: none)
}

// Run carries out one run and returns its report; whether something in it
// blocks is the report's Summary.Blocking. An error with a report is
// ErrConfigInvalid (the report holds the config's faults, nothing was graded)
// or one for which IsNothingToEvaluate holds; an error without one is a
// *UsageError or an internal failure. The command line turns these into exit
// statuses.
func Run(ctx context.Context, opts Options) (*report.Report, error) {
	r, err := newRun(opts)
	if err != nil {
		return nil, err
	}
	defer r.pages.Close() // the git processes the built-in graders keep for the run
	if opts.Mode == ModeJev {
		return r.jev(ctx)
	}
	cfg, cfgResults, err := r.loadConfig()
	if err != nil {
		return nil, err
	}
	r.cfg = cfg
	if len(cfgResults) > 0 {
		// An invalid config grades nothing: exit 2, with its results reported.
		r.rep.Results.Add(cfgResults...)
		r.finish()
		return r.rep, ErrConfigInvalid
	}
	bl, blResults, err := r.loadBaseline()
	if err != nil {
		return nil, err
	}
	if len(blResults) > 0 {
		r.rep.Results.Add(blResults...)
		r.finish()
		return r.rep, ErrBaselineInvalid
	}
	if bl == nil && !opts.WriteBaseline {
		r.rep.Results.Keep(opts.Keep)
	}
	if cfg.Path != "" {
		r.rep.Scope.Config = &report.ConfigFile{File: cfg.Path, SHA256: cfg.SHA256}
	}
	// Results about the config itself come once in a shard set: from its first shard.
	configOwner := opts.Shard == nil || opts.Shard.Index == 1
	if configOwner {
		r.rep.Results.Add(cfg.Notes...)
	}
	if opts.Mode == ModeCheck {
		r.loadReviews(configOwner)
	}
	r.setupCommands()
	if opts.Mode == ModeCheck {
		if err := r.setupJudge(); err != nil {
			return nil, err
		}
		defer r.judge.cache.Close()
	}
	if opts.Mode == ModeCases {
		return r.cases(ctx)
	}

	files, err := r.selectFiles(ctx)
	if err != nil {
		return nil, err
	}
	r.rep.Scope.Files = files.checked
	r.rep.Seen.Pages = len(files.pages)

	// Pages are read, validated and graded a chunk at a time, so that only
	// one chunk's bytes are held at once (memory stays bounded). A stopped run reads no more pages: the
	// report holds what finished (README "Exit statuses"), and reading them all took seconds on a
	// large tree.
	for chunk := range slices.Chunk(files.pages, pageChunk) {
		if ctx.Err() != nil {
			break
		}
		if opts.Mode == ModeCheck {
			r.gradePages(ctx, chunk)
			continue
		}
		pages := r.loadPages(ctx, chunk)
		for _, ps := range pages {
			r.addPage(ps)
		}
		r.validateTargets(pages)
	}
	r.hasEvals = r.pageEvals
	r.checkFixtures(ctx, r.fx, r.inScope)
	if r.whole && !r.hasEvals && opts.Shard == nil && ctx.Err() == nil {
		// A shard may find nothing of its own; the set as a whole is what has evals or not.
		r.finish()
		if r.cfg.Path == "" {
			return r.rep, errNothingNoConfig
		}
		return r.rep, errNothing
	}
	if opts.Mode == ModeCheck {
		r.score()
		r.judgeNotices()
	}
	r.finishWith(bl)
	r.noVerdictNotice()
	if opts.WriteBaseline {
		if err := r.writeBaseline(); err != nil {
			return nil, err
		}
	}
	return r.rep, nil
}

// newRun starts a run: defaults applied, the flags' exclusions checked, the
// repository root found, notices recorded in the report.
func newRun(opts Options) (*run, error) {
	if opts.Jobs < 1 {
		opts.Jobs = runtime.NumCPU()
	}
	if opts.Notice == nil {
		opts.Notice = func(string) {}
	}
	if n := btoi(opts.All) + btoi(opts.Base != "") + btoi(len(opts.Paths) > 0); n > 1 {
		return nil, usagef("--all, --base and PATH arguments exclude each other")
	}
	switch sh := opts.Shard; {
	case sh != nil && opts.WriteBaseline:
		return nil, usagef("--shard %d/%d: evalgate baseline records the whole repository, in one run", sh.Index, sh.Count)
	case sh != nil && !opts.All:
		return nil, usagef("--shard %d/%d: a shard is a part of the whole repository: give --all (and no --base or PATH)", sh.Index, sh.Count)
	}
	r := &run{opts: opts, pages: grader.NewPageCache(), start: time.Now()}
	r.root, r.isRepo = FindRoot(opts.Dir)
	r.rep = &report.Report{
		Tool:     report.Tool{Name: "evalgate", Version: opts.Version},
		Scope:    report.Scope{Mode: report.ScopeAll},
		Category: opts.Category,
	}
	r.rep.Results.Decide(opts.FailOn)
	notice := opts.Notice
	var mu sync.Mutex
	r.opts.Notice = func(s string) {
		mu.Lock()
		defer mu.Unlock()
		r.rep.Notices = append(r.rep.Notices, s)
		notice(s)
	}
	return r, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pageChunk is how many pages are read and graded at a time.
const pageChunk = 512

// ErrConfigInvalid is returned with a report holding the config's faults:
// nothing was graded (README "Configuration").
var ErrConfigInvalid = errors.New("the config is invalid; nothing was checked")

// ErrJevInvalid is returned with a report holding the faults of the
// contract or a replay of ModeJev: nothing was evaluated (exit 2, as the
// jevcheck spec says).
var ErrJevInvalid = errors.New("the contract or a replay is invalid; nothing was evaluated")

// errNothing is returned with a report: scope all found nothing to evaluate.
var errNothing = errors.New("nothing to evaluate: no page with evals, no fixture and no contract (check pages.include in the config)")

// errNothingNoConfig is errNothing where there is no config: `evalgate init` writes one for the site.
var errNothingNoConfig = errors.New("nothing to evaluate: no page with evals, no fixture and no contract, and no config (evalgate init writes one for the site)")

// IsNothingToEvaluate reports whether err says that a run under scope all
// found nothing to evaluate; the report is still written (exit 2).
func IsNothingToEvaluate(err error) bool {
	return errors.Is(err, errNothing) || errors.Is(err, errNothingNoConfig)
}

// finish decides blocking, sorts and counts, and records the run's wall
// time.
func (r *run) finish() { r.rep.Finish(r.opts.FailOn, r.start, nil) }

// cases is `evalgate cases` (README "EvalCase v1 fixtures"): the fixtures evalcase.include selects plus
// the FIXTURE arguments, with the candidates files evalcase.candidates selects plus the --candidates files.
// With FIXTURE arguments, results are reported for them and the --candidates files only; a file given as
// both is a fixture.
func (r *run) cases(ctx context.Context) (*report.Report, error) {
	fx, err := r.selectFixtures(ctx)
	if err != nil {
		return nil, err
	}
	fx.jev = nil
	r.inScope = func(string) bool { return true }
	var given []string
	for _, a := range r.opts.Fixtures {
		rel, err := r.pathArg(a, "give JSONL files")
		if err != nil {
			return nil, err
		}
		fx.cases, given = append(fx.cases, rel), append(given, rel)
	}
	for _, a := range r.opts.Candidates {
		rel, err := r.pathArg(a, "give JSONL files")
		if err != nil {
			return nil, usagef("--candidates %v", err)
		}
		fx.candidates, given = append(fx.candidates, rel), append(given, rel)
	}
	if len(r.opts.Fixtures) > 0 {
		r.inScope = setOf(given)
		r.rep.Scope.Mode = report.ScopePaths
	}
	slices.Sort(fx.cases)
	fx.cases = slices.Compact(fx.cases)
	slices.Sort(fx.candidates)
	fx.candidates = slices.DeleteFunc(slices.Compact(fx.candidates), func(f string) bool {
		_, found := slices.BinarySearch(fx.cases, f)
		return found
	})
	if len(fx.cases) == 0 {
		name := r.cfg.Path
		if name == "" {
			name = "no config"
		}
		return nil, usagef("nothing to evaluate: no FIXTURE given and evalcase.include selects no fixture (%s)", name)
	}
	r.checkFixtures(ctx, fx, r.inScope)
	r.finish()
	return r.rep, nil
}

// jev is `evalgate jev` (README "jevcheck v0.1 contracts"): the contract and
// replays of Options.Jev, read where they are named (the user named each file,
// as to jevcheck; no config is read), evaluated as a config entry is. A file
// that cannot be read is a usage error, a floating model without an opt-in
// too; an invalid contract or replay is ErrJevInvalid with the faults.
func (r *run) jev(ctx context.Context) (*report.Report, error) {
	e := *r.opts.Jev
	var unreadable error
	read := func(name string, whole bool) ([]byte, error) {
		text, err := repofs.ReadFile(filepath.Join(r.opts.Dir, filepath.FromSlash(name)), jev.ReadLimit(whole))
		if err != nil && !errors.Is(err, repofs.ErrTooLarge) && unreadable == nil {
			unreadable = usagef("%s: %s", name, repofs.Reason(err))
		}
		return text, err
	}
	o := jev.Evaluate(ctx, e, read, true)
	if unreadable != nil {
		return nil, unreadable
	}
	if c := o.Contract; c != nil && c.Overridden() {
		r.opts.Notice(fmt.Sprintf("evalgate: --baseline-model %s overrides the contract's baseline_model %s",
			c.BaselineModel, c.ContractBaselineModel))
	}
	if len(o.Models) > 0 {
		msgs := make([]string, len(o.Models))
		for i, p := range o.Models {
			msgs[i] = "--" + p.Option + ": " + p.Message
		}
		return nil, usagef("%s", strings.Join(msgs, "; "))
	}
	files := []string{e.Contract, e.Answers}
	if e.From != "" {
		files = append(files, e.From)
	}
	slices.Sort(files)
	r.rep.Scope = report.Scope{Mode: report.ScopePaths, Files: slices.Compact(files)}
	r.rep.Seen.Contracts = 1
	r.rep.Results.Add(o.Faults...)
	if len(o.Faults) == 0 && o.Report != nil {
		r.rep.Results.Keep(r.opts.Keep)
		for res := range o.Report.Results() { // one at a time: the report's batches bound the memory
			r.rep.Results.Add(res)
		}
		r.rep.Jev = jevSummary(o.Report)
	}
	r.finish()
	if o.Invalid() {
		return r.rep, ErrJevInvalid
	}
	return r.rep, nil
}

// jevSummary flattens an evaluation into what its summary shows.
func jevSummary(j *jev.Report) *report.JevSummary {
	s := &report.JevSummary{
		Mode: j.Mode, Title: j.Title, Baseline: j.Baseline, Candidate: j.Candidate,
		Cases: len(j.Cases), Unchanged: j.Unchanged, Regressions: j.Regressions, Flips: j.Flips,
	}
	for _, c := range j.Cases {
		for _, f := range c.Fields {
			if f.Outcome != jev.Unchanged {
				s.Changes = append(s.Changes, report.JevChange{Case: c.ID, Field: f.Field, Detail: f.Detail, Label: f.Outcome.Label()})
			}
		}
	}
	return s
}
