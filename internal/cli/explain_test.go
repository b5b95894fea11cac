package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/tooldef"
)

// TestExplainCoversEveryCode runs `evalgate explain CODE` for every code of
// the registry: each prints its title, kind, outcome, severity, doc, example
// and fix, and `evalgate explain` lists each on one line.
func TestExplainCoversEveryCode(t *testing.T) {
	var list, stderr bytes.Buffer
	if code := Main([]string{"explain"}, nil, &list, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("explain: exit %d, stderr %q", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(list.String(), "\n"), "\n")
	if len(lines) != len(tooldef.Codes) {
		t.Errorf("explain lists %d lines for %d codes", len(lines), len(tooldef.Codes))
	}
	for i, c := range tooldef.Codes {
		if c.Doc == "" || c.Example == "" || c.Fix == "" {
			t.Errorf("%s: doc, example and fix must all be written", c.Code)
		}
		if i < len(lines) {
			if f := strings.Fields(lines[i]); len(f) < 3 || f[0] != c.Code || !strings.HasSuffix(lines[i], "  "+c.Title) {
				t.Errorf("explain list line %d = %q, want %s ... %s", i+1, lines[i], c.Code, c.Title)
			}
		}
		var out bytes.Buffer
		stderr.Reset()
		if code := Main([]string{"explain", c.Code}, nil, &out, &stderr); code != exitOK || stderr.Len() > 0 {
			t.Errorf("explain %s: exit %d, stderr %q", c.Code, code, stderr.String())
			continue
		}
		text := out.String()
		// Prose is wrapped: compare it with runs of white space folded.
		folded := strings.Join(strings.Fields(text), " ")
		for _, want := range []string{
			c.Code + ": " + c.Title, "kind: " + c.Kind(), "outcome: " + c.OutcomeText(), "severity: ",
			strings.Join(strings.Fields(c.Doc), " "), "Example:", "Fix: " + strings.Join(strings.Fields(c.Fix), " "),
		} {
			if !strings.Contains(folded, want) {
				t.Errorf("explain %s does not say %q:\n%s", c.Code, want, text)
			}
		}
		for _, l := range strings.Split(c.Example, "\n") {
			if !strings.Contains(text, "\n    "+l+"\n") {
				t.Errorf("explain %s: example line %q missing:\n%s", c.Code, l, text)
			}
		}
		// The doc and the fix are wrapped at 78 columns (the header line
		// and the example are shown as they are written).
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n")[1:] {
			if len([]rune(l)) > 78 && !strings.HasPrefix(l, "  severity: ") && !strings.Contains(c.Example, strings.TrimSpace(l)) {
				t.Errorf("explain %s: line longer than 78 columns: %q", c.Code, l)
			}
		}
	}
}

func TestExplainUnknownCode(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"explain", "NOPE"}, "evalgate: explain: unknown code \"NOPE\"; evalgate explain lists every code\n"},
		{[]string{"explain", "broken_lnk"}, "evalgate: explain: unknown code \"broken_lnk\" (did you mean broken_link?); evalgate explain lists every code\n"},
		{[]string{"explain", "ok", "Command-Timeout"}, "evalgate: explain: unknown code \"Command-Timeout\" (did you mean command_timeout?); evalgate explain lists every code\n"},
		// Text from the command line is escaped like every other output.
		{[]string{"explain", "x\n::error::y"}, "evalgate: explain: unknown code \"x\\n::error::y\"; evalgate explain lists every code\n"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := Main(tt.args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", tt.args, code, exitUsage)
		}
		if stdout.Len() > 0 {
			t.Errorf("%q: stdout %q, want nothing", tt.args, stdout.String())
		}
		if stderr.String() != tt.want {
			t.Errorf("%q: stderr %q, want %q", tt.args, stderr.String(), tt.want)
		}
	}
}

// TestExplainTools: `evalgate explain tool:NAME` prints each built-in grader's definition: its title, its
// doc, its options' schema rendered from the table it is checked against, and its codes.
func TestExplainTools(t *testing.T) {
	for _, tool := range tooldef.Builtins {
		var out, stderr bytes.Buffer
		if code := Main([]string{"explain", tool.Name}, nil, &out, &stderr); code != exitOK || stderr.Len() > 0 {
			t.Fatalf("explain %s: exit %d, stderr %q", tool.Name, code, stderr.String())
		}
		text := out.String()
		want := []string{tool.Name + ": " + tool.Title + "\n", "Options, as JSON Schema", `"type": "object"`}
		for _, c := range tool.Codes {
			want = append(want, " "+c.Code)
		}
		firstDocLine, _, _ := strings.Cut(tool.Doc, "\n")
		want = append(want, "  "+firstDocLine)
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("explain %s lacks %q:\n%s", tool.Name, w, text)
			}
		}
	}
	var stderr bytes.Buffer
	if code := Main([]string{"explain", "tool:lnks"}, nil, new(bytes.Buffer), &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), "did you mean tool:links?") {
		t.Errorf("explain tool:lnks: exit %d, stderr %q", code, stderr.String())
	}
}
