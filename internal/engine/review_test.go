package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
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
