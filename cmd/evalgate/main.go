// Command evalgate gates documentation and eval fixtures in CI: see README.md.
package main

import (
	"fmt"
	"os"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/envpolicy"
	"github.com/evalgate/evalgate/internal/grader"
	"github.com/evalgate/evalgate/internal/proc"
)

func main() {
	os.Exit(run())
}

// run is the whole program: harden the process before any child can exist (README "Security model"), run
// the command line, then kill whatever graders left behind.
func run() int {
	herr := proc.Harden(envpolicy.Withheld)
	paceGC()
	if herr != nil {
		fmt.Fprintf(os.Stderr, "evalgate: %v\n", herr)
	}
	code := cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	grader.KillOrphans()
	return code
}
