package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/actionslog"
	"github.com/evalgate/evalgate/internal/diag"
)

func writeTerminal(t *testing.T, r *Report, color bool) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteTerminal(&buf, r, TerminalOptions{Color: color}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// sgr matches the colour sequences WriteTerminal writes, and nothing else.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]+m")

func TestTerminalGolden(t *testing.T) {
	plain := writeTerminal(t, sample(), false)
	golden(t, "sample.terminal", []byte(plain))
	color := writeTerminal(t, sample(), true)
	golden(t, "sample.terminal-color", []byte(color))

	if strings.Contains(plain, "\x1b") {
		t.Errorf("without colour the output holds an ESC byte:\n%q", plain)
	}
	// Colour only adds evalgate's own SGR sequences: without them the
	// output is the plain one, and no other ESC is left.
	if got := sgr.ReplaceAllString(color, ""); got != plain {
		t.Errorf("the colour output without its SGR sequences differs from the plain output:\n%q\nwant\n%q", got, plain)
	}
	if !strings.Contains(color, "\x1b[") {
		t.Errorf("the colour output holds no SGR sequence:\n%q", color)
	}
	assertHygiene(t, plain)
	assertHygiene(t, sgr.ReplaceAllString(color, ""))
}

func TestTerminalGrouping(t *testing.T) {
	r := &Report{
		Seen: Seen{Pages: 2, PagesWithEvals: 1, Evals: 3, Contracts: 1},
		Results: ResultsOf([]diag.Result{
			{Source: diag.SourceConfig, Check: "definition", Outcome: diag.Fail, Severity: diag.SeverityError,
				Code: "unknown_key", Message: "no file"},
			{Source: diag.SourcePage, File: "b.md", Pos: diag.Pos{Line: 10, Col: 2}, Check: "links",
				Outcome: diag.Fail, Severity: diag.SeverityWarning, Code: "broken_link", Message: "x.md is missing", Baselined: true},
			{Source: diag.SourcePage, File: "b.md", Pos: diag.Pos{Line: 3}, Check: "links",
				Outcome: diag.Pass, Code: "ok", Message: "never shown"},
			{Source: diag.SourcePage, File: "a.md", Check: "eval-skip", Outcome: diag.Skip,
				Code: "page_skipped", Message: "skipped"},
			// b.md under another source, next in report order: it joins b.md's group.
			{Source: diag.SourceJev, File: "b.md", Pos: diag.Pos{Line: 1, Col: 1}, Check: "intent",
				Outcome: diag.Error, Code: "broken_link", Message: "an error outcome"},
		}...),
	}
	r.Count()
	want := `(no file)
  -  error    no file [unknown_key]  definition

a.md
  -  skip     skipped [page_skipped]  eval-skip

b.md
  10:2  warning  x.md is missing [broken_link] (baselined)  links
  1:1   error    an error outcome [broken_link]  intent

2 broken_link, 1 page_skipped, 1 unknown_key
evalgate: saw 2 pages (1 with evals), 3 evals, 0 fixtures, 1 contract
evalgate: 1 pass, 2 fail, 1 error, 1 skip, 0 pending; 0 blocking
`
	if got := writeTerminal(t, r, false); got != want {
		t.Errorf("WriteTerminal =\n%s\nwant\n%s", got, want)
	}
}

func TestTerminalEmpty(t *testing.T) {
	r := &Report{Results: ResultsOf([]diag.Result{{File: "a.md", Outcome: diag.Pass, Code: "ok"}}...)}
	r.Count()
	want := "evalgate: saw 0 pages (0 with evals), 0 evals, 0 fixtures, 0 contracts\n" +
		"evalgate: 1 pass, 0 fail, 0 error, 0 skip, 0 pending; 0 blocking\n"
	if got := writeTerminal(t, r, false); got != want {
		t.Errorf("WriteTerminal of passes only =\n%q\nwant\n%q", got, want)
	}
	// Nothing blocks: the summary line is green.
	if got := writeTerminal(t, r, true); !strings.Contains(got, "\x1b[1;32mevalgate: 1 pass") {
		t.Errorf("the summary line of a passing run is not bold green:\n%q", got)
	}
}

func TestTerminalColors(t *testing.T) {
	tests := []struct {
		name string
		res  diag.Result
		want string // the painted label
	}{
		{"error fail", diag.Result{Outcome: diag.Fail, Severity: diag.SeverityError}, "\x1b[31merror\x1b[0m"},
		{"warning fail", diag.Result{Outcome: diag.Fail, Severity: diag.SeverityWarning}, "\x1b[33mwarning\x1b[0m"},
		{"info fail", diag.Result{Outcome: diag.Fail, Severity: diag.SeverityInfo}, "\x1b[36minfo\x1b[0m"},
		{"note", diag.Result{Outcome: diag.Fail, Severity: diag.SeverityInfo, Verdictless: true}, "\x1b[36minfo\x1b[0m"},
		{"error outcome of an info eval", diag.Result{Outcome: diag.Error, Severity: diag.SeverityInfo}, "\x1b[31merror\x1b[0m"},
		{"skip", diag.Result{Outcome: diag.Skip}, "\x1b[2mskip\x1b[0m"},
		{"pending", diag.Result{Outcome: diag.Pending}, "\x1b[2mpending\x1b[0m"},
	}
	for _, tt := range tests {
		tt.res.File, tt.res.Check, tt.res.Code, tt.res.Message = "f.md", "chk", "code", "msg"
		r := &Report{Results: ResultsOf([]diag.Result{tt.res}...)}
		r.Count()
		got := writeTerminal(t, r, true)
		for _, want := range []string{"\x1b[1mf.md\x1b[0m\n", "  -  " + tt.want + " ", "msg [code]  \x1b[2mchk\x1b[0m\n"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the output lacks %q:\n%q", tt.name, want, got)
			}
		}
		if strings.Contains(writeTerminal(t, r, false), "\x1b") {
			t.Errorf("%s: colour off, yet an ESC byte", tt.name)
		}
	}
}

