package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The example contract and replays of the repository (evals/jev).
const (
	exContract = "../../evals/jev/support-triage.json"
	exBaseline = "../../evals/jev/replays/jev-1.13.json"
	exSame     = "../../evals/jev/replays/jev-1.14.json"
	exBreaking = "../../evals/jev/replays/jev-1.15.json"
)

func runJevArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runJev(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestJevExitStatus(t *testing.T) {
	tests := []struct {
		args []string
		code int
		last string // the summary's last line, when there is one
	}{
		{[]string{"eval", exContract, "--answers", exBaseline, "--candidate-model", "jev-1.13"}, 0, "compatible"},
		{[]string{"eval", exContract, "--answers", exSame, "--candidate-model", "jev-1.14"}, 0, "compatible"},
		{[]string{"eval", "--answers", exBreaking, exContract}, 1, "breaking"},
		{[]string{"compare", exContract, "--from", exBaseline, "--answers", exSame}, 0, "compatible"},
		{[]string{"compare", exContract, "--from", exBaseline, "--answers", exBreaking, "--candidate-model", "jev-1.15"}, 1, "breaking"},
		// Invalid input: 2.
		{[]string{"eval", exContract, "--answers", exSame, "--candidate-model", "jev-1.15"}, 2, ""},
		{[]string{"compare", exContract, "--from", exSame, "--answers", exSame}, 2, ""},
		{[]string{"eval", exBaseline, "--answers", exSame}, 2, ""},
	}
	for _, tt := range tests {
		code, stdout, stderr := runJevArgs(tt.args...)
		if code != tt.code {
			t.Errorf("%q: exit %d, want %d; stderr %q", tt.args, code, tt.code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if tt.last != "" && lines[len(lines)-1] != tt.last {
			t.Errorf("%q: summary ends %q, want %q", tt.args, lines[len(lines)-1], tt.last)
		}
		if tt.code == 2 && (stdout != "" || stderr == "") {
			t.Errorf("%q: stdout %q, stderr %q", tt.args, stdout, stderr)
		}
	}
}

func TestJevUsageErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"frob"},
		{"eval"},
		{"eval", exContract},
		{"eval", exContract, exContract, "--answers", exSame},
		{"compare", exContract, "--answers", exSame},
		{"eval", exContract, "--answers", exSame, "--from", exBaseline},
		{"eval", exContract, "--answers", exSame, "--format", "github"},
		{"eval", exContract, "--answers", exSame, "--baseline-model", ""},
		{"eval", exContract, "--answers", exSame, "--nope"},
		{"eval", "missing.json", "--answers", exSame},
		{"eval", exContract, "--answers", exSame, "--candidate-model", "jev-latest"},
	} {
		code, stdout, stderr := runJevArgs(args...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "evalgate: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if code, stdout, _ := runJevArgs("help"); code != 0 || !strings.Contains(stdout, "evalgate jev compare CONTRACT") {
		t.Errorf("help: exit %d, %q", code, stdout)
	}
	if code, _, stderr := runJevArgs(); code != 2 || !strings.Contains(stderr, "Usage:") {
		t.Errorf("no arguments: exit %d, %q", code, stderr)
	}
}

func TestJevJSONReport(t *testing.T) {
	code, stdout, stderr := runJevArgs("eval", exContract, "--answers", exBreaking, "--candidate-model", "jev-1.15", "--format", "json")
	if code != 1 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rep struct {
		Version int
		Scope   struct {
			Mode  string
			Files []string
		}
		Summary struct{ Pass, Fail, Error, Blocking int }
		Results []struct {
			Source, File, Check, Outcome, Severity, Code, Message string
			Line, Column                                          int
			CaseID                                                string `json:"case_id"`
			Blocking                                              bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Version != 1 || rep.Scope.Mode != "paths" || len(rep.Scope.Files) != 2 ||
		rep.Summary.Pass != 2 || rep.Summary.Fail != 5 || rep.Summary.Blocking != 5 || len(rep.Results) != 7 {
		t.Errorf("report %+v", rep)
	}
	first := rep.Results[0]
	if first.Source != "jev" || first.File != "../../evals/jev/support-triage.json" || first.Line != 33 || first.Column != 9 ||
		first.Check != "intent" || first.CaseID != "ticket-001" || first.Code != "answer_flip" || first.Message != "billing→general" ||
		!first.Blocking || first.Outcome != "fail" || first.Severity != "error" {
		t.Errorf("first result %+v", first)
	}

	// An invalid replay: the report holds its faults, and stderr a line each.
	code, stdout, stderr = runJevArgs("eval", exContract, "--answers", exSame, "--candidate-model", "jev-1.15", "--format", "json")
	if code != 2 || strings.Count(stderr, "\n") != 3 || !strings.Contains(stdout, `"code": "model_mismatch"`) {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
}
