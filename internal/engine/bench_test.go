package engine

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/evalgate/evalgate/internal/frontmatter"
)

// The benchmarks of issue 2 compare evalgate with baselines measured in the
// same run; compare them with benchstat, never with timed assertions:
//
//	go test ./internal/engine -run '^$' -bench . -count 6 | tee bench.txt
//	benchstat -col /op bench.txt   (or read the ns/op ratios)

// treePages is how many pages the benchmark tree has: 10,000 unless -pages says otherwise
// (go test ./internal/engine -run '^$' -bench Tree -args -pages 50000).
var treePages = 10000

func init() { flag.IntVar(&treePages, "pages", treePages, "pages in the benchmark tree") }

// builtOnce is a temporary directory built at most once per test binary and
// removed by TestMain: the benchmarks' trees and binary.
type builtOnce struct {
	prefix string
	build  func(dir string) error

	once sync.Once
	dir  string
	err  error
}

// get builds the directory on first use and returns it.
func (o *builtOnce) get(b *testing.B) string {
	o.once.Do(func() {
		if o.dir, o.err = os.MkdirTemp("", o.prefix); o.err == nil {
			o.err = o.build(o.dir)
		}
	})
	if o.err != nil {
		b.Fatal(o.err)
	}
	return o.dir
}

// benchTree is a docs tree of treePages pages of 1 to 20 KB; a third with
// evals (one in ten of those in TOML), a third with frontmatter but no evals,
// a third without frontmatter.
var benchTree = &builtOnce{prefix: "evalgate-bench-tree-", build: func(dir string) error {
	return writeTree(dir, treePages)
}}

func tree(b *testing.B) string { return benchTree.get(b) }

func TestMain(m *testing.M) {
	if os.Getenv(spawnerEnv) != "" {
		os.Exit(spawnerMain(os.Args[1:]))
	}
	code := m.Run()
	for _, o := range []*builtOnce{benchTree, benchBinary, benchGitTree} {
		if o.dir != "" {
			os.RemoveAll(o.dir)
		}
	}
	os.Exit(code)
}

func writeTree(dir string, n int) error {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the operator reads a config file and writes status to the cluster when a page " +
		"links to another section install upgrade remove helm chart value option default example")
	var body bytes.Buffer
	for i := range n {
		body.Reset()
		sub := filepath.Join(dir, fmt.Sprintf("section-%02d", i%50))
		switch i % 3 {
		case 0:
			if i%30 == 0 {
				fmt.Fprintf(&body, "+++\ntitle = \"Page %d\"\n\n[[evals]]\nid = \"has-intro\"\ngrader = \"tool:headings\"\noptions = { required = [\"Intro\"] }\n+++\n", i)
			} else {
				fmt.Fprintf(&body, "---\ntitle: Page %d\nowner: team-%d\nevals:\n"+
					"  - id: has-intro\n    grader: tool:headings\n    options: {required: [Intro]}\n"+
					"  - id: short\n    grader: tool:length\n    options: {max-words: 5000}\n"+
					"  - id: no-todo\n    grader: tool:absent\n    options: {text: TODO}\n"+
					"  - The page explains when to use the operator.\n---\n", i, i%7)
			}
		case 1:
			fmt.Fprintf(&body, "---\ntitle: Page %d\ndescription: A page without evals.\ntags: [a, b, c]\n---\n", i)
		}
		fmt.Fprintf(&body, "# Page %d\n\n## Intro\n\n", i)
		size := 1024 + rng.IntN(19*1024)
		for body.Len() < size {
			for range 12 {
				body.WriteString(words[rng.IntN(len(words))])
				body.WriteByte(' ')
			}
			body.WriteString("\n")
			if rng.IntN(20) == 0 {
				body.WriteString("\n## Section\n\nSee [the intro](#intro).\n\n")
			}
		}
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("page-%05d.md", i)), body.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkValidateTree is `evalgate validate --all` over the tree, in process.
func BenchmarkValidateTree(b *testing.B) {
	dir := tree(b)
	b.ResetTimer()
	for b.Loop() {
		rep, err := Run(context.Background(), Options{Mode: ModeValidate, Dir: dir, All: true})
		if err != nil || rep.Summary.Blocking > 0 {
			b.Fatalf("validate: %v, %+v", err, rep.Summary)
		}
		if rep.Results.Len() != 0 {
			b.Fatalf("validate found %d results in a clean tree", rep.Results.Len())
		}
	}
}

