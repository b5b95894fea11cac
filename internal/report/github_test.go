package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/actionslog"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/sethvargo/go-githubactions"
)

const testToken = "0123456789abcdef0123456789abcdef"

func fixedToken() string { return testToken }

// envMap is a Getenv over a map: unset variables read as "".
func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// writeGitHub runs WriteGitHub with the test token and env, failing the test
// on an error.
func writeGitHub(t *testing.T, r *Report, env map[string]string, o GitHubOptions) string {
	t.Helper()
	o.Getenv = envMap(env)
	o.Token = fixedToken
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, r, o); err != nil {
		t.Fatalf("WriteGitHub: %v", err)
	}
	return buf.String()
}

// tempEnv points GITHUB_OUTPUT and GITHUB_STEP_SUMMARY at files of a temp
// directory that do not exist yet (the runner creates them empty; the
// library appends, creating them when missing).
func tempEnv(t *testing.T) map[string]string {
	dir := t.TempDir()
	return map[string]string{
		"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGitHubGolden(t *testing.T) {
	env := tempEnv(t)
	out := writeGitHub(t, sample(), env, GitHubOptions{SARIFFile: "/home/runner/work/repo/evalgate.sarif"})
	golden(t, "sample.github", []byte(out))
	golden(t, "sample.github-output", []byte(readFile(t, env["GITHUB_OUTPUT"])))

	// The job summary's golden is TestGoldens'.
	md := string(writeReport(t, WriteJobSummary, sample()))
	if got := readFile(t, env["GITHUB_STEP_SUMMARY"]); got != md {
		t.Errorf("GITHUB_STEP_SUMMARY holds\n%s\nwant WriteJobSummary's\n%s", got, md)
	}
}

// command is a workflow command as the Actions runner reads it.
type command struct {
	name  string
	props map[string]string // unescaped
	data  string            // unescaped
	line  string
}

// runnerCommands reads out as the Actions runner does (actionslog.Read:
// lines end at CR or LF, leading Unicode white space is trimmed, "::" starts
// a command unless commands are stopped, "##[" anywhere is a command of the
// legacy parser, which these tests never allow, named "##[").
func runnerCommands(t *testing.T, out string) []command {
	t.Helper()
	read, stopped := actionslog.Read(out)
	var cmds []command
	for _, c := range read {
		if i := strings.IndexByte(c.Info, ' '); i >= 0 {
			for _, p := range strings.Split(c.Info[i+1:], ",") {
				if !strings.Contains(p, "=") {
					t.Errorf("property without '=' in %q", c.Line)
				}
			}
		}
		cmds = append(cmds, command{name: c.Name, props: c.Props, data: c.Data, line: c.Line})
	}
	if stopped {
		t.Errorf("commands are still stopped at the end of the output")
	}
	return cmds
}

func TestGitHubStreamOrder(t *testing.T) {
	r := sample()
	r.Notices = []string{"checked everything: HEAD^1 is missing (fetch-depth: 2)", "second notice"}
	out := writeGitHub(t, r, nil, GitHubOptions{})
	cmds := runnerCommands(t, out)
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	// The text block, the run's notices, then errors before warnings.
	want := []string{"stop-commands", testToken, "notice", "notice", "error", "error", "error", "error", "warning"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("commands %v, want %v\n%s", names, want, out)
	}
	// Every notice starts with "evalgate: ", added where it is missing.
	if cmds[2].data != "evalgate: "+r.Notices[0] || cmds[3].data != "evalgate: "+r.Notices[1] {
		t.Errorf("notices read %q, %q", cmds[2].data, cmds[3].data)
	}
	// The block holds exactly the text report.
	var text bytes.Buffer
	if err := WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	// The library ends its lines with githubactions.EOF, WriteText with "\n".
	block := "::stop-commands::" + testToken + githubactions.EOF + text.String() + "::" + testToken + "::" + githubactions.EOF
	if !strings.HasPrefix(out, block) {
		t.Errorf("the output does not start with the stopped text report:\n%s", out)
	}
}

func TestGitHubAnnotationEscaping(t *testing.T) {
	tests := []struct {
		name string
		res  diag.Result
		want string
	}{
		{
			name: "percent colon comma in every part",
			res: diag.Result{File: "docs/100%,a:b.md", Pos: diag.Pos{Line: 3, Col: 5}, Check: "c:1,2", Code: "x%y",
				Outcome: diag.Fail, Severity: diag.SeverityError, Message: "50% done: a, b %0A"},
			want: "::error col=5,file=docs/100%25%2Ca%3Ab.md,line=3,title=c%3A1%2C2 [x%25y]::50%25 done: a, b %250A",
		},
		{
			name: "CR and LF are written as \\r and \\n",
			res: diag.Result{File: "a\nb.md", Pos: diag.Pos{Line: 1}, Check: "t\r1", Code: "c",
				Outcome: diag.Fail, Severity: diag.SeverityWarning, Message: "one\r\ntwo\rthree\n"},
			want: `::warning file=a\nb.md,line=1,title=t\r1 [c]::one\r\ntwo\rthree\n`,
		},
		{
			name: "commands inside the message",
			res: diag.Result{File: "p.md", Check: "k", Code: "c", Outcome: diag.Fail, Severity: diag.SeverityInfo,
				Message: "::error::owned\n::set-output name=x::y ##[error]z \u2028\x7f"},
			want: `::notice file=p.md,title=k [c]::::error::owned\n::set-output name=x::y #\#[error]z \u2028\x7f`,
		},
		{
			name: "an error outcome is an error whatever its severity; no column without a line",
			res: diag.Result{File: "q.md", Pos: diag.Pos{Col: 4}, Check: "slow", Code: "command_timeout",
				Outcome: diag.Error, Severity: diag.SeverityInfo, Message: "timed out"},
			want: "::error file=q.md,title=slow [command_timeout]::timed out",
		},
		{
			name: "no file, no position",
			res:  diag.Result{Check: "k", Code: "c", Outcome: diag.Fail, Message: "m"},
			want: "::error title=k [c]::m",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Scope: Scope{Mode: ScopeAll}, Results: ResultsOf([]diag.Result{tt.res}...)}
			r.Count()
			out := writeGitHub(t, r, nil, GitHubOptions{})
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if got := lines[len(lines)-1]; got != tt.want {
				t.Errorf("annotation\n got %s\nwant %s", got, tt.want)
			}
			cmds := runnerCommands(t, out)
			if len(cmds) != 3 {
				t.Fatalf("%d commands, want stop, resume and one annotation:\n%s", len(cmds), out)
			}
			// What the runner reads back is the OneLine'd text, exactly.
			a := cmds[2]
			if want := annotationText(tt.res.Message); a.data != want {
				t.Errorf("the runner reads message %q, want %q", a.data, want)
			}
			if want := OneLine(tt.res.Check + " [" + tt.res.Code + "]"); a.props["title"] != want {
				t.Errorf("the runner reads title %q, want %q", a.props["title"], want)
			}
			if want := OneLine(tt.res.File); a.props["file"] != want {
				t.Errorf("the runner reads file %q, want %q", a.props["file"], want)
			}
		})
	}
}

