package engine

import (
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
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

func TestTallyScore(t *testing.T) {
	var ty tally
	if ty.score() != 1 {
		t.Errorf("empty tally scores %v, want 1", ty.score())
	}
	ty.add(diag.Pass, 2)
	ty.add(diag.Fail, 1)
	ty.add(diag.Error, 1)
	ty.add(diag.Skip, 5)    // not graded
	ty.add(diag.Pending, 5) // not graded
	if got := ty.score(); got != 0.5 {
		t.Errorf("score() = %v, want 0.5 (weights 2 passed of 4 graded)", got)
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
