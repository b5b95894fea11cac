// Command evalgate gates documentation and eval fixtures in CI: see README.md.
package main

import (
	"os"

	"github.com/evalgate/evalgate/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
