package report

import (
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
)

// judgedReport holds what the AI judge gives (README "The AI judge"): a verdict with hostile
// reasoning and quotes, a split left pending with its review command, a self-preference note and a
// judge the budget stopped.
func judgedReport() *Report {
	details := func(verdict, reasoning string, quotes ...any) map[string]any {
		return map[string]any{"run": 1, "cached": false, "verdict": verdict, "reasoning": reasoning, "quotes": quotes}
	}
	ev := func(pass, fail int, runs ...any) map[string]any {
		return map[string]any{"template": "evalgate-judge/1", "provider": "main", "model": "m", "models_answered": []any{"m-1"},
			"votes": map[string]any{"pass": pass, "fail": fail}, "runs": len(runs), "agreement": 1.0, "cached": 0, "tokens": 42,
			"run_details": runs}
	}
	r := &Report{
		Tool:     Tool{Name: "evalgate", Version: "v1.2.3"},
		Scope:    Scope{Mode: ScopeAll, Files: []string{"docs/a.md"}},
		Duration: 2 * time.Second,
		Summary:  Summary{Score: score(0.5)},
		Seen:     Seen{Pages: 1, PagesWithEvals: 1, Evals: 4, JudgeCalls: 3, JudgeCached: 2},
		Results: ResultsOf([]diag.Result{
			{Source: diag.SourcePage, File: "docs/a.md", Pos: diag.Pos{Line: 3, Col: 5}, Check: "auto-1a2b3c4d", Grader: "ai",
				Type: diag.TypeRegression, Outcome: diag.Pass, Code: "judge_pass", Message: "the judge finds the assertion holds",
				Weight: 1, Assertion: "The page says how to install.",
				Evidence: ev(1, 0, details("pass", "It says: run the installer.", "Run the installer."))},
			{Source: diag.SourcePage, File: "docs/a.md", Pos: diag.Pos{Line: 4, Col: 5}, Check: "names-go", Grader: "ai",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityError, Blocking: true, Code: "judge_fail",
				Message: "no version | ::error::judged\n##[warning]x", Weight: 1, Assertion: "The page names the Go version.",
				Evidence: ev(0, 1, details("partial", "no version | ::error::judged\n##[warning]x", "`Go` <b>*1*</b>", "line\nbreak"))},
			{Source: diag.SourcePage, File: "docs/a.md", Pos: diag.Pos{Line: 4, Col: 5}, Check: "names-go", Grader: "ai",
				Type: diag.TypeRegression, Outcome: diag.Fail, Severity: diag.SeverityWarning, Code: "judge_self_preference",
				Verdictless: true, Message: `the judge "m" is the model that the page's generated-by names`, Weight: 1},
			{Source: diag.SourcePage, File: "docs/a.md", Pos: diag.Pos{Line: 6, Col: 5}, Check: "tone", Grader: "ai",
				Type: diag.TypeRegression, Outcome: diag.Pending, Code: "judge_split", Message: "the judge's runs disagree",
				Weight: 1, Assertion: "The tone is neutral.",
				Evidence: ev(1, 1, details("pass", "neutral"), details("fail", "one jab"))},
			{Source: diag.SourcePage, File: "docs/a.md", Pos: diag.Pos{Line: 9, Col: 5}, Check: "later", Grader: "ai",
				Type: diag.TypeRegression, Outcome: diag.Pending, Code: "judge_budget",
				Message: "the budget of 3 judge calls is spent; the runs asked so far are cached", Weight: 1, Assertion: "Later."},
		}...),
	}
	r.Count()
	return r
}

// TestJudgedSummary: the job summary shows the judge's verdicts with their reasoning and quotes
// escaped, and how to decide a split by review (the goldens of every format are TestGoldens').
func TestJudgedSummary(t *testing.T) {
	md := string(writeReport(t, WriteJobSummary, judgedReport()))
	for _, want := range []string{
		"### Judge verdicts (3)\n",
		"| docs/a.md:4:5 | names-go | judge\\_fail | 0 pass, 1 fail of 1 | no version \\| ::error::judged\\\\n\\#\\#\\[warning\\]x | “\\`Go\\` &lt;b&gt;\\*1\\*&lt;/b&gt;” “line\\\\nbreak” |\n",
		"| docs/a.md:6:5 | tone | ai | The tone is neutral. | evalgate review docs/a.md tone --pass (or --fail) |\n",
		"judge: 3 calls, 2 from the cache.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "evalgate review docs/a.md later") {
		t.Error("an eval the budget stopped is not one a review decides")
	}
}
