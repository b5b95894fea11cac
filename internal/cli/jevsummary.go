package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/report"
)

// writeJevSummary writes the summary of `evalgate jev` (README "jevcheck
// v0.1 contracts"):
//
//	evalgate jev eval: NAME
//	baseline: MODEL  candidate: MODEL
//	cases: N  unchanged: N  confidence regressions: N  answer flips: N
//	CASE FIELD: DETAIL  [flip|regression]    (one per field that changed)
//	compatible|breaking
//
// Fields come in contract case order and expect key order. jev gives the
// summary's values unescaped; every line is escaped here, as every line
// evalgate writes (README "Results, outcomes and blocking").
func writeJevSummary(w io.Writer, r *jev.Report) error {
	bw := bufio.NewWriter(w)
	// Each string argument (a title, a model, a case id, a field, a detail
	// holding labels) is escaped as untrusted text first, so that one
	// starting with white space is escaped there too, wherever it lands in
	// the line.
	line := func(format string, args ...any) {
		for i, a := range args {
			if s, ok := a.(string); ok {
				args[i] = report.OneLine(s)
			}
		}
		bw.WriteString(report.Line(fmt.Sprintf(format, args...)))
		bw.WriteByte('\n')
	}
	line("evalgate jev %s: %s", r.Mode, r.Title)
	line("baseline: %s  candidate: %s", r.Baseline, r.Candidate)
	line("cases: %d  unchanged: %d  confidence regressions: %d  answer flips: %d",
		len(r.Cases), r.Unchanged, r.Regressions, r.Flips)
	for _, c := range r.Cases {
		for _, f := range c.Fields {
			if f.Outcome != jev.Unchanged {
				line("%s %s: %s  [%s]", c.ID, f.Field, f.Detail, f.Outcome.Label())
			}
		}
	}
	if r.Breaking() {
		line("breaking")
	} else {
		line("compatible")
	}
	return bw.Flush()
}
