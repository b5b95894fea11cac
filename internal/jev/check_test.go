package jev

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/testfs"
)

func testdataText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func summarize(rs []diag.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, strings.Join([]string{r.Source.String(), r.Location(), r.Check, r.CaseID, string(r.Outcome), r.Code}, " "))
	}
	return out
}

func TestCheck(t *testing.T) {
	contract := testdataText(t, "contract.json")
	root := testfs.Tree(t, map[string]string{
		"evals/c.json":            contract,
		"evals/base.json":         testdataText(t, "baseline.json"),
		"evals/cand.json":         testdataText(t, "candidate.json"),
		"evals/bad.json":          strings.Replace(contract, `"version": "0.1"`, `"version": "0.2"`, 1),
		"evals/badreplay.json":    `{"ticket-001": {"model": null}}`,
		"evals/dir/placeholder":   "",
		"evals/c.jsonl":           testdataText(t, "contract.jsonl"),
		"evals/huge.json":         "\"" + strings.Repeat("x", MaxJSON) + "\"",
		"evals/alias-source.json": strings.Replace(contract, `"allow_unpinned": false`, `"allow_unpinned": true`, 1),
	})
	if runtime.GOOS != "windows" {
		outside := filepath.Join(t.TempDir(), "outside.json")
		os.WriteFile(outside, []byte(contract), 0o644)
		os.Symlink(outside, filepath.Join(root, "evals", "out.json"))
	}
	ctx := context.Background()
	// allPass is every field of evals/c.json passing, as the baseline's
	// answers (evals/base.json) give it.
	allPass := []string{
		"jev evals/c.json:33:9 intent ticket-001 pass ok",
		"jev evals/c.json:34:9 billing ticket-001 pass ok",
		"jev evals/c.json:35:9 urgency ticket-001 pass ok",
		"jev evals/c.json:54:9 intent ticket-002 pass ok",
		"jev evals/c.json:55:9 billing ticket-002 pass ok",
		"jev evals/c.json:74:9 intent ticket-003 pass ok",
		"jev evals/c.json:75:9 urgency ticket-003 pass ok",
	}
	tests := []struct {
		name  string
		entry Entry
		read  bool
		want  []string
	}{
		{name: "a valid contract, validated only", entry: Entry{Contract: "evals/c.json", Answers: "evals/cand.json"}},
		{name: "a valid contract without answers", entry: Entry{Contract: "evals/c.json"}, read: true},
		{name: "eval", entry: Entry{Contract: "evals/c.json", Answers: "evals/cand.json", CandidateModel: "jev-1.15"}, read: true, want: []string{
			"jev evals/c.json:33:9 intent ticket-001 fail answer_flip",
			"jev evals/c.json:34:9 billing ticket-001 fail confidence_regression",
			"jev evals/c.json:35:9 urgency ticket-001 fail answer_flip",
			"jev evals/c.json:54:9 intent ticket-002 fail confidence_regression",
			"jev evals/c.json:55:9 billing ticket-002 pass ok",
			"jev evals/c.json:74:9 intent ticket-003 pass ok",
			"jev evals/c.json:75:9 urgency ticket-003 fail confidence_regression",
		}},
		{name: "compare", entry: Entry{Contract: "evals/c.json", From: "evals/base.json", Answers: "evals/base.json"}, read: true, want: allPass},
		{name: "a JSONL contract", entry: Entry{Contract: "evals/c.jsonl", Answers: "evals/base.json"}, read: true, want: []string{
			"jev evals/c.jsonl:2:251 billing ticket-001 pass ok",
			"jev evals/c.jsonl:2:320 intent ticket-001 pass ok",
			"jev evals/c.jsonl:4:190 intent ticket-002 pass ok",
			"jev evals/c.jsonl:5:154 urgency ticket-003 pass ok",
		}},
		{name: "an invalid contract", entry: Entry{Contract: "evals/bad.json", Answers: "evals/cand.json"}, read: true, want: []string{
			"jev evals/bad.json:2:14 definition  fail invalid_value",
		}},
		{name: "an invalid replay", entry: Entry{Contract: "evals/c.json", Answers: "evals/badreplay.json"}, read: true, want: []string{
			"jev evals/badreplay.json:1 replay ticket-002 error replay_missing_case",
			"jev evals/badreplay.json:1 replay ticket-003 error replay_missing_case",
			"jev evals/badreplay.json:1:16 replay ticket-001 error replay_invalid",
			"jev evals/badreplay.json:1:26 replay ticket-001 error replay_invalid",
		}},
		{name: "a missing contract", entry: Entry{Contract: "evals/none.json"}, want: []string{
			"jev evals/none.json definition  error target_unreadable",
		}},
		{name: "a directory", entry: Entry{Contract: "evals/dir"}, want: []string{
			"jev evals/dir definition  error target_unreadable",
		}},
		{name: "a contract too large", entry: Entry{Contract: "evals/huge.json"}, want: []string{
			"jev evals/huge.json:1 definition  fail too_large",
		}},
		{name: "a missing replay", entry: Entry{Contract: "evals/c.json", Answers: "evals/none.json"}, read: true, want: []string{
			"jev evals/none.json replay  error replay_invalid",
		}},
		{name: "a missing baseline replay", entry: Entry{Contract: "evals/c.json", Answers: "evals/cand.json", From: "evals/none.json"}, read: true, want: []string{
			"jev evals/none.json replay  error replay_invalid",
		}},
		{name: "a floating candidate without an opt-in", entry: Entry{Contract: "evals/c.json", Answers: "evals/cand.json", CandidateModel: "jev-latest",
			ConfigFile: ".evalgate.yaml", Pos: diag.Pos{Line: 7, Col: 5}}, read: true, want: []string{
			"config .evalgate.yaml:7:5 definition  fail invalid_value",
		}},
		{name: "a floating candidate, the entry's opt-in", entry: Entry{Contract: "evals/c.json", Answers: "evals/base.json", CandidateModel: "jev-latest",
			AllowUnpinned: true}, read: true, want: allPass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Collect(Check(ctx, root, tt.entry, tt.read))
			diag.Sort(got)
			if g, w := strings.Join(summarize(got), "\n"), strings.Join(tt.want, "\n"); g != w {
				t.Errorf("results:\n%s\nwant:\n%s\n%s", g, w, codes(got))
			}
		})
	}
	if runtime.GOOS != "windows" {
		got := slices.Collect(Check(ctx, root, Entry{Contract: "evals/out.json"}, true))
		if len(got) != 1 || got[0].Code != "target_outside_repo" || got[0].Outcome != diag.Error {
			t.Errorf("a symlink out of the repository: %s", codes(got))
		}
	}
}

