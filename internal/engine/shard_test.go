package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testfs"
)

// shardTree writes a random repository: pages in a few folders, with tool:contains evals that pass
// or fail, a suite by path and one by eval-suite, and the repository's own EvalCase fixtures,
// candidates and jevcheck contract, so that every kind of result can land in any shard.
func shardTree(t *testing.T, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	files := map[string]string{".evalgate.yaml": `version: 1
suites:
  guides:
    target-pass-rate: 0.8
    pages: ["guide/**/*.md"]
    evals:
      - id: says-run
        grader: tool:contains
        options: {text: "run"}
  ref:
    target-pass-rate: 1
    evals:
      - id: has-title
        grader: tool:headings
        options: {required: ["Title"]}
evalcase:
  include: ["evals/**/cases/**/*.jsonl"]
  candidates: ["evals/**/candidates/*.jsonl"]
jev:
  - contract: evals/jev/support-triage.json
    answers: evals/jev/replays/jev-1.14.json
    candidate-model: jev-1.14
  - contract: evals/jev/support-triage.json
    answers: evals/jev/replays/jev-1.15.json
    candidate-model: jev-1.15
`}
	for i := range 5 + rng.IntN(40) {
		dir := []string{"guide", "guide/deep", "ref", "misc"}[rng.IntN(4)]
		body := "# Title\n\nrun the tool\n"
		if rng.IntN(3) == 0 {
			body = "# Other\n\nnothing here\n"
		}
		front := "---\nevals:\n  - id: mentions-tool\n    grader: tool:contains\n    options: {text: tool}\n"
		if dir == "ref" {
			front += "eval-suite: ref\n"
		}
		if rng.IntN(5) == 0 {
			front = "---\ntitle: no evals\n"
		}
		files[fmt.Sprintf("%s/p%02d.md", dir, i)] = front + "---\n" + body
	}
	err := filepath.WalkDir(filepath.Join("..", "..", "evals"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(filepath.Join("..", ".."), p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return testfs.Tree(t, files)
}

// comparable writes r in JSON, SARIF and JUnit without what differs between runs of the same work:
// durations and the run's notices.
func comparable(t *testing.T, r *report.Report) map[string]string {
	t.Helper()
	r.Duration, r.Notices = 0, nil
	r.Results.Update(func(res *diag.Result) { res.DurationMS = 0 })
	out := map[string]string{}
	for name, write := range map[string]func(*bytes.Buffer, *report.Report) error{
		"json":  func(b *bytes.Buffer, r *report.Report) error { return report.WriteJSON(b, r) },
		"sarif": func(b *bytes.Buffer, r *report.Report) error { return report.WriteSARIF(b, r) },
		"junit": func(b *bytes.Buffer, r *report.Report) error { return report.WriteJUnit(b, r) },
	} {
		var b bytes.Buffer
		if err := write(&b, r); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String()
	}
	return out
}

// TestShardsMerge: for random trees and N from 1 to 7, the N shards check every selected file
// exactly once between them, and a merge of their JSON reports is the unsharded report, in JSON,
// SARIF and JUnit, except for durations (README "Shards"). Half the trees have a baseline of their
// fails, a suite's suite_below_target among them, which merge applies again to the whole.
func TestShardsMerge(t *testing.T) {
	for seed := range uint64(4) {
		dir := shardTree(t, seed)
		if seed%2 == 1 {
			if _, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, WriteBaseline: true}); err != nil {
				t.Fatal(err)
			}
		}
		whole, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if seed%2 == 1 && (!whole.Baseline || whole.Summary.Baselined == 0) {
			t.Fatalf("seed %d: no result was baselined", seed)
		}
		want := comparable(t, whole)
		for n := 1; n <= 7; n++ {
			var names []string
			seen := map[string]int{}
			for k := 1; k <= n; k++ {
				rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Jobs: 2,
					Shard: &report.Shard{Index: k, Count: n}})
				if err != nil {
					t.Fatalf("seed %d, shard %d/%d: %v", seed, k, n, err)
				}
				for _, f := range rep.Scope.Files {
					seen[f]++
				}
				if rep.Scope.Shard == nil || *rep.Scope.Shard != (report.Shard{Index: k, Count: n}) {
					t.Fatalf("shard %d/%d: scope.shard %v", k, n, rep.Scope.Shard)
				}
				for _, s := range rep.Suites {
					if !s.Partial {
						t.Errorf("shard %d/%d: suite %s is not partial", k, n, s.Name)
					}
				}
				name := filepath.Join(t.TempDir(), fmt.Sprintf("shard-%d.json", k))
				var b bytes.Buffer
				if err := report.WriteJSON(&b, rep); err != nil {
					t.Fatal(err)
				}
				os.WriteFile(name, b.Bytes(), 0o644)
				names = append(names, name)
			}
			for _, f := range whole.Scope.Files {
				if seen[f] != 1 {
					t.Errorf("seed %d, N=%d: %s is checked by %d shards", seed, n, f, seen[f])
				}
			}
			if len(seen) != len(whole.Scope.Files) {
				t.Errorf("seed %d, N=%d: the shards checked %d files, the whole run %d", seed, n, len(seen), len(whole.Scope.Files))
			}
			rand.New(rand.NewPCG(seed, uint64(n))).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
			merged, err := Merge(MergeOptions{Dir: dir, Files: names, FailOn: diag.SeverityError})
			if err != nil {
				t.Fatalf("seed %d, N=%d: %v", seed, n, err)
			}
			got := comparable(t, merged)
			for _, format := range []string{"json", "sarif", "junit"} {
				if got[format] != want[format] {
					t.Errorf("seed %d, N=%d: the merged %s differs from the whole run's:\n%s", seed, n, format, firstDiff(want[format], got[format]))
				}
			}
		}
	}
}

