package grader

import (
	"fmt"
	"strings"
	"testing"
)

// TestBuiltinFindingsBounded: a hostile page cannot make an eval report more than MaxFindings findings; the
// last one says how many more there were, exactly or as a lower bound.
func TestBuiltinFindingsBounded(t *testing.T) {
	tests := []struct {
		name, tool, opts, target string
		wantMore                 string // in the last message
		wantCount                int    // evidence more_findings
	}{
		{"links", "tool:links", "", strings.Repeat("[x](missing.md) ", MaxFindings+500),
			"(and 500 more findings of this eval, not listed)", 500},
		{"fences", "tool:code-fences", "", strings.Repeat("```\nx\n```\n\n", MaxFindings+1),
			"(and 1 more findings of this eval, not listed)", 1},
		{"absent, counted to the ceiling", "tool:absent", "{pattern: x}", strings.Repeat("x ", builtinCountLimit+10),
			fmt.Sprintf("(and at least %d more findings of this eval, not listed)", builtinCountLimit-MaxFindings),
			builtinCountLimit - MaxFindings},
		{"absent, below the cap", "tool:absent", "{text: x}", strings.Repeat("x ", MaxFindings), "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := builtinTestGrade(t, tt.tool, tt.opts, tt.target, 1)
			if len(got) != MaxFindings {
				t.Fatalf("%d findings, want %d", len(got), MaxFindings)
			}
			last := got[len(got)-1]
			if tt.wantMore == "" {
				if _, ok := last.Evidence["more_findings"]; ok || strings.Contains(last.Message, "more findings") {
					t.Errorf("nothing dropped, but the last finding says so: %q %v", last.Message, last.Evidence)
				}
				return
			}
			if !strings.HasSuffix(last.Message, tt.wantMore) {
				t.Errorf("last message %q does not end in %q", last.Message, tt.wantMore)
			}
			if n, _ := last.Evidence["more_findings"].(int); n != tt.wantCount {
				t.Errorf("evidence more_findings = %v, want %d", last.Evidence["more_findings"], tt.wantCount)
			}
			if _, ok := got[0].Evidence["more_findings"]; ok {
				t.Errorf("the first finding carries the count too: %v", got[0].Evidence)
			}
		})
	}
}
