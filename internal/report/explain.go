package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// explainWidth is the column at which `evalgate explain` wraps prose.
const explainWidth = 78

// WriteExplain writes what a code means, as `evalgate explain CODE` prints
// it: one block of plain text with the code and its title, kind, outcome and
// severity, then its doc, an example that gives it and how to fix it, all
// from the registry (README "Codes"). Every line is escaped by Line.
func WriteExplain(w io.Writer, c diag.CodeInfo) error {
	bw := bufio.NewWriter(w)
	line := func(s string) {
		bw.WriteString(Line(s))
		bw.WriteByte('\n')
	}
	line(c.Code + ": " + c.Title)
	line("  kind:     " + c.Kind())
	line("  outcome:  " + c.OutcomeText())
	line("  severity: " + severityDoc(c))
	line("")
	for _, l := range wrap(c.Doc, "  ", explainWidth) {
		line(l)
	}
	line("")
	line("  Example:")
	for _, l := range strings.Split(strings.TrimRight(c.Example, "\n"), "\n") {
		line("    " + l)
	}
	line("")
	line("  Fix:")
	for _, l := range wrap(c.Fix, "    ", explainWidth) {
		line(l)
	}
	return bw.Flush()
}

// WriteToolExplain writes what a built-in grader checks, as `evalgate explain tool:NAME` prints it: its
// name and title, its doc (options and codes included), and its options' JSON Schema, all from its
// definition (README "Built-in tool:* graders"). Every line is escaped by Line.
func WriteToolExplain(w io.Writer, t *tooldef.Tool) error {
	bw := bufio.NewWriter(w)
	line := func(s string) {
		bw.WriteString(Line(s))
		bw.WriteByte('\n')
	}
	line(t.Name + ": " + t.Title)
	line("")
	for _, l := range strings.Split(t.Doc, "\n") {
		line(strings.TrimRight("  "+l, " "))
	}
	schema, err := json.MarshalIndent(t.OptionsSchema(), "", "  ")
	if err != nil {
		return err
	}
	line("")
	line("  Options, as JSON Schema (the table evalgate checks them against):")
	for _, l := range strings.Split(string(schema), "\n") {
		line("    " + l)
	}
	codes := make([]string, len(t.Codes))
	for i, c := range t.Codes {
		codes[i] = c.Code
	}
	line("")
	line("  Its codes: evalgate explain " + strings.Join(codes, " "))
	return bw.Flush()
}

// severityDoc says what c's severity means for blocking.
func severityDoc(c diag.CodeInfo) string {
	switch c.Severity {
	case diag.SeverityEval:
		if c.Group == "builtin" {
			return "the eval's (severity:, default error; a severity-map entry for this code wins)"
		}
		return "the eval's (severity:, default error)"
	case diag.SeverityAssertion:
		return "error for a hard assertion, warning for a report one (which never blocks)"
	case "":
		if slices.Contains(c.Outcomes(), diag.Error) {
			return "none: an error blocks under every --fail-on but none"
		}
		return fmt.Sprintf("none: a %s never blocks", c.OutcomeText())
	}
	return c.Severity
}

// wrap breaks text into lines of at most width columns (code points), each
// starting with indent; a word longer than a line stays whole.
func wrap(text, indent string, width int) []string {
	var out []string
	cur := indent
	for _, word := range strings.Fields(text) {
		if cur != indent && len([]rune(cur))+1+len([]rune(word)) > width {
			out = append(out, cur)
			cur = indent
		}
		if cur != indent {
			cur += " "
		}
		cur += word
	}
	if cur != indent || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}

// WriteCodeList writes one line per code, as `evalgate explain` without a
// code prints them: the code, its outcome, its severity ("-" for none) and
// its title, in columns. Every line is escaped by Line.
func WriteCodeList(w io.Writer, codes []diag.CodeInfo) error {
	wCode, wOutcome, wSev := 0, 0, 0
	for _, c := range codes {
		wCode = max(wCode, len(c.Code))
		wOutcome = max(wOutcome, len(listOutcome(c)))
		wSev = max(wSev, len(listSeverity(c)))
	}
	bw := bufio.NewWriter(w)
	for _, c := range codes {
		bw.WriteString(Line(fmt.Sprintf("%-*s  %-*s  %-*s  %s",
			wCode, c.Code, wOutcome, listOutcome(c), wSev, listSeverity(c), c.Title)))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func listOutcome(c diag.CodeInfo) string { return strings.ReplaceAll(c.Outcome, "|", "/") }

func listSeverity(c diag.CodeInfo) string {
	if c.Severity == "" {
		return "-"
	}
	return c.Severity
}
