package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/review"
	"github.com/evalgate/evalgate/internal/testfs"
)

// TestReviewHash: what a reviewer judged is the eval's definition and its
// target; a change to either changes the hash, and nothing else does.
func TestReviewHash(t *testing.T) {
	opts, _ := frontmatter.ParseYAML([]byte("level: strict\n"), 1)
	ev := func() *docmeta.Eval {
		return &docmeta.Eval{ID: "reads-well", Assertion: "Clear.", Grader: "human", Type: "regression", Options: opts}
	}
	base := reviewHash(ev(), []byte("# Steps\n"))
	if base != reviewHash(ev(), []byte("# Steps\n")) {
		t.Fatal("the same eval and target hash differently")
	}
	moved := ev()
	moved.Pos.Line = 40 // where the entry sits is not what was reviewed
	if reviewHash(moved, []byte("# Steps\n")) != base {
		t.Error("moving the entry changed the hash")
	}
	for name, e := range map[string]func(*docmeta.Eval){
		"assertion": func(e *docmeta.Eval) { e.Assertion = "Clearer." },
		"target":    func(e *docmeta.Eval) { e.Target.Kind = docmeta.TargetRaw },
		"options":   func(e *docmeta.Eval) { e.Options = nil },
		"evidence":  func(e *docmeta.Eval) { e.Evidence = "the steps" },
	} {
		x := ev()
		e(x)
		if reviewHash(x, []byte("# Steps\n")) == base {
			t.Errorf("a change of %s kept the hash", name)
		}
	}
	if reviewHash(ev(), []byte("# Steps, edited\n")) == base {
		t.Error("an edited target kept the hash")
	}
}

// TestReviewsAtOnce: reviews recorded at once (xargs -P over many pages) each keep the others':
// every one read, changed and replaced the whole file, and the last to write lost the rest.
func TestReviewsAtOnce(t *testing.T) {
	const pages = 12
	files := map[string]string{".evalgate.yaml": "version: 1\n"}
	for i := range pages {
		files[fmt.Sprintf("docs/p%02d.md", i)] = "---\nevals:\n  - {id: reads-well, grader: human, assertion: It reads well.}\n---\nbody\n"
	}
	dir := testfs.Tree(t, files)
	var wg sync.WaitGroup
	errs := make([]error, pages)
	for i := range pages {
		wg.Go(func() {
			_, errs[i] = Review(context.Background(), ReviewOptions{Dir: dir, Page: fmt.Sprintf("docs/p%02d.md", i),
				EvalID: "reads-well", Pass: true, By: "Ann", Now: time.Unix(0, 0)})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, ".evalgate", "reviews.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != pages {
		t.Errorf("%d records, want %d:\n%s", n, pages, b)
	}
}

// TestReviewsFileTooLarge: a reviews file past its limit is too_large at its first line, named by its
// repository path, as the baseline is (it was target_unreadable with the absolute path).
func TestReviewsFileTooLarge(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		"docs/a.md": "---\nevals:\n  - {id: reads-well, grader: human, assertion: It reads well.}\n---\nbody\n",
	})
	name := filepath.Join(dir, ".evalgate", "reviews.jsonl")
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, review.MaxSize+1); err != nil { // sparse: no disk space
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results.Slice() {
		if r.File == ".evalgate/reviews.jsonl" {
			if r.Code != "too_large" || r.Pos.String() != "1:1" || r.Message != "the reviews file is larger than 64 MiB; it is not read" {
				t.Errorf("%s %s %q", r.Pos, r.Code, r.Message)
			}
			return
		}
	}
	t.Error("no result for the reviews file")
}

// TestReviewUnselectedPage: a review of a page the config does not select is refused: check never
// grades its evals, so the record would decide nothing.
func TestReviewUnselectedPage(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		".evalgate.yaml": "version: 1\npages:\n  include: [\"docs/**/*.md\"]\n",
		"notes/a.md":     "---\nevals:\n  - {id: reads-well, grader: human, assertion: It reads well.}\n---\nbody\n",
	})
	_, err := Review(context.Background(), ReviewOptions{Dir: dir, Page: "notes/a.md", EvalID: "reads-well", Pass: true, By: "Ann"})
	var uerr *UsageError
	if !errors.As(err, &uerr) || !strings.Contains(uerr.Msg, "notes/a.md is not selected by .evalgate.yaml") {
		t.Errorf("Review = %v, want a usage error naming the page", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".evalgate", "reviews.jsonl")); !os.IsNotExist(err) {
		t.Error("a record was written")
	}
}
