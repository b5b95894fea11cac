//go:build unix

package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/evalgate/evalgate/internal/actionslog"
)

// cmdWFCmds (workflow commands) reads stdout, stderr or a file the way the Actions runner
// reads a step's output (actionslog.Read: lines end at CR or LF, leading
// Unicode white space is trimmed, ::stop-commands:: is honoured, "##[" acts
// anywhere) and fails unless the workflow commands it would act on are
// exactly NAME... in order: `wfcmds stdout|stderr|FILE [NAME...]`. The
// command that resumes stopped commands is named "resume", whatever its
// token; a legacy "##[" command is named "##[".
func cmdWFCmds(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || neg {
		ts.Fatalf("usage: wfcmds stdout|stderr|FILE [NAME...]")
	}
	in := args[0]
	if in != "stdout" && in != "stderr" {
		in = ts.MkAbs(in)
	}
	cmds, stopped := actionslog.Read(ts.ReadFile(in))
	var got []string
	token := ""
	for _, c := range cmds {
		switch {
		case token != "" && strings.EqualFold(c.Name, token):
			got = append(got, "resume")
			token = ""
		case c.Name == "stop-commands":
			got = append(got, c.Name)
			token = c.Data
		default:
			got = append(got, c.Name)
		}
	}
	if stopped {
		got = append(got, "(still stopped)")
	}
	if fmt.Sprint(got) != fmt.Sprint(args[1:]) {
		var lines []string
		for _, c := range cmds {
			lines = append(lines, strconv.Quote(c.Line))
		}
		ts.Fatalf("the runner acts on %q in %s, want %q:\n%s", got, args[0], args[1:], strings.Join(lines, "\n"))
	}
}

// cmdUnesc sets VAR to TEXT with Go's escapes (\u00a0, \u202e, \n)
// interpreted, for names no script can spell: `unesc VAR TEXT`.
func cmdUnesc(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: unesc VAR TEXT")
	}
	s, err := strconv.Unquote(`"` + strings.ReplaceAll(args[1], `"`, `\"`) + `"`)
	ts.Check(err)
	ts.Setenv(args[0], s)
}
