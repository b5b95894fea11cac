package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// TestListEscapes: every line of the listing, text or JSON, is escaped like
// the report: no raw newline from a path, nothing that starts a workflow
// command.
func TestListEscapes(t *testing.T) {
	l := &Listing{
		Pages: []ListedPage{{
			File: "docs/a\n::error::x.md", HasEvals: true, Suite: "s\u2028uite",
			Evals: []ListedEval{{ID: "e", Grader: "tool:links", From: FromSuite, Name: "s\u2028uite", Pos: diag.Pos{Line: 2, Col: 1}}},
		}},
		Fixtures:  []ListedFile{{File: "::warning::f.jsonl", Cases: 3}},
		Contracts: []ListedFile{{File: "c##[group].json", Cases: 1, Answers: "r\x1b.json"}},
	}
	var text bytes.Buffer
	if err := WriteListText(&text, l); err != nil {
		t.Fatal(err)
	}
	want := `docs/a\n::error::x.md: 1 eval, eval-suite s\u2028uite
  e  tool:links  eval-suite s\u2028uite
\x3a:warning::f.jsonl: EvalCase fixture, 3 cases
c#\#[group].json: jevcheck contract, 1 case, answers r\x1b.json
evalgate: 1 page (1 with evals), 1 eval; 1 fixture, 3 cases; 1 contract, 1 case
`
	if text.String() != want {
		t.Errorf("text listing:\n%s\nwant:\n%s", text.String(), want)
	}
	var js bytes.Buffer
	if err := WriteListJSON(&js, l); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\u2028", "##[", "\x1b"} {
		if strings.Contains(js.String(), bad) {
			t.Errorf("JSON listing holds %q raw:\n%s", bad, js.String())
		}
	}
	if !strings.Contains(js.String(), `"from": "eval-suite"`) || !strings.Contains(js.String(), `"line": 2`) {
		t.Errorf("JSON listing lacks the eval's origin or line:\n%s", js.String())
	}
}
