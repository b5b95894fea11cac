package main

import (
	"bytes"
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

// wantInputs are the inputs of README "Use it in GitHub Actions"; a non-nil value is the default
// the input must have.
var wantInputs = map[string]*string{
	"paths":                    nil,
	"changed-only":             ptr("true"),
	"config":                   nil,
	"fail-on":                  ptr("error"),
	"sarif-file":               ptr("evalgate.sarif"),
	"junit-file":               nil,
	"json-file":                nil,
	"category":                 nil,
	"jobs":                     nil,
	"working-directory":        nil,
	"allow-untrusted-commands": ptr("false"),
	"baseline":                 ptr(""),
	"judge":                    ptr(""),
	"max-judge-calls":          ptr(""),
	"shard":                    ptr(""),
	"merge":                    ptr(""),
}

var wantOutputs = []string{"pass", "fail", "error", "skip", "pending", "score", "sarif-file", "json-file"}

var (
	stepOutputRE = regexp.MustCompile(`^\$\{\{ steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+) \}\}$`)
	inputRefRE   = regexp.MustCompile(`^\$\{\{ inputs\.([A-Za-z0-9_-]+) \}\}$`)
	usesLineRE   = regexp.MustCompile(`^\s*(?:-\s+)?uses:\s*(\S+)\s*(.*)$`)
	pinnedRE     = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$`)
	releaseRE    = regexp.MustCompile(`^# v\d+(\.\d+)*$`)
)

// checkMain is the check command: see the package doc.
func checkMain(args []string) {
	flags := flag.NewFlagSet("check", flag.ExitOnError)
	actionlint := flags.String("actionlint", "actionlint", "the actionlint executable")
	pinsOnly := flags.Bool("pins", false, "check only that every uses: is pinned, in each file")
	flags.Parse(args)
	if *pinsOnly {
		n := 0
		for _, file := range flags.Args() {
			src, err := os.ReadFile(file)
			if err != nil {
				fmt.Fprintln(os.Stderr, "action check:", err)
				os.Exit(2)
			}
			fmt.Printf("action check: %s: uses: pinned to a full commit SHA with its release in a comment\n", file)
			for _, p := range checkPins(src) {
				fmt.Fprintf(os.Stderr, "%s: %s\n", file, p)
				n++
			}
		}
		if n > 0 {
			os.Exit(1)
		}
		return
	}
	if flags.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./.ci/action check [-actionlint PATH] action.yml")
		os.Exit(2)
	}
	file := flags.Arg(0)
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "action check:", err)
		os.Exit(2)
	}
	problems := check(file, src)
	if len(problems) == 0 {
		problems = lintSteps(file, src, *actionlint)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(os.Stderr, "%s: %s\n", file, p)
		}
		fmt.Fprintf(os.Stderr, "action check: %d problem(s) in %s\n", len(problems), file)
		os.Exit(1)
	}
	fmt.Printf("action check: %s is fine\n", file)
}

func check(file string, src []byte) []string {
	var a action
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		return []string{fmt.Sprintf("does not parse as an action: %v", err)}
	}
	var p []string
	bad := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	say := func(format string, args ...any) { fmt.Printf("action check: "+format+"\n", args...) }

	say("metadata: name, description, author, branding")
	if a.Name == "" || a.Description == "" || a.Author == "" {
		bad("name, description and author are required")
	}
	if a.Branding.Icon == "" || a.Branding.Color == "" {
		bad("branding needs an icon and a color")
	}
	if a.Runs.Using != "composite" {
		bad("runs.using is %q, want composite", a.Runs.Using)
	}

	say("inputs: %d required by README \"Use it in GitHub Actions\", each with a description", len(wantInputs))
	for _, name := range slices.Sorted(maps.Keys(wantInputs)) {
		in, ok := a.Inputs[name]
		if !ok {
			bad("input %q is missing", name)
			continue
		}
		if want := wantInputs[name]; want != nil && (in.Default == nil || *in.Default != *want) {
			bad("input %q must default to %q", name, *want)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Inputs)) {
		in := a.Inputs[name]
		if strings.TrimSpace(in.Description) == "" {
			bad("input %q has no description", name)
		}
		if in.Required {
			bad("input %q is required: every input has a default", name)
		}
	}

	ids := map[string]bool{}
	for _, s := range a.Runs.Steps {
		if s.ID != "" {
			ids[s.ID] = true
		}
	}
	say("outputs: %s, each a step's output", strings.Join(wantOutputs, ", "))
	for _, name := range wantOutputs {
		out, ok := a.Outputs[name]
		if !ok {
			bad("output %q is missing", name)
			continue
		}
		m := stepOutputRE.FindStringSubmatch(out.Value)
		switch {
		case m == nil:
			bad("output %q: value %q is not ${{ steps.ID.outputs.NAME }}", name, out.Value)
		case !ids[m[1]]:
			bad("output %q: no step has id %q", name, m[1])
		case m[2] != name:
			bad("output %q maps the step output %q", name, m[2])
		}
		if strings.TrimSpace(out.Description) == "" {
			bad("output %q has no description", name)
		}
	}

	say("steps: bash with set -euo pipefail, no ${{ }} in scripts, inputs only through env (not INPUT_*)")
	passed := map[string]bool{}
	for i, s := range a.Runs.Steps {
		where := fmt.Sprintf("step %d (%s)", i+1, s.Name)
		if (s.Run == "") == (s.Uses == "") {
			bad("%s: needs exactly one of run and uses", where)
		}
		if s.Run != "" {
			if s.Shell != "bash" {
				bad("%s: shell is %q, want bash", where, s.Shell)
			}
			if first := firstCommand(s.Run); first != "set -euo pipefail" {
				bad("%s: the script starts with %q, want set -euo pipefail", where, first)
			}
			if strings.Contains(s.Run, "${{") {
				bad("%s: the script holds a ${{ }} expression; pass the value through env:", where)
			}
			if s.WorkingDirectory != "" {
				bad("%s: working-directory: the script changes directory itself", where)
			}
		}
		for k, v := range s.Env {
			if strings.HasPrefix(strings.ToUpper(k), "INPUT_") {
				bad("%s: env %s: INPUT_* variables are removed from graders and reserved by the runner", where, k)
			}
			if m := inputRefRE.FindStringSubmatch(v); m != nil {
				if _, ok := a.Inputs[m[1]]; !ok {
					bad("%s: env %s names no input %q", where, k, m[1])
				}
				passed[m[1]] = true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Inputs)) {
		if !passed[name] {
			bad("input %q reaches no step through env: (as ${{ inputs.%s }})", name, name)
		}
	}

	say("uses: pinned to a full commit SHA with its release in a comment")
	p = append(p, checkPins(src)...)
	return p
}

