package evalcase

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// TestExample keeps the repository's example suite (evals/i18n-prompt)
// working: every case is valid and answered, the candidates in
// failing.jsonl fail, the others pass.
func TestExample(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	glob := func(pattern string) []string {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil || len(matches) == 0 {
			t.Fatalf("%s: %v", pattern, err)
		}
		var rel []string
		for _, m := range matches {
			r, _ := filepath.Rel(root, m)
			rel = append(rel, filepath.ToSlash(r))
		}
		slices.Sort(rel)
		return rel
	}
	req := Request{
		Root:           root,
		Fixtures:       append(glob("evals/i18n-prompt/cases/dev/*.jsonl"), glob("evals/i18n-prompt/cases/locked/*.jsonl")...),
		Candidates:     glob("evals/i18n-prompt/candidates/*.jsonl"),
		ReadCandidates: true, CandidatesConfigured: true,
	}
	rs, err := Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	diag.Sort(rs)
	var failed []string
	for _, r := range rs {
		switch {
		case r.Check == diag.CheckDefinition || r.Outcome == diag.Skip || r.Outcome == diag.Error || !IsAssertion(r.Check):
			t.Errorf("%s:%d: %s %s: %s", r.File, r.Pos.Line, r.Outcome, r.Code, r.Message)
		case r.Outcome == diag.Fail:
			failed = append(failed, r.CaseID+" "+r.Code)
		}
	}
	want := []string{
		"placeholder.printf.003 placeholder_mutated",
		"protocol.terminator.001 protocol_missing_terminator",
		"protocol.extra-items.001 protocol_malformed_item",
		"placeholder.printf.101 placeholder_reordered",
	}
	slices.Sort(failed)
	slices.Sort(want)
	if !slices.Equal(failed, want) {
		t.Errorf("failed:\n%s\nwant:\n%s", strings.Join(failed, "\n"), strings.Join(want, "\n"))
	}
}
