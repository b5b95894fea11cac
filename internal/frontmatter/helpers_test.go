package frontmatter

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/diag"
)

// parsePage splits src and parses its frontmatter.
func parsePage(t *testing.T, src string) (*Node, []diag.Problem) {
	t.Helper()
	d := Split([]byte(src))
	if d.Format == FormatNone {
		t.Fatalf("no frontmatter in %q", src)
	}
	return Parse(d)
}

// posCheck is a position expected in a tree: the Pos of the value at path
// (see at), or with key the KeyPos of path's last key.
type posCheck struct {
	path []string
	key  bool
	want diag.Pos
}

// checkPositions reports each check whose position n does not have.
func checkPositions(t *testing.T, n *Node, checks []posCheck) {
	t.Helper()
	for _, c := range checks {
		var got diag.Pos
		if c.key {
			got = keyPos(t, n, c.path...)
		} else {
			got = at(t, n, c.path...).Pos
		}
		if got != c.want {
			t.Errorf("%v (key %v): position %v, want %v", c.path, c.key, got, c.want)
		}
	}
}

// pageProblem is a page whose frontmatter does not parse, with the one
// problem Parse reports for it.
type pageProblem struct {
	name string
	page string
	want diag.Problem
}

// testPageProblems checks, in a subtest for each, that a page parses to no
// node and exactly its problem.
func testPageProblems(t *testing.T, tests []pageProblem) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, problems := parsePage(t, tt.page)
			if n != nil {
				t.Errorf("node = %s, want nil", n.TypeName())
			}
			if diff := cmp.Diff([]diag.Problem{tt.want}, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// at follows keys (for Maps) and "[i]" indices (for Lists) from n.
func at(t *testing.T, n *Node, path ...string) *Node {
	t.Helper()
	for _, p := range path {
		var i int
		if _, err := fmt.Sscanf(p, "[%d]", &i); err == nil && n != nil && n.Kind == List {
			if i >= len(n.Items) {
				t.Fatalf("no item %d in %s", i, n.TypeName())
			}
			n = n.Items[i]
			continue
		}
		e := n.Get(p)
		if e == nil {
			t.Fatalf("no key %q in %s", p, n.TypeName())
		}
		n = e.Value
	}
	return n
}

// keyPos is the KeyPos of the last key of path.
func keyPos(t *testing.T, n *Node, path ...string) diag.Pos {
	t.Helper()
	parent := at(t, n, path[:len(path)-1]...)
	e := parent.Get(path[len(path)-1])
	if e == nil {
		t.Fatalf("no key %q", path[len(path)-1])
	}
	return e.KeyPos
}

// sameValue reports whether a and b hold the same data: kinds, values, map
// entries in order; positions and source texts do not count, NaN equals NaN.
func sameValue(a, b *Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Bool:
		return a.Bool == b.Bool
	case Number:
		return a.Num == b.Num || math.IsNaN(a.Num) && math.IsNaN(b.Num)
	case String:
		return a.Text == b.Text
	case List:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !sameValue(a.Items[i], b.Items[i]) {
				return false
			}
		}
	case Map:
		if len(a.Entries) != len(b.Entries) {
			return false
		}
		for i := range a.Entries {
			if a.Entries[i].Key != b.Entries[i].Key || !sameValue(a.Entries[i].Value, b.Entries[i].Value) {
				return false
			}
		}
	}
	return true
}

// lineWidths is the number of code points of every line of src, the "\n"
// excluded (an invalid byte counts as one, as in diag.LineIndex).
func lineWidths(src []byte) []int {
	var widths []int
	for _, line := range strings.Split(string(src), "\n") {
		widths = append(widths, utf8.RuneCountInString(line))
	}
	return widths
}

// checkPos reports a position that is neither unknown nor inside the file:
// a known line is one of the file's, a known column at most one past the
// line's last code point.
func checkPos(widths []int, p diag.Pos) error {
	switch {
	case p.Line == 0 && p.Col == 0:
		return nil
	case p.Line < 1 || p.Line > len(widths):
		return fmt.Errorf("line %d outside the file's %d lines", p.Line, len(widths))
	case p.Col < 0 || p.Col > widths[p.Line-1]+1:
		return fmt.Errorf("column %d outside line %d of %d code points", p.Col, p.Line, widths[p.Line-1])
	}
	return nil
}

// checkTree applies checkPos to every Node and Entry of n and counts them.
func checkTree(widths []int, n *Node, count *int) error {
	if n == nil {
		return nil
	}
	*count++
	if err := checkPos(widths, n.Pos); err != nil {
		return fmt.Errorf("%s at %v: %w", n.TypeName(), n.Pos, err)
	}
	for _, it := range n.Items {
		if err := checkTree(widths, it, count); err != nil {
			return err
		}
	}
	for _, e := range n.Entries {
		if err := checkPos(widths, e.KeyPos); err != nil {
			return fmt.Errorf("key %q at %v: %w", e.Key, e.KeyPos, err)
		}
		if err := checkTree(widths, e.Value, count); err != nil {
			return err
		}
	}
	return nil
}

// benchPage is a generated page of a few KB: YAML frontmatter with evals,
// then Markdown.
func benchPage() string {
	var b strings.Builder
	b.WriteString("---\ntitle: Getting started with évalgate\ntags: [docs, how-to, \"quoted\"]\nweight: 3\n")
	b.WriteString("eval-suite: how-to\nevals:\n")
	for i := range 20 {
		fmt.Fprintf(&b, "  - id: check-%d\n    grader: command\n    assertion: The page explains step %d clearly.\n", i, i)
		fmt.Fprintf(&b, "    options: {max: %d, ratio: 0.%d, strict: true}\n", 100+i, i)
	}
	b.WriteString("---\n# Getting started\n\n")
	for i := range 60 {
		fmt.Fprintf(&b, "Paragraph %d links to [another page](other-%d.md) and says a few words more.\n\n", i, i)
	}
	return b.String()
}
