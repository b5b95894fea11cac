package diag

import (
	"testing"
)

func TestCodeTexts(t *testing.T) {
	tests := []struct {
		code, outcome, severity string
	}{
		{"unknown_use", "fail", "error"},
		{"unknown_tool", "error or fail", "error"},
		{"stale_generated_command", "fail", "warning"},
		{"number_missing", "fail", "error (hard) or warning (report)"},
		{"human_review", "pending", "none"},
	}
	for _, tt := range tests {
		c, ok := LookupCode(tt.code)
		if !ok {
			t.Fatalf("%s is not registered", tt.code)
		}
		if c.OutcomeText() != tt.outcome || c.SeverityText() != tt.severity {
			t.Errorf("%s: %q / %q, want %q / %q", tt.code, c.OutcomeText(), c.SeverityText(), tt.outcome, tt.severity)
		}
	}
}
