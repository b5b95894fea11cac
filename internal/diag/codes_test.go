package diag

import (
	"slices"
	"strings"
	"testing"
)

// TestCodesDocumented keeps every registry entry complete enough for
// `evalgate explain`: a known outcome and severity that agree, and a doc, an
// example and a fix.
func TestCodesDocumented(t *testing.T) {
	for _, c := range Codes {
		for _, o := range c.Outcomes() {
			if !slices.Contains(Outcomes, o) {
				t.Errorf("%s: outcome %q is not one of %v", c.Code, o, Outcomes)
			}
		}
		fails := slices.Contains(c.Outcomes(), Fail)
		switch c.Severity {
		case "error", "warning", "info", SeverityEval, SeverityAssertion:
			if !fails {
				t.Errorf("%s: severity %q, but the code never fails", c.Code, c.Severity)
			}
		case "":
			if fails {
				t.Errorf("%s: a code that fails needs a severity", c.Code)
			}
		default:
			t.Errorf("%s: unknown severity %q", c.Code, c.Severity)
		}
		for _, f := range []struct{ name, text string }{{"Doc", c.Doc}, {"Example", c.Example}, {"Fix", c.Fix}} {
			if strings.TrimSpace(f.text) == "" {
				t.Errorf("%s: empty %s", c.Code, f.name)
			}
		}
		for _, f := range []struct{ name, text string }{{"Doc", c.Doc}, {"Fix", c.Fix}} {
			if strings.Contains(f.text, "\n") || !strings.HasSuffix(f.text, ".") {
				t.Errorf("%s: %s must be sentences on one line, ending in a period: %q", c.Code, f.name, f.text)
			}
		}
	}
}

func TestCodeTexts(t *testing.T) {
	tests := []struct {
		code, outcome, severity string
	}{
		{"broken_link", "fail", "the eval's"},
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