// TestGitHubInjection feeds workflow commands through every page-derived
// field and checks that the runner sees only the commands WriteGitHub means.
func TestGitHubInjection(t *testing.T) {
	hostile := strings.Join([]string{
		"exit 1:",
		"::error::owned",
		"  ::set-output name=x::y",
		"::add-mask::x",
		"::" + testToken + "::",
		"::stop-commands::other",
		"##[error]legacy",
		"##[set-output name=x;]y",
		"%0A::error::encoded",
	}, "\n")
	r := &Report{
		Tool:  Tool{Name: "evalgate", Version: "::error::v"},
		Scope: Scope{Mode: ScopeChanged, Base: "::error::base", Files: []string{"::warning::f.md"}},
		Suites: []Suite{
			{Name: "::error::suite\n##[error]s", Score: 0.5, Target: 1},
		},
		Results: ResultsOf([]diag.Result{
			{File: "::error::file.md\n::add-mask::x", Pos: diag.Pos{Line: 1}, Check: "::warning::check\n::error::c",
				Code: "command_failed\n::error::code", Outcome: diag.Fail, Severity: diag.SeverityError,
				Message: hostile, Evidence: map[string]any{"tail": hostile}},
			{File: "a.md", Check: "p", Code: "no_judge", Outcome: diag.Pending, Message: hostile, Assertion: hostile},
			{File: "b.md", Check: "s", Code: "page_skipped", Outcome: diag.Skip, Message: hostile},
			{File: "c.md", Check: "w", Code: "too_long", Outcome: diag.Fail, Severity: diag.SeverityWarning, Message: hostile},
			{File: "d.md", Check: "e", Code: "command_timeout", Outcome: diag.Error, Message: hostile},
		}...),
		Notices: []string{hostile},
	}
	r.Count()
	env := tempEnv(t)
	out := writeGitHub(t, r, env, GitHubOptions{SARIFFile: "/tmp/e.sarif", JSONFile: "/tmp/e.json"})
	cmds := runnerCommands(t, out)
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	want := []string{"stop-commands", testToken, "notice", "error", "error", "warning"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("the runner sees commands %q, want %q\n%s", names, want, out)
	}
	for _, c := range cmds[2:] {
		if strings.ContainsAny(c.data, "\r\n") {
			t.Errorf("an annotation's message holds a line break: %q", c.data)
		}
		for k, v := range c.props {
			if strings.ContainsAny(v, "\r\n") {
				t.Errorf("annotation property %s holds a line break: %q", k, v)
			}
		}
	}

	// Outputs: only the eight names, each once, with numbers and the paths.
	outputs := parseOutputs(t, readFile(t, env["GITHUB_OUTPUT"]))
	wantOut := map[string]string{"pass": "0", "fail": "2", "error": "1", "skip": "1", "pending": "1",
		"score": "", "sarif-file": "/tmp/e.sarif", "json-file": "/tmp/e.json"}
	if fmt.Sprint(outputs) != fmt.Sprint(wantOut) {
		t.Errorf("outputs %v, want %v", outputs, wantOut)
	}
	summaryHygiene(t, readFile(t, env["GITHUB_STEP_SUMMARY"]))
}

