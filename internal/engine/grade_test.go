package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testfs"
)

// TestGradePipeline: pages in chunks, read ahead of their grading by at most pagesAhead, their ai evals
// and their other evals in pools of their own; every eval of every page is graded once, with its own
// page's verdict, whatever --jobs and however many pages there are.
func TestGradePipeline(t *testing.T) {
	files := map[string]string{".evalgate.yaml": "version: 1\n"}
	pages := pageChunk + 3*pagesAhead + 5 // more than one chunk, and many read-aheads
	for p := range pages {
		word := "absent"
		if p%3 == 0 {
			word = fmt.Sprintf("word%d", p)
		}
		files[fmt.Sprintf("docs/p%04d.md", p)] = fmt.Sprintf("---\nevals:\n"+
			"  - {id: has, grader: \"tool:contains\", options: {text: %s}}\n"+
			"  - {id: judged, assertion: the page says word%d}\n"+
			"---\n# Page\n\nword%d\n", word, p, p)
	}
	dir := testfs.Tree(t, files)
	for _, jobs := range []int{1, 3} {
		rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]diag.Outcome{}
		for r := range rep.Results.All() {
			key := r.File + " " + r.Check
			if _, dup := seen[key]; dup {
				t.Fatalf("jobs=%d: %s graded twice", jobs, key)
			}
			seen[key] = r.Outcome
		}
		for p := range pages {
			file := fmt.Sprintf("docs/p%04d.md", p)
			want := diag.Fail
			if p%3 == 0 {
				want = diag.Pass
			}
			if got := seen[file+" has"]; got != want {
				t.Errorf("jobs=%d: %s has is %q, want %q", jobs, file, got, want)
			}
			if got := seen[file+" judged"]; got != diag.Pending {
				t.Errorf("jobs=%d: %s judged is %q, want pending (no judge)", jobs, file, got)
			}
		}
		if len(seen) != 2*pages {
			t.Errorf("jobs=%d: %d results, want %d", jobs, len(seen), 2*pages)
		}
	}
}

// TestBuiltinStopped: a run stopped (SIGTERM, say) while a built-in grader reads its page reaches no
// verdict for it: error internal_error "not finished", never a pass or target_unreadable, whatever
// the tool made of its cancelled context.
func TestBuiltinStopped(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		".evalgate.yaml": "version: 1\n",
		"docs/a.md": "---\nevals:\n  - {id: links, grader: \"tool:links\"}\n  - {id: headings, grader: \"tool:headings\"}\n" +
			"  - {id: fences, grader: \"tool:code-fences\"}\n---\n# A\n\n[b](b.md#x)\n",
		"docs/b.md": "# B\n",
	})
	rep := checkStopped(t, dir)
	n := 0
	for r := range rep.Results.All() {
		n++
		if r.Outcome != diag.Error || r.Code != "internal_error" || r.Message != "not finished: evalgate received SIGTERM" {
			t.Errorf("%s: %s %s %q, want error internal_error, not finished", r.Check, r.Outcome, r.Code, r.Message)
		}
	}
	if n != 3 {
		t.Errorf("%d results, want one for each of the 3 evals", n)
	}
}

// TestStoppedReadsNoMorePages: a run stopped while it grades reads no page of a chunk after the one it
// was grading (the report holds what finished; reading 64,000 pages after a SIGTERM took seconds), and
// a stopped run with evals left unread is no "nothing to evaluate".
func TestStoppedReadsNoMorePages(t *testing.T) {
	files := map[string]string{}
	for i := range 2*pageChunk + 1 {
		files[fmt.Sprintf("docs/p%04d.md", i)] = "---\nevals:\n  - {id: has, grader: tool:contains, options: {text: x}}\n---\nx\n"
	}
	rep := checkStopped(t, testfs.Tree(t, files))
	if n := rep.Results.Len(); n == 0 || n > pageChunk {
		t.Errorf("%d results, want those of the first chunk of %d pages at most", n, pageChunk)
	}
}

