//go:build unix

package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		// evalgate is the whole program, hardening and orphan sweep included: see run.
		"evalgate": func() { os.Exit(run()) },
		// graderhelper is a real child process for command graders; see helperMain.
		"graderhelper": func() { os.Exit(helperMain(os.Args[1:])) },
		// hardenhelper plays the attacks on evalgate's own process; see hardenHelperMain.
		"hardenhelper": func() { os.Exit(hardenHelperMain(os.Args[1:])) },
		// judgehelper is a command judge; see judgeHelperMain.
		"judgehelper": func() { os.Exit(judgeHelperMain(os.Args[1:])) },
	})
}

func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			// Scripts run outside GitHub Actions unless they say otherwise.
			env.Setenv("GITHUB_ACTIONS", "")
			env.Setenv("GIT_AUTHOR_NAME", "evalgate")
			env.Setenv("GIT_AUTHOR_EMAIL", "evalgate@example.invalid")
			env.Setenv("GIT_COMMITTER_NAME", "evalgate")
			env.Setenv("GIT_COMMITTER_EMAIL", "evalgate@example.invalid")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
			env.Values[judgeKey{}] = &fakeJudge{}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitgone":    cmdWaitGone,
			"hostile":     cmdHostile,
			"normjson":    cmdNormJSON,
			"gitsha":      cmdGitSHA,
			"subst":       cmdSubst,
			"wfcmds":      cmdWFCmds,
			"unesc":       cmdUnesc,
			"judgeserver": cmdJudgeServer,
			"absent":      cmdAbsent,
		},
	})
}

// helperMain is a small program for command graders, so that scripts need no
// shell. Its actions run in order:
//
//	exit N        exit with status N
//	out TEXT      print TEXT and a newline to stdout
//	err TEXT      print TEXT and a newline to stderr
//	env NAME      print NAME=VALUE of the environment, or NAME unset
//	args          print each argument after "args --" on its own line
//	stdin         copy stdin to stdout
//	sleep MS      sleep MS milliseconds
//	spawn FILE    start a grandchild that sleeps an hour and write its pid to FILE
//	kill          kill itself with SIGKILL
//	pwd           print the working directory
//	filesize NAME print the size of the file the variable NAME names
func helperMain(args []string) int {
	for len(args) > 0 {
		op := args[0]
		args = args[1:]
		arg := func() string {
			if len(args) == 0 {
				fmt.Fprintf(os.Stderr, "graderhelper: %s needs an argument\n", op)
				os.Exit(100)
			}
			a := args[0]
			args = args[1:]
			return a
		}
		switch op {
		case "exit":
			n, _ := strconv.Atoi(arg())
			return n
		case "out":
			fmt.Println(arg())
		case "err":
			fmt.Fprintln(os.Stderr, arg())
		case "env":
			name := arg()
			if v, ok := os.LookupEnv(name); ok {
				fmt.Printf("%s=%s\n", name, v)
			} else {
				fmt.Printf("%s unset\n", name)
			}
		case "args":
			for _, a := range args {
				fmt.Println(a)
			}
			return 0
		case "stdin":
			io.Copy(os.Stdout, os.Stdin)
		case "sleep":
			ms, _ := strconv.Atoi(arg())
			time.Sleep(time.Duration(ms) * time.Millisecond)
		case "spawn":
			file := arg()
			self, _ := os.Executable()
			cmd := exec.Command(self, "sleep", "3600000")
			cmd.Args[0] = "graderhelper"
			if err := cmd.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 101
			}
			os.WriteFile(file, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
		case "kill":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Second)
		case "pwd":
			wd, _ := os.Getwd()
			fmt.Println(wd)
		case "filesize":
			name := arg()
			if fi, err := os.Stat(os.Getenv(name)); err != nil {
				fmt.Printf("%s: %v\n", name, err)
			} else {
				fmt.Printf("%s holds %d bytes\n", name, fi.Size())
			}
		default:
			fmt.Fprintf(os.Stderr, "graderhelper: unknown action %q\n", op)
			return 100
		}
	}
	return 0
}

