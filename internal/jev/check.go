package jev

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"runtime/debug"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/repofs"
)

// Entry is one `jev:` entry of the config (README "Configuration"), with
// repository-relative paths.
type Entry struct {
	Contract, Answers, From, CandidateModel, BaselineModel string
	AllowUnpinned                                          bool
	Pos                                                    diag.Pos // the entry in the config

	// ConfigFile is the config's repository-relative path: faults of the
	// entry's own models (a floating candidate-model without an opt-in)
	// point at the entry there. Without it they point at the contract.
	ConfigFile string
	// Notice, when set, receives the run's notices: a baseline-model that
	// overrides the contract's baseline_model says so (README "jevcheck v0.1 contracts").
	Notice func(string)
}

// A ReadFunc reads a file an entry names, whole as JSON (at most MaxJSON
// bytes) or as JSONL (MaxJSONL): a [repofs.ErrTooLarge] error becomes the
// file's too_large fault, an error of [repofs.Within] its
// target_outside_repo, any other its target_unreadable.
type ReadFunc func(name string, whole bool) ([]byte, error)

// RepoReader reads the repository's files: each must stay inside root after
// following symlinks and outside .git, and be a regular file.
func RepoReader(root string) ReadFunc {
	return func(rel string, whole bool) ([]byte, error) {
		full, err := repofs.Within(root, root, filepath.FromSlash(rel))
		if err != nil {
			return nil, err
		}
		return repofs.ReadFile(full, ReadLimit(whole))
	}
}

// ReadLimit is how much of a file is read: MaxJSON when whole, else MaxJSONL.
func ReadLimit(whole bool) int64 {
	if whole {
		return MaxJSON
	}
	return MaxJSONL
}

// Evaluation is what [Evaluate] found.
type Evaluation struct {
	Contract *Contract // nil when the contract did not load
	// Models are the faults of the entry's own models (a floating
	// candidate-model without an opt-in): no replay was evaluated.
	Models []ModelProblem
	// Faults are the contract's or the replays' faults, or the run's
	// internal_error: nothing they concern was evaluated.
	Faults []diag.Result
	Report *Report // nil unless the replays were evaluated
}

// Invalid reports whether the contract or a replay was invalid, or an entry's
// model: `evalgate jev` exits 2 (README "Exit statuses").
func (o *Evaluation) Invalid() bool { return len(o.Faults) > 0 || len(o.Models) > 0 }

// Evaluate validates the entry's contract and, when evalReplays and Answers
// is set, runs eval (or compare when From is set). Contract faults fail with
// check "definition"; replay faults error (replay_invalid, model_mismatch,
// replay_missing_case) at the replay line (line 1 for a missing case). A
// panic becomes an internal_error fault, never a crash.
func Evaluate(ctx context.Context, e Entry, read ReadFunc, evalReplays bool) (o Evaluation) {
	defer func() {
		if v := recover(); v != nil {
			o = Evaluation{Faults: []diag.Result{{
				Source: diag.SourceJev, File: e.Contract, Check: diag.CheckDefinition, Outcome: diag.Error,
				Code: "internal_error", Message: fmt.Sprintf("internal error: %v", v),
				Evidence: map[string]any{"stack": string(debug.Stack())},
			}}}
		}
	}()
	// The replays load beside the contract, each on a core of its own; what they found is dropped when
	// the contract says they are not to be evaluated.
	var candidateLoad, baselineLoad func() (*Replay, []diag.Result)
	if evalReplays && e.Answers != "" {
		candidateLoad = loadAside(e.Answers, read)
		if e.From != "" {
			baselineLoad = loadAside(e.From, read)
		}
	}
	c, faults := loadContract(e, read)
	candidate, candidateFaults := waitLoad(candidateLoad)
	baseline, baselineFaults := waitLoad(baselineLoad)
	if len(faults) > 0 {
		return Evaluation{Faults: faults}
	}
	o.Contract = c
	if o.Models = c.ModelProblems(); len(o.Models) > 0 || candidateLoad == nil || ctx.Err() != nil {
		return o
	}
	o.Faults = append(candidateFaults, baselineFaults...)
	if candidate == nil || (e.From != "" && baseline == nil) {
		return o
	}
	if baseline != nil {
		o.Report, faults = Compare(c, baseline, candidate)
	} else {
		o.Report, faults = Eval(c, candidate)
	}
	o.Faults = append(o.Faults, faults...)
	return o
}

