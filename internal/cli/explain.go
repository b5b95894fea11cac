package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/tooldef"
)

const explainUsage = `Usage: evalgate explain [CODE|tool:NAME...]

Prints what a result code means: its kind, outcome and severity, what it
says, an example that gives it and how to fix it. Without CODE, lists every
code, one line each: code, outcome, severity and title. The text comes from
the registry that README's "Codes" table is tested against. For a built-in
grader (tool:links, ...), prints what it checks, its options and its codes.

Exit status: 0, or 2 for an unknown code or a usage error.
`

// runExplain is `evalgate explain [CODE...]`.
func runExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain")
	codes, code, ok := parseFlags(fs, explainUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(codes) == 0 {
		if err := report.WriteCodeList(stdout, tooldef.Codes); err != nil {
			return internalErr(stderr, err)
		}
		return exitOK
	}
	var blocks []func(io.Writer) error
	for _, code := range codes {
		if t := tooldef.Lookup(code); t != nil {
			blocks = append(blocks, func(w io.Writer) error { return report.WriteToolExplain(w, t) })
			continue
		}
		info, ok := tooldef.LookupCode(code)
		if !ok {
			what := "code"
			if strings.HasPrefix(code, "tool:") {
				what = "built-in grader"
			}
			msg := fmt.Sprintf("explain: unknown %s %q", what, code)
			if near, ok := diag.NearMiss(code, append(tooldef.CodeNames(), toolNames()...)); ok {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			return usageErr(stderr, "%s; evalgate explain lists every code", msg)
		}
		blocks = append(blocks, func(w io.Writer) error { return report.WriteExplain(w, info) })
	}
	for i, write := range blocks {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := write(stdout); err != nil {
			return internalErr(stderr, err)
		}
	}
	return exitOK
}

// toolNames are the built-in graders' names, for near misses.
func toolNames() []string {
	names := make([]string, len(tooldef.Builtins))
	for i, t := range tooldef.Builtins {
		names[i] = t.Name
	}
	return names
}
