package jev

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/actionslog"
)

// Every string of the summary is escaped as untrusted text: white space at
// its start (which the Actions runner would trim before "::") and bidi or
// zero-width characters anywhere become \uNNNN, and no line reads as a
// workflow command.
func TestWriteSummaryEscapes(t *testing.T) {
	r := &Report{
		Mode: "eval", Title: "\u00a0::stop-commands::t",
		Baseline: "\u3000::error::b", Candidate: "c\u202e",
		Cases: []CaseResult{
			{ID: "\u00a0::stop-commands::x", Outcome: Flip, Fields: []FieldResult{
				{Field: "\u2007::f", Outcome: Flip, Detail: "a→b\u200b"},
			}},
			{ID: "", Outcome: Regression, Fields: []FieldResult{
				{Field: "\u00a0::add-mask::m", Outcome: Regression, Detail: "\n::error::d"},
			}},
		},
		Flips: 1, Regressions: 1,
	}
	var b strings.Builder
	if err := r.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	want := `evalgate jev eval: \u00a0::stop-commands::t
baseline: \u3000::error::b  candidate: c\u202e
cases: 2  unchanged: 0  confidence regressions: 1  answer flips: 1
\u00a0::stop-commands::x \u2007::f: a→b\u200b  [flip]
 \u00a0::add-mask::m: \n::error::d  [regression]
breaking
`
	if b.String() != want {
		t.Errorf("summary\n%s\nwant\n%s", b.String(), want)
	}
	if cmds, _ := actionslog.Read(b.String()); len(cmds) > 0 {
		t.Errorf("the runner acts on %q", cmds[0].Line)
	}
}
