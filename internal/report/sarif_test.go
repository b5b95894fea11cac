package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/testfs"
)

// sarifEdgeReport is a changed-files run with a category and notices, and
// results of every rule family: notes, tool findings that share a
// fingerprint, unknown lines and columns, jev and EvalCase results, and
// hostile text, besides results SARIF leaves out.
func sarifEdgeReport() *Report {
	r := &Report{
		Tool:     Tool{Name: "evalgate", Version: "v0.9.0"},
		Scope:    Scope{Mode: ScopeChanged, Base: "0123456789abcdef0123456789abcdef01234567", Files: []string{"docs/guide.md"}},
		Category: "docs",
		Notices:  []string{"evalgate checked 1 changed file", "::warning::notice ##[group]x\nline two"},
		Duration: 1500 * time.Millisecond,
		Results: ResultsOf([]diag.Result{
			{Source: diag.SourceConfig, File: ".evalgate.yaml", Pos: diag.Pos{Line: 3, Col: 1}, Check: diag.CheckDefinition,
				Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "unknown_key",
				Message: `unknown key "pagez"`, Key: "pagez"},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 2, Col: 1}, Check: "eval-provenance",
				Outcome: diag.Fail, Severity: diag.SeverityInfo, Code: "unreviewed_provenance", Verdictless: true,
				Message: "evals proposed by model-x are not reviewed", Evidence: map[string]any{"models": []any{"model-x"}}},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 5, Col: 5}, Check: "spell", Grader: "command",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityWarning, Code: "stale_generated_command",
				Verdictless: true, Message: "the assertion changed since its command was generated"},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 5, Col: 5}, Check: "spell", Grader: "command",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityWarning, Code: "command_failed",
				Message: "exit 1", Weight: 1, DurationMS: 1234, Evidence: map[string]any{"exit_code": 1, "tail": "teh\n"},
				Assertion: "Words are\nspelled right [see](https://example.com)"},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 6, Col: 5}, Check: "links", Grader: "tool:links",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "broken_link",
				Message: "link target missing.md does not exist", Key: "missing.md", Weight: 1,
				Evidence: map[string]any{"target": "missing.md"}},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 14}, Check: "links", Grader: "tool:links",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "broken_link",
				Message: "link target missing.md does not exist", Key: "missing.md", Weight: 1},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 20, Col: 3}, Check: "links", Grader: "tool:links",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "missing_anchor",
				Message: "#setup names no heading of install.md", Key: "install.md#setup", Weight: 1},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 7, Col: 5}, Check: "short", Grader: "tool:length",
				Type: diag.TypeCapability, Outcome: diag.Pass, Code: "ok", Message: "tool:length found nothing", Weight: 1},
			{Source: diag.SourcePage, File: "docs/guide.md", Pos: diag.Pos{Line: 8, Col: 5}, Check: "review", Grader: "human",
				Type: diag.TypeRegression, Outcome: diag.Pending, Code: "human_review", Message: "waits for human review: reads well", Weight: 1},
			{Source: diag.SourcePage, File: "docs/link ü.md", Check: "fresh", Grader: "command", Type: diag.TypeRegression,
				Outcome: diag.Error, Severity: diag.SeverityInfo, Blocking: true, Code: "target_outside_repo",
				Message: "the page is a symlink out of the repository", Weight: 1},
			{Source: diag.SourceEvalCase, File: "evals/cases.jsonl", Pos: diag.Pos{Line: 9, Col: 1}, Check: "max_chars",
				CaseID: "protocol.item-count.002", Outcome: diag.Fail, Severity: diag.SeverityWarning, Code: "max_chars_exceeded",
				Message: "the candidate has 130 code points, over its max 120", Evidence: map[string]any{"actual": 130, "max": 120}},
			{Source: diag.SourceEvalCase, File: "evals/candidates/x.jsonl", Pos: diag.Pos{Line: 2, Col: 1}, Check: "", CaseID: "no.such.001",
				Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "unknown_case",
				Message: "the candidate names no selected case"},
			{Source: diag.SourceJev, File: "evals/jev/triage.json", Pos: diag.Pos{Line: 17, Col: 9}, Check: "category",
				CaseID: "t-001", Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "answer_flip",
				Message: "billing→general", Key: "category"},
			{Source: diag.SourceJev, File: "evals/jev/replay.jsonl", Pos: diag.Pos{Line: 1}, Check: "replay",
				CaseID: "t-002", Outcome: diag.Error, Blocking: true, Code: "replay_missing_case",
				Message: "the replay has no answers for t-002"},
		}...),
	}
	r.Count()
	return r
}

