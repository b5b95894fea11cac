package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testfs"
)

func TestDetectTerminal(t *testing.T) {
	out, errw := &bytes.Buffer{}, &bytes.Buffer{}
	tests := []struct {
		name           string
		stdout, stderr bool // which writers are terminals
		env            map[string]string
		want           terminal
	}{
		{"both terminals", true, true, nil, terminal{stdout: true, color: true, progress: true}},
		{"both piped", false, false, nil, terminal{}},
		{"stdout piped", false, true, nil, terminal{progress: true}},
		{"stderr piped", true, false, nil, terminal{stdout: true, color: true}},
		{"NO_COLOR=1", true, true, map[string]string{"NO_COLOR": "1"}, terminal{stdout: true, progress: true}},
		{"NO_COLOR=0 is set too", true, true, map[string]string{"NO_COLOR": "0"}, terminal{stdout: true, progress: true}},
		{"NO_COLOR empty", true, true, map[string]string{"NO_COLOR": ""}, terminal{stdout: true, color: true, progress: true}},
		{"TERM=dumb", true, true, map[string]string{"TERM": "dumb"}, terminal{stdout: true}},
		{"TERM=xterm-256color", true, true, map[string]string{"TERM": "xterm-256color"}, terminal{stdout: true, color: true, progress: true}},
		{"NO_COLOR on a pipe", false, false, map[string]string{"NO_COLOR": "1"}, terminal{}},
	}
	for _, tt := range tests {
		isTerm := func(w io.Writer) bool {
			switch w {
			case out:
				return tt.stdout
			case errw:
				return tt.stderr
			}
			t.Fatalf("%s: isTerminal asked about an unknown writer", tt.name)
			return false
		}
		getenv := func(k string) string { return tt.env[k] }
		if got := detectTerminal(out, errw, isTerm, getenv); got != tt.want {
			t.Errorf("%s: detectTerminal = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestIsTerminalNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, wr := range map[string]io.Writer{"a buffer": &bytes.Buffer{}, "a regular file": f, "a pipe": w} {
		if isTerminal(wr) {
			t.Errorf("isTerminal(%s) = true", name)
		}
	}
}

// fakeClock is the progress line's clock in tests: it moves only when told.
// The ticking goroutine of run reads it too.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestProgressLine(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var buf bytes.Buffer
	p := newProgressLine(&buf, clock.now)
	ms := time.Millisecond
	steps := []struct {
		name    string
		advance time.Duration
		do      func()
		want    string // what the step writes
	}{
		{"nothing to grade yet", 3 * time.Second, p.tick, ""},
		{"evals found", 0, func() { p.set(0, 4) }, ""},
		{"past the delay with evals", 0, p.tick, "\revalgate: 0/4 evals\x1b[K"},
		{"an eval graded", 0, func() { p.set(1, 4) }, ""},
		{"too soon after the last draw", 99 * ms, p.tick, ""},
		{"a tenth of a second after", 1 * ms, p.tick, "\revalgate: 1/4 evals\x1b[K"},
		{"nothing changed", 500 * ms, p.tick, ""},
		{"a notice erases the line", 0, func() { p.println("evalgate: a notice") }, "\r\x1b[Kevalgate: a notice\n"},
		{"drawn again at once after a notice", 0, p.tick, "\revalgate: 1/4 evals\x1b[K"},
		{"more evals found", 0, func() { p.set(3, 9) }, ""},
		{"redrawn over itself", 100 * ms, p.tick, "\revalgate: 3/9 evals\x1b[K"},
		{"cleared before the report", 0, p.clear, eraseLine},
		{"cleared twice", 0, p.clear, ""},
		{"a line after the clear", 0, func() { p.println("evalgate: saw") }, "evalgate: saw\n"},
	}
	for _, s := range steps {
		buf.Reset()
		clock.advance(s.advance)
		s.do()
		if got := buf.String(); got != s.want {
			t.Errorf("%s: wrote %q, want %q", s.name, got, s.want)
		}
	}
}

func TestProgressLineDelay(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var buf bytes.Buffer
	p := newProgressLine(&buf, clock.now)
	p.set(0, 10)
	for i := range 10 {
		p.set(i, 10)
		clock.advance(199 * time.Millisecond) // 1.99 s in all
		p.tick()
	}
	if buf.Len() != 0 {
		t.Errorf("a run under %v drew %q", progressDelay, buf.String())
	}
	clock.advance(10 * time.Millisecond)
	p.tick()
	if want := "\revalgate: 9/10 evals\x1b[K"; buf.String() != want {
		t.Errorf("at %v the line is %q, want %q", progressDelay, buf.String(), want)
	}
}

// TestProgressLineThrottle: however often it ticks and the counts change,
// the line is drawn at most once per progressEvery.
func TestProgressLineThrottle(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var buf bytes.Buffer
	p := newProgressLine(&buf, clock.now)
	clock.advance(progressDelay)
	const ticks = 3000 // one per millisecond: 3 s
	for i := range ticks {
		p.set(i+1, ticks)
		p.tick()
		clock.advance(time.Millisecond)
	}
	draws := strings.Count(buf.String(), "\r")
	if max := ticks/int(progressEvery/time.Millisecond) + 1; draws > max || draws < max-1 {
		t.Errorf("%d ticks a millisecond apart drew %d times, want about %d", ticks, draws, max)
	}
	if strings.Contains(buf.String(), "\n") {
		t.Errorf("the progress line wrote a newline: %q", buf.String())
	}
}

// TestProgressLineStopUnderDelay: a run that ends before the delay writes
// nothing, and stop may be called twice.
func TestProgressLineStopUnderDelay(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var buf bytes.Buffer
	p := newProgressLine(&buf, clock.now) // the clock never moves
	stop := p.run()
	p.set(1, 2)
	stop()
	stop()
	if buf.Len() != 0 {
		t.Errorf("a run under the delay wrote %q", buf.String())
	}
}

// TestProgressLineStopErases: stop erases a drawn line, and only once.
func TestProgressLineStopErases(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var buf bytes.Buffer
	p := newProgressLine(&buf, clock.now)
	stop := p.run()
	p.set(1, 2)
	clock.advance(progressDelay)
	p.tick()
	stop()
	stop()
	if want := "\revalgate: 1/2 evals\x1b[K" + eraseLine; buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
}

// writeCheckTree writes a repository with one page whose built-in eval fails
// and makes it the working directory.
func writeCheckTree(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"docs/a.md": "---\nevals:\n  - {id: never, grader: \"tool:headings\", options: {required: [Never]}}\n" +
			"  - {id: title, grader: \"tool:headings\", options: {required: [A]}}\n---\n# A\n",
		"docs/b.md": "# B\n",
	})
	t.Chdir(dir)
	t.Setenv("GITHUB_ACTIONS", "")
}

