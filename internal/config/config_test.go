package config_test

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/testfs"
)

var update = flag.Bool("update", false, "rewrite testdata/err/*.out from the current output")

// render writes results in the text report's format, one per line, sorted.
func render(rs []diag.Result) string {
	rs = append([]diag.Result(nil), rs...)
	diag.Sort(rs)
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s: %s: %s: %s [%s]\n", r.Location(), r.Severity, r.Check, r.Message, r.Code)
	}
	return b.String()
}

// TestData runs the data-driven tests: testdata/ok/*.yaml
// have no faults; testdata/err/X.yaml gives exactly X.out (faults, then
// notes). go test -run TestData -update rewrites the .out files.
func TestData(t *testing.T) {
	for _, dir := range []string{"ok", "err"} {
		for _, file := range testfs.Files(t, filepath.Join("testdata", dir, "*.yaml")) {
			name, text := dir+"/"+filepath.Base(file.Path), file.Text
			t.Run(name, func(t *testing.T) {
				cfg, faults := config.Parse(text, name, "/repo")
				checkInvariants(t, cfg, faults, text, name)
				if dir == "ok" {
					if len(faults) > 0 || len(cfg.Notes) > 0 {
						t.Errorf("unexpected results:\n%s%s", render(faults), render(cfg.Notes))
					}
					return
				}
				if len(faults) == 0 {
					t.Errorf("no faults")
				}
				got := render(faults)
				if len(cfg.Notes) > 0 {
					got += "--- notes\n" + render(cfg.Notes)
				}
				golden := strings.TrimSuffix(file.Path, ".yaml") + ".out"
				testfs.Golden(t, golden, got, *update)
			})
		}
	}
}

// checkInvariants checks what every Parse must hold.
func checkInvariants(t testing.TB, cfg *config.Config, faults []diag.Result, text []byte, file string) {
	t.Helper()
	if cfg == nil || cfg.Catalog == nil || cfg.Tools == nil || cfg.Catalog.Evals == nil || cfg.Catalog.Suites == nil {
		t.Fatalf("incomplete config: %+v", cfg)
	}
	lines := diag.NewLineIndex(text)
	check := func(r diag.Result, note bool) {
		if r.Source != diag.SourceConfig || r.File != file || r.Outcome != diag.Fail || r.Message == "" || strings.ContainsAny(r.Message, "\r\n") {
			t.Errorf("malformed result %+v", r)
		}
		if _, ok := diag.LookupCode(r.Code); !ok {
			t.Errorf("unregistered code %q", r.Code)
		}
		if r.Verdictless != note {
			t.Errorf("note/fault mixed up: %+v", r)
		}
		if !note && (r.Check != diag.CheckDefinition || r.Severity != diag.SeverityError) {
			t.Errorf("fault not a definition error: %+v", r)
		}
		if !r.Pos.Known() {
			t.Errorf("fault without a line: %+v", r)
		} else if r.Pos.Line > lines.Lines() || r.Pos.Col < 0 {
			t.Errorf("position %v outside the text: %+v", r.Pos, r)
		} else if r.Pos.Col > 0 {
			start, end := lines.LineStart(r.Pos.Line), lines.LineStart(r.Pos.Line+1)
			if r.Pos.Col-1 > len([]rune(string(text[start:end]))) {
				t.Errorf("column %v beyond its line: %+v", r.Pos, r)
			}
		}
	}
	for _, r := range faults {
		check(r, false)
	}
	for _, r := range cfg.Notes {
		check(r, true)
	}
	for id, ev := range cfg.Catalog.Evals {
		if ev == nil || ev.ID != id || !docmeta.ValidID(id) || ev.Origin != docmeta.OriginConfig || ev.Options == nil {
			t.Errorf("bad named eval %q: %+v", id, ev)
		}
	}
	for name, s := range cfg.Catalog.Suites {
		if s.Name != name || s.TargetPassRate < 0 || s.TargetPassRate > 1 {
			t.Errorf("bad suite %q: %+v", name, s)
		}
		for _, ev := range s.Evals {
			if ev.Origin != docmeta.OriginConfig || ev.CommandInPage {
				t.Errorf("suite %q: eval not from the config: %+v", name, ev)
			}
		}
	}
	for name, tool := range cfg.Tools {
		if tool.Name != name || len(tool.Command) == 0 {
			t.Errorf("bad tool %q: %+v", name, tool)
		}
	}
	if cfg.Commands.TimeoutMS < 1 {
		t.Errorf("timeout-ms %d", cfg.Commands.TimeoutMS)
	}
}

