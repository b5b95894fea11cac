package engine

import (
	"testing"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
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