// checkStopped is check --all in dir stopped by a signal as soon as the first page's evals are counted,
// before any is graded.
func checkStopped(t *testing.T, dir string) *report.Report {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	stop := func(int, int) { cancel(errors.New("evalgate received SIGTERM")) }
	rep, err := Run(ctx, Options{Mode: ModeCheck, Dir: dir, All: true, Progress: stop})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestGradedEvalsLetGo: what a run keeps of its graded evals does not grow with them. A suite of 2,000
// evals on 100 pages of two lines is 200,000 evals; each kept its results and verdict to the end of its
// chunk or run (about a kilobyte an eval: 4.6 GB for 3.2 million), and each page read ahead its 2,000
// resolved evals. When the last eval is graded, what is still live is a fraction of that, and the scores,
// counted as pages finish, are every eval's.
func TestGradedEvalsLetGo(t *testing.T) {
	const pages, evals = 100, 2000
	var cfg strings.Builder
	cfg.WriteString("version: 1\nsuites:\n  s:\n    pages: ['docs/*.md']\n    target-pass-rate: 0.5\n    evals:\n")
	for i := range evals {
		grader := "tool:code-fences"
		if i%4 == 0 {
			grader = "tool:headings\n        options: {required: [Missing]}" // a fail
		}
		fmt.Fprintf(&cfg, "      - id: e%d\n        grader: %s\n", i, grader)
	}
	files := map[string]string{".evalgate.yaml": cfg.String()}
	for i := range pages {
		files[fmt.Sprintf("docs/p%03d.md", i)] = "# P\n"
	}
	dir := testfs.Tree(t, files)
	var live uint64
	progress := func(done, total int) {
		if done == pages*evals && total == pages*evals {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			live = m.HeapAlloc
		}
	}
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Progress: progress,
		Keep: report.KeepText})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Pass != pages*evals*3/4 || rep.Summary.Fail != pages*evals/4 {
		t.Fatalf("summary %+v", rep.Summary)
	}
	if s := rep.Suites; len(s) != 1 || s[0].Weights.Total != pages*evals || s[0].Score != 0.75 {
		t.Errorf("suites %+v, want s at 0.75 of %d", s, pages*evals)
	}
	t.Logf("%d MB live", live>>20)
	if live == 0 || live > 60<<20 {
		t.Errorf("%d MB live when the last of %d evals was graded", live>>20, pages*evals)
	}
}

// TestScoresIgnoreTiming: scores are float sums, whose rounding depends on their order. A page's evals are
// summed in their order and pages in path order, so a suite just at its target is met or not whatever
// --jobs is and whichever eval finishes first (here the first, a slow command, finishes last).
func TestScoresIgnoreTiming(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		".evalgate.yaml": "version: 1\nsuites:\n  s:\n    pages: ['docs/*.md']\n    target-pass-rate: 0.5\n    evals:\n" +
			"      - {id: slow, grader: command, command: [sh, -c, 'sleep 0.3; exit 1'], weight: 0.1, severity: warning}\n" +
			"      - {id: heading, grader: tool:headings, options: {required: [Missing]}, weight: 0.2, severity: warning}\n" +
			"      - {id: fences, grader: tool:code-fences, weight: 0.3}\n",
		"docs/a.md": "# A\n",
		"docs/b.md": "# B\n",
	})
	// Summed at run time as the engine sums, not folded exactly as constants are: each page's evals in
	// their order, then the pages, a and b.
	var page, want report.Weights
	for i, w := range []float64{0.1, 0.2, 0.3} {
		page.Total += w
		if i == 2 {
			page.Pass += w
		}
	}
	want.Add(page)
	want.Add(page)
	for _, jobs := range []int{1, 4, 4} {
		rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if s := rep.Suites; len(s) != 1 || s[0].Weights != want || s[0].Met != (want.Score() >= 0.5) {
			t.Errorf("--jobs %d: suites %+v, want weights %+v", jobs, rep.Suites, want)
		}
	}
}

// TestCommandInputsPerEval: each command eval gets files of its own for {target} and the options: a
// tool that rewrites its input (made writable again, as its owner or root may) changes nothing the next
// eval on the page reads, and the files are gone once the evals are done.
func TestCommandInputsPerEval(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := testfs.Tree(t, map[string]string{
		".evalgate.yaml": "version: 1\ntools:\n  tool:writer:\n    command: [./writer.sh, \"{target}\"]\n" +
			"  tool:reader:\n    command: [./reader.sh, \"{target}\"]\n" +
			"suites:\n  all:\n    pages: [\"docs/*.md\"]\n    evals:\n" +
			"      - {id: w, grader: \"tool:writer\", options: {mode: strict}}\n" +
			"      - {id: r, grader: \"tool:reader\", options: {mode: strict}}\n",
		"writer.sh": "#!/bin/sh\nchmod u+w \"$1\" \"$EVALGATE_OPTIONS_FILE\"\nprintf '# TAMPERED' > \"$1\"\nprintf '{\"mode\":\"off\"}' > \"$EVALGATE_OPTIONS_FILE\"\n",
		"reader.sh": "#!/bin/sh\ncat \"$1\"\ncat \"$EVALGATE_OPTIONS_FILE\"\nexit 1\n",
		"docs/a.md": "# Original\n",
	})
	for _, script := range []string{"writer.sh", "reader.sh"} {
		if err := os.Chmod(filepath.Join(dir, script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Jobs: 1, Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	read := false
	for _, r := range rep.Results.Slice() {
		if r.Check != "r" {
			continue
		}
		read = true
		b, _ := json.Marshal(r.Evidence)
		if strings.Contains(string(b), "TAMPERED") || strings.Contains(string(b), "off") ||
			!strings.Contains(string(b), "# Original") || !strings.Contains(string(b), "strict") {
			t.Errorf("the reader saw %s", b)
		}
	}
	if !read {
		t.Fatal("no result of the reader")
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "evalgate-target-*")); len(left) > 0 {
		t.Errorf("files left behind: %q", left)
	}
}
