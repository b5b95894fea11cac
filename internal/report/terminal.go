package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// TerminalOptions configure WriteTerminal.
type TerminalOptions struct {
	// Color paints with ANSI SGR sequences: labels by severity, file headers
	// bold, checks dim, the summary line green (nothing blocks) or red. The
	// command line sets it for a terminal unless NO_COLOR or TERM=dumb says
	// otherwise.
	Color bool
}

// The SGR parameters of the terminal form (ECMA-48 8.3.117).
const (
	sgrBold   = "1"
	sgrDim    = "2"
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrCyan   = "36"
)

// labelWidth is the width of the widest label, "warning" and "pending".
const labelWidth = 7

// WriteTerminal writes the report as a terminal shows it (README "On a
// terminal"): the fail, error, skip and pending results grouped under a
// header line naming their file ("(no file)" for results about none), the
// files in the order the report first names them, each result on a line
// indented by two spaces,
//
//	line:col  label    message [code]  check
//
// (the label of the text report: a fail's severity, "error", "skip" or
// "pending"; "-" for an unknown line), then a tally by code, most frequent
// first, then SeenLine and SummaryLine. Passes are only counted. Text from a
// page, a path, a fixture or a grader goes through termText, so the only raw
// escape sequences are the colours opt.Color asks for.
func WriteTerminal(w io.Writer, r *Report, opt TerminalOptions) error {
	paint := func(sgr, s string) string {
		if !opt.Color || s == "" {
			return s
		}
		return "\x1b[" + sgr + "m" + s + "\x1b[0m"
	}
	// A file's results come together in report order: each group is written when the next begins,
	// so only one file's results are held.
	tally := map[string]int{}
	bw := bufio.NewWriter(w)
	var group []diag.Result
	groups := 0
	flush := func() {
		if len(group) == 0 {
			return
		}
		if groups > 0 {
			bw.WriteByte('\n')
		}
		groups++
		header := "(no file)"
		if file := group[0].File; file != "" {
			header = guardLine(termText(file))
		}
		bw.WriteString(paint(sgrBold, header))
		bw.WriteByte('\n')
		width := 0
		for i := range group {
			width = max(width, len(position(group[i].Pos)))
		}
		// A result line starts with two spaces and a position (digits or
		// "-"): it cannot start a workflow command.
		for i := range group {
			res := &group[i]
			label, sgr := terminalLabel(res)
			pos := position(res.Pos)
			bw.WriteString("  " + pos + strings.Repeat(" ", width-len(pos)+2))
			bw.WriteString(paint(sgr, label) + strings.Repeat(" ", max(labelWidth-len(label), 0)+2))
			bw.WriteString(termText(res.Message) + " [" + termText(res.Code) + "]")
			if res.Baselined {
				bw.WriteString(" (baselined)") // a known fault, as in every format
			}
			if res.Check != "" {
				bw.WriteString("  " + paint(sgrDim, termText(res.Check)))
			}
			bw.WriteByte('\n')
		}
		group = group[:0]
	}
	for res := range r.Results.Brief() {
		if res.Outcome == diag.Pass {
			continue
		}
		if len(group) > 0 && group[0].File != res.File {
			flush()
		}
		kept := *res
		kept.Evidence = nil
		group = append(group, kept)
		tally[res.Code]++
	}
	flush()
	if err := r.Results.Err(); err != nil {
		return err
	}
	if groups > 0 {
		bw.WriteByte('\n')
		bw.WriteString(tallyLine(tally)) // starts with a count
		bw.WriteByte('\n')
	}
	bw.WriteString(SeenLine(r))
	bw.WriteByte('\n')
	summary := sgrGreen
	if r.Summary.Blocking > 0 {
		summary = sgrRed
	}
	bw.WriteString(paint(sgrBold+";"+summary, guardLine(SummaryLine(r))))
	bw.WriteByte('\n')
	return bw.Flush()
}

// terminalLabel is a result's label, as in the text report, and its colour:
// red for an error (a severity or an outcome), yellow for a warning, cyan for
// info (notes among them), dim for skip and pending.
func terminalLabel(res *diag.Result) (label, sgr string) {
	switch res.Outcome {
	case diag.Fail:
		switch res.Severity {
		case diag.SeverityError:
			return res.Severity.String(), sgrRed
		case diag.SeverityWarning:
			return res.Severity.String(), sgrYellow
		}
		return res.Severity.String(), sgrCyan
	case diag.Error:
		return "error", sgrRed
	}
	return string(res.Outcome), sgrDim
}

// position is a result's line and column as the terminal form shows them:
// "12:3", "12" (column unknown) or "-" (line unknown), as Location does.
func position(p diag.Pos) string {
	switch {
	case p.Line > 0 && p.Col > 0:
		return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	case p.Line > 0:
		return strconv.Itoa(p.Line)
	}
	return "-"
}

// tallyLine counts results by code, most frequent first, then by code
// (bytewise): "3 broken_link, 1 missing_anchor".
func tallyLine(tally map[string]int) string {
	codes := make([]string, 0, len(tally))
	for c := range tally {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b string) int {
		if c := cmp.Compare(tally[b], tally[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d %s", tally[c], termText(c))
	}
	return strings.Join(parts, ", ")
}

// termText is text from a page, a path, a fixture or a grader as the
// terminal form writes it inside a line: escaped by OneLine (no ESC, C1
// control, line break, bidi control or zero-width character is left raw), and
// "##[" written #\#[ as guardLine does.
func termText(s string) string {
	s = OneLine(s)
	if strings.Contains(s, "##[") {
		s = strings.ReplaceAll(s, "##[", `#\#[`)
	}
	return s
}
