package jev

import (
	"fmt"
	"iter"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// Epsilon is added to every tolerance: a difference exceeds a tolerance only
// beyond tolerance + Epsilon, so that binary subtraction of decimal tenths
// (0.8 - 0.7 = 0.10000000000000009) does not false-fail (the jevcheck spec;
// README "jevcheck v0.1 contracts"). Floors compare strictly, without it.
const Epsilon = 1e-9

// exceeds reports whether delta is beyond an inclusive tolerance.
func exceeds(delta, tolerance float64) bool { return delta > tolerance+Epsilon }

// Level is a score's nearest integer level, rounded half to even as Python's
// round does (0.5→0, 1.5→2, 2.5→2, 3.5→4; README "jevcheck v0.1 contracts"). A score between -0.5 and 0
// is level 0, not -0: a level is an integer, as Python's round(-0.4) is 0.
func Level(score float64) float64 {
	if l := math.RoundToEven(score); l != 0 {
		return l
	}
	return 0
}

// Outcome is a field's or a case's outcome; a larger one is worse.
type Outcome uint8

const (
	Unchanged Outcome = iota
	Regression
	Flip
)

func (o Outcome) String() string {
	switch o {
	case Regression:
		return "confidence regression"
	case Flip:
		return "answer flip"
	}
	return "unchanged"
}

// code is the result code of an outcome.
func (o Outcome) code() string {
	switch o {
	case Regression:
		return "confidence_regression"
	case Flip:
		return "answer_flip"
	}
	return "ok"
}

// Label is the summary's tag of an outcome ("flip", "regression").
func (o Outcome) Label() string {
	switch o {
	case Regression:
		return "regression"
	case Flip:
		return "flip"
	}
	return "unchanged"
}

// FieldResult is the outcome of one expected field.
type FieldResult struct {
	Field   string
	Outcome Outcome
	// Detail says what changed, as the summary writes it ("billing→general",
	// "confidence 0.94→0.71 (tolerance 0.10)"); "unchanged" otherwise.
	Detail   string
	Evidence map[string]any
	keyPos   diag.Pos // the field's key in the contract's expect
}

// CaseResult is the outcome of one case: its worst field's.
type CaseResult struct {
	ID      string
	Outcome Outcome
	Fields  []FieldResult // in expect key order
}

// Report is what eval or compare found.
type Report struct {
	Mode      string // "eval" or "compare"
	Title     string // the contract's name, else its file
	Baseline  string // the pinned baseline; the resolved model(s) for an allowed alias in compare
	Candidate string // the candidate; the resolved model(s) for an allowed alias; "(replay)" without one
	Cases     []CaseResult
	// Counts per case (README "jevcheck v0.1 contracts").
	Unchanged, Regressions, Flips int

	contract *Contract
	// replays are the replay files' names: the candidate's, then the
	// baseline's for compare.
	replays []string
}

// Breaking reports whether any case regressed or flipped.
func (r *Report) Breaking() bool { return r.Regressions > 0 || r.Flips > 0 }

// Eval evaluates the candidate replay against the contract. Faults of the
// replay (a missing case, a response of another model) are returned as
// results; their cases are not evaluated. Callers check c.ModelProblems
// first.
func Eval(c *Contract, candidate *Replay) (*Report, []diag.Result) {
	return run(c, nil, candidate)
}

// Compare evaluates the candidate replay against the expectations the
// baseline replay's answers make (README "jevcheck v0.1 contracts"): each expected field keeps
// its resolved floors and tolerances and takes its answer key and
// baseline_confidence from the baseline answer. A missing baseline case or
// field, a baseline answer of the wrong type and a baseline response of
// another model than the pinned baseline are faults, not flips.
func Compare(c *Contract, baseline, candidate *Replay) (*Report, []diag.Result) {
	return run(c, baseline, candidate)
}

func run(c *Contract, baseline, candidate *Replay) (*Report, []diag.Result) {
	r := &Report{Mode: "eval", Title: c.Name, Baseline: c.BaselineModel, contract: c, replays: []string{candidate.File},
		Cases: make([]CaseResult, 0, len(c.Cases))}
	if r.Title == "" {
		r.Title = c.File
	}
	if baseline != nil {
		r.Mode = "compare"
		r.replays = append(r.replays, baseline.File)
	}
	cand := c.opts.CandidateModel
	var resolvedCand, resolvedBase []string
	var faults []diag.Result // the replays' faults
	thr := c.Defaults.NoulTrueThreshold
	var expects []Expect // the case's resolved expectations; reused
	for i := range c.Cases {
		kase := &c.Cases[i]
		expects = expects[:0]
		for _, f := range kase.Fields {
			expects = append(expects, f.Expect.resolve(c.Defaults))
		}
		ok := true
		if baseline != nil {
			model, derived := derive(c, kase, baseline, expects)
			ok = derived
			if model != "" {
				resolvedBase = appendUnique(resolvedBase, model)
			}
		}
		resp := candidate.Responses[kase.ID]
		switch {
		case resp == nil:
			faults = append(faults, responseFault(candidate, kase.ID, nil, diag.Pos{Line: 1}, "replay_missing_case",
				fmt.Sprintf("the replay has no answers for case %s", strconv.Quote(kase.ID))))
			continue
		case resp.Bad:
			continue
		}
		if cand != "" {
			if msg := identity(resp.Model, cand, "candidate", c.optIn()); msg != "" {
				faults = append(faults, responseFault(candidate, kase.ID, []string{"model"}, resp.modelPos, "model_mismatch", strconv.Quote(kase.ID)+": "+msg))
				continue
			}
			resolvedCand = appendUnique(resolvedCand, resp.Model)
		}
		if !ok {
			continue
		}
		cr := CaseResult{ID: kase.ID, Fields: make([]FieldResult, len(kase.Fields))}
		for j, f := range kase.Fields {
			a, has := resp.Answers.Get(f.Name)
			var ap *Answer
			if has {
				ap = &a
			}
			fr := evalField(f.Kind, expects[j], thr, ap)
			fr.Field, fr.keyPos = f.Name, f.keyPos
			cr.Fields[j] = fr
			cr.Outcome = max(cr.Outcome, fr.Outcome)
		}
		switch cr.Outcome {
		case Unchanged:
			r.Unchanged++
		case Regression:
			r.Regressions++
		case Flip:
			r.Flips++
		}
		r.Cases = append(r.Cases, cr)
	}
	switch {
	case cand == "":
		r.Candidate = "(replay)"
	case Floating(cand) && len(resolvedCand) > 0:
		r.Candidate = strings.Join(resolvedCand, ", ")
	default:
		r.Candidate = cand
	}
	if baseline != nil && Floating(c.BaselineModel) && len(resolvedBase) > 0 {
		r.Baseline = strings.Join(resolvedBase, ", ")
	}
	if baseline != nil {
		faults = append(faults, baseline.pending...)
		baseline.pending = nil
	}
	diag.Sort(faults)
	return r, faults
}

// responseFault is a fault of a replay's response for case id, found by eval
// or compare: at pos (the response's member at path, whose path is the
// fault's Key, as for LoadReplay's faults), or line 1 for a missing case
// (path nil).
func responseFault(r *Replay, id string, path []string, pos diag.Pos, code, msg string) diag.Result {
	f := replayFault(code, msg)
	f.File, f.Pos, f.CaseID = r.File, pos, id
	if path != nil {
		steps := make([]pth, len(path)+1)
		steps[0] = pth{key: id}
		for i, k := range path {
			steps[i+1] = steps[i].to(k)
		}
		f.Key = steps[len(path)].String()
	}
	return f
}

// derive turns the case's resolved expectations into the baseline's (in
// place) and returns the baseline response's model. ok is false when the
// baseline cannot give them; the faults, the baseline replay's, wait in
// baseline.pending for run.
func derive(c *Contract, kase *Case, baseline *Replay, expects []Expect) (model string, ok bool) {
	add := func(path []string, pos diag.Pos, code, msg string) {
		baseline.pending = append(baseline.pending, responseFault(baseline, kase.ID, path, pos, code, msg))
	}
	resp := baseline.Responses[kase.ID]
	switch {
	case resp == nil:
		add(nil, diag.Pos{Line: 1}, "replay_missing_case", fmt.Sprintf("the baseline replay has no answers for case %s", strconv.Quote(kase.ID)))
		return "", false
	case resp.Bad:
		return "", false
	}
	if msg := identity(resp.Model, c.BaselineModel, "baseline", c.optIn()); msg != "" {
		add([]string{"model"}, resp.modelPos, "model_mismatch", strconv.Quote(kase.ID)+": "+msg)
		return "", false
	}
	ok = true
	thr := c.Defaults.NoulTrueThreshold
	for j, f := range kase.Fields {
		a, has := resp.Answers.Get(f.Name)
		switch {
		case !has:
			add([]string{"answers"}, resp.answersPos, "replay_invalid",
				fmt.Sprintf("%s: the baseline replay has no answer for field %s", strconv.Quote(kase.ID), strconv.Quote(f.Name)))
			ok = false
			continue
		case a.Kind != f.Kind:
			add([]string{"answers", f.Name}, a.pos, "replay_invalid",
				fmt.Sprintf("%s: the baseline answer for %s is %s answer; the question is %s", strconv.Quote(kase.ID), strconv.Quote(f.Name), article(a.Kind), f.Kind))
			ok = false
			continue
		}
		e := &expects[j]
		switch f.Kind {
		case KindChoice:
			e.Choice, e.HasChoice = a.Choice, true
		case KindNoul:
			e.Noul = some(a.Noul)
			e.NoulTrue, e.HasNoulTrue = a.Noul >= thr, true
		case KindScore:
			e.Score = some(a.Score)
		}
		e.BaselineConfidence = some(a.Scalar())
	}
	return resp.Model, ok
}

// identity checks a response's model against the requested one (README
// "jevcheck v0.1 contracts"): a concrete pin must be matched exactly, without trimming; an allowed
// floating alias accepts any model that is not itself a floating alias (the
// replay names the resolved model). It returns "" when the model matches.
func identity(model, want, role string, optIn bool) string {
	switch {
	case !Floating(want):
		if model != want {
			return fmt.Sprintf("response model %s is not the pinned %s %s", strconv.Quote(model), role, strconv.Quote(want))
		}
	case !optIn:
		return fmt.Sprintf("the %s %s is a floating alias, and nothing opts in to it", role, strconv.Quote(want))
	case Floating(model):
		return fmt.Sprintf("response model %s is itself a floating alias: the replay must name the model %s resolved to", strconv.Quote(model), strconv.Quote(want))
	}
	return ""
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// evalField evaluates one field (the spec's "Outcomes"; README "jevcheck v0.1 contracts"): a
// missing answer or one of another type is a flip; then the kind's answer
// check; then the confidence checks on the answer's scalar. e is resolved.
func evalField(kind Kind, e Expect, thr float64, a *Answer) FieldResult {
	switch {
	case a == nil:
		return FieldResult{Outcome: Flip, Detail: "missing answer", Evidence: map[string]any{"expected": kind.String(), "actual": nil}}
	case a.Kind != kind:
		return FieldResult{Outcome: Flip, Detail: kind.String() + "→" + a.Kind.String(),
			Evidence: map[string]any{"expected": kind.String(), "actual": a.Kind.String()}}
	}
	switch kind {
	case KindChoice:
		if e.HasChoice && a.Choice != e.Choice {
			return FieldResult{Outcome: Flip, Detail: e.Choice + "→" + a.Choice,
				Evidence: map[string]any{"expected": e.Choice, "actual": a.Choice}}
		}
	case KindNoul:
		// Polarity: noul >= threshold is yes.
		expYes, known := e.NoulTrue, e.HasNoulTrue
		if !known && e.Noul.Set {
			expYes, known = e.Noul.V >= thr, true
		}
		yes := a.Noul >= thr
		if known && yes != expYes {
			return FieldResult{Outcome: Flip, Detail: fmt.Sprintf("%s→%s (%s)", yesNo(expYes), yesNo(yes), fmt2(a.Noul)),
				Evidence: map[string]any{"expected": yesNo(expYes), "actual": yesNo(yes), "noul": a.Noul, "noul_true_threshold": thr}}
		}
		if e.Noul.Set && e.NoulTolerance.Set && exceeds(math.Abs(a.Noul-e.Noul.V), e.NoulTolerance.V) {
			return FieldResult{Outcome: Regression, Detail: fmt.Sprintf("noul %s→%s (tolerance %s)", fmt2(e.Noul.V), fmt2(a.Noul), fmt2(e.NoulTolerance.V)),
				Evidence: map[string]any{"expected": e.Noul.V, "actual": a.Noul, "noul_tolerance": e.NoulTolerance.V}}
		}
		if e.MinNoul.Set && a.Noul < e.MinNoul.V {
			return FieldResult{Outcome: Regression, Detail: fmt.Sprintf("noul %s < %s", fmt2(a.Noul), fmt2(e.MinNoul.V)),
				Evidence: map[string]any{"actual": a.Noul, "min_noul": e.MinNoul.V}}
		}
	case KindScore:
		// score_tolerance suppresses a level flip within it; it is not a
		// maximum distance: the same level never flips.
		if e.Score.Set {
			within := e.ScoreTolerance.Set && !exceeds(math.Abs(a.Score-e.Score.V), e.ScoreTolerance.V)
			if lx, la := Level(e.Score.V), Level(a.Score); !within && lx != la {
				ev := map[string]any{"expected": e.Score.V, "actual": a.Score, "expected_level": lx, "actual_level": la}
				if e.ScoreTolerance.Set {
					ev["score_tolerance"] = e.ScoreTolerance.V
				}
				return FieldResult{Outcome: Flip, Detail: fmt.Sprintf("level %s→%s (%s)", fmtNum(lx), fmtNum(la), fmt2(a.Score)), Evidence: ev}
			}
		}
	}
	return confidence(e, a.Scalar())
}

// confidence checks the scalar against min_confidence (strictly: equal
// passes) and the drop from baseline_confidence against
// confidence_tolerance (inclusive, with Epsilon). A higher scalar is never a
// regression.
func confidence(e Expect, scalar float64) FieldResult {
	dropped := e.BaselineConfidence.Set && e.ConfidenceTolerance.Set &&
		exceeds(e.BaselineConfidence.V-scalar, e.ConfidenceTolerance.V)
	below := e.MinConfidence.Set && scalar < e.MinConfidence.V
	if !dropped && !below {
		return FieldResult{Outcome: Unchanged, Detail: "unchanged"}
	}
	ev := map[string]any{"actual": scalar}
	if e.BaselineConfidence.Set {
		ev["baseline_confidence"] = e.BaselineConfidence.V
	}
	if e.ConfidenceTolerance.Set {
		ev["confidence_tolerance"] = e.ConfidenceTolerance.V
	}
	if e.MinConfidence.Set {
		ev["min_confidence"] = e.MinConfidence.V
	}
	if dropped {
		return FieldResult{Outcome: Regression, Evidence: ev,
			Detail: fmt.Sprintf("confidence %s→%s (tolerance %s)", fmt2(e.BaselineConfidence.V), fmt2(scalar), fmt2(e.ConfidenceTolerance.V))}
	}
	return FieldResult{Outcome: Regression, Evidence: ev, Detail: fmt.Sprintf("confidence %s < %s", fmt2(scalar), fmt2(e.MinConfidence.V))}
}

// fmt2 writes a number of a detail with two decimals (0.94→0.71), as the
// jevcheck contract's summary does, even where rounding hides why the field
// failed (0.799999 against a floor of 0.8 reads "0.80 < 0.80"): the result's
// evidence keeps the exact numbers.
func fmt2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Results yields the report's results in order, one per case × expected field, at the
// field's key in the contract's expect (README "Results, outcomes and blocking"): pass (ok) when
// unchanged, else fail with severity error (answer_flip,
// confidence_regression). Check is the field, CaseID the case. The evidence
// names the replay (and the baseline replay), and so does Key: one contract
// may be checked against several replays, and their findings differ.
//
// A field with no evidence of its own (an unchanged one) shares one map naming the replays with every
// other such field, and the results of one field name share their key: nobody changes a result's
// evidence once it is made, and a 50,000-case report then makes 50,000 fewer maps.
func (r *Report) Results() iter.Seq[diag.Result] {
	return func(yield func(diag.Result) bool) {
		replays := func(ev map[string]any) map[string]any {
			ev["replay"] = r.replays[0]
			if len(r.replays) > 1 {
				ev["baseline_replay"] = r.replays[1]
			}
			return ev
		}
		shared := replays(make(map[string]any, 2))
		suffix := " " + strings.Join(r.replays, " ")
		keys := map[string]string{}
		for _, c := range r.Cases {
			for _, f := range c.Fields {
				ev := shared
				if len(f.Evidence) > 0 {
					ev = make(map[string]any, len(f.Evidence)+2)
					maps.Copy(ev, f.Evidence)
					replays(ev)
				}
				key, ok := keys[f.Field]
				if !ok {
					key = f.Field + suffix
					keys[f.Field] = key
				}
				res := diag.Result{Source: diag.SourceJev, File: r.contract.File, Pos: f.keyPos, Check: f.Field,
					CaseID: c.ID, Severity: diag.SeverityError, Code: f.Outcome.code(), Message: f.Detail,
					Evidence: ev, Key: key}
				res.Outcome = diag.Pass
				if f.Outcome != Unchanged {
					res.Outcome = diag.Fail
				}
				if !yield(res) {
					return
				}
			}
		}
	}
}