// TestProductExample pins every value of README "Configuration"'s example.
func TestProductExample(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "ok", "product-example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, faults := config.Parse(text, ".evalgate.yaml", "/repo")
	if len(faults) > 0 {
		t.Fatal(render(faults))
	}
	eq := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", what, got, want)
		}
	}
	eq("Path", cfg.Path, ".evalgate.yaml")
	eq("Dir", cfg.Dir, "/repo")
	eq("Version", cfg.Version, 1)
	eq("Pages", cfg.Pages, config.Pages{Include: []string{"docs/**/*.md"}, Exclude: []string{"docs/archive/**"}})
	eq("evals", len(cfg.Catalog.Evals), 2)
	links := cfg.Catalog.Evals["links-resolve"]
	eq("links.Grader", links.Grader, "tool:links")
	eq("links.Pos", links.Pos, diag.Pos{Line: 6, Col: 3})
	spelling := cfg.Catalog.Evals["spelling"]
	eq("spelling.Command", spelling.Command, []string{"codespell", "{file}"})
	eq("spelling.CommandInPage", spelling.CommandInPage, false)
	eq("spelling.Origin", spelling.Origin, docmeta.OriginConfig)
	s := cfg.Catalog.Suites["how-to"]
	eq("suite.Pos", s.Pos, diag.Pos{Line: 12, Col: 3})
	eq("suite.TargetPassRate", s.TargetPassRate, 1.0)
	eq("suite evals", len(s.Evals), 2)
	eq("suite[0]", s.Evals[0].ID+" "+s.Evals[0].Use+" "+s.Evals[0].Pos.String(), "links-resolve links-resolve 15:9")
	eq("suite[1]", s.Evals[1].ID+" "+s.Evals[1].Grader+" "+s.Evals[1].Pos.String(), "has-install-section tool:headings 16:9")
	eq("Tools", cfg.Tools, map[string]config.Tool{"tool:vale": {Name: "tool:vale", Command: []string{"vale", "--output=line", "{target}"}, Pos: diag.Pos{Line: 20, Col: 3}}})
	eq("Commands", cfg.Commands, config.Commands{
		TimeoutMS: 30000, Allow: []string{"codespell", "vale"}, AllowSet: true, PassEnv: []string{"NPM_TOKEN"},
		Pos: diag.Pos{Line: 22, Col: 1}, EndLine: 26,
	})
	eq("EvalCase", cfg.EvalCase, config.EvalCase{Include: []string{"evals/**/cases/**/*.jsonl"}, Candidates: []string{"evals/**/candidates/*.jsonl"}})
	eq("Jev", cfg.Jev, []config.JevEntry{{
		Contract: "evals/jev/support-triage.json", Answers: "evals/jev/replays/jev-1.14.json",
		CandidateModel: "jev-1.14", BaselineModel: "jev-1.13", From: "evals/jev/replays/jev-1.13.json",
		Pos: diag.Pos{Line: 31, Col: 5},
	}})
}

// TestDefaults: no config, and a config of only `version: 1`.
func TestDefaults(t *testing.T) {
	def := config.Default("/repo")
	min, faults := config.Parse([]byte("version: 1\n"), "docs/.evalgate.yaml", "/repo/docs")
	if len(faults) > 0 {
		t.Fatal(render(faults))
	}
	for _, cfg := range []*config.Config{def, min} {
		// The default globs cover the whole repository, wherever the config is.
		if !reflect.DeepEqual(cfg.Pages.Include, []string{"**/*.md", "**/*.markdown", "**/*.mdx"}) || !cfg.Pages.WholeRepo || cfg.Pages.Exclude != nil {
			t.Errorf("pages: %+v", cfg.Pages)
		}
		if cfg.Version != 1 || cfg.Commands.TimeoutMS != config.DefaultTimeoutMS || cfg.Commands.FrontmatterDeny ||
			cfg.Commands.AllowSet || cfg.Commands.Allow != nil || cfg.Commands.Pos.Known() {
			t.Errorf("commands: %+v", cfg.Commands)
		}
		if len(cfg.Catalog.Evals)+len(cfg.Catalog.Suites)+len(cfg.Tools)+len(cfg.Jev) != 0 || cfg.EvalCase.Include != nil {
			t.Errorf("not empty: %+v", cfg)
		}
	}
	if def.Path != "" || def.Dir != "/repo" || min.Path != "docs/.evalgate.yaml" || min.Dir != "/repo/docs" {
		t.Errorf("paths: %q %q %q %q", def.Path, def.Dir, min.Path, min.Dir)
	}
	// An empty allow-list is set and allows nothing; a leading ./ is dropped.
	cfg, faults := config.Parse([]byte("version: 1\ncommands: {allow: []}\npages: {include: [./docs/*.md]}\n"), "c.yaml", "/r")
	if len(faults) > 0 || !cfg.Commands.AllowSet || cfg.Commands.Allow == nil || len(cfg.Commands.Allow) != 0 {
		t.Errorf("allow: []: %+v %v", cfg.Commands, faults)
	}
	if !reflect.DeepEqual(cfg.Pages.Include, []string{"docs/*.md"}) || cfg.Pages.WholeRepo {
		t.Errorf("include: %+v", cfg.Pages)
	}
}

