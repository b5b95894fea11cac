package docmeta_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

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
