package evalcase

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/testfs"
)

// caseLine returns a valid case with id, source and assertions (JSON).
func caseLineFor(id, source, assertions string) string {
	return fmt.Sprintf(`{"schema_version": 1, "id": %q, "source_locale": "en-US", "target_locale": "de-DE", "domain": "ui", "source": %q, "assertions": %s, "provenance": {"kind": "synthetic", "license": "MIT"}}`, id, source, assertions)
}

func candidateFor(id, text string) string {
	return fmt.Sprintf(`{"case_id": %q, "text": %q, "raw_response": null}`, id, text)
}

const phHard = `[{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "printf"}}]`
const phReport = `[{"name": "placeholder_integrity", "severity": "report", "params": {"syntax": "printf"}}, {"name": "max_chars", "severity": "hard", "params": {"max": 40}}]`

func find(rs []diag.Result, code string) []diag.Result {
	var out []diag.Result
	for _, r := range rs {
		if r.Code == code {
			out = append(out, r)
		}
	}
	return out
}

func TestCheckMatchesCandidates(t *testing.T) {
	rs := check(t, map[string]string{
		"cases/a.jsonl": "\n" + caseLineFor("a.one", "%s has %d", phHard) + "\n\n" + caseLineFor("a.two", "%s", phReport) + "\r\n" + caseLineFor("a.three", "x", phHard) + "\n",
		"cases/b.jsonl": caseLineFor("b.one", "%d", phHard),
		"candidates/c.jsonl": strings.Join([]string{
			candidateFor("a.two", "%d"),
			candidateFor("a.one", "%s hat %d"),
			"",
			candidateFor("nope.one", "x"),
			candidateFor("a.one", "again"),
			candidateFor("b.one", "%s"),
		}, "\n"),
	})
	want := `candidates/c.jsonl:4:13: error: unknown_case: case "nope.one" is in no selected fixture [unknown_case]
candidates/c.jsonl:5:13: error: duplicate_candidate: a second candidate for case "a.one"; the first one is checked [duplicate_candidate]
cases/a.jsonl:2:1: pass: placeholder_integrity: 2 placeholder(s) preserved [ok]
cases/a.jsonl:4:1: pass: max_chars: 2 code points, at most 40 allowed [ok]
cases/a.jsonl:4:1: warning: placeholder_integrity: placeholder %s was altered to %d [placeholder_mutated]
cases/a.jsonl:5:1: skip: placeholder_integrity: no candidate for case a.three [no_candidate]
cases/b.jsonl:1:1: error: placeholder_integrity: placeholder %d was altered to %s [placeholder_mutated]
`
	if got := textLines(rs); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, r := range rs {
		if r.Check == "placeholder_integrity" && r.CaseID == "a.two" && r.Severity != diag.SeverityWarning {
			t.Errorf("a report assertion has severity %s", r.Severity)
		}
	}
}

// TestCheckInvalidIDClaimsCandidate: a case whose id breaks the pattern is invalid_id, with that id as
// its case id, and its candidate answers it: no unknown_case beside the definition fault.
func TestCheckInvalidIDClaimsCandidate(t *testing.T) {
	rs := check(t, map[string]string{
		"cases/a.jsonl":      caseLineFor("A.b", "%s", phHard),
		"candidates/c.jsonl": candidateFor("A.b", "%s"),
	})
	want := "cases/a.jsonl:1:29: error: definition: id \"A.b\" does not match ^[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)+$: ids are lowercase: write \"a.b\" [invalid_id]\n"
	if got := textLines(rs); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, r := range rs {
		if r.CaseID != "A.b" {
			t.Errorf("%s has case id %q, want \"A.b\"", r.Code, r.CaseID)
		}
	}
}

