package tooldef

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// TestCodesDocumented keeps every registry entry complete enough for
// `evalgate explain`: a known outcome and severity that agree, and a doc, an
// example and a fix.
func TestCodesDocumented(t *testing.T) {
	for _, c := range Codes {
		for _, o := range c.Outcomes() {
			if !slices.Contains(diag.Outcomes, o) {
				t.Errorf("%s: outcome %q is not one of %v", c.Code, o, diag.Outcomes)
			}
		}
		fails := slices.Contains(c.Outcomes(), diag.Fail)
		switch c.Severity {
		case "error", "warning", "info", diag.SeverityEval, diag.SeverityAssertion:
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

// TestRegistry: every built-in code is in the registry once, in the builtin group, between skip and suite.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	var groups []string
	for _, c := range Codes {
		if seen[c.Code] {
			t.Errorf("%s is registered twice", c.Code)
		}
		seen[c.Code] = true
		if len(groups) == 0 || groups[len(groups)-1] != c.Group {
			groups = append(groups, c.Group)
		}
	}
	want := []string{"definition", "note", "running", "skip", "builtin", "suite", "pass", "evalcase", "jev"}
	if !slices.Equal(groups, want) {
		t.Errorf("groups in order %v, want %v", groups, want)
	}
	for _, tool := range Builtins {
		for _, c := range tool.Codes {
			if c.Group != "builtin" {
				t.Errorf("%s: code %s is in group %s", tool.Name, c.Code, c.Group)
			}
			if got, ok := LookupCode(c.Code); !ok || got.Code != c.Code {
				t.Errorf("LookupCode(%s) = %v, %v", c.Code, got.Code, ok)
			}
		}
	}
	if _, ok := LookupCode("no_such_code"); ok {
		t.Error("LookupCode finds an unknown code")
	}
}