func TestTerminalBlockingSummaryIsRed(t *testing.T) {
	got := writeTerminal(t, sample(), true)
	if !strings.Contains(got, "\x1b[1;31mevalgate: 1 pass, 4 fail") {
		t.Errorf("the summary line of a blocking run is not bold red:\n%q", got)
	}
}

// TestTerminalHostile: text from a page or a grader cannot write an escape
// sequence, break a line, reorder the display or start a workflow command,
// with colour or without.
func TestTerminalHostile(t *testing.T) {
	r := &Report{Results: ResultsOf([]diag.Result{{
		Source: diag.SourcePage, File: "::evil\x1b]0;title\x07.md", Pos: diag.Pos{Line: 2, Col: 1},
		Check:   "chk\u009b31m",
		Outcome: diag.Fail, Severity: diag.SeverityError,
		Code:    "code\n::warning::y",
		Message: "\x1b[31mred\x1b[0m\n::error::x ##[group]g a\u202eb \u2028",
	}}...)}
	r.Count()
	for _, color := range []bool{false, true} {
		out := writeTerminal(t, r, color)
		text := sgr.ReplaceAllString(out, "")
		if strings.Contains(text, "\x1b") {
			t.Errorf("color %v: an ESC byte not of evalgate's colours:\n%q", color, out)
		}
		if strings.ContainsAny(text, "\u202e\u2028\u009b\a\r") {
			t.Errorf("color %v: a raw control, bidi control or separator:\n%q", color, out)
		}
		if n := strings.Count(out, "\n"); n != 6 {
			t.Errorf("color %v: %d lines, want 6 (header, result, blank, tally, seen, summary):\n%s", color, n, out)
		}
		for _, want := range []string{
			`\x3a:evil\x1b]0;title\x07.md`,
			`\x1b[31mred\x1b[0m\n::error::x #\#[group]g a\u202eb \u2028 [code\n::warning::y]`,
			`chk\u009b31m`,
			`1 code\n::warning::y`,
		} {
			if !strings.Contains(text, want) {
				t.Errorf("color %v: the output lacks %q:\n%s", color, want, text)
			}
		}
		for i, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimLeftFunc(line, actionslog.IsWhiteSpace), "::") || strings.Contains(line, "##[") {
				t.Errorf("color %v: line %d is a workflow command: %q", color, i+1, line)
			}
		}
	}
}

func TestTallyLine(t *testing.T) {
	tests := []struct {
		tally map[string]int
		want  string
	}{
		{map[string]int{"missing_anchor": 1, "broken_link": 3}, "3 broken_link, 1 missing_anchor"},
		{map[string]int{"b": 2, "a": 2, "c": 5}, "5 c, 2 a, 2 b"},
		{map[string]int{"x\x1b[2J": 1}, `1 x\x1b[2J`},
	}
	for _, tt := range tests {
		if got := tallyLine(tt.tally); got != tt.want {
			t.Errorf("tallyLine(%v) = %q, want %q", tt.tally, got, tt.want)
		}
	}
}

func TestSeenLine(t *testing.T) {
	tests := []struct {
		seen Seen
		want string
	}{
		{Seen{}, "evalgate: saw 0 pages (0 with evals), 0 evals, 0 fixtures, 0 contracts"},
		{Seen{Pages: 1, PagesWithEvals: 1, Evals: 1, Fixtures: 1, Contracts: 1},
			"evalgate: saw 1 page (1 with evals), 1 eval, 1 fixture, 1 contract"},
		{Seen{Pages: 12, PagesWithEvals: 5, Evals: 9, Fixtures: 2, Contracts: 1},
			"evalgate: saw 12 pages (5 with evals), 9 evals, 2 fixtures, 1 contract"},
	}
	for _, tt := range tests {
		if got := SeenLine(&Report{Seen: tt.seen}); got != tt.want {
			t.Errorf("SeenLine(%+v) = %q, want %q", tt.seen, got, tt.want)
		}
	}
}

// TestTermTextC1: the C1 controls, which a terminal may read as the starts of escape sequences, are
// written \u00NN; the characters around them are not.
func TestTermTextC1(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"ünï", "ünï"}, // U+00FC: 0xC3, not C1
		{"a\u0080b\u009bc\u009fd", `a\u0080b\u009bc\u009fd`},
		{"x\u00a0y", "x\u00a0y"}, // 0xC2 0xA0 is no control
	}
	for _, tt := range tests {
		if got := termText(tt.in); got != tt.want {
			t.Errorf("termText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
