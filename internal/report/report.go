// Package report holds the Report model and one pure writer per format. It
// imports only diag: the engine flattens everything into plain Results first.
package report

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
)

// Report is everything one run found (README "Results, outcomes and blocking").
type Report struct {
	Tool    Tool
	Scope   Scope
	Summary Summary
	Suites  []Suite
	Results []diag.Result
	// Notices are the run's notices (also written to stderr); writers that
	// have a place for them (the job summary, SARIF notifications) use them.
	Notices []string
	// Category is --category: SARIF's automationDetails.id is Category+"/".
	Category string
	// Duration is the run's wall time (JUnit's testsuites time); results
	// carry their own eval's duration.
	Duration time.Duration
	// Seen counts what the run looked at (README "On a terminal"). The JSON
	// report leaves it out: its format is fixed.
	Seen Seen
	// Baseline says a baseline of known failures was applied: SARIF then
	// gives every result its baselineState (README "Baseline").
	Baseline bool
	// Jev is the evaluation of `evalgate jev`, for its summary
	// ([WriteJevSummary]); nil in every other run.
	Jev *JevSummary
}

// JevSummary is what the summary of `evalgate jev` shows (README "jevcheck
// v0.1 contracts"); its strings are unescaped.
type JevSummary struct {
	Mode      string // "eval" or "compare"
	Title     string // the contract's name, else its file
	Baseline  string
	Candidate string
	// Cases counts the contract's cases; Unchanged, Regressions and Flips
	// count them by their worst field.
	Cases, Unchanged, Regressions, Flips int
	Changes                              []JevChange // in contract case order and expect key order
}

// JevChange is one field of a case whose outcome is not unchanged.
type JevChange struct {
	Case, Field, Detail string
	Label               string // "flip" or "regression"
}

// Breaking reports whether any case regressed or flipped.
func (s *JevSummary) Breaking() bool { return s.Regressions > 0 || s.Flips > 0 }

// Seen counts what a run looked at, found or not: the terminal form, the
// stderr line of a piped text report and the job summary show it.
type Seen struct {
	Pages          int // pages selected (PATH arguments, the change and the pages depending on it, or all)
	PagesWithEvals int // of those, the pages with an evals or eval-* key
	Evals          int // evals resolved on those pages, skipped ones included
	Fixtures       int // EvalCase fixtures in scope
	Contracts      int // jevcheck entries (contracts) in scope
	// JudgeCalls are the runs of ai evals asked of a judge, JudgeCached those the cache answered.
	JudgeCalls, JudgeCached int
}

// Partial reports whether the run saw only part of the repository (a
// changed-files run): code scanning must not read its silence as fixes.
func (r *Report) Partial() bool { return r.Scope.Mode == ScopeChanged }

// Tool names the program that wrote the report.
type Tool struct {
	Name    string
	Version string
}

// Scope modes.
const (
	ScopePaths   = "paths"
	ScopeAll     = "all"
	ScopeChanged = "changed"
)

// Scope says which files the run looked at.
type Scope struct {
	Mode  string   // ScopePaths, ScopeAll or ScopeChanged
	Base  string   // the resolved base commit of a changed-files run; "" otherwise
	Files []string // repository-relative paths checked, sorted
}

// Summary counts results by outcome; Score is nil for `validate`.
type Summary struct {
	Pass, Fail, Error, Skip, Pending int
	Blocking                         int
	Baselined                        int // fails the baseline accepts (README "Baseline")
	Score                            *float64
}

// Suite is one suite's weighted pass rate.
type Suite struct {
	Name    string
	Score   float64
	Target  float64
	Met     bool
	Partial bool // seen only in part (PATH arguments or a changed-files run): never blocks
}

// Finish readies a report for its writers, whatever command made it: every result's Blocking by the one
// gate (diag.Blocks at failOn), its evidence bounded (README "Evidence"), the results in report order,
// the counts, and the wall time since start.
func (r *Report) Finish(failOn diag.Severity, start time.Time) {
	r.Duration = time.Since(start)
	for i := range r.Results {
		res := &r.Results[i]
		res.Blocking = diag.Blocks(res, failOn)
		res.Evidence = diag.BoundEvidence(res.Evidence)
	}
	diag.Sort(r.Results)
	r.Count()
}

// shownSeverity is the severity a fail or error result is shown with in every format: an error outcome (no
// verdict) is an error whatever its severity; a fail has its own.
func shownSeverity(res *diag.Result) diag.Severity {
	if res.Outcome == diag.Error {
		return diag.SeverityError
	}
	return res.Severity
}

// Count fills r.Summary's counts from r.Results; Score is left as it is.
func (r *Report) Count() {
	s := Summary{Score: r.Summary.Score}
	for i := range r.Results {
		res := &r.Results[i]
		switch res.Outcome {
		case diag.Pass:
			s.Pass++
		case diag.Fail:
			s.Fail++
		case diag.Error:
			s.Error++
		case diag.Skip:
			s.Skip++
		case diag.Pending:
			s.Pending++
		}
		if res.Blocking {
			s.Blocking++
		}
		if res.Baselined {
			s.Baselined++
		}
	}
	r.Summary = s
}

// Format is an output format of the report.
type Format string

const (
	FormatText   Format = "text"
	FormatJSON   Format = "json"
	FormatGitHub Format = "github" // annotations, job summary and step outputs
)

// Formats lists the formats `--format` accepts, in help order.
var Formats = []Format{FormatText, FormatJSON, FormatGitHub}

// ParseFormat checks a `--format` value; matching is exact.
func ParseFormat(s string) (Format, error) {
	if slices.Contains(Formats, Format(s)) {
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown format %q (want text, json or github)", s)
}

// Write writes r to w in format f.
func Write(w io.Writer, f Format, r *Report) error {
	switch f {
	case FormatText:
		return WriteText(w, r)
	case FormatJSON:
		return WriteJSON(w, r)
	case FormatGitHub:
		return WriteGitHub(w, r, GitHubOptions{})
	}
	return fmt.Errorf("unknown format %q", f)
}