// sarifHostileReport puts control characters, invalid UTF-8, workflow
// commands and markup everywhere text from pages and graders can go.
func sarifHostileReport() *Report {
	const evil = "::error::x\r\n##[set-output name=a]b\x00\x1b\x7f\u0085\u2028\u2029\xff\xfe<&>\"'\\"
	r := &Report{
		// The version comes from the build, not from pages (and the SARIF
		// multitool echoes it to the CI log).
		Tool:     Tool{Name: "evalgate", Version: "1.0.0"},
		Scope:    Scope{Mode: ScopeAll},
		Category: "cat" + evil,
		Notices:  []string{evil},
		Results: ResultsOf([]diag.Result{
			{Source: diag.SourcePage, File: "::docs/" + evil + "%20.md", Pos: diag.Pos{Line: 1, Col: 1}, Check: "id" + evil,
				CaseID: evil, Grader: "command", Type: evil, Outcome: diag.Fail, Code: "command_failed" + evil,
				Message: evil, Key: evil, Weight: 1, Assertion: evil,
				Evidence: map[string]any{evil: evil, "list": []any{evil, 1.5, nil, true}}},
			{Source: diag.SourcePage, File: evil, Check: diag.CheckDefinition, Outcome: diag.Fail, Severity: diag.SeverityInfo,
				Code: evil, Message: ""},
			{Source: diag.SourcePage, File: evil, Pos: diag.Pos{Line: 2}, Check: "t", Grader: "tool:" + evil,
				Outcome: diag.Error, Code: "internal_error", Message: evil},
			{Source: diag.SourceConfig, File: ".evalgate.yaml", Pos: diag.Pos{Line: 4, Col: 3}, Check: "suite:" + evil,
				Outcome: diag.Fail, Code: "suite_below_target", Message: evil},
		}...),
	}
	r.Count()
	return r
}

// sarifBigReport has errors error outcomes and fails of error, warning and
// info severity, interleaved in report order, each in its own file.
func sarifBigReport(errors, fails, warnings, notes int) *Report {
	r := &Report{Tool: Tool{Name: "evalgate", Version: "1.0.0"}, Scope: Scope{Mode: ScopeAll}}
	total := errors + fails + warnings + notes
	add := func(n *int, o diag.Outcome, s diag.Severity, code string) {
		if *n == 0 {
			return
		}
		*n--
		i := r.Results.Len()
		r.Results.Add(diag.Result{
			Source: diag.SourcePage, File: fmt.Sprintf("docs/%05d.md", i), Pos: diag.Pos{Line: i%50 + 1},
			Check: "links", Grader: "tool:links", Outcome: o, Severity: s, Code: code, Message: "m", Key: fmt.Sprint(i),
		})
	}
	// Interleaved, so that dropping must pick by rank, not by position.
	for r.Results.Len() < total {
		add(&notes, diag.Fail, diag.SeverityInfo, "too_short")
		add(&fails, diag.Fail, diag.SeverityError, "broken_link")
		add(&warnings, diag.Fail, diag.SeverityWarning, "missing_anchor")
		add(&errors, diag.Error, diag.SeverityInfo, "internal_error")
	}
	r.Count()
	return r
}

// TestSARIFSchemaGoldens validates every SARIF file of testdata, the goldens
// included, against evalgate's SARIF subset schema.
func TestSARIFSchemaGoldens(t *testing.T) {
	files := testfs.Files(t, filepath.Join("testdata", "*.sarif"))
	if len(files) < 4 {
		t.Fatalf("found %d SARIF files in testdata, want the goldens", len(files))
	}
	for _, f := range files {
		validateSARIF(t, f.Path, f.Text)
	}
}

