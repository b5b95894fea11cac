// Command action tests action.yml, the composite action, without GitHub. It has two commands.
//
// check checks action.yml where actionlint does not reach: actionlint reads a local action's metadata
// (name, description, inputs, branding) when a workflow uses it, but not its steps. It checks what
// README "Use it in GitHub Actions" fixes: the inputs with their defaults and descriptions, the
// outputs mapped from a step's outputs; that every input reaches the scripts through `env:` (never
// named INPUT_*) and that no script holds a `${{ }}` expression; that every run step is bash with
// `set -euo pipefail`; that every action is pinned to a full commit SHA with its release in a
// comment. Then it writes the steps into a workflow (the inputs become workflow_call inputs) and runs
// actionlint on it, which checks the expressions and, through shellcheck, the scripts.
//
//	go run ./.ci/action check [-actionlint PATH] action.yml
//	go run ./.ci/action check -pins WORKFLOW...   (only the pinning of uses:)
//
// run runs action.yml's composite steps here, the way the GitHub runner would, so that .ci/run tests
// the action end to end: inputs take their defaults unless -with sets them, `${{ }}` in `env:` and
// `with:` is evaluated (inputs, steps.*.outputs, github.action_path, github.action_ref, runner.temp),
// each `run:` goes through `bash --noprofile --norc -eo pipefail` with its own GITHUB_OUTPUT file, and
// the action's outputs are printed as NAME=VALUE lines on stdout. A `uses:` step is not run:
// actions/cache is skipped (only a speed-up), and any other must have a false `if:` here (Go is set
// up already), else run fails. It exits with the status of the first step that fails, after printing
// the outputs gathered so far.
//
//	go run ./.ci/action run [-with NAME=VALUE]... [-event NAME] [-runner-temp DIR] action.yml
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "check":
		checkMain(os.Args[2:])
	case "run":
		runMain(os.Args[2:])
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: go run ./.ci/action check|run [flags] action.yml (see its package doc)")
	os.Exit(2)
}

// action is what both commands read of action.yml.
type action struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs  map[string]input  `yaml:"inputs"`
	Outputs map[string]output `yaml:"outputs"`
	Runs    struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type input struct {
	Description        string  `yaml:"description"`
	Required           bool    `yaml:"required"`
	Default            *string `yaml:"default"`
	DeprecationMessage string  `yaml:"deprecationMessage"`
}

type output struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

type step struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	ContinueOnError  string            `yaml:"continue-on-error"`
}

func ptr(s string) *string { return &s }