// BenchmarkCheckTree is `evalgate check --all` over the tree, in process: its built-in graders
// run, and its ai evals wait for a judge.
func BenchmarkCheckTree(b *testing.B) {
	dir := tree(b)
	b.ResetTimer()
	for b.Loop() {
		rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true})
		if err != nil || rep.Summary.Blocking > 0 || rep.Summary.Pass == 0 {
			b.Fatalf("check: %v, %+v", err, rep.Summary)
		}
	}
}

// walkPages lists the tree's Markdown files the way the engine does without git.
func walkPages(b *testing.B, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return files
}

// BenchmarkBaselineSplit reads every file and splits off its frontmatter,
// with the engine's parallelism, and nothing else.
func BenchmarkBaselineSplit(b *testing.B) {
	baselinePages(b, func(frontmatter.Document) {})
}

// BenchmarkBaselineParse reads every file, splits off its frontmatter and
// parses YAML frontmatter into yaml.Node (TOML pages are only split, which
// makes the baseline cheaper, not dearer).
func BenchmarkBaselineParse(b *testing.B) {
	baselinePages(b, func(doc frontmatter.Document) {
		if doc.Format == frontmatter.FormatYAML {
			var n yaml.Node
			if err := yaml.Unmarshal(doc.Text, &n); err != nil {
				panic(err)
			}
		}
	})
}

// baselinePages times the baselines: every page of the tree read and split,
// with the engine's parallelism, then given to each.
func baselinePages(b *testing.B, each func(frontmatter.Document)) {
	dir := tree(b)
	for b.Loop() {
		files := walkPages(b, dir)
		parallel(runtime.NumCPU(), len(files), func(i int) {
			src, err := os.ReadFile(files[i])
			if err != nil {
				panic(err)
			}
			each(frontmatter.Split(src))
		})
	}
}

// benchBinary holds evalgate, built once for the whole-process benchmarks as the Dockerfile and the
// Action build it (CGO_ENABLED=0, -trimpath).
var benchBinary = &builtOnce{prefix: "evalgate-bench-bin-", build: func(dir string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "evalgate"), "github.com/evalgate/evalgate/cmd/evalgate")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}}

func evalgateBinary(b *testing.B) string { return filepath.Join(benchBinary.get(b), "evalgate") }

// runProcess runs the binary in dir and wants wantCode for its exit status.
func runProcess(b *testing.B, dir string, wantCode int, args ...string) {
	cmd := exec.Command(evalgateBinary(b), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != wantCode {
		b.Fatalf("evalgate %s: exit %d (%v), want %d: %s", strings.Join(args, " "), code, err, wantCode, stderr.String())
	}
}

// spawnerEnv makes this test binary the spawner: a small process that runs its arguments as a
// command, its output to /dev/null, and prints the command's wall time in nanoseconds, its peak RSS in
// KiB and its exit status. A child's peak RSS must be read this way: os/exec starts a child with
// vfork, and Linux carries the peak of the memory the child shares until its exec into the child's
// own, so a child of a benchmark that has used 300 MB reports at least 300 MB. The spawner's own few
// MB are the floor instead.
const spawnerEnv = "EVALGATE_BENCH_SPAWNER"

func spawnerMain(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	t0 := time.Now()
	err := cmd.Run()
	took := time.Since(t0)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf("%d %.0f %d\n", took.Nanoseconds(), peakRSS(cmd.ProcessState)*1024, cmd.ProcessState.ExitCode())
	return 0
}

// measureProcess runs name with args in dir through the spawner, wants wantCode for its exit status,
// and returns its wall time and peak RSS in MiB.
func measureProcess(b *testing.B, dir string, wantCode int, name string, args ...string) (time.Duration, float64) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{name}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), spawnerEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ns int64
	var kib float64
	var code int
	if err == nil {
		_, err = fmt.Sscan(string(out), &ns, &kib, &code)
	}
	if err != nil || code != wantCode {
		b.Fatalf("%s %s: exit %d (%v), want %d: %s", name, strings.Join(args, " "), code, err, wantCode, stderr.String())
	}
	return time.Duration(ns), kib / 1024
}

// BenchmarkProcessVersion is `evalgate version` as a whole process.
func BenchmarkProcessVersion(b *testing.B) {
	dir := tree(b)
	evalgateBinary(b)
	for b.Loop() {
		runProcess(b, dir, 0, "version")
	}
}

// BenchmarkProcessValidateOnePage is what pre-commit does: validate one page
// given as a path, as a whole process.
func BenchmarkProcessValidateOnePage(b *testing.B) {
	dir := tree(b)
	evalgateBinary(b)
	for b.Loop() {
		runProcess(b, dir, 0, "validate", "section-03/page-00003.md")
	}
}