// parseOutputs reads a GITHUB_OUTPUT file as the runner does: NAME=VALUE
// lines and NAME<<DELIM heredocs; a name set twice is an error.
func parseOutputs(t *testing.T, s string) map[string]string {
	t.Helper()
	got := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		name, value := "", ""
		if n, delim, ok := strings.Cut(lines[i], "<<"); ok {
			name = n
			var vals []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				vals = append(vals, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("output %s: no closing delimiter", name)
			}
			value = strings.Join(vals, "\n")
		} else if n, v, ok := strings.Cut(lines[i], "="); ok {
			name, value = n, v
		} else {
			t.Fatalf("GITHUB_OUTPUT line %q is neither NAME=VALUE nor a heredoc", lines[i])
		}
		if _, dup := got[name]; dup {
			t.Errorf("output %s is set twice", name)
		}
		got[name] = value
	}
	return got
}

func TestGitHubWithoutEnvironmentFiles(t *testing.T) {
	// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY unset, as in a local or
	// pre-commit run: the library would panic on them.
	var buf bytes.Buffer
	err := WriteGitHub(&buf, sample(), GitHubOptions{
		Getenv:    envMap(map[string]string{"GITHUB_ACTIONS": "true"}),
		SARIFFile: "/x/evalgate.sarif",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "::stop-commands::") || !strings.Contains(buf.String(), "::error ") {
		t.Errorf("no report or annotations:\n%s", buf.String())
	}
}

func TestGitHubEnvironmentFiles(t *testing.T) {
	env := tempEnv(t)
	// The runner creates both files; what is there already stays.
	if err := os.WriteFile(env["GITHUB_OUTPUT"], []byte("before=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeGitHub(t, sample(), env, GitHubOptions{JSONFile: "/w/report.json"})
	outputs := parseOutputs(t, readFile(t, env["GITHUB_OUTPUT"]))
	want := map[string]string{"before": "1", "pass": "1", "fail": "4", "error": "1", "skip": "1", "pending": "1",
		"score": "0.6667", "sarif-file": "", "json-file": "/w/report.json"}
	if fmt.Sprint(outputs) != fmt.Sprint(want) {
		t.Errorf("outputs %v, want %v", outputs, want)
	}
	summary := readFile(t, env["GITHUB_STEP_SUMMARY"])
	if !strings.HasPrefix(summary, "## evalgate: 4 blocking results\n") {
		t.Errorf("the step summary does not start with the heading:\n%s", summary)
	}
}

func TestGitHubEnvironmentFileErrors(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{
		"GITHUB_OUTPUT":       filepath.Join(dir, "missing", "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
	}
	var buf bytes.Buffer
	err := WriteGitHub(&buf, sample(), GitHubOptions{Getenv: envMap(env), Token: fixedToken})
	if err == nil || !strings.Contains(err.Error(), "github:") {
		t.Errorf("an unwritable GITHUB_OUTPUT gives error %v, want the library's failure", err)
	}
	// The report, the annotations and the summary are still written.
	if !strings.Contains(buf.String(), "::error ") {
		t.Errorf("no annotations:\n%s", buf.String())
	}
	if readFile(t, env["GITHUB_STEP_SUMMARY"]) == "" {
		t.Error("no step summary")
	}
}

func TestGitHubOutputPathWithLineBreak(t *testing.T) {
	env := tempEnv(t)
	var buf bytes.Buffer
	err := WriteGitHub(&buf, sample(), GitHubOptions{Getenv: envMap(env), Token: fixedToken,
		SARIFFile: "/x\n_GitHubActionsFileCommandDelimeter_\nfail=0\nx<<_GitHubActionsFileCommandDelimeter_"})
	if err == nil || !strings.Contains(err.Error(), "sarif-file") {
		t.Errorf("error %v, want one about sarif-file", err)
	}
	outputs := parseOutputs(t, readFile(t, env["GITHUB_OUTPUT"]))
	if outputs["sarif-file"] != "" || outputs["fail"] != "4" || len(outputs) != 8 {
		t.Errorf("outputs %v: the path forged or changed outputs", outputs)
	}
}

func TestGitHubRandomToken(t *testing.T) {
	token := regexp.MustCompile(`^::stop-commands::([0-9a-f]{32})\n`)
	var seen []string
	for range 2 {
		var buf bytes.Buffer
		if err := WriteGitHub(&buf, sample(), GitHubOptions{Getenv: envMap(nil)}); err != nil {
			t.Fatal(err)
		}
		m := token.FindStringSubmatch(buf.String())
		if m == nil {
			t.Fatalf("no 32-hex stop-commands token:\n%s", buf.String())
		}
		if !strings.Contains(buf.String(), "\n::"+m[1]+"::\n") {
			t.Errorf("commands are not resumed with token %s", m[1])
		}
		seen = append(seen, m[1])
	}
	if seen[0] == seen[1] {
		t.Errorf("two runs share the token %s", seen[0])
	}
}

func TestGitHubRefusesBadToken(t *testing.T) {
	for _, tok := range []string{"", "short", "error", "0123456789abcdef::x", "0123456789abcdef 01"} {
		var buf bytes.Buffer
		err := WriteGitHub(&buf, sample(), GitHubOptions{Getenv: envMap(nil), Token: func() string { return tok }})
		if err == nil {
			t.Errorf("token %q accepted", tok)
		}
		if buf.Len() != 0 {
			t.Errorf("token %q: wrote %q", tok, buf.String())
		}
	}
}

// capReport has, in report order interleaved: 15 error-severity fails,
// 3 error outcomes, 12 warnings, 12 infos and 5 passes.
func capReport() *Report {
	r := &Report{Scope: Scope{Mode: ScopeAll}}
	add := func(kind string, i int, o diag.Outcome, s diag.Severity) {
		r.Results.Add(diag.Result{File: fmt.Sprintf("%02d%s.md", i, kind), Pos: diag.Pos{Line: i + 1},
			Check: kind, Code: "c", Outcome: o, Severity: s, Message: fmt.Sprintf("%s %d", kind, i)})
	}
	for i := range 15 {
		add("e", i, diag.Fail, diag.SeverityError)
		if i < 12 {
			add("w", i, diag.Fail, diag.SeverityWarning)
			add("i", i, diag.Fail, diag.SeverityInfo)
		}
		if i < 3 {
			add("x", i, diag.Error, diag.SeverityWarning)
		}
		if i < 5 {
			add("p", i, diag.Pass, diag.SeverityError)
		}
	}
	r.Count()
	return r
}

func TestGitHubAnnotationCap(t *testing.T) {
	tests := []struct {
		name    string
		notices int
		// want: the "more" count and the annotations per level
		more, errors, warnings, infos int
	}{
		// 18 errors, 12 warnings, 12 infos; the "more" notice takes one
		// of the 10 notices: 8 + 2 + 3 left out.
		{"no run notices", 0, 13, 10, 10, 9},
		{"two run notices", 2, 15, 10, 10, 7},
		{"notices fill the cap", 12, 22, 10, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := capReport()
			for i := range tt.notices {
				r.Notices = append(r.Notices, fmt.Sprintf("notice %d", i))
			}
			cmds := runnerCommands(t, writeGitHub(t, r, nil, GitHubOptions{SARIFFile: "/s"}))[2+tt.notices:]
			if len(cmds) == 0 || cmds[0].name != "notice" {
				t.Fatalf("no notice first: %v", cmds)
			}
			wantMore := fmt.Sprintf("evalgate: %d more results are not annotated: see the job summary and the SARIF file", tt.more)
			if cmds[0].data != wantMore || len(cmds[0].props) != 0 {
				t.Errorf("first notice %q, want %q", cmds[0].line, wantMore)
			}
			var got []string
			count := map[string]int{}
			for _, c := range cmds[1:] {
				got = append(got, c.name+":"+c.props["file"])
				count[c.name]++
			}
			if count["error"] != tt.errors || count["warning"] != tt.warnings || count["notice"] != tt.infos {
				t.Errorf("annotations per level %v, want %d/%d/%d", count, tt.errors, tt.warnings, tt.infos)
			}
			// Errors first, in report order (error outcomes are errors),
			// then warnings, then notices.
			want := []string{"error:00e.md", "error:00x.md", "error:01e.md", "error:01x.md", "error:02e.md",
				"error:02x.md", "error:03e.md", "error:04e.md", "error:05e.md", "error:06e.md",
				"warning:00w.md"}
			if fmt.Sprint(got[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("annotations start %v, want %v", got[:len(want)], want)
			}
			if tt.infos > 0 && got[20] != "notice:00i.md" {
				t.Errorf("annotation 21 is %s, want the first info", got[20])
			}
		})
	}
}

func TestGitHubAnnotationCapExact(t *testing.T) {
	// Exactly 10 of each level: nothing left out, no "more" notice.
	r := &Report{Scope: Scope{Mode: ScopeAll}}
	for range 10 {
		for _, s := range diag.Severities {
			r.Results.Add(diag.Result{File: "a.md", Check: "k", Code: "c",
				Outcome: diag.Fail, Severity: s, Message: "m"})
		}
	}
	r.Count()
	cmds := runnerCommands(t, writeGitHub(t, r, nil, GitHubOptions{}))[2:]
	if len(cmds) != 30 {
		t.Errorf("%d annotations, want 30", len(cmds))
	}
	for _, c := range cmds {
		if strings.Contains(c.data, "more") {
			t.Errorf("a 'more' notice with nothing left out: %s", c.line)
		}
	}

	// Eleven errors and nothing else: one left out, said in the singular,
	// and without a SARIF file there is none to point at.
	r = &Report{Scope: Scope{Mode: ScopeAll}}
	for range 11 {
		r.Results.Add(diag.Result{File: "b.md", Check: "k", Code: "c", Outcome: diag.Error, Message: "m"})
	}
	r.Count()
	cmds = runnerCommands(t, writeGitHub(t, r, nil, GitHubOptions{}))[2:]
	if want := "evalgate: 1 more result is not annotated: see the job summary"; cmds[0].name != "notice" || cmds[0].data != want {
		t.Errorf("first command %q, want the notice %q", cmds[0].line, want)
	}
	if len(cmds) != 11 {
		t.Errorf("%d commands, want the notice and 10 errors", len(cmds))
	}
}