// TestSARIFSchemaEdges validates the logs of edge-case reports.
func TestSARIFSchemaEdges(t *testing.T) {
	onlyPasses := &Report{Tool: Tool{Name: "evalgate", Version: "1.0.0"}, Scope: Scope{Mode: ScopeAll}}
	for i := range 3 {
		onlyPasses.Results.Add(diag.Result{Source: diag.SourcePage, File: "a.md",
			Pos: diag.Pos{Line: i + 1}, Check: "c", Grader: "command", Outcome: diag.Pass, Code: "ok", Message: "ok"})
	}
	onlyPasses.Results.Add(
		diag.Result{Source: diag.SourcePage, File: "a.md", Check: "s", Outcome: diag.Skip, Code: "eval_skipped", Message: "skip"},
		diag.Result{Source: diag.SourcePage, File: "a.md", Check: "h", Grader: "human", Outcome: diag.Pending, Code: "human_review", Message: "wait"})

	unknownPositions := &Report{Tool: Tool{Name: "evalgate"}, Scope: Scope{Mode: ScopePaths}}
	for i, pos := range []diag.Pos{{}, {Line: 3}, {Line: 3, Col: 7}, {Line: 0, Col: 5}} {
		unknownPositions.Results.Add(diag.Result{Source: diag.SourcePage, File: "a.md",
			Pos: pos, Check: fmt.Sprint("c", i), Grader: "command", Outcome: diag.Fail, Code: "command_failed", Message: "failed"})
	}

	tests := []struct {
		name        string
		r           *Report
		results     int
		rules       int
		withRegions int
	}{
		{"no results", &Report{Scope: Scope{Mode: ScopeAll}}, 0, 0, 0},
		{"only passes", onlyPasses, 0, 0, 0},
		{"unknown lines and columns", unknownPositions, 4, 4, 2},
		{"hostile text", sarifHostileReport(), 4, 4, 3},
		{"more than 25,000 results", sarifBigReport(5, sarifMaxResults, 3, 4), sarifMaxResults, 2, sarifMaxResults},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := writeReport(t, WriteSARIF, tt.r)
			validateSARIF(t, tt.name, out)
			log := checkSARIF(t, tt.r, out)
			run := log.Runs[0]
			if len(run.Results) != tt.results || len(run.Tool.Driver.Rules) != tt.rules {
				t.Errorf("%d results and %d rules, want %d and %d",
					len(run.Results), len(run.Tool.Driver.Rules), tt.results, tt.rules)
			}
			regions := 0
			for _, res := range run.Results {
				if res.Locations[0].PhysicalLocation.Region != nil {
					regions++
				}
			}
			if regions != tt.withRegions {
				t.Errorf("%d results have a region, want %d", regions, tt.withRegions)
			}
			var warnings []string
			for _, n := range run.Invocations[0].Notifications {
				if n.Level == "warning" {
					warnings = append(warnings, n.Message.Text)
				}
			}
			dropped := SARIFDropped(tt.r)
			switch {
			case dropped == 0 && len(warnings) != 0:
				t.Errorf("notifications %q without dropping", warnings)
			case dropped > 0 && (len(warnings) != 1 || !strings.Contains(warnings[0], fmt.Sprintf("%d were left out", dropped))):
				t.Errorf("notifications %q, want one saying %d were left out", warnings, dropped)
			}
		})
	}
}

