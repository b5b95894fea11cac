package grader

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/google/go-cmp/cmp"
)

// builtinTestFinding is the comparable part of a Finding.
type builtinTestFinding struct {
	Pos  diag.Pos
	Code string
	Key  string
}

func builtinTestFindings(fs []Finding) []builtinTestFinding {
	var out []builtinTestFinding
	for _, f := range fs {
		out = append(out, builtinTestFinding{f.Pos, f.Code, f.Key})
	}
	return out
}

// builtinTestCheck reports where got's comparable parts differ from want.
func builtinTestCheck(t *testing.T, want []builtinTestFinding, got []Finding) {
	t.Helper()
	if diff := cmp.Diff(want, builtinTestFindings(got)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// builtinTestGrade runs tool name over target (a body starting at line firstLine) with YAML options.
func builtinTestGrade(t *testing.T, name, opts, target string, firstLine int) []Finding {
	t.Helper()
	dir := t.TempDir()
	got, err := builtinTestRun(t, name, &ToolInput{
		Target: []byte(target), TargetKind: "body", File: "docs/page.md", FirstLine: firstLine,
		Dir: dir, OptionsDir: dir, RepoRoot: dir, Options: builtinTestOpts(t, opts), Pages: NewPageCache(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		if f.Message == "" || strings.Contains(f.Message, "\n") {
			t.Errorf("%s at %v: message %q must be one line", f.Code, f.Pos, f.Message)
		}
	}
	return got
}

func TestBuiltinHeadings(t *testing.T) {
	body := "# Title\n\n" + // line 3
		"## Install `run` *now* ##\n\n" + // 5
		"#### Skipped\n\n" + // 7: two levels below ##
		"##### Deeper\n\n" + // 9: one below: fine
		"## Back up\n\n" + // 11
		"Setext two\n----------\n\n" + // 13
		"Setext one\n==========\n\n" + // 16
		"### Three after one\n\n" + // 19: two below #
		"```md\n# not a heading\n```\n\n" +
		"  ## Indented Ünïcode ## \n" // 26: col 3
	skipped := []builtinTestFinding{ // in every case: required does not change the level checks
		{diag.Pos{Line: 7, Col: 1}, "skipped_level", "Skipped"},
		{diag.Pos{Line: 19, Col: 1}, "skipped_level", "Three after one"},
	}
	tests := []struct {
		name, opts string
		want       []builtinTestFinding
	}{
		{"levels only", "", skipped},
		{"required present", "required: [Title, Install run now, 'Install `run` *now*', Setext two, '  Back up ', Indented Ünïcode]", skipped},
		{"required missing", "required: [title, not a heading, Install, Summary]", slices.Concat(skipped, []builtinTestFinding{
			{diag.Pos{}, "missing_heading", "title"},
			{diag.Pos{}, "missing_heading", "not a heading"},
			{diag.Pos{}, "missing_heading", "Install"},
			{diag.Pos{}, "missing_heading", "Summary"},
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := builtinTestGrade(t, "tool:headings", tt.opts, body, 3)
			builtinTestCheck(t, tt.want, got)
		})
	}
	got := builtinTestGrade(t, "tool:headings", "", "### Starts at three\n\n## Two\n\n#### Four\n", 1)
	if len(got) != 1 || got[0].Evidence["level"] != 4 || got[0].Evidence["previous"] != 2 {
		t.Errorf("first heading may have any level; got %+v", got)
	}
	got = builtinTestGrade(t, "tool:headings", "", "  ## Indented\n\n##### Five\n", 1)
	if len(got) != 1 || got[0].Pos != (diag.Pos{Line: 3, Col: 1}) {
		t.Errorf("got %+v", got)
	}
}

func TestBuiltinCodeFences(t *testing.T) {
	body := "# T\n\n" +
		"```go\nx\n```\n\n" + // 12
		"```\nplain\n```\n\n" + // 16: no language
		"~~~ \n\nfirst after blank\n~~~\n\n" + // 20: info is only spaces
		"```{.python}\ny\n```\n\n" + // attributes count as a language word
		"- item\n\n  ```\n  in list\n  ```\n\n" + // 31: col 3
		"> ````\n> quoted\n> ````\n\n" + // 35: col 3
		"    indented code\n" // not fenced
	got := builtinTestGrade(t, "tool:code-fences", "", body, 10)
	want := []builtinTestFinding{
		{diag.Pos{Line: 16, Col: 1}, "fence_without_language", "plain"},
		{diag.Pos{Line: 20, Col: 1}, "fence_without_language", "first after blank"},
		{diag.Pos{Line: 31, Col: 3}, "fence_without_language", "in list"},
		{diag.Pos{Line: 35, Col: 3}, "fence_without_language", "quoted"},
	}
	builtinTestCheck(t, want, got)
	if got := builtinTestGrade(t, "tool:code-fences", "", "```sh\nls\n```\n", 1); len(got) != 0 {
		t.Errorf("a fence with a language: got %+v", got)
	}
}

func TestBuiltinContainsAbsent(t *testing.T) {
	body := "Intro line\n" + // 4
		"Ça déjà TODO here and todo there\n" + // 5: TODO at col 9, todo at col 23
		"no match\n" +
		"TODO: last\n" // 7
	tests := []struct {
		tool, opts string
		want       []builtinTestFinding
	}{
		{"tool:contains", "text: TODO", nil},
		{"tool:contains", "text: FIXME", []builtinTestFinding{{diag.Pos{}, "text_missing", "FIXME"}}},
		{"tool:contains", "text: 'déjà todo'", []builtinTestFinding{{diag.Pos{}, "text_missing", "déjà todo"}}},
		{"tool:contains", "text: 'déjà todo'\nignore-case: true", nil},
		{"tool:contains", "text: 'a.b'", []builtinTestFinding{{diag.Pos{}, "text_missing", "a.b"}}}, // literal, not a pattern
		{"tool:contains", "pattern: '(?m)^Intro'", nil},
		{"tool:contains", "pattern: '^no match$'", []builtinTestFinding{{diag.Pos{}, "text_missing", "^no match$"}}},
		{"tool:contains", "pattern: 'x*'", []builtinTestFinding{{diag.Pos{}, "text_missing", "x*"}}}, // empty matches do not count
		{"tool:absent", "text: FIXME", nil},
		{"tool:absent", "text: TODO", []builtinTestFinding{
			{diag.Pos{Line: 5, Col: 9}, "text_present", "TODO"},
			{diag.Pos{Line: 7, Col: 1}, "text_present", "TODO"},
		}},
		{"tool:absent", "text: todo\nignore-case: true", []builtinTestFinding{
			{diag.Pos{Line: 5, Col: 9}, "text_present", "todo"},
			{diag.Pos{Line: 5, Col: 23}, "text_present", "todo"},
			{diag.Pos{Line: 7, Col: 1}, "text_present", "todo"},
		}},
		{"tool:absent", "pattern: '(?m)^TODO'", []builtinTestFinding{{diag.Pos{Line: 7, Col: 1}, "text_present", "(?m)^TODO"}}},
		{"tool:absent", "pattern: 'déjà\\s+\\w+'", []builtinTestFinding{{diag.Pos{Line: 5, Col: 4}, "text_present", `déjà\s+\w+`}}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.opts, func(t *testing.T) {
			got := builtinTestGrade(t, tt.tool, tt.opts, body, 4)
			builtinTestCheck(t, tt.want, got)
		})
	}
	got := builtinTestGrade(t, "tool:absent", "pattern: 'TODO\\S*'", body, 4)
	if got[1].Evidence["match"] != "TODO:" || got[1].Evidence["pattern"] != `TODO\S*` {
		t.Errorf("evidence %v", got[1].Evidence)
	}
	// A frontmatter target has no lines of the file.
	got = builtinTestGrade(t, "tool:absent", "text: TODO", body, 0)
	if len(got) != 2 || got[0].Pos != (diag.Pos{}) {
		t.Errorf("frontmatter target: got %+v", got)
	}
}

func TestBuiltinLength(t *testing.T) {
	tests := []struct {
		name, opts, target string
		want               []Finding
	}{
		{"chars within", "max-chars: 5", "Ünïcö", nil},
		{"chars over, code points", "max-chars: 4", "Ünïcö", []Finding{{Code: "too_long", Key: "max-chars",
			Evidence: map[string]any{"actual": 5, "limit": 4, "option": "max-chars"}}}},
		{"words: punctuation and spaces are no words", "max-words: 4", "Hello, world! — it's 2024 ... ok?",
			[]Finding{{Code: "too_long", Key: "max-words", Evidence: map[string]any{"actual": 5, "limit": 4, "option": "max-words"}}}},
		{"words within", "min-words: 5\nmax-words: 5", "Hello, world! — it's 2024 ... ok?", nil},
		{"too short", "min-words: 3", "# Title\n\n- one\n", []Finding{{Code: "too_short", Key: "min-words",
			Evidence: map[string]any{"actual": 2, "limit": 3, "option": "min-words"}}}},
		{"ideographs are words", "max-words: 2", "日本語", []Finding{{Code: "too_long", Key: "max-words",
			Evidence: map[string]any{"actual": 3, "limit": 2, "option": "max-words"}}}},
		{"empty", "min-words: 1\nmax-chars: 0", "", []Finding{{Code: "too_short", Key: "min-words",
			Evidence: map[string]any{"actual": 0, "limit": 1, "option": "min-words"}}}},
		{"both limits", "max-chars: 3\nmax-words: 1", "a b", []Finding{{Code: "too_long", Key: "max-words",
			Evidence: map[string]any{"actual": 2, "limit": 1, "option": "max-words"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := builtinTestGrade(t, "tool:length", tt.opts, tt.target, 1)
			if diff := cmp.Diff(tt.want, got, cmpIgnoreMessage); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBuiltinHasMatch: finding the first non-empty match agrees with reading every match up to the
// ceiling, for patterns that match empty runs first, anchors and word boundaries, on random texts.
func TestBuiltinHasMatch(t *testing.T) {
	every := func(re *regexp.Regexp, b []byte) bool {
		for _, m := range re.FindAllIndex(b, builtinCountLimit) {
			if m[1] > m[0] {
				return true
			}
		}
		return false
	}
	patterns := []string{`x*`, `a*`, `\bfoo`, `foo\b`, `^$`, `^a`, `a$`, `(?m)^x`, `\B`, `b?`, `(?i)RUN`, `run`}
	texts := []string{"", "aaa", "aax", strings.Repeat("a", 40) + "x", "afoo foo", "foox", "run", "xa\nx", "b"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteByte("abfoxrun \n"[rng.IntN(10)])
		}
		texts = append(texts, b.String())
	}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for _, text := range texts {
			if got, _ := builtinHasMatch(re, []byte(text), builtinCountLimit); got != every(re, []byte(text)) {
				t.Errorf("%q on %q: %v, want %v", p, text, got, !got)
			}
		}
	}
}

// TestBuiltinMatchWork: a pattern whose compiled size times the target's bytes is past the budget is
// refused before it runs (too_large), by tool:contains and tool:absent alike; an ordinary pattern on a
// large target, and a literal text of any length, are matched.
func TestBuiltinMatchWork(t *testing.T) {
	big := strings.Repeat(strings.Repeat("a", 49)+"\n", 1<<15) // 1.6 MB
	dir := t.TempDir()
	run := func(name, opts string) error {
		_, err := builtinTestRun(t, name, &ToolInput{
			Target: []byte(big), TargetKind: "body", File: "docs/page.md", FirstLine: 1,
			Dir: dir, OptionsDir: dir, RepoRoot: dir, Options: builtinTestOpts(t, opts), Pages: NewPageCache(),
		})
		return err
	}
	for _, name := range []string{"tool:contains", "tool:absent"} {
		if err := run(name, `pattern: "(?:.?){1000}Z"`); !errors.Is(err, ErrTooMuchWork) {
			t.Errorf("%s, a 2,000-instruction pattern on 1.6 MB: %v, want ErrTooMuchWork", name, err)
		}
		if err := run(name, `pattern: '(?i)\b(todo|fixme)\b'`); err != nil {
			t.Errorf("%s, an ordinary pattern: %v", name, err)
		}
		if err := run(name, "text: "+strings.Repeat("b", 5000)); err != nil {
			t.Errorf("%s, a literal of 5,000 bytes: %v", name, err)
		}
	}
	// A pattern each of whose matches reads to the end of the page (a(?:.*Z)? on "aaaa..."): its one pass
	// is within the budget, but 100,000 matches of it were not (minutes). tool:absent counts as many as
	// the budget holds, a lower bound; tool:contains finds its first.
	fs, err := builtinTestRun(t, "tool:absent", &ToolInput{
		Target: []byte(big), TargetKind: "body", File: "docs/page.md", FirstLine: 1,
		Dir: dir, OptionsDir: dir, RepoRoot: dir, Options: builtinTestOpts(t, `pattern: "a(?:.*Z)?"`), Pages: NewPageCache(),
	})
	if err != nil || len(fs) == 0 || !strings.Contains(fs[len(fs)-1].Message, "more") {
		t.Errorf("tool:absent, a(?:.*Z)? on 1.6 MB: %d findings, %v", len(fs), err)
	}
	if err := run("tool:contains", `pattern: "a(?:.*Z)?"`); err != nil {
		t.Errorf("tool:contains, a(?:.*Z)? on 1.6 MB: %v", err)
	}
	if n := builtinMatchLimit(regexp.MustCompile(`a(?:.*Z)?`), len(big)); n >= builtinCountLimit || n < 1 {
		t.Errorf("the match limit of a(?:.*Z)? on 1.6 MB is %d", n)
	}
}
