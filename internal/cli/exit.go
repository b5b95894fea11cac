package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/internal/report"
)

// The exit statuses of every command (README "Exit statuses"). They belong to the command line: the engine
// says what happened (a report, what blocks in it, an invalid config, nothing to evaluate, a usage error)
// and the command line decides the status.
const (
	exitOK       = 0 // nothing blocking
	exitBlocking = 1 // at least one blocking result
	exitUsage    = 2 // a usage error, an invalid config or contract, nothing to evaluate
	exitInternal = 3 // the run as a whole failed, or was stopped by a signal
)

// usageErr writes a usage error, one escaped line, and returns its status.
func usageErr(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(fmt.Sprintf(format, args...)))
	return exitUsage
}

// internalErr writes err, one escaped line, and returns the status of a run that failed as a whole.
func internalErr(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "evalgate: %s\n", report.Line(err.Error()))
	return exitInternal
}
