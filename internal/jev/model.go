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
	Choice             string
	HasChoice          bool
	NoulTrue           bool
	HasNoulTrue        bool
	Noul               Num
	MinNoul            Num
	Score              Num
	BaselineConfidence Num
	Tolerances
}

// Tolerances are the keys a field's expectation shares with the contract's defaults: a field's own
// key wins, and the default applies where the field omits it (the spec: "applied when a case field
// omits the same key").
type Tolerances struct {
	MinConfidence       Num
	ConfidenceTolerance Num
	NoulTolerance       Num
	ScoreTolerance      Num
}

// set sets the tolerance key names to n, and reports whether key is one.
func (t *Tolerances) set(key string, n float64) bool {
	switch key {
	case "min_confidence":
		t.MinConfidence = some(n)
	case "confidence_tolerance":
		t.ConfidenceTolerance = some(n)
	case "noul_tolerance":
		t.NoulTolerance = some(n)
	case "score_tolerance":
		t.ScoreTolerance = some(n)
	default:
		return false
	}
	return true
}

// or is t with each key it omits taken from d.
func (t Tolerances) or(d Tolerances) Tolerances {
	return Tolerances{
		MinConfidence:       t.MinConfidence.or(d.MinConfidence),
		ConfidenceTolerance: t.ConfidenceTolerance.or(d.ConfidenceTolerance),
		NoulTolerance:       t.NoulTolerance.or(d.NoulTolerance),
		ScoreTolerance:      t.ScoreTolerance.or(d.ScoreTolerance),
	}
}

// Defaults are the contract's defaults, with the implicit ones filled in
// (README "jevcheck v0.1 contracts": score_tolerance 0.5 and noul_true_threshold 0.5 even
// without a defaults object).
type Defaults struct {
	Tolerances
	NoulTrueThreshold float64
}

// Implicit defaults (README "jevcheck v0.1 contracts").
const (
	DefaultScoreTolerance    = 0.5
	DefaultNoulTrueThreshold = 0.5
)

// resolve merges defaults into e: the field's own tolerances win over the defaults'.
func (e Expect) resolve(d Defaults) Expect {
	e.Tolerances = e.Tolerances.or(d.Tolerances)
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