// TestSARIFSchemaRejects makes sure the schema is not vacuous: it rejects
// what SARIF or GitHub reject.
func TestSARIFSchemaRejects(t *testing.T) {
	valid := writeReport(t, WriteSARIF, sarifEdgeReport())
	run := func(log map[string]any) map[string]any { return log["runs"].([]any)[0].(map[string]any) }
	driver := func(log map[string]any) map[string]any {
		return run(log)["tool"].(map[string]any)["driver"].(map[string]any)
	}
	result := func(log map[string]any) map[string]any { return run(log)["results"].([]any)[0].(map[string]any) }
	phys := func(log map[string]any) map[string]any {
		return result(log)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	}
	tests := []struct {
		name   string
		change func(log map[string]any)
	}{
		{"null rules", func(l map[string]any) { driver(l)["rules"] = nil }},
		{"null results", func(l map[string]any) { run(l)["results"] = nil }},
		{"two runs", func(l map[string]any) { l["runs"] = append(l["runs"].([]any), run(l)) }},
		{"wrong version", func(l map[string]any) { l["version"] = "2.1.0-rtm.5" }},
		{"line 0", func(l map[string]any) { phys(l)["region"].(map[string]any)["startLine"] = 0 }},
		{"column 0", func(l map[string]any) { phys(l)["region"].(map[string]any)["startColumn"] = 0 }},
		{"column without line", func(l map[string]any) { delete(phys(l)["region"].(map[string]any), "startLine") }},
		{"level info", func(l map[string]any) { result(l)["level"] = "info" }},
		{"column kind", func(l map[string]any) { run(l)["columnKind"] = "codePoints" }},
		{"no locations", func(l map[string]any) { delete(result(l), "locations") }},
		{"no artifact location", func(l map[string]any) { delete(phys(l), "artifactLocation") }},
		{"no rule id", func(l map[string]any) { delete(result(l), "ruleId") }},
		{"no message", func(l map[string]any) { delete(result(l), "message") }},
		{"rule without help", func(l map[string]any) { delete(driver(l)["rules"].([]any)[0].(map[string]any), "help") }},
		{"rule without full description", func(l map[string]any) {
			delete(driver(l)["rules"].([]any)[0].(map[string]any), "fullDescription")
		}},
		{"suppressions", func(l map[string]any) { result(l)["suppressions"] = []any{} }},
		{"uri with a colon first", func(l map[string]any) {
			phys(l)["artifactLocation"].(map[string]any)["uri"] = "::docs/guide.md"
		}},
		{"bad fingerprint", func(l map[string]any) {
			result(l)["partialFingerprints"] = map[string]any{sarifFingerprintKey: "x"}
		}},
		{"invocation without success", func(l map[string]any) {
			delete(run(l)["invocations"].([]any)[0].(map[string]any), "executionSuccessful")
		}},
		{"category without slash", func(l map[string]any) {
			run(l)["automationDetails"] = map[string]any{"id": "docs"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(valid))
			if err != nil {
				t.Fatal(err)
			}
			tt.change(doc.(map[string]any))
			if err := sarifSubsetSchema(t).Validate(doc); err == nil {
				t.Error("the schema accepts it")
			}
		})
	}
}

var sarifSchemaOnce = sync.OnceValues(func() (*jsonschema.Schema, error) {
	const path = "testdata/sarif-subset.schema.json"
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // uri and uri-reference are checked, not only annotated
	if err := c.AddResource(path, doc); err != nil {
		return nil, err
	}
	return c.Compile(path)
})

func sarifSubsetSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := sarifSchemaOnce()
	if err != nil {
		t.Fatalf("the SARIF subset schema: %v", err)
	}
	return sch
}

func validateSARIF(t *testing.T, name string, b []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := sarifSubsetSchema(t).Validate(doc); err != nil {
		t.Errorf("%s does not satisfy the SARIF subset schema: %v", name, err)
	}
}

// The parts of a SARIF log the tests look at, decoded independently of the
// library that writes it.
type sarifLogT struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name    string          `json:"name"`
				Version string          `json:"version"`
				RawRule json.RawMessage `json:"rules"`
				Rules   []struct {
					ID               string `json:"id"`
					Name             string `json:"name"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"-"`
			} `json:"driver"`
		} `json:"tool"`
		RawResults  json.RawMessage `json:"results"`
		Results     []sarifResultT  `json:"-"`
		Invocations []struct {
			ExecutionSuccessful bool `json:"executionSuccessful"`
			Notifications       []struct {
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		AutomationDetails *struct {
			ID string `json:"id"`
		} `json:"automationDetails"`
		ColumnKind string         `json:"columnKind"`
		Properties map[string]any `json:"properties"`
	} `json:"runs"`
}

