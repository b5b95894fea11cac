package report

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/evalgate/evalgate/internal/diag"
)

func TestMarkdownText(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"plain text", 0, "plain text"},
		{"a|b", 0, `a\|b`},
		{"`code`", 0, "\\`code\\`"},
		{"<script>&amp;</script>", 0, "&lt;script&gt;&amp;amp;&lt;/script&gt;"},
		{`back\slash \| pipe`, 0, `back\\slash \\\| pipe`},
		{"line\nbreak\r\nand\u2028sep", 0, `line\\nbreak\\r\\nand\\u2028sep`},
		{"[link](http://x) ![img](y)", 0, `\[link\](http&#58;//x) !\[img\](y)`},
		{"https://a.example www.b.example c@d.example", 0, "https&#58;//a.example www&#46;b.example c&#64;d.example"},
		{"*em* _em_ ~~del~~ $x$", 0, `\*em\* \_em\_ \~\~del\~\~ \$x\$`},
		{"##[error]x", 0, `\#\#\[error\]x`},
		{"::error::x", 0, "::error::x"}, // only at the start of a line, and no cell starts one
		{"ünïcödé", 0, "ünïcödé"},
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
		{"äöüßéè", 3, "äö…"},
		{"a|b|c", 3, `a\|…`}, // cut first, so no escape is cut in half
	}
	for _, tt := range tests {
		if got := markdownText(tt.in, tt.max); got != tt.want {
			t.Errorf("markdownText(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

// TestMarkdownTextNoAutolink: page text in a job summary table makes no link when GitHub renders it
// (goldmark with GFM, whose autolinks are GitHub's: the raw text does make three).
func TestMarkdownTextNoAutolink(t *testing.T) {
	const text = "log in at https://evil.example/login, www.evil.example or admin@evil.example"
	gfm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	render := func(cell string) string {
		var b bytes.Buffer
		if err := gfm.Convert([]byte("| message |\n| --- |\n| "+cell+" |\n"), &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if raw := render(text); strings.Count(raw, "<a href") != 3 {
		t.Fatalf("the oracle finds %d links in the raw text, want 3:\n%s", strings.Count(raw, "<a href"), raw)
	}
	if html := render(markdownText(text, 0)); strings.Contains(html, "<a") || !strings.Contains(html, "https://evil.example/login") {
		t.Errorf("the escaped text renders as\n%s", html)
	}
}

// unescapedPipes counts the '|' that delimit cells: those not escaped by an
// odd run of backslashes.
func unescapedPipes(line string) int {
	n, bs := 0, 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			bs++
			continue
		case '|':
			if bs%2 == 0 {
				n++
			}
		}
		bs = 0
	}
	return n
}

// summaryHygiene checks a job summary: no line the runner could act on, no
// raw line break or separator, and every table row with its header's cells.
func summaryHygiene(t *testing.T, md string) {
	t.Helper()
	header := -1
	for i, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") || strings.Contains(line, "##[") {
			t.Errorf("line %d is a workflow command: %q", i+1, line)
		}
		if strings.ContainsAny(line, "\r\x00\x7f\u0085\u2028\u2029") || !utf8.ValidString(line) {
			t.Errorf("line %d holds a raw control or separator: %q", i+1, line)
		}
		if !strings.HasPrefix(line, "|") {
			header = -1
			continue
		}
		if !strings.HasSuffix(line, "|") {
			t.Errorf("table line %d does not end with '|': %q", i+1, line)
		}
		n := unescapedPipes(line)
		if header < 0 {
			header = n
		} else if n != header {
			t.Errorf("table line %d has %d cells, its header %d: %q", i+1, n-1, header-1, line)
		}
	}
}

func TestJobSummarySample(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJobSummary(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	summaryHygiene(t, md)
	for _, want := range []string{
		"## evalgate: 4 blocking results\n",
		"| 1 | 4 | 1 | 1 | 1 | 4 | 0.6667 |\n",
		"Scope: **all**, 2 files checked.",
		"| how-to | 0.5 | 1 | below target |",
		"| ref | 1 | 0.9 | partial (seen in part; never blocks) |",
		// Blocking failures first, then the rest, each in report order.
		"### Failures (5)\n",
		// Hostile grader output, escaped and on one line.
		`| docs/a b.md:4:5 | warning | spell | command\_failed | exit 1:\\n::error::owned\\r\\n\#\#\[set-output name=x\]y\\x7f\\u0085\\u2028 | no |`,
		"| docs/ü.md:2:1 | auto-0a1b2c3d | ai | waits for a judge |",
		"| ::evil.md | eval-skip | page\\_skipped | the page sets eval-skip: true |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the summary lacks %q:\n%s", want, md)
		}
	}
	fails := md[strings.Index(md, "### Failures"):]
	if i, j := strings.Index(fails, "command\\_timeout"), strings.Index(fails, "command\\_failed"); i < 0 || j < 0 || i > j {
		t.Errorf("a blocking failure does not come before the non-blocking one:\n%s", fails)
	}
}