// cmdWaitGone waits (up to 10 s) until the process whose pid is in FILE no
// longer exists: `waitgone FILE`. It fails when the process outlives that.
func cmdWaitGone(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waitgone FILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	ts.Check(err)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			if neg {
				ts.Fatalf("process %d is gone", pid)
			}
			return
		}
		// A killed child of nobody may linger as a zombie until reaped by
		// init; /proc says so.
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && strings.Contains(string(st), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !neg {
		ts.Fatalf("process %d still runs", pid)
	}
}

// cmdHostile writes a hostile page too large or too repetitive to keep in a
// txtar file: `hostile KIND FILE`, KIND one of bigfrontmatter (10 MiB),
// aliasbomb (a billion laughs), deepnest (10,000 levels of block nesting),
// deepflow (10,000 levels of flow nesting), biglinks (a 42 MB page of broken
// links under tool:links) and bigoptions (an eval of tool:opts with 200 KiB
// of options).
func cmdHostile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: hostile KIND FILE")
	}
	var b strings.Builder
	b.WriteString("---\n")
	switch args[0] {
	case "bigfrontmatter":
		b.WriteString("evals: [\"x\"]\npadding: |\n")
		line := "  " + strings.Repeat("x", 98) + "\n"
		for b.Len() < 10<<20 {
			b.WriteString(line)
		}
	case "aliasbomb":
		b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < 10; i++ {
			fmt.Fprintf(&b, "a%d: &a%d [", i, i)
			for j := 0; j < 10; j++ {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "*a%d", i-1)
			}
			b.WriteString("]\n")
		}
		b.WriteString("evals: *a9\n")
	case "deepnest":
		// "- - - x" nests block sequences on one line.
		b.WriteString("evals:\n" + strings.Repeat("- ", 10000) + "x\n")
	case "deepflow":
		b.WriteString("evals: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n")
	case "biglinks":
		// 42 MB of broken links under one tool:links eval.
		b.WriteString("evals:\n  - id: links\n    grader: tool:links\n---\n")
		line := "See [a](missing.md), [b](#nope) and ![c](img.png).\n"
		for b.Len() < 42<<20 {
			b.WriteString(line)
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
		return
	case "bigoptions":
		// Options of 200 KiB: more than Linux lets one environment variable hold.
		b.WriteString("evals:\n  - id: big\n    grader: tool:opts\n    options: {blob: " +
			strings.Repeat("x", 200<<10) + "}\n")
	default:
		ts.Fatalf("hostile: unknown kind %q", args[0])
	}
	b.WriteString("---\n# body\n")
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
}

// cmdNormJSON writes a JSON report with every result's duration_ms zeroed,
// the one field that depends on timing, so that `cmp` can compare it with a
// golden file (and -update can rewrite that): `normjson stdout|FILE OUT`.
func cmdNormJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: normjson stdout|FILE OUT")
	}
	in := args[0]
	if in != "stdout" {
		in = ts.MkAbs(in)
	}
	got := durations.ReplaceAllString(ts.ReadFile(in), `"duration_ms": 0`)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(got), 0o644))
}

var durations = regexp.MustCompile(`"duration_ms": [0-9]+`)

// cmdGitSHA sets an environment variable to a commit's SHA:
// `gitsha VAR DIR REV` runs `git -C DIR rev-parse REV`.
func cmdGitSHA(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 || neg {
		ts.Fatalf("usage: gitsha VAR DIR REV")
	}
	out, err := exec.Command("git", "-C", ts.MkAbs(args[1]), "rev-parse", args[2]).Output()
	ts.Check(err)
	ts.Setenv(args[0], strings.TrimSpace(string(out)))
}

// cmdSubst copies IN to OUT with $VAR and ${VAR} expanded from the script's
// environment: `subst IN OUT` (for event payloads holding commit SHAs).
func cmdSubst(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: subst IN OUT")
	}
	text := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(text), 0o644))
}