// TestCheckSettlesCandidates: the first candidate of a case id answers it, valid or not; a second one
// is a duplicate_candidate only when it is valid and a case has the id, else unknown_case, or its
// faults alone; the first of two cases with an id is checked, in whichever candidates file its
// candidate is.
func TestCheckSettlesCandidates(t *testing.T) {
	rs := check(t, map[string]string{
		"cases/a.jsonl": strings.Join([]string{
			caseLineFor("a.one", "%s", phHard),
			caseLineFor("a.two", "%s", phHard),
			`{"id": "a.bad"}`,
			caseLineFor("a.one", "%d", phHard),
			caseLineFor("a.three", "%s", phHard),
		}, "\n"),
		"candidates/c.jsonl": strings.Join([]string{
			`{"case_id": "a.one", "text": 7}`,
			candidateFor("a.one", "%s"),
			candidateFor("gone.one", "x"),
			candidateFor("gone.one", "y"),
			`{"case_id": "a.two"}`,
		}, "\n"),
		"candidates/d.jsonl": candidateFor("a.two", "%s") + "\n" + candidateFor("a.bad", "x") + "\n" + candidateFor("a.three", "%d") + "\n" + `{"case_id": "a.three"}`,
	})
	var got []string
	for _, r := range rs {
		if r.Check != diag.CheckDefinition || r.Code == "duplicate_id" {
			got = append(got, fmt.Sprintf("%s:%d %s %s", r.File, r.Pos.Line, r.Code, r.CaseID))
		}
	}
	want := []string{
		"candidates/c.jsonl:2 duplicate_candidate a.one", // the faulty line 1 answered a.one
		"candidates/c.jsonl:3 unknown_case gone.one",
		"candidates/c.jsonl:4 unknown_case gone.one",
		"candidates/d.jsonl:1 duplicate_candidate a.two", // the faulty c.jsonl:5 answered a.two
		"cases/a.jsonl:4 duplicate_id a.one",
		"cases/a.jsonl:5 placeholder_mutated a.three",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	faults := map[string]int{}
	for _, r := range rs {
		if r.Check == diag.CheckDefinition && r.Code != "duplicate_id" {
			faults[fmt.Sprintf("%s:%d", r.File, r.Pos.Line)]++
		}
	}
	for _, at := range []string{"candidates/c.jsonl:1", "candidates/c.jsonl:5", "candidates/d.jsonl:4", "cases/a.jsonl:3"} {
		if faults[at] == 0 {
			t.Errorf("no fault at %s: %v", at, faults)
		}
	}
	if len(faults) != 4 {
		t.Errorf("faults at %v, want only the four faulty lines", faults)
	}
}

func TestCheckScope(t *testing.T) {
	files := map[string]string{
		"cases/a.jsonl":      caseLineFor("a.one", "%s", phHard) + "\n" + `{"broken"` + "\n",
		"cases/b.jsonl":      caseLineFor("b.one", "%s", phHard) + "\n" + caseLineFor("a.one", "dup", phHard) + "\n" + caseLineFor("b.two", "%s", phHard),
		"candidates/a.jsonl": candidateFor("a.one", "%d") + "\n" + candidateFor("zzz.one", "x"),
		"candidates/b.jsonl": candidateFor("b.one", "%s") + "\n{}",
	}
	root := testfs.Tree(t, files)
	var related func(string) bool
	run := func(inScope ...string) string {
		req := Request{
			Root: root, Fixtures: []string{"cases/a.jsonl", "cases/b.jsonl"}, Related: related,
			Candidates: []string{"candidates/a.jsonl", "candidates/b.jsonl"}, ReadCandidates: true, CandidatesConfigured: true,
			InScope: func(f string) bool {
				for _, s := range inScope {
					if s == f {
						return true
					}
				}
				return false
			},
		}
		rs, err := Check(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		diag.Sort(rs)
		return textLines(rs)
	}
	// Only cases/b.jsonl changed: its definitions and cases; the duplicate id
	// is found against cases/a.jsonl, which is indexed but not reported.
	want := `cases/b.jsonl:1:1: pass: placeholder_integrity: 1 placeholder(s) preserved [ok]
cases/b.jsonl:2:29: error: definition: case id a.one is already used by an earlier case; ids are unique across all fixtures [duplicate_id]
cases/b.jsonl:3:1: skip: placeholder_integrity: no candidate for case b.two [no_candidate]
`
	if got := run("cases/b.jsonl"); got != want {
		t.Errorf("scope cases/b.jsonl: got\n%s\nwant\n%s", got, want)
	}
	// Only candidates/a.jsonl changed: the assertions of the cases it answers
	// run again, and its own faults are reported.
	want = `candidates/a.jsonl:2:13: error: unknown_case: case "zzz.one" is in no selected fixture [unknown_case]
cases/a.jsonl:1:1: error: placeholder_integrity: placeholder %s was altered to %d [placeholder_mutated]
`
	if got := run("candidates/a.jsonl"); got != want {
		t.Errorf("scope candidates/a.jsonl: got\n%s\nwant\n%s", got, want)
	}
	if got := run(); got != "" {
		t.Errorf("nothing in scope: got\n%s", got)
	}
	// The other files related (a change touched an EvalCase file): of them, the faults one file makes
	// in another too (here candidates/a.jsonl's unknown case), not their own (a's broken line, b's {}).
	related = func(string) bool { return true }
	want = `candidates/a.jsonl:2:13: error: unknown_case: case "zzz.one" is in no selected fixture [unknown_case]
cases/b.jsonl:1:1: pass: placeholder_integrity: 1 placeholder(s) preserved [ok]
cases/b.jsonl:2:29: error: definition: case id a.one is already used by an earlier case; ids are unique across all fixtures [duplicate_id]
cases/b.jsonl:3:1: skip: placeholder_integrity: no candidate for case b.two [no_candidate]
`
	if got := run("cases/b.jsonl"); got != want {
		t.Errorf("scope cases/b.jsonl, the rest related: got\n%s\nwant\n%s", got, want)
	}
}

func TestCheckWithoutCandidates(t *testing.T) {
	files := map[string]string{"cases/a.jsonl": caseLineFor("a.one", "%s", phHard) + "\n" + `{"id": 1}`}
	root := testfs.Tree(t, files)
	for _, req := range []Request{
		{Root: root, Fixtures: []string{"cases/a.jsonl"}, ReadCandidates: true},                              // no candidates configured: no no_candidate
		{Root: root, Fixtures: []string{"cases/a.jsonl"}, ReadCandidates: false, CandidatesConfigured: true}, // validate
	} {
		rs, err := Check(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Check != diag.CheckDefinition {
				t.Errorf("%+v: unexpected %s %s", req, r.Check, r.Code)
			}
		}
		if len(find(rs, "wrong_type")) != 1 {
			t.Errorf("the fixture is not validated: %v", rs)
		}
	}
}

func TestCheckLines(t *testing.T) {
	long := caseLineFor("a.long", strings.Repeat("x", 300), phHard)
	rs := check(t, map[string]string{
		"cases/a.jsonl": "\xef\xbb\xbf" + caseLineFor("a.bom", "%s", phHard) + "\r\n" +
			"  \t \r\n" +
			strings.Replace(caseLineFor("a.utf8", "ü", phHard), "ü", "\xc3", 1) + "\n" +
			long + "\n" +
			"[1]\n" +
			caseLineFor("a.last", "%d", phHard), // no final newline
		"candidates/c.jsonl": candidateFor("a.bom", "%s") + "\n" + candidateFor("a.last", "%d") + "\n" + "{\"case_id\": \"a.long\", \"text\": \"\xff\"}\n" + candidateFor("a.utf8", "x"),
	})
	for _, want := range []struct {
		file string
		line int
		code string
	}{
		{"cases/a.jsonl", 1, "ok"}, {"cases/a.jsonl", 3, "invalid_utf8"}, {"cases/a.jsonl", 5, "wrong_type"},
		{"cases/a.jsonl", 6, "ok"}, {"candidates/c.jsonl", 3, "invalid_utf8"}, {"candidates/c.jsonl", 4, "unknown_case"},
	} {
		found := false
		for _, r := range rs {
			if r.File == want.file && r.Pos.Line == want.line && r.Code == want.code {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s at %s:%d in\n%s", want.code, want.file, want.line, textLines(rs))
		}
	}
	// The invalid UTF-8 is pointed at: "source": "\xc3 is column 96.
	for _, r := range find(rs, "invalid_utf8") {
		if r.File == "cases/a.jsonl" && r.Pos.Col != strings.Index(caseLineFor("a.utf8", "ü", phHard), "ü")+1 {
			t.Errorf("invalid_utf8 at column %d", r.Pos.Col)
		}
	}
}

func TestCheckTooLarge(t *testing.T) {
	root := testfs.Tree(t, map[string]string{
		"cases/a.jsonl":      caseLineFor("a.one", "%s", phHard) + "\n" + caseLineFor("a.big", strings.Repeat("x", 5000), phHard) + "\n" + caseLineFor("a.two", "%s", phHard),
		"candidates/c.jsonl": candidateFor("a.one", strings.Repeat("y", 5000)) + "\n" + candidateFor("a.two", "%s"),
	})
	var rs []diag.Result
	c := newChecker(Request{Root: root, Fixtures: []string{"cases/a.jsonl"}, Candidates: []string{"candidates/c.jsonl"}, ReadCandidates: true}, func(r diag.Result) { rs = append(rs, r) })
	defer c.close()
	c.limit = 1000
	if err := c.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	diag.Sort(rs)
	want := `candidates/c.jsonl:1:1: error: definition: line 1 is longer than 0 MiB; it is skipped [too_large]
cases/a.jsonl:2:1: error: definition: line 2 is longer than 0 MiB; it is skipped [too_large]
cases/a.jsonl:3:1: pass: placeholder_integrity: 1 placeholder(s) preserved [ok]
`
	if got := textLines(rs); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestLineReaderTooLargeDoesNotHoldTheLine(t *testing.T) {
	// A 40 MiB line is skipped with a buffer that stays small.
	r := strings.NewReader("{}\n" + strings.Repeat("x", 40<<20) + "\n{\"a\": 1}")
	lr := newLineReader(r, MaxLine)
	var got []string
	for {
		ln, ok := lr.next()
		if !ok {
			break
		}
		if ln.TooLarge {
			got = append(got, fmt.Sprintf("%d:too_large", ln.No))
		} else {
			got = append(got, fmt.Sprintf("%d@%d:%s", ln.No, ln.Off, ln.Text))
		}
		if cap(lr.buf) > MaxLine+2 {
			t.Fatalf("buffer grew to %d bytes", cap(lr.buf))
		}
	}
	want := fmt.Sprintf("1@0:{} 2:too_large 3@%d:{\"a\": 1}", 3+40<<20+1)
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

func TestCheckPanicsBecomeResults(t *testing.T) {
	root := testfs.Tree(t, map[string]string{
		"cases/a.jsonl":      caseLineFor("a.one", "%s", phReport) + "\n" + caseLineFor("a.two", "%s", phHard) + "\n" + caseLineFor("a.three", "%s", phHard),
		"candidates/c.jsonl": candidateFor("a.one", "%s") + "\n" + candidateFor("a.three", "%s"),
	})
	var rs []diag.Result
	c := newChecker(Request{Root: root, Fixtures: []string{"cases/a.jsonl"}, Candidates: []string{"candidates/c.jsonl"}, ReadCandidates: true}, func(r diag.Result) { rs = append(rs, r) })
	defer c.close()
	cases := 0
	c.hook = func(what string) {
		switch what {
		case "case":
			cases++
			if cases == 2 {
				panic("boom in pass 1")
			}
		case "placeholder_integrity":
			panic("boom in an assertion")
		}
	}
	if err := c.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	diag.Sort(rs)
	var got []string
	for _, r := range rs {
		got = append(got, fmt.Sprintf("%d %s %s %s %s", r.Pos.Line, r.Check, r.Outcome, r.Severity, r.Code))
	}
	want := "1 max_chars pass error ok|1 placeholder_integrity error warning internal_error|2 definition error error internal_error|3 placeholder_integrity error error internal_error"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// TestCheckCandidatesChangedDuringRun: pass 2 reads candidate lines again (the index keeps no ids); a
// candidates file rewritten between the passes gives an internal_error for the case its candidate
// answered, never a verdict about other text, and no_candidate still for the case none answered.
func TestCheckCandidatesChangedDuringRun(t *testing.T) {
	candidates := candidateFor("a.one", "%s") + "\n"
	root := testfs.Tree(t, map[string]string{
		"cases/a.jsonl":      caseLineFor("a.one", "%s", phHard) + "\n" + caseLineFor("a.two", "%s", phHard) + "\n",
		"candidates/c.jsonl": candidates,
	})
	var rs []diag.Result
	c := newChecker(Request{Root: root, Fixtures: []string{"cases/a.jsonl"}, Candidates: []string{"candidates/c.jsonl"},
		ReadCandidates: true, CandidatesConfigured: true}, func(r diag.Result) { rs = append(rs, r) })
	defer c.close()
	c.hook = func(what string) {
		if what == "candidate" { // the file's one candidate, decoded already, is indexed next
			os.WriteFile(filepath.Join(root, "candidates", "c.jsonl"), []byte(strings.Repeat("x", len(candidates))), 0o644)
		}
	}
	if err := c.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	diag.Sort(rs)
	var got []string
	for _, r := range rs {
		got = append(got, fmt.Sprintf("%s:%d %s %s %s", r.File, r.Pos.Line, r.Check, r.Code, r.CaseID))
	}
	want := "cases/a.jsonl:1 definition internal_error a.one|cases/a.jsonl:2 placeholder_integrity no_candidate a.two"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
	if msg := rs[0].Message; !strings.Contains(msg, "line 1 of candidates/c.jsonl no longer holds the candidate") {
		t.Errorf("internal_error message %q does not say which line changed", msg)
	}
}

func TestCheckOutsideRepoAndUnreadable(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.jsonl"), []byte(caseLineFor("x.one", "%s", phHard)), 0o644)
	root := testfs.Tree(t, map[string]string{"cases/a.jsonl": caseLineFor("a.one", "%s", phHard)})
	if err := os.Symlink(filepath.Join(outside, "x.jsonl"), filepath.Join(root, "cases", "link.jsonl")); err != nil {
		t.Skip(err)
	}
	rs, err := Check(context.Background(), Request{Root: root, Fixtures: []string{"cases/a.jsonl", "cases/gone.jsonl", "cases/link.jsonl"}, ReadCandidates: true})
	if err != nil {
		t.Fatal(err)
	}
	diag.Sort(rs)
	want := `cases/gone.jsonl: error: definition: cannot read cases/gone.jsonl: no such file [target_unreadable]
cases/link.jsonl: error: definition: cases/link.jsonl leaves the repository; it is not read [target_outside_repo]
`
	if got := textLines(rs); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestCheckCancelled(t *testing.T) {
	root := testfs.Tree(t, map[string]string{"cases/a.jsonl": caseLineFor("a.one", "%s", phHard)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Check(ctx, Request{Root: root, Fixtures: []string{"cases/a.jsonl"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestCheckRereadsThroughWindows(t *testing.T) {
	// Candidates in reverse order, a case line and a candidate line longer than a window.
	var cases, cands []string
	for i := 0; i < 3000; i++ {
		src := "%s " + strings.Repeat("y", i%7)
		if i == 1500 {
			src = strings.Repeat("z", windowSize+10) + " %s"
		}
		cases = append(cases, caseLineFor(fmt.Sprintf("c.n%d", i), src, phHard))
		text := "%s"
		if i == 700 {
			text = strings.Repeat("w", windowSize+10) + " %s"
		}
		cands = append(cands, candidateFor(fmt.Sprintf("c.n%d", 2999-i), text))
	}
	rs := check(t, map[string]string{"cases/a.jsonl": strings.Join(cases, "\n"), "candidates/c.jsonl": strings.Join(cands, "\n")})
	if len(rs) != 3000 || len(find(rs, "ok")) != 3000 {
		t.Errorf("%d results, %d ok; first: %v", len(rs), len(find(rs, "ok")), rs[0])
	}
}

func TestToContract(t *testing.T) {
	rs := check(t, map[string]string{
		"cases/a.jsonl":      caseLineFor("a.one", "%s has %d", phReport) + "\n" + caseLineFor("a.two", "x", phHard) + "\n" + `{"id": 1}`,
		"candidates/c.jsonl": candidateFor("a.one", "%s hat") + "\n" + candidateFor("z.z", "x"),
	})
	var got []string
	for _, r := range rs {
		c, ok := ToContract(r)
		if !ok {
			got = append(got, "-"+r.Code)
			continue
		}
		got = append(got, fmt.Sprintf("%s %s %v %s %s %d", c.CaseID, c.Assertion, c.Passed, c.Severity, c.Code, len(c.Evidence)))
	}
	want := "-unknown_case|a.one max_chars true hard ok 0|a.one placeholder_integrity false report placeholder_missing 4|-no_candidate|" + strings.Repeat("-missing_field|", 7) + "-wrong_type"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// TestCheckCapsFaultsPerLine: a line reports its first maxLineFaults faults, then the first one past
// them, at its own place, says how many more there are; exactly maxLineFaults faults are all reported.
func TestCheckCapsFaultsPerLine(t *testing.T) {
	for _, bad := range []int{maxLineFaults, 1000} {
		tags := strings.Repeat(`"BAD", `, bad) + `"ok"`
		line := strings.Replace(caseLineFor("a.tags", "x", phHard), `"provenance"`, `"tags": [`+tags+`], "provenance"`, 1)
		rs := check(t, map[string]string{"cases/a.jsonl": line})
		var more []diag.Result
		real := 0
		for _, r := range rs {
			if strings.Contains(r.Message, "more faults") {
				more = append(more, r)
			} else if r.Code == "invalid_value" {
				real++
			}
		}
		if bad == maxLineFaults {
			if real != bad || len(more) != 0 {
				t.Errorf("%d bad tags: %d reported, %d summaries", bad, real, len(more))
			}
			continue
		}
		if real != maxLineFaults || len(more) != 1 || len(rs) != maxLineFaults+1 {
			t.Fatalf("%d bad tags: %d results, %d reported, %d summaries", bad, len(rs), real, len(more))
		}
		if m := more[0]; m.Code != "invalid_value" || !strings.Contains(m.Message, fmt.Sprintf("%d more faults", bad-maxLineFaults)) || m.Key != fmt.Sprintf("tags[%d]", maxLineFaults) {
			t.Errorf("the summary is %v %s %q: %s", m.Pos, m.Code, m.Key, m.Message)
		}
	}
}

// TestStreamFixtureInReportOrder: a fixture's results come in report order, whatever order each
// case lists its assertions in, graded or not (no_candidate), so that a report keeps them as one
// run (report.Results). Cases come line by line across the cores' batches.
func TestStreamFixtureInReportOrder(t *testing.T) {
	const reversed = `[{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "printf"}}, {"name": "max_chars", "severity": "report", "params": {"max": 40}}, {"name": "forbidden_renderings", "severity": "hard", "params": {"patterns": ["x"]}}]`
	var cases, cands []string
	for i := range 300 {
		id := fmt.Sprintf("a.c%03d", i)
		cases = append(cases, caseLineFor(id, "%s", reversed))
		if i%3 != 0 {
			cands = append(cands, candidateFor(id, "%s"))
		}
	}
	root := testfs.Tree(t, map[string]string{
		"cases/a.jsonl":      strings.Join(cases, "\n"),
		"candidates/c.jsonl": strings.Join(cands, "\n"),
	})
	req := Request{Root: root, Fixtures: []string{"cases/a.jsonl"}, Candidates: []string{"candidates/c.jsonl"},
		ReadCandidates: true, CandidatesConfigured: true}
	var got []diag.Result
	err := Stream(context.Background(), req, func(r diag.Result) {
		if r.File == "cases/a.jsonl" {
			got = append(got, r)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3*300 {
		t.Fatalf("%d results for the fixture, want %d", len(got), 3*300)
	}
	for i := 1; i < len(got); i++ {
		if diag.Compare(&got[i-1], &got[i]) > 0 {
			t.Fatalf("result %d (%s line %d %s) comes before %d (%s line %d %s)", i-1, got[i-1].CaseID, got[i-1].Pos.Line,
				got[i-1].Check, i, got[i].CaseID, got[i].Pos.Line, got[i].Check)
		}
	}
}

// TestCheckCapsFaultsPerFile: a file's definition faults past maxFileFaults are counted, not reported,
// and the first of them says how many there are; another file's are its own, and a valid case after
// them is still graded.
func TestCheckCapsFaultsPerFile(t *testing.T) {
	empty := strings.Repeat("{}\n", 400) // each lacks its id, locales, source, assertions...
	rs := check(t, map[string]string{
		"cases/a.jsonl":      empty + caseLineFor("a.one", "%s", phHard) + "\n",
		"cases/b.jsonl":      "{}\n",
		"candidates/c.jsonl": candidateFor("a.one", "%s"),
	})
	perLine := len(find(check(t, map[string]string{"cases/a.jsonl": "{}\n"}), "missing_field"))
	var a []diag.Result
	for _, r := range rs {
		if r.File == "cases/a.jsonl" && r.Check == diag.CheckDefinition {
			a = append(a, r)
		}
	}
	if perLine < 3 || len(a) != maxFileFaults+1 {
		t.Fatalf("cases/a.jsonl: %d faults (%d a line), want %d and the count of the rest", len(a), perLine, maxFileFaults)
	}
	want := fmt.Sprintf("%d more definition faults in this file are not reported", 400*perLine-maxFileFaults)
	more := find(rs, "missing_field")
	if n := len(find(a, "missing_field")); n != maxFileFaults+1 || !slices.ContainsFunc(more, func(r diag.Result) bool { return r.Message == want }) {
		t.Errorf("no fault says %q", want)
	}
	if got := len(find(rs, "ok")); got != 1 {
		t.Errorf("the valid case after the faults: %d passes, want 1", got)
	}
	if b := find(rs, "missing_field"); !slices.ContainsFunc(b, func(r diag.Result) bool { return r.File == "cases/b.jsonl" }) {
		t.Error("cases/b.jsonl lost its faults to a's bound")
	}
}
