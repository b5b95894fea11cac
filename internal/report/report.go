// Package report holds the Report model and one pure writer per format. It
// imports only diag: the engine flattens everything into plain Results first.
package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// Report is everything one run found (README "Results, outcomes and blocking").
type Report struct {
	Tool    Tool
	Scope   Scope
	Summary Summary
	Suites  []Suite
	// Results are in report order once the report is finished.
	Results Results
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
	// Unknown: the run did not look itself. A merge of shards reads their JSON reports, which do not
	// say what they saw: each shard's own job summary does.
	Unknown bool
}

// Partial reports whether the run saw only part of the repository (a
// changed-files run, or one of PATH arguments): code scanning must not read its silence as fixes.
func (r *Report) Partial() bool { return r.Scope.Mode == ScopeChanged || r.Scope.Mode == ScopePaths }

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
	Shard *Shard   // the part of a sharded run (README "Shards"); nil for a whole run
	// Config is the config file the run read; nil when there was none.
	Config *ConfigFile
}

// Shard is part Index (from 1) of Count.
type Shard struct{ Index, Count int }

// ConfigFile names a run's config file and the SHA-256 of its bytes.
type ConfigFile struct{ File, SHA256 string }

// Summary counts results by outcome; Score is nil for `validate`.
type Summary struct {
	Pass, Fail, Error, Skip, Pending int
	Blocking                         int
	Baselined                        int // fails the baseline accepts (README "Baseline")
	Score                            *float64
	// Weights are the sums Score divides: the weights of passed page evals and of graded ones. A
	// merge of shards adds them up.
	Weights Weights
}

// Weights are a score's parts: Pass over Total, 1 when Total is 0.
type Weights struct{ Pass, Total float64 }

// Add adds o's weights to w's: a page's to its run's and suites', a shard's to the whole's.
func (w *Weights) Add(o Weights) {
	w.Pass += o.Pass
	w.Total += o.Total
}

// Score is Pass over Total; 1 when nothing was graded.
func (w Weights) Score() float64 {
	if w.Total == 0 {
		return 1
	}
	return w.Pass / w.Total
}

// Suite is one suite's weighted pass rate.
type Suite struct {
	Name    string
	Score   float64
	Target  float64
	Met     bool
	Partial bool // seen only in part (PATH arguments, a changed-files run, a shard): never blocks
	Weights Weights
	Pos     diag.Pos // the suite's key in the config
}

// Finish readies a report for its writers, whatever command made it. In one pass over the results in
// report order it calls mark, when there is one, on each (the baseline of known failures marks the fails
// it accepts), decides its Blocking by the one gate (diag.Blocks at failOn) and counts it; results that
// Decide had decided as they were added, with no mark, are not read again. Every result's
// evidence is already bounded and its text valid UTF-8 (Results.Add); the notices' text is made so. The
// wall time is that since start.
func (r *Report) Finish(failOn diag.Severity, start time.Time, mark func(*diag.Result)) {
	r.Duration = time.Since(start)
	var s Summary
	if rs := &r.Results; mark == nil && rs.decided && rs.failOn == failOn {
		s = rs.tally // decided as they were added
	} else {
		r.Results.Update(func(res *diag.Result) {
			if mark != nil {
				mark(res)
			}
			res.Blocking = diag.Blocks(res, failOn)
			s.add(res)
		})
	}
	s.Score, s.Weights = r.Summary.Score, r.Summary.Weights
	r.Summary = s
	for i, n := range r.Notices {
		r.Notices[i] = validUTF8(n)
	}
}

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// validValue is a copy of v with valid strings.
func validValue(v any) any {
	switch x := v.(type) {
	case string:
		return validUTF8(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = validValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[validUTF8(k)] = validValue(e)
		}
		return out
	}
	return v
}

// shownSeverity is the severity a fail or error result is shown with in every format: an error outcome (no
// verdict) is an error whatever its severity; a fail has its own.
func shownSeverity(res *diag.Result) diag.Severity {
	if res.Outcome == diag.Error {
		return diag.SeverityError
	}
	return res.Severity
}

// level is one of the three levels a fail or error result is shown at by GitHub annotations and by SARIF;
// the constants are most severe first, the order annotations are written in.
type level int

const (
	levelError level = iota
	levelWarning
	levelNote
	levels // the number of levels
)

// resultLevel is the level of a fail or error result, by its shown severity: info is a note.
func resultLevel(res *diag.Result) level {
	switch shownSeverity(res) {
	case diag.SeverityWarning:
		return levelWarning
	case diag.SeverityInfo:
		return levelNote
	}
	return levelError
}

// Count fills r.Summary's counts from r.Results; Score is left as it is.
func (r *Report) Count() {
	s := Summary{Score: r.Summary.Score, Weights: r.Summary.Weights}
	for res := range r.Results.All() {
		s.add(res)
	}
	r.Summary = s
}

// add counts res.
func (s *Summary) add(res *diag.Result) {
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
