package jev

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// Version is the contract version evalgate reads.
const Version = "0.1"

// Contract is a valid jevcheck contract.
type Contract struct {
	File    string // as given to LoadContract
	Version string
	Name    string // "" when the contract has none
	// BaselineModel is the pinned baseline of the run: Options.BaselineModel
	// when given (it overrides the contract's), else the contract's.
	BaselineModel string
	// ContractBaselineModel is the contract's own baseline_model; "" for a
	// JSONL contract whose _meta line has none.
	ContractBaselineModel string
	AllowUnpinned         bool // the contract's allow_unpinned
	Defaults              Defaults
	Cases                 []Case

	opts Options
}

// optIn reports whether floating aliases are allowed: by the contract or by
// the run, for both models (README "jevcheck v0.1 contracts").
func (c *Contract) optIn() bool { return c.AllowUnpinned || c.opts.AllowUnpinned }

// Overridden reports whether Options.BaselineModel replaced a different
// baseline_model of the contract, which the run must say (README "jevcheck v0.1 contracts").
func (c *Contract) Overridden() bool {
	return c.opts.BaselineModel != "" && c.ContractBaselineModel != "" && c.opts.BaselineModel != c.ContractBaselineModel
}

// ModelProblem is a fault of a model named by the run rather than the
// contract: the --candidate-model or --baseline-model value.
type ModelProblem struct {
	Option  string // "candidate-model" or "baseline-model"
	Message string
}

// ModelProblems checks the models of the run's options: non-empty, and not a
// floating alias without an opt-in.
func (c *Contract) ModelProblems() []ModelProblem {
	var out []ModelProblem
	for _, m := range []struct{ option, role, name string }{
		{"baseline-model", "baseline", c.opts.BaselineModel},
		{"candidate-model", "candidate", c.opts.CandidateModel},
	} {
		switch {
		case m.name == "":
		case blank(m.name):
			out = append(out, ModelProblem{m.option, fmt.Sprintf("the %s model must not be blank", m.role)})
		case Floating(m.name) && !c.optIn():
			out = append(out, ModelProblem{m.option, fmt.Sprintf("%s model %s is a floating alias: pin a version, or opt in with allow_unpinned in the contract or --allow-unpinned (config: allow-unpinned)", m.role, strconv.Quote(m.name))})
		}
	}
	return out
}

// jsonlFile reports whether a contract is read as JSONL: by its suffix, as
// the reference tool decides (.jsonl, in any case).
func jsonlFile(file string) bool { return strings.EqualFold(path.Ext(file), ".jsonl") }

// LoadContract reads and validates a contract: JSON when file does not end in
// .jsonl, else JSONL. It returns the contract, or nil and every fault as a
// result (Source jev, Check "definition", Outcome fail, severity error) with
// file and position. The contract's strings share text's bytes (the file is
// held once: frontmatter.JSONOptions.Owned), so text must not change afterwards.
func LoadContract(file string, text []byte, opts Options) (*Contract, []diag.Result) {
	s, text := newSource(file, text)
	c := &Contract{File: file, opts: opts, Version: Version,
		Defaults: Defaults{Tolerances: Tolerances{ScoreTolerance: some(DefaultScoreTolerance)}, NoulTrueThreshold: DefaultNoulTrueThreshold}}
	v := &validator{s: s, c: c}
	if jsonlFile(file) {
		v.jsonl(text)
	} else {
		v.json(text)
	}
	if len(s.faults) > 0 {
		return nil, s.reported()
	}
	return c, nil
}

// definition is a contract fault (README "jevcheck v0.1 contracts": fail, check definition).
func definition(code, msg string) diag.Result {
	return diag.Result{Source: diag.SourceJev, Check: diag.CheckDefinition, Outcome: diag.Fail,
		Severity: diag.SeverityError, Code: code, Message: msg}
}
