package cli

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/actionslog"
	"github.com/evalgate/evalgate/internal/jev"
)

// Every string of the summary is escaped as untrusted text: white space at
// its start (which the Actions runner would trim before "::") and bidi or
// zero-width characters anywhere become \uNNNN, and no line reads as a
// workflow command.
func TestWriteJevSummaryEscapes(t *testing.T) {
	r := &jev.Report{
		Mode: "eval", Title: "\u00a0::stop-commands::t",
		Baseline: "\u3000::error::b", Candidate: "c\u202e",
		Cases: []jev.CaseResult{
			{ID: "\u00a0::stop-commands::x", Outcome: jev.Flip, Fields: []jev.FieldResult{
				{Field: "\u2007::f", Outcome: jev.Flip, Detail: "a→b\u200b"},
			}},
			{ID: "", Outcome: jev.Regression, Fields: []jev.FieldResult{
				{Field: "\u00a0::add-mask::m", Outcome: jev.Regression, Detail: "\n::error::d"},
			}},
		},
		Flips: 1, Regressions: 1,
	}
	var b strings.Builder
	if err := writeJevSummary(&b, r); err != nil {
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
