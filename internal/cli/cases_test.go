package cli

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/evalcase"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testfs"
)

const casesConfigYAML = `version: 1
evalcase:
  include: ["evals/**/cases/*.jsonl"]
  candidates: ["evals/**/candidates/*.jsonl"]
`

func casesCase(id, source, assertions string) string {
	return `{"schema_version": 1, "id": "` + id + `", "source_locale": "en-US", "target_locale": "de-DE", "domain": "ui", "source": "` + source + `", "assertions": ` + assertions + `, "provenance": {"kind": "synthetic", "license": "MIT"}}` + "\n"
}

const (
	hardPrintf   = `[{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "printf"}}]`
	reportLength = `[{"name": "max_chars", "severity": "report", "params": {"max": 3}}]`
)

// casesRepo writes a repository with the given files and changes into it.
func casesRepo(t *testing.T, files map[string]string) {
	t.Helper()
	root := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	testfs.Write(t, root, files)
	t.Chdir(root)
}

func TestRunCasesExitStatus(t *testing.T) {
	casesRepo(t, map[string]string{
		".evalgate.yaml":                 casesConfigYAML,
		"evals/x/cases/a.jsonl":          casesCase("x.printf.001", "%s", hardPrintf) + casesCase("x.length.001", "long", reportLength),
		"evals/x/candidates/good.jsonl":  `{"case_id": "x.printf.001", "text": "%s"}` + "\n" + `{"case_id": "x.length.001", "text": "longer"}` + "\n",
		"other/bad.jsonl":                `{"case_id": "x.printf.001", "text": "%d"}` + "\n",
		"other/invalid.jsonl":            casesCase("x.invalid.001", "x", `[{"name": "max_chars", "severity": "loud", "params": {"max": 3}}]`),
		"broken.yaml":                    "version: 2\n",
		"evals/y/cases/ok-too.txt":       "not selected",
		"evals/x/candidates/notes.jsonl": "",
	})
	tests := []struct {
		args []string
		want int
	}{
		{nil, 0}, // the report assertion fails, but never blocks
		{[]string{"--format", "json"}, 0},
		{[]string{"--candidates", "other/bad.jsonl"}, 1}, // a duplicate candidate blocks
		{[]string{"evals/x/cases/a.jsonl", "--candidates", "other/bad.jsonl"}, 1},
		{[]string{"other/invalid.jsonl"}, 1},
		{[]string{"--format", "xml"}, 2},
		{[]string{"missing.jsonl"}, 2},
		{[]string{"evals"}, 2},
		{[]string{"--config", "broken.yaml"}, 2},
		{[]string{"--config", "nope.yaml"}, 2},
		{[]string{"--candidates", ""}, 2},
		{[]string{"--help"}, 0},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if got := runCases(tt.args, &stdout, &stderr); got != tt.want {
			t.Errorf("cases %q = %d, want %d\nstdout: %s\nstderr: %s", tt.args, got, tt.want, stdout.String(), stderr.String())
		}
		if tt.want == 2 && !slices.Contains(tt.args, "broken.yaml") {
			if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("cases %q: a usage error writes one stderr line and no report\nstdout: %s\nstderr: %s", tt.args, stdout.String(), stderr.String())
			}
		}
	}
}

func TestRunCasesNothingToEvaluate(t *testing.T) {
	casesRepo(t, map[string]string{"README.md": "# x\n"})
	var stdout, stderr bytes.Buffer
	if got := runCases(nil, &stdout, &stderr); got != 2 {
		t.Errorf("exit %d, want 2", got)
	}
	if !strings.Contains(stderr.String(), "nothing to evaluate") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func TestRunCasesJSONL(t *testing.T) {
	casesRepo(t, map[string]string{
		".evalgate.yaml":               casesConfigYAML,
		"evals/x/cases/a.jsonl":        casesCase("x.printf.001", "%s %d", hardPrintf) + casesCase("x.length.001", "long", reportLength) + `{"id": "x.bad.001"}` + "\n",
		"evals/x/candidates/run.jsonl": `{"case_id": "x.printf.001", "text": "%d"}` + "\n" + `{"case_id": "x.nope.001", "text": "x"}` + "\n",
	})
	var stdout, stderr bytes.Buffer
	if got := runCases([]string{"--format", "jsonl"}, &stdout, &stderr); got != 1 {
		t.Fatalf("exit %d\n%s%s", got, stdout.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("stdout has %d lines:\n%s", len(lines), stdout.String())
	}
	var c evalcase.ContractResult
	dec := json.NewDecoder(strings.NewReader(lines[0]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatal(err)
	}
	if c.CaseID != "x.printf.001" || c.Assertion != "placeholder_integrity" || c.Passed || c.Severity != "hard" || c.Code == "" || c.Evidence == nil {
		t.Errorf("contract result %+v", c)
	}
	for _, want := range []string{"[no_candidate]", "[unknown_case]", "[missing_field]"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %s:\n%s", want, stderr.String())
		}
	}
}

func TestCasesGuardJSON(t *testing.T) {
	b, _ := json.Marshal(map[string]string{"m": "##[group] DEL\u007f NEL\u0085 \u2028 RLO\u202e ZWSP\u200b \u00a0"})
	got := string(report.GuardJSON(b))
	want := `{"m":"#\u0023[group] DEL\u007f NEL\u0085 \u2028 RLO\u202e ZWSP\u200b ` + "\u00a0\"}"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// FuzzContractJSON: a contract result's JSONL line is the line encoding/json writes for it, guarded, with
// evidence of every type the evalcase assertions give (lists, nested objects, numbers, null).
func FuzzContractJSON(f *testing.F) {
	f.Add("case.1", "placeholder_integrity", "placeholder_missing", "the placeholder %s <b>&</b> is missing", "%s", 3, 1.5, true, true)
	f.Add("", "", "", "\x00\u2028\xff\"\\", "", -1, 1e21, false, false)
	f.Add("a##[b", "#", "##[", "\x7f\u0085\u200b\ufeff\ufffd##[x###[", "##[", 0, 0.5, false, true)
	f.Fuzz(func(t *testing.T, id, assertion, code, message, token string, n int, x float64, passed, withEvidence bool) {
		c := evalcase.ContractResult{CaseID: id, Assertion: assertion, Passed: passed, Severity: evalcase.SeverityHard,
			Code: code, Message: message, Evidence: map[string]any{}}
		if withEvidence {
			c.Evidence = map[string]any{"expected": []any{token, n}, "faults": []any{map[string]any{"code": code, "actual": n, message: nil}},
				"ratio": x, "missing": []any{}, "none": []any(nil), token: map[string]any{"k": true}, "ints": []int{n}}
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		werr := enc.Encode(c)
		got, err := appendContractJSON(nil, &c)
		if (err != nil) != (werr != nil) {
			t.Fatalf("errors differ: %v and encoding/json's %v", err, werr)
		}
		if guarded := report.GuardJSON(want.Bytes()); err == nil && string(got) != string(guarded) {
			t.Fatalf("got\n%s\nwant\n%s", got, guarded)
		}
	})
}
