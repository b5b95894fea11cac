package engine

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testfs"
)

// seenTree is a small repository: four pages (two with evals, one of them
// eval-skip; one with frontmatter but no evals; one without frontmatter), an
// EvalCase fixture with its candidates, and a jevcheck contract.
var seenTree = map[string]string{
	".git/HEAD": "ref: refs/heads/main\n",
	".evalgate.yaml": `version: 1
evalcase:
  include: ["evals/cases/*.jsonl"]
  candidates: ["evals/candidates/*.jsonl"]
jev:
  - contract: evals/jev/contract.json
    answers: evals/jev/replay.json
    candidate-model: jev-2
`,
	"docs/a.md": `---
evals:
  - {id: intro, grader: "tool:headings", options: {required: [Intro]}}
  - {id: never, grader: "tool:headings", options: {required: [Never]}}
---
# A

## Intro
`,
	"docs/b.md": `---
eval-skip: true
evals:
  - {id: never, grader: "tool:headings", options: {required: [Never]}}
---
# B
`,
	"docs/c.md":  "---\ntitle: C\n---\n# C\n",
	"docs/d.md":  "# D\n",
	"README.txt": "not a page\n",
	"evals/cases/a.jsonl": `{"schema_version": 1, "id": "length.001", "source_locale": "en-US", "target_locale": "de-DE", "domain": "game-ui", "source": "Go", "assertions": [{"name": "max_chars", "severity": "hard", "params": {"max": 5}}], "provenance": {"kind": "synthetic", "license": "MIT"}}
`,
	"evals/candidates/c.jsonl": `{"case_id": "length.001", "text": "Los"}
`,
	"evals/jev/contract.json": `{"version": "0.1", "name": "t", "baseline_model": "jev-1",
 "cases": [{"id": "c1", "state": "s",
   "questions": {"intent": {"type": "choice", "instructions": "i", "criteria": {"a": null, "b": null}}},
   "expect": {"intent": {"choice": "a"}}}]}
`,
	"evals/jev/replay.json": `{"c1": {"model": "jev-2", "answers": {"intent": {"type": "choice", "choice": "a", "confidence": 0.9, "probabilities": {"a": 0.9, "b": 0.1}}}}}
`,
}

func TestSeen(t *testing.T) {
	dir := testfs.Tree(t, seenTree)
	tests := []struct {
		name  string
		mode  Mode
		all   bool
		paths []string
		want  report.Seen
	}{
		// The skipped page's eval is seen, though not graded.
		{"check all", ModeCheck, true, nil, report.Seen{Pages: 4, PagesWithEvals: 2, Evals: 3, Fixtures: 1, Contracts: 1}},
		{"validate all", ModeValidate, true, nil, report.Seen{Pages: 4, PagesWithEvals: 2, Evals: 3, Fixtures: 1, Contracts: 1}},
		{"validate a page", ModeValidate, false, []string{"docs/a.md"}, report.Seen{Pages: 1, PagesWithEvals: 1, Evals: 2}},
		{"validate a page without evals", ModeValidate, false, []string{"docs/c.md"}, report.Seen{Pages: 1}},
		{"validate the fixture", ModeValidate, false, []string{"evals/cases/a.jsonl"}, report.Seen{Fixtures: 1}},
		{"validate the replay", ModeValidate, false, []string{"evals/jev/replay.json"}, report.Seen{Contracts: 1}},
	}
	for _, tt := range tests {
		rep, err := Run(context.Background(), Options{Mode: tt.mode, Dir: dir, All: tt.all, Paths: tt.paths, Jobs: 2})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if rep.Seen != tt.want {
			t.Errorf("%s: Seen = %+v, want %+v", tt.name, rep.Seen, tt.want)
		}
	}
}

func TestSeenInvalidConfig(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		".evalgate.yaml": "version: 1\nno-such-key: 1\n",
		"docs/a.md":      seenTree["docs/a.md"],
	})
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true})
	if err != ErrConfigInvalid {
		t.Fatalf("Run = %v, want ErrConfigInvalid", err)
	}
	if rep.Seen != (report.Seen{}) {
		t.Errorf("an invalid config selects nothing, yet Seen = %+v", rep.Seen)
	}
}

// TestProgress: Progress hears of every graded eval, one at a time, done
// rising by one to the number of evals graded; validate never calls it.
func TestProgress(t *testing.T) {
	dir := testfs.Tree(t, seenTree)
	var (
		mu    sync.Mutex
		calls [][2]int
	)
	progress := func(done, total int) {
		if !mu.TryLock() {
			t.Error("Progress was called while a call was running")
			return
		}
		defer mu.Unlock()
		calls = append(calls, [2]int{done, total})
	}
	if _, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Jobs: 4, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	// docs/a.md's two evals; docs/b.md sets eval-skip, so nothing of it is graded.
	want := [][2]int{{0, 2}, {1, 2}, {2, 2}}
	if len(calls) != len(want) {
		t.Fatalf("Progress calls = %v, want %v", calls, want)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("Progress calls = %v, want %v", calls, want)
			break
		}
	}
	calls = nil
	if _, err := Run(context.Background(), Options{Mode: ModeValidate, Dir: dir, All: true, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 0 {
		t.Errorf("validate called Progress: %v", calls)
	}
}

// TestSeenUnreadPage: a page that is not read (a symlink out of the repository) is seen, and its
// refusal reported, but not counted as a page with evals: whether it has any is unknown.
func TestSeenUnreadPage(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{"docs/a.md": "---\nevals:\n  - {id: h, grader: tool:headings}\n---\n# A\n"})
	outside := filepath.Join(t.TempDir(), "out.md")
	if err := os.WriteFile(outside, []byte("# plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "docs", "link.md")); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := (report.Seen{Pages: 2, PagesWithEvals: 1, Evals: 1}); rep.Seen != want {
		t.Errorf("seen %+v, want %+v", rep.Seen, want)
	}
}
