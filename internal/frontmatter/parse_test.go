package frontmatter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// TestProblemsBounded: a parse keeps diag.MaxFileFaults problems, then the first one not kept saying
// how many more there are (README "Limits"): 150,000 repeated keys made as many results, 158 MB. A JSON
// text's syntax error, which ends its parse, is kept past the bound.
func TestProblemsBounded(t *testing.T) {
	const repeats = 1500
	var y, j strings.Builder
	j.WriteString("{")
	for i := range repeats + 1 {
		y.WriteString("x: 1\n")
		fmt.Fprintf(&j, `"x": %d, `, i)
	}
	j.WriteString("}") // after a comma: the syntax error
	more := diag.MoreFaults(repeats - diag.MaxFileFaults)

	_, ps := ParseYAML([]byte(y.String()), 1)
	if len(ps) != diag.MaxFileFaults+1 || ps[len(ps)-1].Message != more {
		t.Errorf("YAML: %d problems, the last %v; want %d, the last saying %q", len(ps), ps[len(ps)-1], diag.MaxFileFaults+1, more)
	}
	_, ps = ParseJSON([]byte(j.String()), 1)
	if n := len(ps); n != diag.MaxFileFaults+2 || ps[n-2].Message != more || ps[n-1].Code != "syntax_error" {
		t.Errorf("JSON: %d problems, the last two %v; want %d, then %q and the syntax error", n, ps[max(0, n-2):], diag.MaxFileFaults+2, more)
	}
}
