package engine

import (
	"context"
	"fmt"
	"path"
	"runtime/debug"
	"slices"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/evalcase"
	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/report"
)

// fixtures is what the EvalCase and jevcheck checks of a run see.
type fixtures struct {
	cases      []string // every fixture evalcase.include selects
	candidates []string // every candidates file evalcase.candidates selects
	jev        []jev.Entry
}

// selectFixtures lists the selected EvalCase fixtures and candidates files
// (every one of them is indexed, whatever the scope: README "Decisions where the specs are silent") and the
// config's jev entries, with repository-relative paths.
func (r *run) selectFixtures(ctx context.Context) (*fixtures, error) {
	fx := &fixtures{}
	ec := r.cfg.EvalCase
	if len(ec.Include) > 0 || len(ec.Candidates) > 0 {
		files, err := r.listFiles(ctx)
		if err != nil {
			return nil, err
		}
		casesM := &matcher{prefix: r.cfgPrefix(), include: ec.Include}
		candM := &matcher{prefix: r.cfgPrefix(), include: ec.Candidates}
		for _, f := range files {
			switch {
			case casesM.Match(f):
				fx.cases = append(fx.cases, f)
			case candM.Match(f):
				fx.candidates = append(fx.candidates, f)
			}
		}
	}
	for _, e := range r.cfg.Jev {
		fx.jev = append(fx.jev, jev.Entry{
			Contract: r.cfgRel(e.Contract), Answers: r.cfgRel(e.Answers), From: r.cfgRel(e.From),
			CandidateModel: e.CandidateModel, BaselineModel: e.BaselineModel,
			AllowUnpinned: e.AllowUnpinned, Pos: e.Pos,
			ConfigFile: r.cfg.Path, Notice: r.opts.Notice,
		})
	}
	return fx, nil
}

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

// cfgRel turns a path relative to the config's directory into a
// repository-relative one ("" stays "").
func (r *run) cfgRel(p string) string {
	if p == "" {
		return ""
	}
	return path.Join(r.cfgPrefix(), p)
}

// owns reports whether a file is one of the fixtures' inputs.
func (fx *fixtures) owns(file string) bool {
	if slices.Contains(fx.cases, file) || slices.Contains(fx.candidates, file) {
		return true
	}
	for _, e := range fx.jev {
		if file == e.Contract || file == e.Answers || file == e.From {
			return true
		}
	}
	return false
}

// checkFixtures runs the EvalCase and jevcheck checks for the files in
// scope; validate reads no candidates or replays.
func (r *run) checkFixtures(ctx context.Context, fx *fixtures, inScope func(string) bool) {
	readAnswers := r.opts.Mode != ModeValidate
	var checked []string
	if len(fx.cases) > 0 {
		for _, f := range append(slices.Clone(fx.cases), fx.candidates...) {
			if inScope(f) {
				checked = append(checked, f)
			}
		}
		for _, f := range fx.cases {
			if inScope(f) {
				r.rep.Seen.Fixtures++
			}
		}
		results, err := evalcase.Check(ctx, evalcase.Request{
			Root: r.root, Fixtures: fx.cases, Candidates: fx.candidates, InScope: inScope,
			ReadCandidates: readAnswers, CandidatesConfigured: len(r.cfg.EvalCase.Candidates) > 0 || len(r.opts.Candidates) > 0,
		})
		if err != nil {
			r.rep.Results = append(r.rep.Results, diag.Result{
				Source: diag.SourceEvalCase, Check: diag.CheckDefinition, Outcome: diag.Error,
				Code: "internal_error", Message: "EvalCase check failed: " + err.Error(),
			})
		}
		r.rep.Results = append(r.rep.Results, results...)
	}
	for _, e := range fx.jev {
		if !inScope(e.Contract) && !inScope(e.Answers) && !inScope(e.From) {
			continue
		}
		checked = append(checked, e.Contract)
		r.rep.Seen.Contracts++
		r.rep.Results = append(r.rep.Results, r.checkJev(ctx, e, readAnswers)...)
	}
	r.hasEvals = r.hasEvals || len(fx.cases) > 0 || len(fx.jev) > 0
	r.rep.Scope.Files = append(r.rep.Scope.Files, checked...)
	slices.Sort(r.rep.Scope.Files)
	r.rep.Scope.Files = slices.Compact(r.rep.Scope.Files)
}

// checkJev runs one jev entry; a panic becomes its internal_error.
func (r *run) checkJev(ctx context.Context, e jev.Entry, readReplays bool) (out []diag.Result) {
	defer func() {
		if v := recover(); v != nil {
			out = []diag.Result{{
				Source: diag.SourceJev, File: e.Contract, Check: diag.CheckDefinition, Outcome: diag.Error,
				Code: "internal_error", Message: fmt.Sprintf("internal error: %v", v),
				Evidence: map[string]any{"stack": string(debug.Stack())},
			}}
		}
	}()
	return jev.Check(ctx, r.root, e, readReplays)
}
