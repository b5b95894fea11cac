package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/evalgate/evalgate/internal/diag"
)

// WriteText writes one line per fail, error, skip and pending result,
//
//	file:line:col: severity: check: message [code]
//
// (skip and pending results carry "skip" or "pending" where a failure has its
// severity), then one summary line. Passes are only counted.
func WriteText(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	for res := range r.Results.Brief() {
		if res.Outcome == diag.Pass {
			continue
		}
		bw.WriteString(TextLine(res))
		bw.WriteByte('\n')
	}
	bw.WriteString(guardLine(SummaryLine(r)))
	bw.WriteByte('\n')
	if err := r.Results.Err(); err != nil {
		return err
	}
	return bw.Flush()
}

// KeepText is what the text report, on a terminal or off one, reads of the results (Results.Keep): no
// pass, and no evidence.
func KeepText(res *diag.Result) bool {
	res.Evidence = nil
	return res.Outcome != diag.Pass
}

// TextLine is res as a line of the text report, without its newline: each
// field escaped by OneLine, the line guarded against workflow commands.
func TextLine(res *diag.Result) string {
	var label string
	switch res.Outcome {
	case diag.Fail:
		label = res.Severity.String()
	case diag.Error:
		label = "error"
	default:
		label = string(res.Outcome)
	}
	line := fmt.Sprintf("%s: %s: %s: %s [%s]",
		OneLine(res.Location()), label, OneLine(res.Check), OneLine(res.Message), OneLine(res.Code))
	if res.Baselined {
		line += " (baselined)"
	}
	return guardLine(line)
}

// SummaryLine is the one-line summary of the text report.
func SummaryLine(r *Report) string {
	s := r.Summary
	line := fmt.Sprintf("evalgate: %d pass, %d fail, %d error, %d skip, %d pending; %d blocking",
		s.Pass, s.Fail, s.Error, s.Skip, s.Pending, s.Blocking)
	if r.Baseline {
		line += fmt.Sprintf("; %d baselined", s.Baselined)
	}
	if s.Score != nil {
		line += "; score " + FormatScore(*s.Score)
	}
	for _, su := range r.Suites {
		state := "met"
		switch {
		case su.Partial:
			state = "partial"
		case !su.Met:
			state = "below target " + FormatScore(su.Target)
		}
		line += fmt.Sprintf("; suite %s %s (%s)", OneLine(su.Name), FormatScore(su.Score), state)
	}
	return line
}

// FormatScore writes a score with at most four decimals ("1", "0.75", "0.6667").
func FormatScore(f float64) string {
	return strconv.FormatFloat(roundScore(f), 'f', -1, 64)
}

// SeenLine is the line saying what a run looked at (README "On a terminal"):
//
//	evalgate: saw 12 pages (5 with evals), 9 evals, 2 fixtures, 1 contract
//
// It holds only numbers: no text from a page or a path.
func SeenLine(r *Report) string { return noticePrefix + "saw " + seenText(r.Seen) }

// seenText is Seen in words, without the "evalgate: saw " of SeenLine.
func seenText(s Seen) string {
	text := fmt.Sprintf("%s (%d with evals), %s, %s, %s",
		plural(s.Pages, "page", "pages"), s.PagesWithEvals, plural(s.Evals, "eval", "evals"),
		plural(s.Fixtures, "fixture", "fixtures"), plural(s.Contracts, "contract", "contracts"))
	if s.JudgeCalls+s.JudgeCached > 0 {
		text += fmt.Sprintf("; judge: %s, %d from the cache", plural(s.JudgeCalls, "call", "calls"), s.JudgeCached)
	}
	return text
}
