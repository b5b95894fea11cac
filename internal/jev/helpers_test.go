package jev

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// posOf is the position of the first occurrence of marker in text ("" is
// line 1 without a column, as faults about a whole file are).
func posOf(t *testing.T, text, marker string) diag.Pos {
	t.Helper()
	if marker == "" {
		return diag.Pos{Line: 1}
	}
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("marker %q not in the text", marker)
	}
	if strings.Contains(text[i+1:], marker) {
		t.Fatalf("marker %q is not unique in the text", marker)
	}
	return diag.NewLineIndex([]byte(text)).Pos(i)
}

// contractJSON builds a JSON contract: meta are extra top-level members
// (",\n"-joined, after baseline_model), cases one case object a line.
func contractJSON(meta string, cases ...string) string {
	var b strings.Builder
	b.WriteString(`{"version": "0.1", "baseline_model": "jev-1.13"`)
	if meta != "" {
		b.WriteString(",\n" + meta)
	}
	b.WriteString(",\n\"cases\": [\n")
	b.WriteString(strings.Join(cases, ",\n"))
	b.WriteString("\n]}\n")
	return b.String()
}

// Questions for the cases of the tests.
const (
	qChoice = `"q": {"type": "choice", "criteria": {"billing": null, "general": null}}`
	qNoul   = `"n": {"type": "noul"}`
	qScore  = `"s": {"type": "score", "criteria": ["low", "mid", "high"]}`
)

// caseJSON is one case with the three questions and the given expect
// members.
func caseJSON(id, expect string) string {
	return fmt.Sprintf(`{"id": %q, "state": "text", "questions": {%s, %s, %s}, "expect": {%s}}`, id, qChoice, qNoul, qScore, expect)
}

// checkPositions fails when a result's position is outside text: its line
// past the last, or its column past the end of its line (README "Results, outcomes and blocking").
func checkPositions(t *testing.T, text []byte, rs []diag.Result) {
	t.Helper()
	x := diag.NewLineIndex(text)
	for _, r := range rs {
		if r.Pos.Line == 0 {
			if r.Pos.Col != 0 {
				t.Errorf("%s: a column without a line", r.Message)
			}
			continue
		}
		if r.Pos.Line < 1 || r.Pos.Line > x.Lines() {
			t.Errorf("%s: line %d outside the text's %d lines", r.Message, r.Pos.Line, x.Lines())
			continue
		}
		start := x.LineStart(r.Pos.Line)
		end := len(text)
		if r.Pos.Line < x.Lines() {
			end = x.LineStart(r.Pos.Line+1) - 1
		}
		if n := utf8.RuneCount(text[start:end]); r.Pos.Col < 0 || r.Pos.Col > n+1 {
			t.Errorf("%s: column %d outside line %d (%d code points)", r.Message, r.Pos.Col, r.Pos.Line, n)
		}
	}
}

// codes lists results as "line:col code" for failure messages.
func codes(rs []diag.Result) string {
	var s []string
	for _, r := range rs {
		s = append(s, fmt.Sprintf("%s %s (%s)", r.Pos, r.Code, r.Message))
	}
	return strings.Join(s, "\n")
}

// checkFaults checks that got are want's faults, no more, no fewer: each at
// its position with its code (in any order), each saying its message piece,
// and each well formed.
func checkFaults(t *testing.T, text string, got []diag.Result, want []want, wellFormed func(diag.Result) bool) {
	t.Helper()
	var wantRs, gotRs []string
	for _, w := range want {
		wantRs = append(wantRs, wantPos(t, text, w.at).String()+" "+w.code)
	}
	for _, r := range got {
		gotRs = append(gotRs, r.Pos.String()+" "+r.Code)
		if !wellFormed(r) {
			t.Errorf("malformed fault %+v", r)
		}
	}
	slices.Sort(wantRs)
	slices.Sort(gotRs)
	if !slices.Equal(gotRs, wantRs) {
		t.Fatalf("faults\n%s\nwant %q", codes(got), wantRs)
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(r diag.Result) bool { return r.Code == w.code && strings.Contains(r.Message, w.msg) }) {
			t.Errorf("no %s fault says %q:\n%s", w.code, w.msg, codes(got))
		}
	}
}