// checkPins reports each `uses:` that is neither local nor pinned to a full
// commit SHA followed by its release in a comment.
func checkPins(src []byte) []string {
	var p []string
	for n, line := range strings.Split(string(src), "\n") {
		m := usesLineRE.FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(m[1], "./") {
			continue
		}
		if !pinnedRE.MatchString(m[1]) {
			p = append(p, fmt.Sprintf("line %d: %s is not pinned to a full commit SHA", n+1, m[1]))
		} else if !releaseRE.MatchString(strings.TrimSpace(m[2])) {
			p = append(p, fmt.Sprintf("line %d: %s: say the release in a comment (# vX.Y.Z)", n+1, m[1]))
		}
	}
	return p
}

// firstCommand returns the script's first line that is neither blank nor a comment.
func firstCommand(script string) string {
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return ""
}

// lintSteps writes the action's steps into a workflow whose workflow_call
// inputs are the action's inputs, and runs actionlint (with shellcheck) on it.
func lintSteps(file string, src []byte, actionlint string) []string {
	fmt.Println("action check: the steps as a workflow, through actionlint and shellcheck")
	if _, err := exec.LookPath("shellcheck"); err != nil {
		return []string{"shellcheck is not on PATH: actionlint would skip the scripts"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return []string{err.Error()}
	}
	root := doc.Content[0]
	inputs := mapping()
	if in := lookup(root, "inputs"); in != nil {
		for i := 0; i+1 < len(in.Content); i += 2 {
			spec := mapping("type", "string", "required", "false")
			if def := lookup(in.Content[i+1], "default"); def != nil {
				spec.Content = append(spec.Content, scalar("default"), def)
			}
			inputs.Content = append(inputs.Content, in.Content[i], spec)
		}
	}
	steps := lookup(lookup(root, "runs"), "steps")
	if steps == nil {
		return []string{"runs.steps is missing"}
	}
	on := mapping()
	on.Content = append(on.Content, scalar("workflow_call"), mappingOf("inputs", inputs))
	job := mapping("runs-on", "ubuntu-latest")
	job.Content = append(job.Content, scalar("steps"), steps)
	wf := mapping("name", "steps of "+file)
	wf.Content = append(wf.Content, scalar("on"), on, scalar("jobs"), mappingOf("action", job))
	out, err := yaml.Marshal(wf)
	if err != nil {
		return []string{err.Error()}
	}

	dir, err := os.MkdirTemp("", "action-check-")
	if err != nil {
		return []string{err.Error()}
	}
	defer os.RemoveAll(dir)
	wfFile := filepath.Join(dir, ".github", "workflows", "action-steps.yml")
	if err := os.MkdirAll(filepath.Dir(wfFile), 0o755); err != nil {
		return []string{err.Error()}
	}
	if err := os.WriteFile(wfFile, out, 0o644); err != nil {
		return []string{err.Error()}
	}
	cmd := exec.Command(actionlint, "-color=false", wfFile)
	cmd.Dir = dir
	res, err := cmd.CombinedOutput()
	if err != nil {
		var numbered strings.Builder
		for i, line := range strings.Split(string(out), "\n") {
			fmt.Fprintf(&numbered, "%4d  %s\n", i+1, line)
		}
		return []string{fmt.Sprintf("actionlint on its steps (%v):\n%s\nthe workflow it checked:\n%s", err, res, numbered.String())}
	}
	return nil
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func mapping(kv ...string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, scalar(kv[i]), scalar(kv[i+1]))
	}
	return n
}

func mappingOf(key string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{scalar(key), v}}
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
