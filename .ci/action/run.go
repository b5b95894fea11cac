package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

type withFlags map[string]string

func (w withFlags) String() string { return "" }
func (w withFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return errors.New("want NAME=VALUE")
	}
	w[k] = strings.ReplaceAll(v, `\n`, "\n")
	return nil
}

var (
	exprRE = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)
	ifRE   = regexp.MustCompile(`^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+) == '([^']*)'$`)
)

// runMain is the run command: see the package doc.
func runMain(args []string) {
	flags := flag.NewFlagSet("run", flag.ExitOnError)
	with := withFlags{}
	flags.Var(with, "with", "an input, NAME=VALUE (\\n in VALUE is a newline); repeatable")
	event := flags.String("event", "push", "GITHUB_EVENT_NAME")
	runnerTemp := flags.String("runner-temp", "", "RUNNER_TEMP (default: a new temporary directory)")
	flags.Parse(args)
	if flags.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./.ci/action run [-with NAME=VALUE]... [-event NAME] [-runner-temp DIR] action.yml")
		os.Exit(2)
	}
	code, err := run(flags.Arg(0), with, *event, *runnerTemp)
	if err != nil {
		fmt.Fprintln(os.Stderr, "action run:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run(file string, with withFlags, event, runnerTemp string) (int, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	var a action
	if err := yaml.Unmarshal(src, &a); err != nil {
		return 0, err
	}
	actionPath, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return 0, err
	}
	inputs := map[string]string{}
	for name, in := range a.Inputs {
		if in.Default != nil {
			inputs[name] = *in.Default
		}
	}
	for name, v := range with {
		if _, ok := a.Inputs[name]; !ok {
			return 0, fmt.Errorf("-with %s: the action has no such input", name)
		}
		inputs[name] = v
	}
	if runnerTemp == "" {
		if runnerTemp, err = os.MkdirTemp("", "action-run-"); err != nil {
			return 0, err
		}
		defer os.RemoveAll(runnerTemp)
	}
	workspace, err := os.Getwd()
	if err != nil {
		return 0, err
	}
	summary := filepath.Join(runnerTemp, "step-summary.md")
	base := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"CI":                  "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_WORKSPACE":    workspace,
		"GITHUB_ACTION_PATH":  actionPath,
		"GITHUB_STEP_SUMMARY": summary,
		"RUNNER_TEMP":         runnerTemp,
		"RUNNER_OS":           "Linux",
		"RUNNER_ARCH":         "X64",
	}
	steps := map[string]map[string]string{}
	eval := func(s string) (string, error) {
		var bad error
		out := exprRE.ReplaceAllStringFunc(s, func(m string) string {
			expr := exprRE.FindStringSubmatch(m)[1]
			switch parts := strings.Split(expr, "."); {
			case expr == "github.action_path":
				return actionPath
			case expr == "github.action_ref":
				return ""
			case expr == "runner.temp":
				return runnerTemp
			case len(parts) == 2 && parts[0] == "inputs":
				return inputs[parts[1]]
			case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
				return steps[parts[1]][parts[3]]
			}
			bad = fmt.Errorf("cannot evaluate ${{ %s }}", expr)
			return ""
		})
		return out, bad
	}

	code := 0
	for i, s := range a.Runs.Steps {
		label := fmt.Sprintf("step %d (%s)", i+1, s.Name)
		if s.If != "" {
			m := ifRE.FindStringSubmatch(s.If)
			if m == nil {
				return 0, fmt.Errorf("%s: cannot evaluate if: %s", label, s.If)
			}
			if steps[m[1]][m[2]] != m[3] {
				fmt.Fprintf(os.Stderr, "action run: %s: skipped (if: %s)\n", label, s.If)
				continue
			}
		}
		if strings.HasPrefix(s.Uses, "actions/cache@") {
			fmt.Fprintf(os.Stderr, "action run: %s: skipped (a cache: only a speed-up)\n", label)
			continue
		}
		if s.Uses != "" {
			return 0, fmt.Errorf("%s: would run %s, which action run cannot", label, s.Uses)
		}
		if s.Shell != "bash" {
			return 0, fmt.Errorf("%s: shell %q", label, s.Shell)
		}
		env := environ(base)
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			v, err := eval(s.Env[k])
			if err != nil {
				return 0, fmt.Errorf("%s: env %s: %v", label, k, err)
			}
			env = append(env, k+"="+v)
		}
		outFile := filepath.Join(runnerTemp, fmt.Sprintf("output-%d", i+1))
		script := filepath.Join(runnerTemp, fmt.Sprintf("step-%d.sh", i+1))
		if err := os.WriteFile(outFile, nil, 0o644); err != nil {
			return 0, err
		}
		if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
			return 0, err
		}
		env = append(env, "GITHUB_OUTPUT="+outFile)
		fmt.Fprintf(os.Stderr, "action run: %s\n", label)
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Env, cmd.Dir = env, workspace
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr // stdout carries only the outputs
		err := cmd.Run()
		outs, perr := readOutputs(outFile)
		if perr != nil {
			return 0, fmt.Errorf("%s: GITHUB_OUTPUT: %v", label, perr)
		}
		if s.ID != "" {
			steps[s.ID] = outs
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			fmt.Fprintf(os.Stderr, "action run: %s failed with exit status %d\n", label, exit.ExitCode())
			code = exit.ExitCode()
			break
		} else if err != nil {
			return 0, fmt.Errorf("%s: %v", label, err)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Outputs)) {
		v, err := eval(a.Outputs[name].Value)
		if err != nil {
			return 0, fmt.Errorf("output %s: %v", name, err)
		}
		fmt.Printf("%s=%s\n", name, v)
	}
	return code, nil
}

// environ is the process environment with base's variables set, minus what
// the runner would not pass (a GITHUB_OUTPUT of the caller, say).
func environ(base map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := base[k]; ok || k == "GITHUB_OUTPUT" || k == "GITHUB_ENV" || k == "GITHUB_PATH" || k == "GITHUB_STATE" {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range slices.Sorted(maps.Keys(base)) {
		env = append(env, k+"="+base[k])
	}
	return env
}

// readOutputs parses a GITHUB_OUTPUT file: NAME=VALUE lines and
// NAME<<DELIMITER blocks.
func readOutputs(file string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	outs := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		if k, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(k, "=") {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			if i == len(lines) {
				return nil, fmt.Errorf("%s: no closing %s", k, delim)
			}
			outs[k] = strings.Join(val, "\n")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("malformed line %q", line)
		}
		outs[k] = v
	}
	return outs, nil
}
