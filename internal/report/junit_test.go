package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// junitSuites and junitSuite are what a JUnit document reads back into.
type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	junitCounts
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	junitCounts
	Cases []junitCase `xml:"testcase"`
}

// find returns the testcase named name in the suite of file suite.
func findCase(t *testing.T, d *junitSuites, suite, name string) *junitCase {
	t.Helper()
	for i := range d.Suites {
		for j := range d.Suites[i].Cases {
			if d.Suites[i].Name == suite && d.Suites[i].Cases[j].Name == name {
				return &d.Suites[i].Cases[j]
			}
		}
	}
	t.Fatalf("no testcase %q in suite %q", name, suite)
	return nil
}

// checkJUnit parses a JUnit document strictly and checks that every count
// matches its testcases and that the report's results are all there.
func checkJUnit(t *testing.T, r *Report, out []byte) *junitSuites {
	t.Helper()
	if !utf8.Valid(out) {
		t.Error("the JUnit XML is not UTF-8")
	}
	// The decoder rejects characters XML 1.0 does not allow.
	var doc junitSuites
	dec := xml.NewDecoder(bytes.NewReader(out))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("the JUnit XML does not parse: %v\n%s", err, out)
	}
	if doc.Name != "evalgate" {
		t.Errorf("testsuites name %q", doc.Name)
	}
	var tests, failures, errors, skipped int
	for _, s := range doc.Suites {
		var f, e, sk int
		for _, c := range s.Cases {
			if c.Classname != s.Name {
				t.Errorf("testcase %q: classname %q in suite %q", c.Name, c.Classname, s.Name)
			}
			n := 0
			if c.Failure != nil {
				f++
				n++
			}
			if c.Error != nil {
				e++
				n++
			}
			if c.Skipped != nil {
				sk++
				n++
			}
			if n > 1 {
				t.Errorf("testcase %q has %d outcomes", c.Name, n)
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != sk {
			t.Errorf("suite %q counts %d/%d/%d/%d, cases say %d/%d/%d/%d",
				s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, sk)
		}
		tests += len(s.Cases)
		failures, errors, skipped = failures+f, errors+e, skipped+sk
	}
	if doc.Tests != tests || doc.Failures != failures || doc.Errors != errors || doc.Skipped != skipped {
		t.Errorf("testsuites counts %d/%d/%d/%d, cases say %d/%d/%d/%d",
			doc.Tests, doc.Failures, doc.Errors, doc.Skipped, tests, failures, errors, skipped)
	}
	s := r.Summary
	// A baselined fail is a <skipped> (README "Baseline").
	if tests != r.Results.Len() || failures != s.Fail-s.Baselined || errors != s.Error || skipped != s.Skip+s.Pending+s.Baselined {
		t.Errorf("%d cases, %d failures, %d errors, %d skipped for summary %+v", tests, failures, errors, skipped, s)
	}
	return &doc
}

func TestJUnitCases(t *testing.T) {
	doc := checkJUnit(t, sample(), writeReport(t, WriteJUnit, sample()))
	var names []string
	for _, s := range doc.Suites {
		names = append(names, s.Name)
	}
	// Files in bytewise order of their names ("::evil.md" sorts before "d");
	// the "::" that starts a hostile one is guarded.
	if got := strings.Join(names, "|"); got != `.evalgate.yaml|\x3a:evil.md|docs/a b.md|docs/ü.md|evals/cases.jsonl` {
		t.Errorf("suites %s", got)
	}
	if doc.Time != "5.000" {
		t.Errorf("time %s, want the run's 5.000", doc.Time)
	}

	for _, tc := range []struct{ suite, name string }{
		{".evalgate.yaml", "suite:how-to [suite_below_target] line 12"},
		{"docs/a b.md", "definition [unknown_key] line 3"},
		{"docs/ü.md", "auto-0a1b2c3d [no_judge] line 2"},
	} {
		findCase(t, doc, tc.suite, tc.name)
	}

	tc := findCase(t, doc, "docs/a b.md", "spell [command_failed] line 4")
	if tc.Failure == nil || tc.Failure.Type != "command_failed" || tc.Time != "0.012" {
		t.Fatalf("spell: %+v", tc)
	}
	if want := `exit 1:\n::error::owned\r\n#\#[set-output name=x]y\x7f\u0085\u2028`; tc.Failure.Message != want {
		t.Errorf("failure message %q, want %q", tc.Failure.Message, want)
	}
	lines := strings.Split(tc.Failure.Text, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "docs/a b.md:4:5: warning: spell: exit 1:") ||
		lines[1] != `evidence: {"exit_code":1,"tail":"::error::owned\n"}` {
		t.Errorf("failure text %q", tc.Failure.Text)
	}

	tc = findCase(t, doc, "docs/ü.md", "slow [command_timeout] line 7")
	if e := tc.Error; e == nil || e.Type != "command_timeout" || e.Message != "timed out after 50 ms" ||
		!strings.HasPrefix(e.Text, "docs/ü.md:7: error: slow:") {
		t.Errorf("slow: %+v", tc)
	}
	tc = findCase(t, doc, "docs/ü.md", "auto-0a1b2c3d [no_judge] line 2")
	if tc.Skipped == nil || tc.Skipped.Message != "pending: waits for a judge" {
		t.Errorf("pending: %+v", tc)
	}
	tc = findCase(t, doc, `\x3a:evil.md`, "eval-skip [page_skipped]")
	if tc.Skipped == nil || tc.Skipped.Message != "skip: the page sets eval-skip: true" {
		t.Errorf("skip: %+v", tc)
	}
	tc = findCase(t, doc, "docs/a b.md", "links [ok] line 9")
	if tc.Failure != nil || tc.Error != nil || tc.Skipped != nil {
		t.Errorf("pass: %+v", tc)
	}
	tc = findCase(t, doc, "evals/cases.jsonl", "placeholder_integrity placeholder.printf.001 [placeholder_missing] line 4")
	if tc.Failure == nil || !strings.Contains(tc.Failure.Text, "\ncase_id: placeholder.printf.001\n") {
		t.Errorf("evalcase: %+v", tc)
	}
}

// TestJUnitHostile checks that no text from a page or grader, however
// hostile, breaks the XML or reaches it unescaped.
func TestJUnitHostile(t *testing.T) {
	for _, evil := range []string{
		"\x00\x01\x08\x0b\x0c\x1f", "\xff\xfe\xc3", "\ufffe\uffff", "]]><!--<x>&amp;", "\u0085\u2028\u2029\x7f",
		"\r\n::error::x", "##[error]y", `"'<>&`,
	} {
		r := &Report{Results: ResultsOf([]diag.Result{
			{Source: diag.SourcePage, File: evil, Pos: diag.Pos{Line: 1}, Check: evil, CaseID: evil, Grader: "command",
				Outcome: diag.Fail, Code: evil, Message: evil, Evidence: map[string]any{evil: evil}},
			{Source: diag.SourcePage, File: evil, Check: evil, Outcome: diag.Error, Code: evil, Message: evil},
			{Source: diag.SourcePage, File: evil, Check: evil, Outcome: diag.Skip, Code: evil, Message: evil},
			{Source: diag.SourcePage, File: "b" + evil, Check: evil, Outcome: diag.Pending, Code: evil, Message: evil},
			{Source: diag.SourcePage, File: "b" + evil, Check: evil, Outcome: diag.Pass, Code: evil, Message: evil},
		}...)}
		r.Count()
		out := writeReport(t, WriteJUnit, r)
		assertHygiene(t, string(out))
		doc := checkJUnit(t, r, out)
		for _, s := range doc.Suites {
			for _, c := range s.Cases {
				for _, text := range []string{s.Name, c.Name, c.Classname} {
					if text != OneLine(text) {
						t.Errorf("%q: %q is not one escaped line", evil, text)
					}
				}
			}
		}
	}
}

// TestJUnitTimes: the testsuites time is the run's wall time, not the sum of
// the graders' durations (which run in parallel); a testcase's time is its
// eval's own duration, and a file's testsuite counts each eval once however
// many results (findings) it has.
func TestJUnitTimes(t *testing.T) {
	finding := func(file, check string, line int, ms int64) diag.Result {
		return diag.Result{Source: diag.SourcePage, File: file, Pos: diag.Pos{Line: line}, Check: check, Grader: "tool:links",
			Outcome: diag.Fail, Severity: diag.SeverityError, Code: "broken_link", Message: "x", DurationMS: ms}
	}
	r := &Report{Duration: 5*time.Second + 250*time.Millisecond, Results: ResultsOf([]diag.Result{
		finding("a.md", "links", 3, 4000), finding("a.md", "links", 5, 4000), finding("a.md", "links", 9, 4000),
		finding("a.md", "spell", 2, 1500),
		finding("b.md", "links", 1, 3000),
		{Source: diag.SourceConfig, File: ".evalgate.yaml", Check: "definition", Outcome: diag.Fail, Code: "unknown_key"},
	}...)}
	r.Count()
	doc := checkJUnit(t, r, writeReport(t, WriteJUnit, r))
	if doc.Time != "5.250" {
		t.Errorf("testsuites time %s, want the run's 5.250", doc.Time)
	}
	want := map[string]string{".evalgate.yaml": "0.000", "a.md": "5.500", "b.md": "3.000"}
	for _, s := range doc.Suites {
		if s.Time != want[s.Name] {
			t.Errorf("testsuite %s time %s, want %s", s.Name, s.Time, want[s.Name])
		}
	}
	if tc := findCase(t, doc, "a.md", "links [broken_link] line 5"); tc.Time != "4.000" {
		t.Errorf("testcase time %s, want its eval's 4.000", tc.Time)
	}
}

func TestJUnitSeconds(t *testing.T) {
	tests := map[int64]string{0: "0.000", 7: "0.007", 1234: "1.234", 60000: "60.000"}
	for ms, want := range tests {
		if got := junitSeconds(ms); got != want {
			t.Errorf("junitSeconds(%d) = %q, want %q", ms, got, want)
		}
	}
}
