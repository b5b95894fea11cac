package docmeta_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// TestLargeFrontmatter: near the 1 MiB limit, validation stays linear:
// many equal shorthands (clash suffixes) and many distinct provenance
// entries (uniqueness) are the quadratic traps.
func TestLargeFrontmatter(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	var b strings.Builder
	b.WriteString("evals:\n")
	for b.Len() < 500_000 {
		b.WriteString("- a\n")
	}
	b.WriteString("eval-provenance:\n")
	for i := 0; b.Len() < frontmatter.MaxSize-100; i++ {
		fmt.Fprintf(&b, "- {generated-by: m%d}\n", i)
	}
	root, probs := frontmatter.ParseYAML([]byte(b.String()), 1)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	start := time.Now()
	p := docmeta.ValidatePage(root, nil, nil)
	t.Logf("%d evals, %d results in %v", len(p.Evals), len(p.Results), time.Since(start))
	if n := len(p.Evals); n < 100_000 || p.Evals[n-1].ID != fmt.Sprintf("auto-ca978112-%d", n) {
		t.Errorf("last of %d evals: %s", n, p.Evals[n-1].ID)
	}
}

// TestPageFaultsBounded: a page reports at most diag.MaxFileFaults faults, then the first one not
// reported, at its place, saying how many more there are (README "Limits"); its notes are kept. A
// page of 90,000 bad entries made 270,000 results, 494 MB, before.
func TestPageFaultsBounded(t *testing.T) {
	validate := func(entries int) (faults, notes []diag.Result) {
		var b strings.Builder
		b.WriteString("evals:\n")
		for range entries {
			b.WriteString("- a: [x]\n")
		}
		b.WriteString("eval-provenance:\n- {generated-by: m}\n")
		root, probs := frontmatter.ParseYAML([]byte(b.String()), 1)
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		for _, r := range docmeta.ValidatePage(root, nil, nil).Results {
			if r.Verdictless {
				notes = append(notes, r)
			} else {
				faults = append(faults, r)
			}
		}
		return faults, notes
	}
	one, _ := validate(1)
	const entries = 2000
	faults, notes := validate(entries)
	if len(notes) != 1 || len(faults) != diag.MaxFileFaults+1 {
		t.Fatalf("%d faults and %d notes, want %d and 1", len(faults), len(notes), diag.MaxFileFaults+1)
	}
	last, first := faults[len(faults)-1], faults[diag.MaxFileFaults-1]
	before := last.Pos.Line < first.Pos.Line || last.Pos.Line == first.Pos.Line && last.Pos.Col < first.Pos.Col
	if want := diag.MoreFaults(len(one)*entries - diag.MaxFileFaults); last.Message != want || before {
		t.Errorf("past the bound: %s %q, want %q after %s", last.Pos, last.Message, want, first.Pos)
	}
}
