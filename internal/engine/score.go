package engine

import (
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
)

// verdict is an eval's outcome for scores and suites (README "Results, outcomes and blocking"): fail
// if any of its results failed, else error if any errored, else its single
// outcome. Notes never enter it.
func verdict(results []diag.Result) diag.Outcome {
	v := diag.Outcome("")
	for _, res := range results {
		if res.Verdictless {
			continue
		}
		switch {
		case res.Outcome == diag.Fail:
			return diag.Fail
		case res.Outcome == diag.Error:
			v = diag.Error
		case v == "":
			v = res.Outcome
		}
	}
	return v
}

// scores are the running tallies of the run's graded evals: the weights of those that passed and of
// all graded (passed, failed or errored), the whole run's and each suite's, and how many evals reached a
// verdict. A page's evals are summed on the page first (pageState.verdicts), then added to the run's and
// to each of its suites', pages in path order (gradePages): keeping every eval's verdict to the end held a
// kilobyte an eval (4.6 GB for 3.2 million), and adding each eval to each of its page's suites took
// evals × suites (1,000 suites on 1,000 pages: 53 s).
type scores struct {
	total   report.Weights
	suites  map[string]*report.Weights
	reached int
}

// evalVerdict is what the scores need of one graded eval.
type evalVerdict struct {
	outcome diag.Outcome
	weight  float64
}

// pageVerdicts tallies one page's graded evals.
type pageVerdicts struct {
	report.Weights
	reached int
}

// add counts one eval's verdict; a skipped or pending eval weighs nothing.
func (p *pageVerdicts) add(v diag.Outcome, weight float64) {
	switch v {
	case diag.Pass:
		p.Pass += weight
	case diag.Fail, diag.Error:
	default:
		return
	}
	p.Total += weight
	p.reached++
}

// addPage adds a page's tallies to the run's and to each of its suites'.
func (s *scores) addPage(p pageVerdicts, suites []string) {
	s.reached += p.reached
	s.total.Add(p.Weights)
	for _, name := range suites {
		if s.suites == nil {
			s.suites = map[string]*report.Weights{}
		}
		t := s.suites[name]
		if t == nil {
			t = &report.Weights{}
			s.suites[name] = t
		}
		t.Add(p.Weights)
	}
}

// noVerdictNotice says that nothing was verified when the run's evals were all skipped or pending and
// the run passes: a run that fails (a definition fault beside a pending eval) has its reason already.
func (r *run) noVerdictNotice() {
	if r.noVerdict && r.rep.Summary.Blocking == 0 {
		r.opts.Notice("evalgate: evals exist, but none reached a verdict (skipped or pending)")
	}
}

// score computes the run's score and the scores of the suites the run's
// pages reached, and adds a suite_below_target result for each suite seen
// whole below its target.
func (r *run) score() {
	total, suites, reached := r.scores.total, r.scores.suites, r.scores.reached
	s := total.Score()
	r.rep.Summary.Score = &s
	r.rep.Summary.Weights = total
	// Evals that were resolved yet all skipped or pending verify nothing, which a run that exits 0
	// must say (noVerdictNotice, once the run's blocking results are known). Evals whose every
	// definition is invalid are not among them: their faults fail the run already.
	r.noVerdict = reached == 0 && r.rep.Seen.Evals > 0

	cat := r.cfg.Catalog
	if cat == nil {
		return
	}
	// A suite is reported only when some page of the run reached it (README
	// "Results, outcomes and blocking"): a changed-files run does not list
	// every suite of the config, and a suite on no page scores nothing.
	names := make([]string, 0, len(r.reached))
	for name := range cat.Suites {
		if r.reached[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		su := cat.Suites[name]
		var w report.Weights
		if t := suites[name]; t != nil {
			w = *t
		}
		sc := w.Score()
		met := sc >= su.TargetPassRate
		r.rep.Suites = append(r.rep.Suites, report.Suite{
			Name: name, Score: sc, Target: su.TargetPassRate, Met: met, Partial: !r.whole,
			Weights: w, Pos: su.Pos,
		})
		if r.whole && !met {
			r.rep.Results.Add(suiteBelowTarget(r.cfg.Path, su.Pos, name, sc, su.TargetPassRate))
		}
	}
}

// suiteBelowTarget is the result of a suite seen whole below its target (README "Results, outcomes
// and blocking"), at the suite's key in the config.
func suiteBelowTarget(file string, pos diag.Pos, name string, score, target float64) diag.Result {
	return diag.Result{
		Source: diag.SourceConfig, File: file, Pos: pos, Check: "suite:" + name,
		Outcome: diag.Fail, Severity: diag.SeverityError, Code: "suite_below_target",
		Message:  fmt.Sprintf("suite %s scores %s, below its target-pass-rate %s", name, report.FormatScore(score), report.FormatScore(target)),
		Evidence: map[string]any{"score": score, "target": target},
	}
}