// BenchmarkProcessTree runs validate and check over the whole tree as
// processes and reports their peak memory.
func BenchmarkProcessTree(b *testing.B) {
	dir := tree(b)
	evalgateBinary(b)
	for _, cmd := range []string{"validate", "check"} {
		b.Run(cmd, func(b *testing.B) {
			var peak float64
			for b.Loop() {
				_, rss := measureProcess(b, dir, 0, evalgateBinary(b), cmd, "--all")
				peak = max(peak, rss)
			}
			b.ReportMetric(peak, "peak-MiB")
		})
	}
}

// BenchmarkCommandEvals grades 1,000 command evals of a trivial program with
// --jobs 1 and --jobs 2.
func BenchmarkCommandEvals(b *testing.B) {
	dir := b.TempDir()
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Fatal(err)
	}
	var page strings.Builder
	page.WriteString("---\nevals:\n")
	for i := range 1000 {
		fmt.Fprintf(&page, "  - {id: e%d, grader: command, command: [%q]}\n", i, truePath)
	}
	page.WriteString("---\n# Page\n")
	if err := os.WriteFile(filepath.Join(dir, "page.md"), []byte(page.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			for b.Loop() {
				rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, Paths: []string{"page.md"}, Jobs: jobs})
				if err != nil || rep.Summary.Blocking > 0 || rep.Summary.Pass != 1000 {
					b.Fatalf("check: %v, %+v", err, rep.Summary)
				}
			}
		})
	}
}

// changedPages are the pages the changed-files benchmarks edit.
var changedPages = func() []string {
	var pages []string
	for i := range 10 {
		n := i * 300 // every third page has evals: keep a mix
		pages = append(pages, fmt.Sprintf("section-%02d/page-%05d.md", n%50, n))
	}
	return pages
}()

// benchGitTree is the tree as a git repository with one commit, and then ten
// pages edited in the working tree.
var benchGitTree = &builtOnce{prefix: "evalgate-bench-git-", build: func(dir string) error {
	if err := writeTree(dir, treePages); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "tree"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=b", "-c", "user.email=b@b", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v: %s", args, err, out)
		}
	}
	for _, p := range changedPages {
		f, err := os.OpenFile(filepath.Join(dir, p), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		fmt.Fprintln(f, "\nAn edit.")
		f.Close()
	}
	return nil
}}

func gitTree(b *testing.B) string { return benchGitTree.get(b) }

// BenchmarkCheckChanged compares `check --base HEAD` on ten edited pages of
// a 10,000-page repository with `check` on the same ten pages given as
// paths: change detection must not scan the whole tree.
func BenchmarkCheckChanged(b *testing.B) {
	dir := gitTree(b)
	b.Run("base", func(b *testing.B) {
		for b.Loop() {
			rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, Base: "HEAD"})
			if err != nil || len(rep.Scope.Files) != len(changedPages) {
				b.Fatalf("check --base: %v, %d files", err, len(rep.Scope.Files))
			}
		}
	})
	b.Run("paths", func(b *testing.B) {
		for b.Loop() {
			rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, Paths: changedPages})
			if err != nil || len(rep.Scope.Files) != len(changedPages) {
				b.Fatalf("check PATH...: %v, %d files", err, len(rep.Scope.Files))
			}
		}
	})
}

// BenchmarkSuiteByPath checks 10,000 pages that each get one suite of two
// built-in evals: named by eval-suite on every page (the baseline), or
// applied by path from the config with no eval key on any page (README
// "Suites": at most 1.3 times the baseline).
func BenchmarkSuiteByPath(b *testing.B) {
	const suite = `    evals:
      - {id: intro, grader: "tool:headings", options: {required: [Intro]}}
      - {id: no-todo, grader: "tool:absent", options: {text: TODO}}
`
	for _, tt := range []struct{ name, config, frontmatter string }{
		{"eval-suite", "version: 1\nsuites:\n  site:\n" + suite, "eval-suite: site\n"},
		{"by-path", "version: 1\nsuites:\n  site:\n    pages: [\"**/*.md\"]\n" + suite, ""},
	} {
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ".evalgate.yaml"), []byte(tt.config), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
			b.Fatal(err)
		}
		for i := range treePages {
			sub := filepath.Join(dir, fmt.Sprintf("section-%02d", i%50))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				b.Fatal(err)
			}
			page := fmt.Sprintf("---\ntitle: Page %d\n%s---\n# Intro\n\nThe operator reads a config file. See [install](../install.md).\n", i, tt.frontmatter)
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("page-%05d.md", i)), []byte(page), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true})
				if err != nil || rep.Summary.Pass != 2*treePages || rep.Summary.Blocking > 0 {
					b.Fatalf("check: %v, %+v", err, rep.Summary)
				}
			}
		})
	}
}
