package report

import (
	"bufio"
	"fmt"
	"io"
)

// WriteJevSummary writes the summary of rep.Jev, `evalgate jev`'s text report (README "jevcheck
// v0.1 contracts"):
//
//	evalgate jev eval: NAME
//	baseline: MODEL  candidate: MODEL
//	cases: N  unchanged: N  confidence regressions: N  answer flips: N
//	CASE FIELD: DETAIL  [flip|regression]    (one per field that changed)
//	compatible|breaking
//
// The summary's values are unescaped; every line is escaped here, as every line
// evalgate writes (README "Results, outcomes and blocking").
func WriteJevSummary(w io.Writer, rep *Report) error {
	r := rep.Jev
	bw := bufio.NewWriter(w)
	// Each string argument (a title, a model, a case id, a field, a detail
	// holding labels) is escaped as untrusted text first, so that one
	// starting with white space is escaped there too, wherever it lands in
	// the line.
	line := func(format string, args ...any) {
		for i, a := range args {
			if s, ok := a.(string); ok {
				args[i] = OneLine(s)
			}
		}
		bw.WriteString(Line(fmt.Sprintf(format, args...)))
		bw.WriteByte('\n')
	}
	line("evalgate jev %s: %s", r.Mode, r.Title)
	line("baseline: %s  candidate: %s", r.Baseline, r.Candidate)
	line("cases: %d  unchanged: %d  confidence regressions: %d  answer flips: %d",
		r.Cases, r.Unchanged, r.Regressions, r.Flips)
	for _, c := range r.Changes {
		line("%s %s: %s  [%s]", c.Case, c.Field, c.Detail, c.Label)
	}
	if r.Breaking() {
		line("breaking")
	} else {
		line("compatible")
	}
	return bw.Flush()
}
