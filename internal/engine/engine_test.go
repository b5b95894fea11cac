package engine

import (
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
)

func TestVerdict(t *testing.T) {
	r := func(o diag.Outcome) diag.Result { return diag.Result{Outcome: o} }
	note := diag.Result{Outcome: diag.Fail, Verdictless: true}
	tests := []struct {
		name string
		in   []diag.Result
		want diag.Outcome
	}{
		{"single pass", []diag.Result{r(diag.Pass)}, diag.Pass},
		{"any fail wins", []diag.Result{r(diag.Error), r(diag.Fail)}, diag.Fail},
		{"error over pass", []diag.Result{r(diag.Pass), r(diag.Error)}, diag.Error},
		{"notes never enter", []diag.Result{note, r(diag.Pass)}, diag.Pass},
		{"pending", []diag.Result{r(diag.Pending)}, diag.Pending},
		{"skip", []diag.Result{r(diag.Skip)}, diag.Skip},
	}
	for _, tt := range tests {
		if got := verdict(tt.in); got != tt.want {
			t.Errorf("%s: verdict() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestScores: a page's verdicts weigh what graded evals weigh (skipped and pending ones nothing), and
// reach the run's score and each of the page's suites once, added.
func TestScores(t *testing.T) {
	var p pageVerdicts
	if p.Score() != 1 {
		t.Errorf("an empty page scores %v, want 1", p.Score())
	}
	p.add(diag.Pass, 2)
	p.add(diag.Fail, 1)
	p.add(diag.Error, 1)
	p.add(diag.Skip, 5)    // not graded
	p.add(diag.Pending, 5) // not graded
	if got := p.Score(); got != 0.5 || p.reached != 3 {
		t.Errorf("Score() = %v, %d reached; want 0.5 (weights 2 passed of 4 graded), 3", got, p.reached)
	}
	var s scores
	s.addPage(p, []string{"a", "b"})
	s.addPage(pageVerdicts{Weights: report.Weights{Pass: 1, Total: 1}, reached: 1}, []string{"b"})
	if s.total != (report.Weights{Pass: 3, Total: 5}) || s.reached != 4 {
		t.Errorf("the run: %+v, %d reached", s.total, s.reached)
	}
	if *s.suites["a"] != (report.Weights{Pass: 2, Total: 4}) || *s.suites["b"] != (report.Weights{Pass: 3, Total: 5}) {
		t.Errorf("the suites: a %+v, b %+v", *s.suites["a"], *s.suites["b"])
	}
}

func TestMatcher(t *testing.T) {
	m := &matcher{prefix: "docs", include: []string{"**/*.md"}, exclude: []string{"archive/**"}}
	tests := map[string]bool{
		"docs/a.md":           true,
		"docs/x/y/b.md":       true,
		"docs/archive/old.md": false,
		"a.md":                false,
		"docsx/a.md":          false,
		"docs/a.txt":          false,
	}
	for file, want := range tests {
		if got := m.Match(file); got != want {
			t.Errorf("Match(%q) = %v, want %v", file, got, want)
		}
	}
}