// TestCheckSeenLine: with stdout not a terminal, the text report is the
// plain one and one stderr line says what the run saw; other formats have
// no such line.
func TestCheckSeenLine(t *testing.T) {
	writeCheckTree(t)
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"check", "--all", "--format", "text"}, nil, &stdout, &stderr); code != exitBlocking {
		t.Fatalf("check exited %d, want %d; stderr %q", code, exitBlocking, stderr.String())
	}
	// The plain format, line for line (the message is the tool's).
	plain := regexp.MustCompile(`^docs/a\.md:3:5: error: never: [^\n\x1b]+ \[missing_heading\]\n` +
		`evalgate: 1 pass, 1 fail, 0 error, 0 skip, 0 pending; 1 blocking; score 0\.5\n$`)
	if !plain.MatchString(stdout.String()) {
		t.Errorf("stdout is not the plain text report:\n%s\nwant it to match\n%s", stdout.String(), plain)
	}
	if want := "evalgate: saw 2 pages (1 with evals), 2 evals, 0 fixtures, 0 contracts\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}

	for _, args := range [][]string{
		{"check", "--all", "--format", "json"},
		{"validate", "--all", "--format", "json"},
	} {
		stdout.Reset()
		stderr.Reset()
		Main(args, nil, &stdout, &stderr)
		if stderr.Len() != 0 {
			t.Errorf("%q wrote to stderr: %q", args, stderr.String())
		}
	}
	stderr.Reset()
	if code := Main([]string{"validate", "--all", "--format", "text"}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("validate exited %d; stderr %q", code, stderr.String())
	}
	if want := "evalgate: saw 2 pages (1 with evals), 2 evals, 0 fixtures, 0 contracts\n"; stderr.String() != want {
		t.Errorf("validate: stderr = %q, want %q", stderr.String(), want)
	}
}

// TestWriteTerminalForm: the text format takes the terminal form when stdout
// is a terminal, with colour only when asked; other formats keep theirs.
func TestWriteTerminalForm(t *testing.T) {
	rep := &report.Report{
		Tool:  report.Tool{Name: "evalgate"},
		Scope: report.Scope{Mode: report.ScopeAll},
		Seen:  report.Seen{Pages: 1, PagesWithEvals: 1, Evals: 1},
		Results: report.ResultsOf([]diag.Result{{Source: diag.SourcePage, File: "a.md", Pos: diag.Pos{Line: 2, Col: 1}, Check: "c",
			Outcome: diag.Fail, Severity: diag.SeverityError, Code: "x", Message: "m", Blocking: true}}...),
	}
	rep.Count()
	render := func(f func(*bytes.Buffer) error) string {
		var buf bytes.Buffer
		if err := f(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	tests := []struct {
		name   string
		format report.Format
		term   terminal
		want   func(*bytes.Buffer) error
	}{
		{"piped text", report.FormatText, terminal{}, func(b *bytes.Buffer) error { return report.WriteText(b, rep) }},
		{"text on a terminal", report.FormatText, terminal{stdout: true, color: true},
			func(b *bytes.Buffer) error { return report.WriteTerminal(b, rep, report.TerminalOptions{Color: true}) }},
		{"text on a terminal without colour", report.FormatText, terminal{stdout: true},
			func(b *bytes.Buffer) error { return report.WriteTerminal(b, rep, report.TerminalOptions{}) }},
		{"json on a terminal", report.FormatJSON, terminal{stdout: true, color: true}, func(b *bytes.Buffer) error { return report.WriteJSON(b, rep) }},
	}
	for _, tt := range tests {
		got := render(func(b *bytes.Buffer) error { return reportFiles{}.write(rep, tt.format, b, tt.term) })
		if want := render(tt.want); got != want {
			t.Errorf("%s: wrote\n%q\nwant\n%q", tt.name, got, want)
		}
	}
}
