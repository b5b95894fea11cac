package jev

import (
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// Kind is a question's (and an answer's) type.
type Kind uint8

const (
	KindNone Kind = iota
	KindNoul
	KindChoice
	KindScore
)

func (k Kind) String() string {
	switch k {
	case KindNoul:
		return "noul"
	case KindChoice:
		return "choice"
	case KindScore:
		return "score"
	}
	return "none"
}

func parseKind(s string) Kind {
	switch s {
	case "noul":
		return KindNoul
	case "choice":
		return KindChoice
	case "score":
		return KindScore
	}
	return KindNone
}

// Num is an optional number.
type Num struct {
	V   float64
	Set bool
}

func some(v float64) Num { return Num{V: v, Set: true} }

// or is n when set, else d.
func (n Num) or(d Num) Num {
	if n.Set {
		return n
	}
	return d
}

// Expect is one field's expectation (the spec's "Field expectations").
type Expect struct {
	Choice              string
	HasChoice           bool
	NoulTrue            bool
	HasNoulTrue         bool
	Noul                Num
	MinNoul             Num
	NoulTolerance       Num
	Score               Num
	ScoreTolerance      Num
	MinConfidence       Num
	BaselineConfidence  Num
	ConfidenceTolerance Num
}

// Defaults are the contract's defaults, with the implicit ones filled in
// (README "jevcheck v0.1 contracts": score_tolerance 0.5 and noul_true_threshold 0.5 even
// without a defaults object).
type Defaults struct {
	MinConfidence       Num
	ConfidenceTolerance Num
	NoulTolerance       Num
	ScoreTolerance      Num
	NoulTrueThreshold   float64
}

// Implicit defaults (README "jevcheck v0.1 contracts").
const (
	DefaultScoreTolerance    = 0.5
	DefaultNoulTrueThreshold = 0.5
)

// resolve merges defaults into e: a field's own min_confidence,
// confidence_tolerance, noul_tolerance and score_tolerance win over the
// defaults' (the spec: "applied when a case field omits the same key").
func (e Expect) resolve(d Defaults) Expect {
	e.MinConfidence = e.MinConfidence.or(d.MinConfidence)
	e.ConfidenceTolerance = e.ConfidenceTolerance.or(d.ConfidenceTolerance)
	e.NoulTolerance = e.NoulTolerance.or(d.NoulTolerance)
	e.ScoreTolerance = e.ScoreTolerance.or(d.ScoreTolerance)
	return e
}

// hasKindConstraint reports whether e states an answer constraint of its own
// kind: choice; noul, noul_true or min_noul; score.
func (e Expect) hasKindConstraint() bool {
	return e.HasChoice || e.HasNoulTrue || e.Noul.Set || e.MinNoul.Set || e.Score.Set
}

// Field is one entry of a case's expect.
type Field struct {
	Name   string
	Kind   Kind // the question's type
	Expect Expect
	keyPos diag.Pos // the field's key in expect, in the contract's file
}

// Case is one fixture of a contract.
type Case struct {
	ID     string
	Fields []Field // expect, in the order of its keys
}

// Options are a run's settings beside the contract: the flags of `evalgate
// jev` or the keys of a config `jev:` entry.
type Options struct {
	// CandidateModel is the pinned candidate; "" accepts any response model
	// (the summary then reads "(replay)").
	CandidateModel string
	// BaselineModel overrides the contract's baseline_model.
	BaselineModel string
	// AllowUnpinned opts in to floating aliases, as the contract's
	// allow_unpinned does: either covers both models (README "jevcheck v0.1 contracts").
	AllowUnpinned bool
}

// Floating reports whether a model name is a floating alias: it contains
// "latest" or "preview", in any case (the spec: jev-latest, jev-preview, or
// any name containing latest/preview; README "jevcheck v0.1 contracts": case-insensitive).
func Floating(model string) bool {
	m := strings.ToLower(model)
	return strings.Contains(m, "latest") || strings.Contains(m, "preview")
}

// blank reports whether s holds nothing but white space.
func blank(s string) bool { return strings.TrimSpace(s) == "" }
