package judge

import "github.com/evalgate/evalgate/internal/diag"

// Run is one run of a judge: its verdict, or the reason it has none (an invalid reply, a failed
// request).
type Run struct {
	Verdict *Verdict
	Err     error
}

// Outcome is what the runs of one ai eval decide.
type Outcome struct {
	Outcome diag.Outcome
	Code    string
	Message string
	// Passes and Fails count the valid runs' votes (partial is a fail); Agreement is the majority's share
	// of all runs, invalid and failed ones included.
	Passes, Fails int
	Agreement     float64
}

// MaxMessage bounds, in code points, the text of a model that a message quotes.
const MaxMessage = 1000

// Consensus decides an ai eval from its runs (README "The AI judge"): agreement is the majority
// verdict's runs over all runs. No valid run is error judge_failed; agreement at or above the
// threshold is pass judge_pass or fail judge_fail (the first failing run's reasoning as the message);
// below it, pending judge_split when valid runs disagree, judge_incomplete when they agree but some
// runs failed.
func Consensus(runs []Run, agreement float64) Outcome {
	var o Outcome
	var firstFail, firstErr string
	for _, r := range runs {
		switch {
		case r.Verdict == nil:
			if firstErr == "" && r.Err != nil {
				firstErr = r.Err.Error()
			}
		case r.Verdict.Passed():
			o.Passes++
		default:
			o.Fails++
			if firstFail == "" {
				firstFail = r.Verdict.Reasoning
			}
		}
	}
	if o.Passes+o.Fails == 0 {
		o.Outcome, o.Code, o.Message = diag.Error, "judge_failed", "no run of the judge gave a valid verdict"
		if firstErr != "" {
			o.Message += ": " + firstErr
		}
		return o
	}
	majority, verdict := o.Passes, Pass
	if o.Fails > o.Passes {
		majority, verdict = o.Fails, Fail
	}
	o.Agreement = float64(majority) / float64(len(runs))
	split := o.Passes > 0 && o.Fails > 0
	switch {
	case o.Passes == o.Fails:
		o.Outcome, o.Code = diag.Pending, "judge_split"
	case o.Agreement+1e-9 >= agreement && verdict == Pass:
		o.Outcome, o.Code, o.Message = diag.Pass, "judge_pass", "the judge finds the assertion holds"
		return o
	case o.Agreement+1e-9 >= agreement:
		// At most MaxMessage code points: a model's reasoning of 3 MB made every report three times that.
		o.Outcome, o.Code, o.Message = diag.Fail, "judge_fail", diag.ClipRunes(firstFail, MaxMessage)
		if o.Message == "" {
			o.Message = "the judge finds the assertion does not hold"
		}
		return o
	case split:
		o.Outcome, o.Code = diag.Pending, "judge_split"
	default:
		o.Outcome, o.Code = diag.Pending, "judge_incomplete"
	}
	if o.Code == "judge_split" {
		o.Message = "the judge's runs disagree"
	} else {
		o.Message = "too few runs of the judge gave a verdict"
	}
	return o
}