func TestJobSummaryScopes(t *testing.T) {
	tests := []struct {
		scope Scope
		want  string
	}{
		{Scope{Mode: ScopeChanged, Base: "0123abc", Files: []string{"a.md"}},
			"Scope: **changed** since 0123abc, 1 file checked. This run saw only part of the repository"},
		{Scope{Mode: ScopePaths, Files: []string{"a.md", "b.md"}}, "Scope: **paths** given on the command line, 2 files checked."},
		{Scope{Mode: ScopeAll}, "Scope: **all**, 0 files checked."},
	}
	for _, tt := range tests {
		r := &Report{Tool: Tool{Name: "evalgate"}, Scope: tt.scope}
		var buf bytes.Buffer
		if err := WriteJobSummary(&buf, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tt.want) {
			t.Errorf("scope %+v: the summary lacks %q:\n%s", tt.scope, tt.want, buf.String())
		}
		if !strings.Contains(buf.String(), "## evalgate: passed\n") || !strings.Contains(buf.String(), "| n/a |") {
			t.Errorf("an empty report is not a pass without a score:\n%s", buf.String())
		}
	}
}

func TestJobSummaryNoticesAndSARIFDropped(t *testing.T) {
	r := &Report{Tool: Tool{Name: "evalgate"}, Scope: Scope{Mode: ScopeAll},
		Notices: []string{"checked everything: <fetch-depth> | 2"}}
	for i := range sarifMaxResults + 3 {
		r.Results.Add(diag.Result{File: fmt.Sprintf("f%05d.md", i), Check: "k", Code: "c",
			Outcome: diag.Fail, Severity: diag.SeverityWarning, Message: "m"})
	}
	r.Count()
	var buf bytes.Buffer
	if err := WriteJobSummary(&buf, r); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	summaryHygiene(t, md)
	dropped := SARIFDropped(r)
	if dropped == 0 {
		t.Fatalf("SARIFDropped = 0 for %d failures", r.Results.Len())
	}
	for _, want := range []string{
		"### Notices (1)\n\n- evalgate: checked everything: &lt;fetch-depth&gt; \\| 2\n",
		fmt.Sprintf("\nThe SARIF file holds at most %d results: %d results of the lowest severities are left out of it.\n",
			sarifMaxResults, dropped),
		fmt.Sprintf("### Failures (%d)\n", r.Results.Len()),
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the summary lacks %q", want)
		}
	}
}

