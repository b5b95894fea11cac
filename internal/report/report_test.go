package report

import (
	"bytes"
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/actionslog"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/testfs"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func score(f float64) *float64 { return &f }

// sample is a report with every outcome, every source, unknown positions and
// hostile text from pages and graders.
func sample() *Report {
	r := &Report{
		Tool:  Tool{Name: "evalgate", Version: "v1.2.3"},
		Scope: Scope{Mode: ScopeAll, Files: []string{"docs/a b.md", "docs/ü.md"}},
		// A fixed wall time: the goldens do not depend on timing.
		Duration: 5 * time.Second,
		Summary: Summary{
			Score: score(2.0 / 3.0),
		},
		// What the run saw: only the terminal form and the job summary show it.
		Seen: Seen{Pages: 4, PagesWithEvals: 3, Evals: 5, Fixtures: 1},
		Suites: []Suite{
			{Name: "how-to", Score: 0.5, Target: 1, Met: false},
			{Name: "ref", Score: 1, Target: 0.9, Met: true, Partial: true},
		},
		Results: ResultsOf([]diag.Result{
			{Source: diag.SourceConfig, File: ".evalgate.yaml", Pos: diag.Pos{Line: 12, Col: 3}, Check: "suite:how-to",
				Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "suite_below_target",
				Message: "suite how-to scores 0.5, below its target 1", Evidence: map[string]any{"score": 0.5, "target": 1.0}},
			{Source: diag.SourcePage, File: "docs/a b.md", Pos: diag.Pos{Line: 3, Col: 5}, Check: "definition",
				Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "unknown_key",
				Message: `unknown key "gradr" in an eval entry`},
			{Source: diag.SourcePage, File: "docs/a b.md", Pos: diag.Pos{Line: 4, Col: 5}, Check: "spell",
				Grader: "command", Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityWarning,
				Code: "command_failed", Message: "exit 1:\n::error::owned\r\n##[set-output name=x]y\x7f\u0085\u2028",
				Weight: 2, DurationMS: 12, Evidence: map[string]any{"exit_code": 1, "tail": "::error::owned\n"}},
			{Source: diag.SourcePage, File: "docs/a b.md", Pos: diag.Pos{Line: 9}, Check: "links",
				Grader: "tool:links", Type: diag.TypeRegression, Outcome: diag.Pass, Code: "ok", Message: "no finding", Weight: 1},
			{Source: diag.SourcePage, File: "docs/ü.md", Pos: diag.Pos{Line: 2, Col: 1}, Check: "auto-0a1b2c3d",
				Grader: "ai", Type: diag.TypeCapability, Outcome: diag.Pending, Code: "no_judge",
				Message: "waits for a judge", Weight: 1},
			{Source: diag.SourcePage, File: "::evil.md", Check: "eval-skip", Outcome: diag.Skip,
				Code: "page_skipped", Message: "the page sets eval-skip: true"},
			{Source: diag.SourcePage, File: "docs/ü.md", Pos: diag.Pos{Line: 7}, Check: "slow", Grader: "command",
				Type: diag.TypeRegression, Outcome: diag.Error, Blocking: true, Code: "command_timeout",
				Message: "timed out after 50 ms", Weight: 1},
			{Source: diag.SourceEvalCase, File: "evals/cases.jsonl", Pos: diag.Pos{Line: 4, Col: 1}, Check: "placeholder_integrity",
				CaseID: "placeholder.printf.001", Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true,
				Code: "placeholder_missing", Message: "placeholder %d is missing",
				Evidence: map[string]any{"expected": []any{"%s", "%d"}, "actual": []any{"%s"}}},
		}...),
	}
	r.Count()
	return r
}

// baselinedSample is sample() read against a baseline that accepts its
// first two fails (README "Baseline").
func baselinedSample() *Report {
	r := sample()
	r.Baseline = true
	n := 0
	r.Results.Update(func(res *diag.Result) {
		if res.Outcome == diag.Fail && n < 2 {
			res.Baselined, res.Blocking = true, false
			n++
		}
	})
	r.Count()
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testfs.Golden(t, filepath.Join("testdata", name), string(got), *update)
}

// writeReport is what write writes for r; an error fails the test.
func writeReport(t *testing.T, write func(io.Writer, *Report) error, r *Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// shardReport is part 2 of 3 of a sharded run: what merge reads of it (its config, its suites'
// weights and keys, the summary's weights) is there.
func shardReport() *Report {
	r := &Report{
		Tool: Tool{Name: "evalgate", Version: "v1.2.3"},
		Scope: Scope{Mode: ScopeAll, Files: []string{"docs/b.md"}, Shard: &Shard{Index: 2, Count: 3},
			Config: &ConfigFile{File: ".evalgate.yaml", SHA256: "0f1e2d3c4b5a69780f1e2d3c4b5a69780f1e2d3c4b5a69780f1e2d3c4b5a6978"}},
		Duration: time.Second,
		Summary:  Summary{Score: score(0.75), Weights: Weights{Pass: 3, Total: 4}},
		Suites: []Suite{{Name: "guides", Score: 0.5, Target: 1, Partial: true, Weights: Weights{Pass: 1, Total: 2},
			Pos: diag.Pos{Line: 4, Col: 3}}},
		Results: ResultsOf([]diag.Result{
			{Source: diag.SourcePage, File: "docs/b.md", Pos: diag.Pos{Line: 3, Col: 5}, Check: "links", Grader: "tool:links",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "broken_link",
				Message: "link target gone.md does not exist", Key: "gone.md", Weight: 1},
		}...),
	}
	r.Count()
	return r
}

// emptyReport is a run that found nothing to check.
func emptyReport() *Report {
	return &Report{Tool: Tool{Name: "evalgate", Version: "1.0.0"}, Scope: Scope{Mode: ScopeAll}}
}

// goldenSamples are the reports every file format has a golden file of, in
// testdata/NAME.EXT.
var goldenSamples = []struct {
	name string
	r    func() *Report
}{
	{"sample", sample},
	{"baselined", baselinedSample},
	{"edge", sarifEdgeReport},
	{"hostile", sarifHostileReport},
	{"judged", judgedReport},
	{"shard", shardReport},
	{"empty", emptyReport},
}

// goldenFormats are the report file formats: a golden file's ending, the
// writer, and a check that reads the output back against the report (every
// output passes assertHygiene first). The github format has golden files of
// its own (github_test.go): it writes workflow commands on purpose.
var goldenFormats = []struct {
	ext   string
	write func(io.Writer, *Report) error
	check func(*testing.T, *Report, []byte)
}{
	{"text", WriteText, func(*testing.T, *Report, []byte) {}},
	{"json", WriteJSON, checkJSON},
	{"sarif", WriteSARIF, func(t *testing.T, r *Report, out []byte) { checkSARIF(t, r, out) }},
	{"junit.xml", WriteJUnit, func(t *testing.T, r *Report, out []byte) { checkJUnit(t, r, out) }},
	{"github-summary.md", WriteJobSummary, func(t *testing.T, _ *Report, out []byte) { summaryHygiene(t, string(out)) }},
}

// TestGoldens writes every sample in every file format and compares each
// output with its golden file.
func TestGoldens(t *testing.T) {
	for _, s := range goldenSamples {
		for _, f := range goldenFormats {
			name := s.name + "." + f.ext
			t.Run(name, func(t *testing.T) {
				r := s.r()
				out := writeReport(t, f.write, r)
				golden(t, name, out)
				assertHygiene(t, string(out))
				f.check(t, r, out)
			})
		}
	}
}

// checkJSON reads a JSON report back, as merge does, and writes it again:
// the same bytes, so the report holds all a reader needs.
func checkJSON(t *testing.T, _ *Report, out []byte) {
	t.Helper()
	back, err := ReadJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("ReadJSON: %v", err)
	}
	if again := writeReport(t, WriteJSON, back); !bytes.Equal(again, out) {
		t.Errorf("written again after ReadJSON:\n%s\nwant\n%s", again, out)
	}
}

// assertHygiene checks the one-line rules on a whole report: no line is read
// by the Actions runner as a workflow command (after any Unicode white
// space), and no line break, control, bidi control or zero-width character
// is left raw.
func assertHygiene(t *testing.T, out string) {
	t.Helper()
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, actionslog.IsWhiteSpace), "::") {
			t.Errorf("line %d starts with '::': %q", i+1, line)
		}
		if strings.Contains(line, "##[") {
			t.Errorf("line %d holds '##[': %q", i+1, line)
		}
		if strings.ContainsFunc(line, rawForbiddenExceptLF) {
			t.Errorf("line %d holds a raw line break or control: %q", i+1, line)
		}
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"ünïcödé", "ünïcödé"},
		{"a\nb\rc\td", `a\nb\rc\td`},
		{"\x00\x1b\x7f", `\x00\x1b\x7f`},
		{"x\u0085y\u2028z\u2029", `x\u0085y\u2028z\u2029`},
		{"bad\xffutf8", `bad\xffutf8`},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGuardLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"::error::x", `\x3a:error::x`},
		{"  ::warning::x", `  \x3a:warning::x`},
		{"a ::b", "a ::b"},
		{"x ##[group]y", `x #\#[group]y`},
	}
	for _, tt := range tests {
		if got := guardLine(tt.in); got != tt.want {
			t.Errorf("guardLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCount(t *testing.T) {
	r := sample()
	s := r.Summary
	if s.Pass != 1 || s.Fail != 4 || s.Error != 1 || s.Skip != 1 || s.Pending != 1 || s.Blocking != 4 {
		t.Errorf("Count() = %+v", s)
	}
}

// BenchmarkAppendResultJSON is one failing EvalCase result's JSON, evidence and all: what the JSON
// report spends on each of a large run's failures.
func BenchmarkAppendResultJSON(b *testing.B) {
	r := diag.Result{
		Source: diag.SourceEvalCase, File: "cases/a.jsonl", Pos: diag.Pos{Line: 10, Col: 1}, Check: "number_fidelity",
		CaseID: "a.one", Outcome: diag.Fail, Severity: diag.SeverityError, Code: "number_missing",
		Message: "number 9,250 (9250) of the source is missing",
		Evidence: map[string]any{"expected": []any{"9,250"}, "actual": []any{}, "missing": []any{"9,250"},
			"source_decimal": ".", "target_decimal": ".", "faults": []any{map[string]any{
				"code": "number_missing", "message": "number 9,250 (9250) of the source is missing", "number": "9,250", "value": "9250"}}},
	}
	var out []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if out, err = appendResultJSON(out[:0], &r); err != nil {
			b.Fatal(err)
		}
	}
}