func TestCheckNotice(t *testing.T) {
	root := testfs.Tree(t, map[string]string{"c.json": testdataText(t, "contract.json"), "r.json": testdataText(t, "candidate.json")})
	var notices []string
	got := slices.Collect(Check(context.Background(), root, Entry{Contract: "c.json", Answers: "r.json", BaselineModel: "jev-1.12",
		Notice: func(s string) { notices = append(notices, s) }}, true))
	if len(notices) != 1 || notices[0] != "evalgate: c.json: baseline-model jev-1.12 overrides the contract's baseline_model jev-1.13" {
		t.Errorf("notices %q", notices)
	}
	if len(got) != 7 {
		t.Errorf("%d results", len(got))
	}
}

func TestCheckPanicIsAResult(t *testing.T) {
	root := testfs.Tree(t, map[string]string{"c.json": testdataText(t, "contract.json"), "r.json": testdataText(t, "candidate.json")})
	var ctx context.Context // nil: Check's use of it panics
	got := slices.Collect(Check(ctx, root, Entry{Contract: "c.json", Answers: "r.json"}, true))
	if len(got) != 1 || got[0].Code != "internal_error" || got[0].Outcome != diag.Error || got[0].File != "c.json" {
		t.Errorf("results %s", codes(got))
	}
}

// TestEvaluateReplayPanic: a panic while a replay loads beside the contract (here in reading it) is the
// entry's internal_error, not a crash, for the candidate and for the baseline; and a replay that loaded
// beside a contract with faults adds nothing to them.
func TestEvaluateReplayPanic(t *testing.T) {
	texts := map[string]string{"c.json": testdataText(t, "contract.json"), "bad.json": "{", "r.json": testdataText(t, "candidate.json")}
	read := func(name string, _ bool) ([]byte, error) {
		if name == "boom.json" {
			panic("reading " + name)
		}
		return []byte(texts[name]), nil
	}
	for _, e := range []Entry{{Contract: "c.json", Answers: "boom.json"}, {Contract: "c.json", Answers: "r.json", From: "boom.json"}} {
		o := Evaluate(context.Background(), e, read, true)
		if len(o.Faults) != 1 || o.Faults[0].Code != "internal_error" || o.Faults[0].Message != "internal error: reading boom.json" {
			t.Errorf("%+v: faults %s", e, codes(o.Faults))
		}
	}
	o := Evaluate(context.Background(), Entry{Contract: "bad.json", Answers: "bad.json"}, read, true)
	if len(o.Faults) != 1 || o.Faults[0].File != "bad.json" || o.Faults[0].Check != diag.CheckDefinition {
		t.Errorf("a contract with faults and a bad replay: %s", codes(o.Faults))
	}
}
