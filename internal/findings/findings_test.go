package findings

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/shape"
)

var ctx = context.Background()

func TestCheckPattern(t *testing.T) {
	for _, tt := range []struct{ expr, want string }{
		{`^(?P<line>\d+):(?P<column>\d+) (?P<severity>\w+) (?P<code>\S+) (?P<message>.*)$`, ""},
		{`(?P<line>\d+)`, ""},
		{`(\d+)`, "needs a named group line"},
		{`(?P<line>\d+) (?P<sev>\w+)`, `names the group "sev"`},
		{`(?P<line>\d+`, "is not a valid RE2 pattern"},
	} {
		err := CheckPattern(tt.expr)
		if got := ""; err != nil {
			got = err.Error()
			if tt.want == "" || !strings.Contains(got, tt.want) {
				t.Errorf("CheckPattern(%q) = %q, want %q", tt.expr, got, tt.want)
			}
		} else if tt.want != "" {
			t.Errorf("CheckPattern(%q) = nil, want %q", tt.expr, tt.want)
		}
	}
}

// TestPattern: each matching line is a finding with its groups; other lines
// and a line group that is no positive number are not; stderr is read only
// when stdout is empty.
func TestPattern(t *testing.T) {
	s := Spec{Pattern: regexp.MustCompile(`^\S+:(?P<line>\d+):(?P<column>\d+):(?P<severity>\w+):(?P<code>[\w.]+):(?P<message>.*)$`)}
	out := "page.md:3:7:error:Vale.Spelling:Did you really mean 'teh'?\r\n" +
		"a summary line\n" +
		"page.md:0:1:warning:X:line zero\n" +
		"page.md:12:1:suggestion:Style.Passive: passive voice\n"
	fs, _, err := s.Parse(ctx, []byte(out), []byte("x.md:1:1:error:E:from stderr\n"), false, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Finding{
		{Line: 3, Col: 7, Level: "error", Code: "Vale.Spelling", Message: "Did you really mean 'teh'?"},
		{Line: 12, Col: 1, Level: "suggestion", Code: "Style.Passive", Message: "passive voice"},
	}
	if len(fs) != len(want) || fs[0] != want[0] || fs[1] != want[1] {
		t.Errorf("findings %+v, want %+v", fs, want)
	}
	fs, _, _ = s.Parse(ctx, nil, []byte("x.md:1:1:error:E:from stderr\n"), false, false)
	if len(fs) != 1 || fs[0].Message != "from stderr" {
		t.Errorf("stderr findings %+v", fs)
	}
	// A cut stream's first line is the end of a line, not a finding.
	fs, _, _ = s.Parse(ctx, []byte("7:1:error:X:tail of a cut line\npage.md:8:1:error:Y:whole\n"), nil, true, false)
	if len(fs) != 1 || fs[0].Code != "Y" {
		t.Errorf("cut findings %+v", fs)
	}
	if _, _, err := (Spec{SARIF: true}).Parse(ctx, []byte(`{"version": "2.1.0", "runs": []}`), nil, true, false); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("cut SARIF: err %v", err)
	}
}

// TestSARIF: results with their rule, level (warning by default), message
// and region; a result without a region is about the whole target (line 0);
// output that is not SARIF 2.1.0 is an error.
func TestSARIF(t *testing.T) {
	s := Spec{SARIF: true}
	log := `{"version": "2.1.0", "runs": [{"results": [
	  {"ruleId": "MD013", "level": "note", "message": {"text": "Line length"}, "locations": [{"physicalLocation": {"region": {"startLine": 4, "startColumn": 81}}}]},
	  {"ruleId": "MD041", "message": {"text": "First line"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "x.md"}}}]}
	]}]}`
	fs, _, err := s.Parse(ctx, []byte(log), nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0] != (Finding{Line: 4, Col: 81, Level: "note", Code: "MD013", Message: "Line length"}) ||
		fs[1] != (Finding{Level: "warning", Code: "MD041", Message: "First line"}) {
		t.Errorf("findings %+v", fs)
	}
	for _, bad := range []string{"", "lint: 3 problems", `{"version": "2.0.0"}`, `[1]`} {
		if _, _, err := s.Parse(ctx, []byte(bad), nil, false, false); err == nil {
			t.Errorf("Parse(%q) read it as SARIF", bad)
		}
	}
}

