package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/actionslog"
)

// Every string of the summary is escaped as untrusted text: white space at
// its start (which the Actions runner would trim before "::") and bidi or
// zero-width characters anywhere become \uNNNN, and no line reads as a
// workflow command.
func TestWriteJevSummaryEscapes(t *testing.T) {
	r := &JevSummary{
		Mode: "eval", Title: "\u00a0::stop-commands::t",
		Baseline: "\u3000::error::b", Candidate: "c\u202e",
		Cases: 2, Flips: 1, Regressions: 1,
		Changes: []JevChange{
			{Case: "\u00a0::stop-commands::x", Field: "\u2007::f", Detail: "a→b\u200b", Label: "flip"},
			{Case: "", Field: "\u00a0::add-mask::m", Detail: "\n::error::d", Label: "regression"},
		},
	}
	var b strings.Builder
	if err := WriteJevSummary(&b, &Report{Jev: r}); err != nil {
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
