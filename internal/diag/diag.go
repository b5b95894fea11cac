// Package diag is the leaf vocabulary every other package speaks: positions,
// severities, outcomes and the Result, one finding of a run (README "Results, outcomes and blocking").
// It imports nothing of evalgate's own.
package diag

import (
	"fmt"
	"slices"
	"strings"
)

// Pos is a position in a file. Line and Col are 1-based; Col counts Unicode
// code points (README "Results, outcomes and blocking"). The zero value means "unknown": Line 0 is no
// line at all, Col 0 a known line without a column.
type Pos struct {
	Line int
	Col  int
}

// Known reports whether p names a line.
func (p Pos) Known() bool { return p.Line > 0 }

// Shift moves p down by lines; it keeps an unknown position unknown.
func (p Pos) Shift(lines int) Pos {
	if !p.Known() {
		return p
	}
	p.Line += lines
	return p
}

// Before orders positions: unknown first, then by line and column.
func (p Pos) Before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return "-"
	case p.Col == 0:
		return fmt.Sprintf("%d", p.Line)
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Severity is how much a failed check matters. The zero value is SeverityError,
// the default of every spec evalgate implements.
type Severity int

const (
	SeverityError Severity = iota
	SeverityWarning
	SeverityInfo
)

// Severities lists the severities from the most to the least severe.
var Severities = []Severity{SeverityError, SeverityWarning, SeverityInfo}

// severityNames are the severities' names, which String writes and
// ParseSeverity reads.
var severityNames = [...]string{SeverityError: "error", SeverityWarning: "warning", SeverityInfo: "info"}

func (s Severity) String() string { return enumName(severityNames[:], int(s), "severity") }

// AtLeast reports whether s is at least as severe as t.
func (s Severity) AtLeast(t Severity) bool { return s <= t }

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, bool) {
	if i := slices.Index(severityNames[:], s); i >= 0 {
		return Severity(i), true
	}
	return 0, false
}

// enumName is names[i], the name of the value i of an enumeration, or
// "kind(i)" for a value without one.
func enumName(names []string, i int, kind string) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("%s(%d)", kind, i)
	}
	return names[i]
}

// Outcome is what a result says about its check (README "Results, outcomes and blocking").
type Outcome string

const (
	Pass    Outcome = "pass"    // the check ran and holds
	Fail    Outcome = "fail"    // the check ran and does not hold, or a definition is invalid
	Error   Outcome = "error"   // the grader reached no verdict
	Skip    Outcome = "skip"    // skipped by the page, the entry or policy
	Pending Outcome = "pending" // waits for a human, a judge or command generation
)

// Outcomes lists every outcome in report order.
var Outcomes = []Outcome{Pass, Fail, Error, Skip, Pending}

// Source says which kind of input a result is about. Its order is the report
// order (README "Results, outcomes and blocking": config, page, evalcase, jev).
type Source int

const (
	SourceConfig Source = iota
	SourcePage
	SourceEvalCase
	SourceJev
)

// sourceNames are the sources' names, as reports write them.
var sourceNames = [...]string{SourceConfig: "config", SourcePage: "page", SourceEvalCase: "evalcase", SourceJev: "jev"}

func (s Source) String() string { return enumName(sourceNames[:], int(s), "source") }

// Eval type values of docmeta (`type:`). Capability evals never block on fail.
const (
	TypeRegression = "regression"
	TypeCapability = "capability"
)

// CheckDefinition is the check of every definition fault.
const CheckDefinition = "definition"

// EvidenceCompanions is the evidence of a page's result that reached no verdict (an error, a skip, a
// pending eval, the page's eval-skip) naming, as a list, the companions (`target: {source: file}`) its
// evals were to grade: their fails stand in those files, and the run cannot tell of them (README
// "Baseline").
const EvidenceCompanions = "companions"

// Result is one finding (README "Results, outcomes and blocking"). The engine fills Blocking; every
// other field is set by whoever produces the result.
type Result struct {
	Source Source
	File   string // repository-relative, with '/'
	Pos    Pos
	Check  string // eval id, assertion name, question field, "definition", ...
	CaseID string // EvalCase or jev case id; "" when there is none
	// Grader is the eval's grader ("command", "tool:links", ...); "" when the
	// result is not about a graded eval.
	Grader   string
	Type     string // TypeRegression or TypeCapability; "" when not an eval
	Outcome  Outcome
	Severity Severity
	Blocking bool
	Code     string
	Message  string
	// Weight is the eval's weight; 0 when the result is not about a page eval.
	Weight     float64
	DurationMS int64
	// Evidence holds the smallest facts that explain the result. Values are
	// JSON-encodable: strings, numbers, bools, nil, []any, map[string]any.
	// Nothing changes it once the result is made, so results may share one
	// map (jev's unchanged fields do, and so do results read back alike).
	Evidence map[string]any
	// Key is the finding's own identity inside its check (a link target, a
	// token, a field): it feeds SARIF fingerprints, never the line.
	Key string
	// Verdictless marks notes that never enter an eval's verdict
	// (stale_generated_command, shorthand_names_eval, unreviewed_provenance).
	Verdictless bool
	// Assertion is the eval's assertion, when it has one: SARIF describes
	// an eval/* rule with it.
	Assertion string
	// Baselined marks a fail the baseline of known failures accepts
	// (README "Baseline"): it never blocks.
	Baselined bool
}

// Location renders file:line:col, file:line or file, as the text report does.
func (r *Result) Location() string {
	var b strings.Builder
	b.WriteString(r.File)
	if r.Pos.Line > 0 {
		fmt.Fprintf(&b, ":%d", r.Pos.Line)
		if r.Pos.Col > 0 {
			fmt.Fprintf(&b, ":%d", r.Pos.Col)
		}
	}
	return b.String()
}

// Problem is a positioned fault found while reading or validating text, before
// the caller turns it into a Result with its file, check and source.
type Problem struct {
	Pos     Pos
	Code    string // a code of the registry, for example "syntax_error"
	Message string // one line
}

// FailOnNone is the --fail-on level under which nothing blocks.
const FailOnNone = Severity(-1)

// Blocks is the one gate of README "Results, outcomes and blocking": every error blocks; a fail blocks at
// failOn or above, except a capability eval's verdict and an EvalCase report assertion (severity warning),
// which never do; under FailOnNone nothing blocks.
func Blocks(res *Result, failOn Severity) bool {
	if failOn == FailOnNone {
		return false
	}
	switch res.Outcome {
	case Error:
		return true
	case Fail:
		if res.Baselined {
			return false
		}
		if res.Type == TypeCapability && !res.Verdictless {
			return false
		}
		if res.Source == SourceEvalCase && res.Severity == SeverityWarning && res.Check != CheckDefinition {
			return false // EvalCase `report` assertions never block
		}
		return res.Severity.AtLeast(failOn)
	}
	return false
}