// TestBounds: at most MaxFindings findings, more saying whether there were others (exactly MaxFindings
// has none left out); codes and severity words cut to MaxWord code points; a pattern whose worst case on
// the output passes the budget is refused before it runs; a stopped run stops the reading.
func TestBounds(t *testing.T) {
	line := regexp.MustCompile(`^(?P<line>\d+) (?P<code>\S+) (?P<severity>\S+)$`)
	sarif := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"version": "2.1.0", "runs": [{"results": [`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"ruleId": "R%d", "message": {"text": "m"}}`, i)
		}
		b.WriteString("]}]}")
		return []byte(b.String())
	}
	for _, n := range []int{MaxFindings, MaxFindings + 1} {
		lines := strings.Repeat("1 c w\n", n)
		for _, s := range []struct {
			spec Spec
			out  []byte
		}{{Spec{Pattern: line}, []byte(lines)}, {Spec{SARIF: true}, sarif(n)}} {
			fs, more, err := s.spec.Parse(ctx, s.out, nil, false, false)
			if err != nil || len(fs) != MaxFindings || more != (n > MaxFindings) {
				t.Errorf("SARIF %v, %d findings: %d read, more %v, %v", s.spec.SARIF, n, len(fs), more, err)
			}
		}
	}
	long := strings.Repeat("C", 4<<20)
	fs, _, err := Spec{Pattern: line}.Parse(ctx, []byte("3 "+long+" "+long+"\n"), nil, false, false)
	if err != nil || len(fs) != 1 || utf8.RuneCountInString(fs[0].Code) != MaxWord+1 || utf8.RuneCountInString(fs[0].Level) != MaxWord+1 {
		t.Errorf("a 4 MB code: %v, %d findings", err, len(fs))
	}
	fs, _, err = Spec{SARIF: true}.Parse(ctx, []byte(`{"version": "2.1.0", "runs": [{"results": [{"ruleId": "`+long+`"}]}]}`), nil, false, false)
	if err != nil || len(fs) != 1 || utf8.RuneCountInString(fs[0].Code) != MaxWord+1 {
		t.Errorf("a 4 MB ruleId: %v, %d findings", err, len(fs))
	}
	slow := Spec{Pattern: regexp.MustCompile(`(?P<line>\d+)(?:(?:.?){1000}){1}Z`)}
	out := []byte(strings.Repeat("1"+strings.Repeat("a", 99)+"\n", 10000))
	if _, _, err := slow.Parse(ctx, out, nil, false, false); !errors.Is(err, shape.ErrTooMuchWork) {
		t.Errorf("a pattern of 2,000 instructions on 1 MB: %v, want ErrTooMuchWork", err)
	}
	stopped, cancel := context.WithCancelCause(ctx)
	cancel(errors.New("evalgate received SIGTERM"))
	if _, _, err := (Spec{Pattern: line}).Parse(stopped, []byte(strings.Repeat("x\n", 1000)), nil, false, false); err == nil || !strings.Contains(err.Error(), "SIGTERM") {
		t.Errorf("a stopped run: %v", err)
	}
}

// FuzzParse: any output gives findings with positive or zero lines, never a
// panic, and never more than MaxFindings.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version": "2.1.0", "runs": [{"results": [{"ruleId": "R", "locations": [{"physicalLocation": {"region": {"startLine": -3}}}]}]}]}`), `(?P<line>\d+)`)
	f.Add([]byte("a.md:99999999999999999999:1\nb.md:2:x\n"), `:(?P<line>\d+):(?P<column>\d+)`)
	f.Fuzz(func(t *testing.T, out []byte, expr string) {
		for _, s := range []Spec{{SARIF: true}, {Pattern: regexp.MustCompile(`(?P<line>-?\d+)(?::(?P<column>-?\d+))?`)}} {
			fs, _, _ := s.Parse(ctx, out, out, len(out)%2 == 0, false)
			if len(fs) > MaxFindings {
				t.Fatalf("%d findings", len(fs))
			}
			for _, x := range fs {
				if x.Line < 0 || x.Col < 0 || (!s.SARIF && x.Line == 0) {
					t.Fatalf("finding %+v", x)
				}
			}
		}
		if CheckPattern(expr) == nil {
			if _, _, err := (Spec{Pattern: regexp.MustCompile(expr)}).Parse(ctx, out, nil, false, false); err != nil && !errors.Is(err, shape.ErrTooMuchWork) {
				t.Fatalf("a pattern's parse failed: %v", err)
			}
		}
	})
}