// TestNamedEvalSkip: a named eval may set skip (a decision: the evalDef of
// moose-docevals, docmeta's reference implementation, excludes it, but use: may override skip, so it has a base value).
func TestNamedEvalSkip(t *testing.T) {
	cfg, faults := config.Parse([]byte("version: 1\nevals:\n  off:\n    assertion: A.\n    skip: true\n"), "c.yaml", "/r")
	if len(faults) > 0 || !cfg.Catalog.Evals["off"].Skip {
		t.Errorf("skip on a named eval: %v %+v", faults, cfg.Catalog.Evals["off"])
	}
}

// TestNotesAreNotFaults: a stale hash and a shorthand naming an eval are
// notes, which never make the config invalid.
func TestNotesAreNotFaults(t *testing.T) {
	text := "version: 1\nevals:\n  gen:\n    assertion: New.\n    grader: command\n    command: [x]\n    generated-assertion-hash: abc\nsuites:\n  s:\n    evals: [gen]\n"
	cfg, faults := config.Parse([]byte(text), "c.yaml", "/r")
	if len(faults) > 0 {
		t.Fatal(render(faults))
	}
	got := render(cfg.Notes)
	want := "c.yaml:7:31: warning: gen: the assertion changed since its command was generated (generated-assertion-hash differs from its SHA-256); the command still runs: regenerate it [stale_generated_command]\n" +
		"c.yaml:10:13: warning: auto-3b6a765e: suites.s.evals[0] is a string, so it is an assertion for a judge, yet \"gen\" is the id of a named eval: write \"use: gen\" to refer to the eval [shorthand_names_eval]\n"
	if got != want {
		t.Errorf("notes:\n%s\nwant:\n%s", got, want)
	}
	if cfg.Catalog.Evals["gen"] == nil || len(cfg.Catalog.Suites["s"].Evals) != 1 {
		t.Errorf("notes dropped definitions: %+v", cfg.Catalog)
	}
}

// TestSuiteUseOfInvalidEval: a suite using an invalid named eval gets no
// unknown_use of its own, and the invalid eval is not in the catalog.
func TestSuiteUseOfInvalidEval(t *testing.T) {
	cfg, faults := config.Parse([]byte("version: 1\nevals:\n  bad: {runs: 0, assertion: x}\nsuites:\n  s: {evals: [{use: bad}]}\n"), "c.yaml", "/r")
	if len(faults) != 1 || faults[0].Code != "invalid_value" {
		t.Errorf("faults: %s", render(faults))
	}
	if _, ok := cfg.Catalog.Evals["bad"]; ok {
		t.Errorf("invalid eval in the catalog")
	}
	if s := cfg.Catalog.Suites["s"]; s == nil || len(s.Evals) != 0 {
		t.Errorf("suite: %+v", s)
	}
}