// Check is [Evaluate] for an entry of the config, reading the repository's
// files, as results: the outcome's faults, the entry's model faults (at the
// entry in the config, or the contract without ConfigFile), and the report's
// results: flips (answer_flip) and regressions (confidence_regression) fail
// with severity error, Check = the question field, CaseID = the case id, at
// the field's key in `expect` of the contract; unchanged fields pass (code
// ok). A baseline-model that overrides the contract's says so to Notice. The entry is evaluated before
// Check returns; the results are made as they are yielded, so that the caller need not hold them all.
func Check(ctx context.Context, root string, e Entry, readReplays bool) iter.Seq[diag.Result] {
	o := Evaluate(ctx, e, RepoReader(root), readReplays)
	if o.Contract != nil && o.Contract.Overridden() && e.Notice != nil {
		e.Notice(fmt.Sprintf("evalgate: %s: baseline-model %s overrides the contract's baseline_model %s",
			e.Contract, o.Contract.BaselineModel, o.Contract.ContractBaselineModel))
	}
	return func(yield func(diag.Result) bool) {
		for _, r := range o.Faults {
			if !yield(r) {
				return
			}
		}
		for _, p := range o.Models {
			r := definition("invalid_value", "jev entry: "+p.Option+": "+p.Message)
			r.File = e.Contract
			if e.ConfigFile != "" {
				r.Source, r.File, r.Pos = diag.SourceConfig, e.ConfigFile, e.Pos
			}
			if !yield(r) {
				return
			}
		}
		if o.Report != nil {
			// One contract may be a config's entry several times, with other replays: each result's
			// message names its replay, as its evidence and key do.
			from := " (replay " + e.Answers + ")"
			if e.From != "" {
				from = " (replay " + e.Answers + " against " + e.From + ")"
			}
			for r := range o.Report.Results() {
				r.Message += from
				if !yield(r) {
					return
				}
			}
		}
	}
}

// loadContract reads and loads the entry's contract: the contract, or its faults.
func loadContract(e Entry, read ReadFunc) (*Contract, []diag.Result) {
	text, err := read(e.Contract, !jsonlFile(e.Contract))
	if err != nil {
		f := readFault(e.Contract, err, ReadLimit(!jsonlFile(e.Contract)))
		f.File = e.Contract
		return nil, []diag.Result{f}
	}
	return LoadContract(e.Contract, text, Options{
		CandidateModel: e.CandidateModel, BaselineModel: e.BaselineModel, AllowUnpinned: e.AllowUnpinned,
	})
}

// loadAside starts loading a replay on a goroutine of its own; the function it returns waits for it. A
// panic there is raised again by that function, on the caller's goroutine, whose recover reports it.
func loadAside(name string, read ReadFunc) func() (*Replay, []diag.Result) {
	type loaded struct {
		replay *Replay
		faults []diag.Result
		panic  any
	}
	done := make(chan loaded, 1)
	go func() {
		var l loaded
		defer func() {
			l.panic = recover()
			done <- l
		}()
		l.replay, l.faults = loadReplay(name, read)
	}()
	return func() (*Replay, []diag.Result) {
		l := <-done
		if l.panic != nil {
			panic(l.panic)
		}
		return l.replay, l.faults
	}
}

// waitLoad waits for a replay loadAside started; nothing when none was.
func waitLoad(wait func() (*Replay, []diag.Result)) (*Replay, []diag.Result) {
	if wait == nil {
		return nil, nil
	}
	return wait()
}

// loadReplay reads and loads a replay: the replay (nil when it is not one)
// and its faults.
func loadReplay(name string, read ReadFunc) (*Replay, []diag.Result) {
	text, err := read(name, true)
	if err != nil {
		f := readFault(name, err, MaxJSON)
		r := replayFault("replay_invalid", f.Message)
		r.File, r.Pos = name, f.Pos
		return nil, []diag.Result{r}
	}
	return LoadReplay(name, text)
}

// readFault is the definition fault of a file that could not be read; the
// caller sets its file (and check, for a replay).
func readFault(name string, err error, limit int64) diag.Result {
	if errors.Is(err, repofs.ErrTooLarge) {
		r := definition("too_large", fmt.Sprintf("the file is larger than %s and is not read", repofs.Size(limit)))
		r.Pos = diag.Pos{Line: 1}
		return r
	}
	r := definition("target_unreadable", "cannot read "+name+": "+repofs.Reason(err))
	if errors.Is(err, repofs.ErrOutside) || errors.Is(err, repofs.ErrGitDir) || errors.Is(err, repofs.ErrLoop) {
		code, why := repofs.Refusal(err)
		r.Code, r.Message = code, name+" "+why+"; it is not read"
	}
	r.Outcome = diag.Error
	return r
}