// TestMergeInShardOrder: results alike but for their evidence (two shards' evals' findings on one
// companion) are merged in shard order, whatever order the reports are given in.
func TestMergeInShardOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(k int) string {
		page := ""
		for i := 0; page == ""; i++ {
			if f := fmt.Sprintf("docs/p%d.md", i); InShard(f, report.Shard{Index: k, Count: 2}) {
				page = f
			}
		}
		rep := &report.Report{
			Tool:    report.Tool{Name: "evalgate", Version: "v1"},
			Scope:   report.Scope{Mode: report.ScopeAll, Files: []string{page}, Shard: &report.Shard{Index: k, Count: 2}},
			Summary: report.Summary{Score: new(float64)},
			Results: report.ResultsOf(diag.Result{Source: diag.SourcePage, File: "data.yaml", Pos: diag.Pos{Line: 1, Col: 1},
				Check: "cs", Grader: "tool:x", Type: diag.TypeRegression, Outcome: diag.Fail, Code: "c", Message: "m",
				Weight: 1, Evidence: map[string]any{"shard": k}}),
		}
		rep.Count()
		var b bytes.Buffer
		if err := report.WriteJSON(&b, rep); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprintf("s%d.json", k))
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	s1, s2 := write(1), write(2)
	for _, files := range [][]string{{s1, s2}, {s2, s1}} {
		m, err := Merge(MergeOptions{Dir: dir, Files: files, FailOn: diag.SeverityError})
		if err != nil {
			t.Fatal(err)
		}
		var shards []any
		for res := range m.Results.All() {
			shards = append(shards, res.Evidence["shard"])
		}
		if len(shards) != 2 || shards[0] != 1.0 || shards[1] != 2.0 {
			t.Errorf("merge of %v: results of shards %v, want [1 2]", files, shards)
		}
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

// TestMergeRefusesIncompleteSets: a set with a shard missing, given twice, of another N, of
// another config or not sharded at all is a usage error that names the fault.
func TestMergeRefusesIncompleteSets(t *testing.T) {
	dir := shardTree(t, 1)
	write := func(name string, opts Options) string {
		opts.Mode, opts.Dir, opts.All = ModeCheck, dir, true
		rep, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		report.WriteJSON(&b, rep)
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, b.Bytes(), 0o644)
		return p
	}
	s1 := write("s1.json", Options{Shard: &report.Shard{Index: 1, Count: 3}})
	s2 := write("s2.json", Options{Shard: &report.Shard{Index: 2, Count: 3}})
	s3 := write("s3.json", Options{Shard: &report.Shard{Index: 3, Count: 3}})
	other := write("other.json", Options{Shard: &report.Shard{Index: 2, Count: 4}})
	whole := write("whole.json", Options{})
	os.WriteFile(filepath.Join(dir, ".evalgate.yaml"), append(must(os.ReadFile(filepath.Join(dir, ".evalgate.yaml"))), "# edited\n"...), 0o644)
	edited := write("edited.json", Options{Shard: &report.Shard{Index: 3, Count: 3}})
	// Reports changed after they were written: another shard's file, another scope, another target.
	forge := func(name, from string, edit func(string) string) string {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, []byte(edit(string(must(os.ReadFile(from))))), 0o644)
		return p
	}
	var s1files struct{ Scope struct{ Files []string } }
	json.Unmarshal(must(os.ReadFile(s1)), &s1files)
	stolen := forge("stolen.json", s2, func(j string) string {
		return strings.Replace(j, `"files": [`, `"files": [`+strconv.Quote(s1files.Scope.Files[0])+`, `, 1)
	})
	var s2results struct{ Results []struct{ File string } }
	json.Unmarshal(must(os.ReadFile(s2)), &s2results)
	theirs := forge("theirs.json", s2, func(j string) string { // a result of s1's file, which s1 checked
		return strings.Replace(j, `"file": `+strconv.Quote(s2results.Results[0].File), `"file": `+strconv.Quote(s1files.Scope.Files[0]), 1)
	})
	escaped := forge("escaped.json", s2, func(j string) string {
		return strings.Replace(j, `"file": `+strconv.Quote(s2results.Results[0].File), `"file": "../../etc/passwd"`, 1)
	})
	paths := forge("paths.json", s2, func(j string) string { return strings.Replace(j, `"mode": "all"`, `"mode": "paths"`, 1) })
	target := forge("target.json", s2, func(j string) string { return strings.Replace(j, `"target": 0.8`, `"target": 0.1`, 1) })
	// A shard run its invalid config stopped writes a report without its shard.
	bad := testfs.Tree(t, map[string]string{".evalgate.yaml": "version: 1\nbogus: 1\n", "a.md": "x\n"})
	stopped, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: bad, All: true, Shard: &report.Shard{Index: 1, Count: 3}})
	if !errors.Is(err, ErrConfigInvalid) {
		t.Fatalf("an invalid config: %v", err)
	}
	var sb bytes.Buffer
	report.WriteJSON(&sb, stopped)
	invalid := filepath.Join(t.TempDir(), "invalid.json")
	os.WriteFile(invalid, sb.Bytes(), 0o644)
	for _, tt := range []struct {
		files []string
		want  string
	}{
		{[]string{s1, s3}, "shard 2/3 is missing"},
		{[]string{s1}, "shards 2/3, 3/3 are missing"},
		// A count is not allocated by: ten missing shards are named, the rest counted.
		{[]string{write("huge.json", Options{Shard: &report.Shard{Index: 1, Count: 1 << 40}})},
			"shards 2/1099511627776, 3/1099511627776, 4/1099511627776, 5/1099511627776, 6/1099511627776, 7/1099511627776, 8/1099511627776, 9/1099511627776, 10/1099511627776, 11/1099511627776 and 1099511627765 more are missing"},
		{[]string{s1, s2, s2, s3}, "shard 2/3 is given twice"},
		{[]string{s1, other, s3}, "is shard 2/4 but"},
		{[]string{s1, s2, edited}, "different configs"},
		{[]string{whole, s1}, "is not a shard's report"},
		{[]string{s1, stolen, s3}, "which is another shard's"},
		{[]string{s1, theirs, s3}, "holds a result of " + s1files.Scope.Files[0] + ", which shard 1/3 checked"},
		{[]string{s1, escaped, s3}, `file "../../etc/passwd" is no path inside a repository`},
		{[]string{invalid, s2, s3}, "invalid.json is the report of a run its config stopped"},
		{[]string{s1, paths, s3}, "checked scope paths"},
		{[]string{s1, target, s3}, "suite guides has target 0.8 in one report and 0.1 in another"},
		{[]string{s1, s2, filepath.Join(dir, "nothing.json")}, "cannot read it"},
		{nil, "give the JSON reports"},
	} {
		_, err := Merge(MergeOptions{Dir: dir, Files: tt.files})
		var uerr *UsageError
		if !asUsage(err, &uerr) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want a usage error with %q", tt.files, err, tt.want)
		}
	}
	if slices.Contains([]string{s1, s2, s3}, "") {
		t.Fatal("a shard report was not written")
	}
	if _, err := Merge(MergeOptions{Dir: dir, Files: []string{s3, s1, s2}}); err != nil {
		t.Errorf("a complete set in any order: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func asUsage(err error, target **UsageError) bool {
	u, ok := err.(*UsageError)
	*target = u
	return ok
}