// TestPageUsesConfig resolves a page against a parsed config: the config
// and the page vocabulary fit together.
func TestPageUsesConfig(t *testing.T) {
	text, _ := os.ReadFile(filepath.Join("testdata", "ok", "product-example.yaml"))
	cfg, _ := config.Parse(text, ".evalgate.yaml", "/repo")
	root := mustYAML(t, "eval-suite: how-to\nevals:\n  - use: spelling\n    severity: warning\n  - id: has-install-section\n    grader: tool:headings\n")
	p := docmeta.ValidatePage(root, cfg.Catalog, nil)
	if len(p.Results) > 0 {
		t.Fatal(render(p.Results))
	}
	var got []string
	for _, ev := range p.Evals {
		got = append(got, fmt.Sprintf("%s@%v/%s", ev.ID, ev.Pos, ev.Origin))
	}
	want := []string{"links-resolve@1:1/config", "has-install-section@5:5/page", "spelling@3:5/config"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan = %v, want %v", got, want)
	}
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	// No config: the default.
	cfg, rs, err := config.Load(root, "")
	if err != nil || len(rs) > 0 || cfg.Path != "" || cfg.Version != 1 {
		t.Fatalf("no config: %+v %v %v", cfg, rs, err)
	}
	// .evalgate.yml is found when .evalgate.yaml is missing.
	if err := os.WriteFile(filepath.Join(root, ".evalgate.yml"), []byte("version: 1\nfoo: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, rs, err = config.Load(root, "")
	if err != nil || cfg.Path != ".evalgate.yml" || len(rs) != 1 || rs[0].File != ".evalgate.yml" || rs[0].Pos != (diag.Pos{Line: 2, Col: 1}) {
		t.Fatalf(".evalgate.yml: %+v %v %v", cfg, rs, err)
	}
	// .evalgate.yaml wins over .evalgate.yml.
	if err := os.WriteFile(filepath.Join(root, ".evalgate.yaml"), []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, rs, err = config.Load(root, "")
	if err != nil || cfg.Path != ".evalgate.yaml" || len(rs) != 0 || cfg.Dir != root {
		t.Fatalf(".evalgate.yaml: %+v %v %v", cfg, rs, err)
	}
	// An explicit path in a subdirectory: Dir is that directory.
	if err := os.MkdirAll(filepath.Join(root, "ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ci", "evalgate.yaml"), []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err = config.Load(root, "ci/evalgate.yaml")
	if err != nil || cfg.Path != "ci/evalgate.yaml" || cfg.Dir != filepath.Join(root, "ci") {
		t.Fatalf("ci/evalgate.yaml: %+v %v", cfg, err)
	}
	// A missing explicit path is an I/O error.
	if _, _, err := config.Load(root, "nope.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing config: err = %v", err)
	}
}

// TestPathSuites: the suites with pages globs, in config order, with their
// globs cleaned as every config glob is; a suite without pages is only in
// the catalog.
func TestPathSuites(t *testing.T) {
	cfg, faults := config.Parse([]byte(`version: 1
suites:
  zeta:
    pages: ["./docs/**/*.md"]
    exclude: ["docs/archive/**"]
    evals: [A.]
  named-only:
    evals: [B.]
  alpha:
    pages: ["guides/*.md"]
    evals: [C.]
`), ".evalgate.yaml", "/repo")
	if len(faults) > 0 {
		t.Fatalf("faults: %v", faults)
	}
	var got []string
	for _, s := range cfg.PathSuites {
		got = append(got, fmt.Sprintf("%s %q %q", s.Name, s.Pages, s.Exclude))
	}
	want := []string{`zeta ["docs/**/*.md"] ["docs/archive/**"]`, `alpha ["guides/*.md"] []`}
	if !slices.Equal(got, want) {
		t.Errorf("PathSuites = %q, want %q", got, want)
	}
	if cfg.Catalog.Suites["named-only"] == nil || len(cfg.Catalog.Suites) != 3 {
		t.Errorf("catalog suites: %v", cfg.Catalog.Suites)
	}
}

// TestAISection: the judge's settings as parsed, with the defaults of the
// keys not written and each kind's defaults; ai: {} is no judge.
func TestAISection(t *testing.T) {
	text, err := os.ReadFile("testdata/ok/ai.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, faults := config.Parse(text, ".evalgate.yaml", "/repo")
	if len(faults) > 0 {
		t.Fatalf("faults: %v", faults)
	}
	a := cfg.AI
	if a.Judge != "main" || len(a.Providers) != 4 || a.Runs != 3 || a.Temperature == nil || *a.Temperature != 0 ||
		a.MaxCalls == nil || *a.MaxCalls != 100 || a.Agreement != 0.67 || a.Cache != ".evalgate/verdicts" ||
		a.MaxOutputTokens != config.DefaultMaxOutputTokens || a.TimeoutMS != config.DefaultJudgeTimeoutMS ||
		a.Retries != config.DefaultJudgeRetries || a.Concurrency != config.DefaultJudgeConcurrency {
		t.Errorf("ai: %+v", a)
	}
	for name, want := range map[string]string{
		"main":   "openai https://api.openai.com/v1 bearer OPENAI_API_KEY gpt-4.1-2025-04-14",
		"local":  "openai http://localhost:11434/v1 none  llama3.1",
		"claude": "anthropic https://api.anthropic.com x-api-key ANTHROPIC_API_KEY claude-sonnet-4",
		"script": "command    ",
	} {
		p := a.Providers[name]
		if got := strings.Join([]string{p.Kind, p.BaseURL, p.Auth, p.APIKeyEnv, p.Model}, " "); got != want {
			t.Errorf("provider %s: %q, want %q", name, got, want)
		}
	}
	if a.Providers["main"].Query["api-version"] != "2024-10-21" || a.Providers["main"].Headers["X-Team"] != "docs" ||
		len(a.Providers["script"].Command) != 3 {
		t.Errorf("providers: %+v", a.Providers)
	}
	none, faults := config.Parse([]byte("version: 1\nai: {}\n"), ".evalgate.yaml", "/repo")
	if len(faults) > 0 || none.AI.Judge != "" || len(none.AI.Providers) != 0 || none.AI.Cache != config.DefaultJudgeCache {
		t.Errorf("ai: {} = %+v, %v", none.AI, faults)
	}
}
