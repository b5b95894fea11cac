package jev

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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

// Check validates the contract and, when readReplays and Answers is set, runs
// eval (or compare when From is set) and returns results: contract faults
// fail with check "definition" (Source jev); replay faults error
// (replay_invalid, model_mismatch, replay_missing_case) at the replay line
// (line 1 for a missing case); flips (answer_flip) and regressions
// (confidence_regression) fail with severity error, Check = the question
// field, CaseID = the case id, at the field's key in `expect` of the
// contract; unchanged fields pass (code ok). A panic becomes an
// internal_error result, never a crash.
func Check(ctx context.Context, root string, e Entry, readReplays bool) (out []diag.Result) {
	defer func() {
		if v := recover(); v != nil {
			out = []diag.Result{{
				Source: diag.SourceJev, File: e.Contract, Check: diag.CheckDefinition, Outcome: diag.Error,
				Code: "internal_error", Message: fmt.Sprintf("internal error: %v", v),
				Evidence: map[string]any{"stack": string(debug.Stack())},
			}}
		}
	}()
	text, res := readRepoFile(root, e.Contract, !jsonlFile(e.Contract))
	if res != nil {
		res.Check, res.File = diag.CheckDefinition, e.Contract
		return []diag.Result{*res}
	}
	c, faults := LoadContract(e.Contract, text, Options{
		CandidateModel: e.CandidateModel, BaselineModel: e.BaselineModel, AllowUnpinned: e.AllowUnpinned,
	})
	if len(faults) > 0 {
		return faults
	}
	if c.Overridden() && e.Notice != nil {
		e.Notice(fmt.Sprintf("evalgate: %s: baseline-model %s overrides the contract's baseline_model %s",
			e.Contract, c.BaselineModel, c.ContractBaselineModel))
	}
	if mp := c.ModelProblems(); len(mp) > 0 {
		for _, p := range mp {
			r := definition("invalid_value", "jev entry: "+p.Option+": "+p.Message)
			r.File = e.Contract
			if e.ConfigFile != "" {
				r.Source, r.File, r.Pos = diag.SourceConfig, e.ConfigFile, e.Pos
			}
			out = append(out, r)
		}
		return out
	}
	if !readReplays || e.Answers == "" || ctx.Err() != nil {
		return nil
	}
	candidate, faults := loadReplayFile(root, e.Answers)
	out = append(out, faults...)
	var baseline *Replay
	if e.From != "" {
		var bf []diag.Result
		baseline, bf = loadReplayFile(root, e.From)
		out = append(out, bf...)
	}
	if candidate == nil || (e.From != "" && baseline == nil) {
		return out
	}
	var rep *Report
	if baseline != nil {
		rep, faults = Compare(c, baseline, candidate)
	} else {
		rep, faults = Eval(c, candidate)
	}
	out = append(out, faults...)
	return append(out, rep.Results()...)
}

// loadReplayFile reads and loads a replay of the repository.
func loadReplayFile(root, rel string) (*Replay, []diag.Result) {
	text, res := readRepoFile(root, rel, true)
	if res != nil {
		r := replayFault("replay_invalid", res.Message)
		r.File, r.Pos = rel, res.Pos
		return nil, []diag.Result{r}
	}
	return LoadReplay(rel, text)
}

// readRepoFile reads a file of the repository named by the config. It must
// stay inside the repository after following symlinks and outside .git
// (target_outside_repo) and be a readable regular file (target_unreadable); a
// JSON file (whole) over MaxJSON, a JSONL one over MaxJSONL, is too_large and
// is not read. The result describes
// the fault; the caller sets its file and check.
func readRepoFile(root, rel string, whole bool) ([]byte, *diag.Result) {
	fault := func(outcome diag.Outcome, code, msg string) *diag.Result {
		r := definition(code, msg)
		r.Outcome = outcome
		return &r
	}
	full, err := repofs.Within(root, root, filepath.FromSlash(rel))
	if err != nil {
		code, why := repofs.Refusal(err)
		return nil, fault(diag.Error, code, rel+" "+why+"; it is not read")
	}
	limit := int64(MaxJSONL)
	if whole {
		limit = MaxJSON
	}
	text, err := repofs.ReadFile(full, limit)
	if errors.Is(err, repofs.ErrTooLarge) {
		r := fault(diag.Fail, "too_large", fmt.Sprintf("the file is larger than %s and is not read", repofs.Size(limit)))
		r.Pos = diag.Pos{Line: 1}
		return nil, r
	}
	if err != nil {
		return nil, fault(diag.Error, "target_unreadable", "cannot read "+rel+": "+describe(err))
	}
	return text, nil
}

// describe is an error without the path the message already names.
func describe(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