type sarifResultT struct {
	RuleID    string `json:"ruleId"`
	RuleIndex *int   `json:"ruleIndex"`
	Level     string `json:"level"`
	Message   struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI       string `json:"uri"`
				URIBaseID string `json:"uriBaseId"`
			} `json:"artifactLocation"`
			Region *struct {
				StartLine   int `json:"startLine"`
				StartColumn int `json:"startColumn"`
			} `json:"region"`
		} `json:"physicalLocation"`
	} `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Suppressions        json.RawMessage   `json:"suppressions"`
	Properties          map[string]any    `json:"properties"`
}

// checkSARIF asserts in Go what the schema cannot say, and returns the log.
func checkSARIF(t *testing.T, r *Report, out []byte) *sarifLogT {
	t.Helper()
	var log sarifLogT
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatalf("the log is not JSON: %v", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q with %d runs, want 2.1.0 with one", log.Version, len(log.Runs))
	}
	run := &log.Runs[0]
	drv := &run.Tool.Driver
	if drv.Name != "evalgate" {
		t.Errorf("driver name %q", drv.Name)
	}
	// rules and results are arrays, never null: GitHub rejects null.
	for name, raw := range map[string]json.RawMessage{"rules": drv.RawRule, "results": run.RawResults} {
		if !bytes.HasPrefix(raw, []byte("[")) {
			t.Fatalf("%s is %s, want an array", name, raw)
		}
	}
	if err := json.Unmarshal(drv.RawRule, &drv.Rules); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(run.RawResults, &run.Results); err != nil {
		t.Fatal(err)
	}
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind %q", run.ColumnKind)
	}

	// Every rule is declared once, with a description; every result names
	// a declared rule, and its ruleIndex points at it.
	index := map[string]int{}
	for i, rule := range drv.Rules {
		if _, dup := index[rule.ID]; dup {
			t.Errorf("rule %q is declared twice", rule.ID)
		}
		index[rule.ID] = i
		if rule.ShortDescription.Text == "" || strings.ContainsAny(rule.ShortDescription.Text, "\n\r") {
			t.Errorf("rule %q: short description %q", rule.ID, rule.ShortDescription.Text)
		}
		if rule.Name == "" || rule.Name == rule.ID {
			t.Errorf("rule %q: name %q", rule.ID, rule.Name)
		}
	}
	used := map[string]bool{}
	prints := map[string]bool{}
	for i, res := range run.Results {
		idx, ok := index[res.RuleID]
		if !ok {
			t.Errorf("result %d: rule %q is not declared", i, res.RuleID)
		} else if res.RuleIndex == nil || *res.RuleIndex != idx {
			t.Errorf("result %d: ruleIndex %v, want %d", i, res.RuleIndex, idx)
		}
		used[res.RuleID] = true
		fp := res.PartialFingerprints[sarifFingerprintKey]
		if fp == "" || prints[fp] {
			t.Errorf("result %d: fingerprint %q is empty or not unique", i, fp)
		}
		prints[fp] = true
		if len(res.Suppressions) > 0 {
			t.Errorf("result %d has suppressions", i)
		}
		if len(res.Locations) != 1 || res.Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID != sarifSrcRoot {
			t.Errorf("result %d: locations %+v", i, res.Locations)
		}
		if res.Message.Text == "" {
			t.Errorf("result %d has no message", i)
		}
	}
	for id := range index {
		if !used[id] {
			t.Errorf("rule %q is declared but no result names it", id)
		}
	}

	// Without dropping, results map one to one onto the fail and error
	// results, in report order, at their files and positions.
	var want []*diag.Result
	for _, res := range r.Results.Slice() {
		if o := res.Outcome; o == diag.Fail || o == diag.Error {
			want = append(want, &res)
		}
	}
	if SARIFDropped(r) == 0 {
		if len(run.Results) != len(want) {
			t.Fatalf("%d results, want %d", len(run.Results), len(want))
		}
		for i, res := range run.Results {
			w := want[i]
			loc := res.Locations[0].PhysicalLocation
			u, err := url.Parse(loc.ArtifactLocation.URI)
			if err != nil || u.Scheme != "" || u.Host != "" || u.Path != w.File {
				t.Errorf("result %d: uri %q does not decode to %q (%v)", i, loc.ArtifactLocation.URI, w.File, err)
			}
			switch {
			case w.Pos.Line == 0 && loc.Region != nil:
				t.Errorf("result %d: a region %+v for an unknown line", i, *loc.Region)
			case w.Pos.Line > 0 && (loc.Region == nil || loc.Region.StartLine != w.Pos.Line || loc.Region.StartColumn != w.Pos.Col):
				t.Errorf("result %d: region %+v, want %v", i, loc.Region, w.Pos)
			}
			// JSON carries text as UTF-8: an invalid byte of a rule id is
			// read back as U+FFFD.
			if id := jsonString(RuleID(w)); res.RuleID != id || res.Level != sarifLevel(w) {
				t.Errorf("result %d: rule %q level %q, want %q %q", i, res.RuleID, res.Level, id, sarifLevel(w))
			}
		}
	}

	// A partial run says so; a category becomes automationDetails.id.
	if got := run.Properties["partial"] == true; got != r.Partial() {
		t.Errorf("properties.partial %v, want %v", run.Properties["partial"], r.Partial())
	}
	switch {
	case r.Category == "" && run.AutomationDetails != nil:
		t.Errorf("automationDetails %+v without a category", *run.AutomationDetails)
	case r.Category != "" && (run.AutomationDetails == nil || !strings.HasSuffix(run.AutomationDetails.ID, "/")):
		t.Errorf("automationDetails %+v for category %q", run.AutomationDetails, r.Category)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations %+v", run.Invocations)
	}
	return &log
}

// jsonString is s as it reads back from JSON.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	var out string
	json.Unmarshal(b, &out)
	return out
}

func TestSARIFFingerprintsIgnoreLines(t *testing.T) {
	before := fingerprintsOf(t, sarifEdgeReport())
	moved := sarifEdgeReport()
	moved.Results.Update(func(res *diag.Result) {
		res.Pos = res.Pos.Shift(10)
		res.Message += " (edited)"
	})
	after := fingerprintsOf(t, moved)
	if strings.Join(before, ",") != strings.Join(after, ",") {
		t.Errorf("fingerprints changed with the lines:\n%v\n%v", before, after)
	}

	// Two broken links to one target share a hash: the later one gets ":2".
	var dups int
	for _, fp := range before {
		if strings.HasSuffix(fp, ":2") {
			dups++
		}
	}
	if dups != 1 {
		t.Errorf("%d fingerprints with :2, want 1: %v", dups, before)
	}
}

func TestSARIFFingerprintFields(t *testing.T) {
	base := diag.Result{Source: diag.SourceEvalCase, File: "a", CaseID: "bc", Check: "max_chars",
		Outcome: diag.Fail, Code: "max_chars_exceeded", Key: "k", Message: "m"}
	variants := map[string]func(*diag.Result){
		"file":                  func(r *diag.Result) { r.File = "b" },
		"case id":               func(r *diag.Result) { r.CaseID = "bd" },
		"code":                  func(r *diag.Result) { r.Code = "no_candidate" },
		"key":                   func(r *diag.Result) { r.Key = "l" },
		"rule":                  func(r *diag.Result) { r.Check = "required_tokens" },
		"field boundary":        func(r *diag.Result) { r.File, r.CaseID = "ab", "c" },
		"field boundary at NUL": func(r *diag.Result) { r.File, r.CaseID = "a\x00bc", "" },
	}
	want := fingerprintsOf(t, &Report{Results: ResultsOf([]diag.Result{base}...)})[0]
	for name, change := range variants {
		r := base
		change(&r)
		if got := fingerprintsOf(t, &Report{Results: ResultsOf([]diag.Result{r}...)})[0]; got == want {
			t.Errorf("%s: the fingerprint does not change", name)
		}
	}
	same := base
	same.Pos, same.Message, same.Severity, same.Evidence = diag.Pos{Line: 9, Col: 2}, "other", diag.SeverityInfo, map[string]any{"x": 1}
	if got := fingerprintsOf(t, &Report{Results: ResultsOf([]diag.Result{same}...)})[0]; got != want {
		t.Error("the fingerprint depends on the position, message, severity or evidence")
	}
}

func fingerprintsOf(t *testing.T, r *Report) []string {
	t.Helper()
	var log sarifLogT
	if err := json.Unmarshal(writeReport(t, WriteSARIF, r), &log); err != nil {
		t.Fatal(err)
	}
	var results []sarifResultT
	if err := json.Unmarshal(log.Runs[0].RawResults, &results); err != nil {
		t.Fatal(err)
	}
	var fps []string
	for _, res := range results {
		fps = append(fps, res.PartialFingerprints[sarifFingerprintKey])
	}
	return fps
}

// TestSARIFDropOrder checks that more than 25,000 results lose notes first,
// then warnings, then error-level fails, and error outcomes never before.
// TestSARIFSchemaEdges writes one such log end to end.
func TestSARIFDropOrder(t *testing.T) {
	tests := []struct {
		name                           string
		errors, fails, warnings, notes int
		// kept, by rank: notes, warnings, error-level fails, error outcomes
		kept [4]int
	}{
		{"notes go first", 2, sarifMaxResults - 4, 2, 5, [4]int{0, 2, sarifMaxResults - 4, 2}},
		{"then warnings", 3, sarifMaxResults - 5, 4, 1, [4]int{0, 2, sarifMaxResults - 5, 3}},
		{"then error-level fails", 10, sarifMaxResults, 2, 2, [4]int{0, 0, sarifMaxResults - 10, 10}},
		{"error outcomes last", sarifMaxResults + 1, 1, 1, 1, [4]int{0, 0, 0, sarifMaxResults}},
		{"exactly the limit", 1, sarifMaxResults - 3, 1, 1, [4]int{1, 1, sarifMaxResults - 3, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sarifBigReport(tt.errors, tt.fails, tt.warnings, tt.notes)
			total := tt.errors + tt.fails + tt.warnings + tt.notes
			if got, want := SARIFDropped(r), max(0, total-sarifMaxResults); got != want {
				t.Errorf("SARIFDropped = %d, want %d", got, want)
			}
			quota, _ := sarifQuota(r)
			var kept [4]int
			var last *diag.Result
			sarifEach(r, quota, false, func(res *diag.Result, _ string) {
				if last != nil && diag.Compare(last, res) >= 0 {
					t.Fatalf("kept results out of report order: %s after %s", res.File, last.File)
				}
				copied := *res
				last = &copied
				kept[dropRank(res)]++
			})
			if kept != tt.kept {
				t.Errorf("kept by rank %v, want %v", kept, tt.kept)
			}
		})
	}
}

// TestSARIFDropKeepsReportOrder checks that, within the rank that is cut,
// the first results in report order stay, with the fingerprints they have
// in a log without dropping.
func TestSARIFDropKeepsReportOrder(t *testing.T) {
	r := sarifBigReport(0, sarifMaxResults+2, 0, 0)
	each := func(r *Report) (files, prints []string) {
		quota, _ := sarifQuota(r)
		sarifEach(r, quota, true, func(res *diag.Result, fp string) {
			files, prints = append(files, res.File), append(prints, fp)
		})
		return files, prints
	}
	keptFiles, kept := each(r)
	all := r.Results.Slice()
	if len(kept) != sarifMaxResults || keptFiles[len(keptFiles)-1] != all[sarifMaxResults-1].File {
		t.Fatalf("kept %d results, the last in %s; want the first %d", len(kept), keptFiles[len(keptFiles)-1], sarifMaxResults)
	}
	whole := &Report{Results: ResultsOf(all[:sarifMaxResults]...)}
	_, fit := each(whole)
	for i := range fit {
		if fit[i] != kept[i] {
			t.Fatalf("result %d: fingerprint %s when dropping, %s without", i, kept[i], fit[i])
		}
	}
}

func TestSARIFRunDetails(t *testing.T) {
	log := checkSARIF(t, sarifEdgeReport(), writeReport(t, WriteSARIF, sarifEdgeReport()))
	run := log.Runs[0]
	if run.AutomationDetails == nil || run.AutomationDetails.ID != "docs/" {
		t.Errorf("automationDetails %+v, want id docs/", run.AutomationDetails)
	}
	if run.Properties["partial"] != true {
		t.Errorf("properties %v, want partial", run.Properties)
	}
	if v := run.Tool.Driver.Version; v != "0.9.0" {
		t.Errorf("driver version %q, want 0.9.0", v)
	}
	var notes []string
	for _, n := range run.Invocations[0].Notifications {
		if n.Level != "note" {
			t.Errorf("notification level %q, want note", n.Level)
		}
		notes = append(notes, n.Message.Text)
	}
	if strings.Join(notes, "|") != strings.Join(sarifEdgeReport().Notices, "|") {
		t.Errorf("notifications %q", notes)
	}

	// A category that ends in '/' already is not given a second one.
	r := sarifEdgeReport()
	r.Category = "docs/"
	if got := checkSARIF(t, r, writeReport(t, WriteSARIF, r)).Runs[0].AutomationDetails; got == nil || got.ID != "docs/" {
		t.Errorf("automationDetails %+v for docs/", got)
	}
	// A full run is not partial.
	if got := checkSARIF(t, sample(), writeReport(t, WriteSARIF, sample())).Runs[0].Properties; got != nil {
		t.Errorf("properties %v for a full run", got)
	}
	// A run of PATH arguments saw part of the repository, as a changed-files run did.
	r = sample()
	r.Scope.Mode = ScopePaths
	if got := checkSARIF(t, r, writeReport(t, WriteSARIF, r)).Runs[0].Properties; got["partial"] != true {
		t.Errorf("properties %v for a run of PATH arguments, want partial", got)
	}
}

func TestSARIFRules(t *testing.T) {
	log := checkSARIF(t, sarifEdgeReport(), writeReport(t, WriteSARIF, sarifEdgeReport()))
	got := map[string]string{}
	levels := map[string]string{}
	for _, rule := range log.Runs[0].Tool.Driver.Rules {
		got[rule.ID] = rule.ShortDescription.Text
		levels[rule.ID] = rule.DefaultConfiguration.Level
	}
	want := map[string]string{
		"definition/unknown_key":             "A key the vocabulary does not define",
		"definition/unreviewed_provenance":   "Machine-proposed evals that nobody has reviewed yet",
		"definition/stale_generated_command": "The assertion changed since its command was generated",
		"eval/spell":                         "Words are spelled right [see](https://example.com)",
		"eval/fresh":                         "Eval fresh",
		"tool:links/broken_link":             "A relative link or image does not resolve to a file",
		"tool:links/missing_anchor":          "A link's #anchor names no heading or id in its page",
		"evalcase/max_chars":                 "The candidate is no longer than its max_chars limit",
		"evalcase/unknown_case":              "The candidate names no selected case",
		"jev/answer_flip":                    "The candidate's answer differs from the contract's",
		"jev/replay_missing_case":            "The replay has no answers for a contract case",
	}
	for id, desc := range want {
		if got[id] != desc {
			t.Errorf("rule %q: %q, want %q", id, got[id], desc)
		}
	}
	if len(got) != len(want) {
		t.Errorf("rules %v, want %d", got, len(want))
	}
	// An error outcome is level error whatever its severity.
	if levels["eval/fresh"] != "error" || levels["definition/unreviewed_provenance"] != "note" ||
		levels["eval/spell"] != "warning" {
		t.Errorf("levels %v", levels)
	}
}

func TestSARIFURI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"docs/a.md", "docs/a.md"},
		{"docs/a b.md", "docs/a%20b.md"},
		{"docs/ü.md", "docs/%C3%BC.md"},
		{"::evil.md", "%3A%3Aevil.md"},
		{"a%20b/c#d?e.md", "a%2520b/c%23d%3Fe.md"},
		{".evalgate.yaml", ".evalgate.yaml"},
		{"bad\xff.md", "bad%FF.md"},
	}
	for _, tt := range tests {
		got := sarifURI(tt.in)
		if got != tt.want {
			t.Errorf("sarifURI(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if u, err := url.Parse(got); err != nil || u.Path != tt.in || u.Scheme != "" {
			t.Errorf("sarifURI(%q) = %q does not parse back (%v)", tt.in, got, err)
		}
	}
}

// TestSARIFHelpLinks checks that the README sections helpUri points at exist.
func TestSARIFHelpLinks(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Skip("no README.md:", err)
	}
	for _, heading := range []string{"## Codes\n", "## Results, outcomes and blocking\n"} {
		if !bytes.Contains(readme, []byte("\n"+heading)) {
			t.Errorf("README.md has no %q heading, which the SARIF rules' helpUri names", strings.TrimSpace(heading))
		}
	}
}