// TestJobSummaryBound writes the summary of a huge, hostile report: it stays
// under GitHub's 1 MiB, every section still appears, and each cut table ends
// in an "… and N more" row whose N is right.
func TestJobSummaryBound(t *testing.T) {
	long := strings.Repeat("&<|`\\\n", 400) // every character expands
	r := &Report{Tool: Tool{Name: "evalgate", Version: long}, Scope: Scope{Mode: ScopeChanged, Base: long}}
	for i := range 3000 {
		r.Notices = append(r.Notices, fmt.Sprintf("notice %d %s", i, long))
		r.Suites = append(r.Suites, Suite{Name: fmt.Sprintf("s%d%s", i, long), Score: 0.5, Target: 1})
	}
	const n = 60000
	outcomes := []diag.Outcome{diag.Fail, diag.Error, diag.Pending, diag.Skip, diag.Pass}
	for i := range n {
		r.Results.Add(diag.Result{File: fmt.Sprintf("docs/%d%s.md", i, long), Pos: diag.Pos{Line: i + 1},
			Check: long, Code: long, Outcome: outcomes[i%len(outcomes)], Message: long, Assertion: long, Blocking: i%2 == 0})
	}
	r.Count()
	var buf bytes.Buffer
	if err := WriteJobSummary(&buf, r); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if len(md) > summaryLimit || len(md) >= 1<<20 {
		t.Fatalf("the summary is %d bytes, over the %d limit", len(md), summaryLimit)
	}
	// The shares add up to the limit, less what each cut section leaves
	// unused: under one row (at most a few kilobytes) each.
	if len(md) < summaryLimit-5*8*1024 {
		t.Errorf("the summary is only %d bytes: tables were cut too early", len(md))
	}
	summaryHygiene(t, md)
	sections := map[string]int{"Notices": 3000, "Suites": 3000, "Failures": 2 * n / 5, "Pending": n / 5, "Skipped": n / 5}
	for name, total := range sections {
		start := strings.Index(md, fmt.Sprintf("\n### %s (%d)\n", name, total))
		if start < 0 {
			t.Errorf("section %s (%d) is missing", name, total)
			continue
		}
		body := md[start+1:]
		if end := strings.Index(body, "\n\n### "); end >= 0 {
			body = body[:end]
		}
		rows, more, header := 0, -1, true
		for _, line := range strings.Split(body, "\n") {
			switch {
			case strings.HasPrefix(line, "| … and "), strings.HasPrefix(line, "- … and "):
				if _, err := fmt.Sscanf(strings.TrimPrefix(line[2:], "… and "), "%d more", &more); err != nil {
					t.Errorf("section %s: bad row %q", name, line)
				}
			case strings.HasPrefix(line, "| ---"):
			case strings.HasPrefix(line, "| ") && header:
				header = false
			case strings.HasPrefix(line, "| "), strings.HasPrefix(line, "- "):
				rows++
			}
		}
		if rows < 10 {
			t.Errorf("section %s shows only %d rows: another crowded it out", name, rows)
		}
		if more < 0 || rows+more != total {
			t.Errorf("section %s: %d rows and %d more, want %d in all", name, rows, more, total)
		}
	}
}

// TestPendingReviewCommand: the queue names the command that records a
// review of a human eval, quoted for a shell when the path needs it.
func TestPendingReviewCommand(t *testing.T) {
	for in, want := range map[string]string{
		"docs/a.md": "docs/a.md", "reads-well": "reads-well", "docs/a b.md": "'docs/a b.md'", "it's.md": `'it'\''s.md'`, "": "''",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %q, want %q", in, got, want)
		}
	}
	human := diag.Result{Source: diag.SourcePage, File: "docs/a.md", Check: "reads-well", Grader: "human", Outcome: diag.Pending, Code: "human_review"}
	ai := diag.Result{Source: diag.SourcePage, File: "docs/a.md", Check: "auto-1", Grader: "ai", Outcome: diag.Pending, Code: "no_judge"}
	if row := pendingRow(&human); !strings.Contains(row, "evalgate review docs/a.md reads-well --pass (or --fail)") {
		t.Errorf("human row %q", row)
	}
	// A name the summary cannot show raw is quoted in bash's $'...', which bash reads back to the name.
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("no bash to read the quoted names back")
	}
	for _, name := range []string{"docs/\x1b[31mred.md", "a\nb.md", "it's \\ odd\u202e.md", "\u00a0::x.md", "bad\xffbyte.md"} {
		word := shellWord(name)
		if OneLine(word) != word {
			t.Errorf("shellWord(%q) = %q holds what the summary escapes", name, word)
		}
		out, err := exec.Command(bash, "-c", "printf %s "+word).Output()
		if err != nil || string(out) != name {
			t.Errorf("bash reads shellWord(%q) = %s as %q (%v)", name, word, out, err)
		}
	}
	dash := human
	dash.File = "-root.md"
	if row := pendingRow(&dash); !strings.Contains(row, "evalgate review ./-root.md reads-well") {
		t.Errorf("a page named like a flag: row %q", row)
	}
	if row := pendingRow(&ai); strings.Contains(row, "evalgate review") {
		t.Errorf("ai row %q names a review", row)
	}
}
