package evalcase

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestIndex: every id added is found at its slot through every growth of the table, long ids
// included; ids never added, prefixes and extensions of added ones among them, are not found; ids
// whose hashes collide are all met by each, and only they.
func TestIndex(t *testing.T) {
	x := newIndex()
	id := func(i int) string {
		if i%1000 == 7 {
			return fmt.Sprintf("long.%d.%s", i, strings.Repeat("x", 100_000))
		}
		return fmt.Sprintf("case.%d", i)
	}
	const n = 20_000
	for i := range n {
		if _, dup := x.find(id(i)); dup {
			t.Fatalf("%s found before it was added", id(i))
		}
		x.add(lineRef{line: int32(i + 1)}, x.hash(id(i)))
	}
	if x.len() != n {
		t.Fatalf("len %d, want %d", x.len(), n)
	}
	for i := range n {
		slot, ok := x.find(id(i))
		if !ok || slot != int32(i) || x.at(slot).line != int32(i+1) {
			t.Fatalf("%s: slot %d, %v", id(i), slot, ok)
		}
	}
	for _, absent := range []string{"", "case.", "case.1x", "case.20000", "case.-1", "Case.1"} {
		if slot, ok := x.find(absent); ok {
			t.Errorf("%q found at slot %d", absent, slot)
		}
	}
	if len(x.table) < 2*n {
		t.Errorf("table of %d entries for %d ids: more than half full", len(x.table), n)
	}

	h := x.hash("case.5")
	x.add(lineRef{line: -1}, h)   // a second case whose id hashes as case.5's does
	x.add(lineRef{line: -2}, h^1) // another hash, next to it in the table
	var lines []int32
	x.each(h, func(slot int32) bool { lines = append(lines, x.at(slot).line); return true })
	if slices.Sort(lines); !slices.Equal(lines, []int32{-1, 6}) {
		t.Errorf("each met lines %v, want -1 and 6", lines)
	}
	lines = lines[:0]
	x.each(h, func(slot int32) bool { lines = append(lines, x.at(slot).line); return false })
	if len(lines) != 1 {
		t.Errorf("each went on after false: %v", lines)
	}
}

// idRE is IDPattern as the regexp package reads it: what validID must agree with.
var idRE = regexp.MustCompile(IDPattern)

// TestValidID: validID agrees with IDPattern on a table of near misses and on every string of up to
// five characters over an alphabet that reaches each of its rules.
func TestValidID(t *testing.T) {
	for _, s := range []string{
		"", "a", "a.b", "placeholder.printf.001", "a-b.c-d-e", "a.b.c", "a..b", ".a.b", "a.b.", "a-.b", "a.-b",
		"a--b.c", "-a.b", "a.b-", "A.b", "a_b.c", "a.b\n", "é.b", "a.b c",
	} {
		if got, want := validID(s), idRE.MatchString(s); got != want {
			t.Errorf("validID(%q) = %v, IDPattern says %v", s, got, want)
		}
	}
	const alphabet = "a0-.A_"
	var each func(prefix string, n int)
	each = func(prefix string, n int) {
		if got, want := validID(prefix), idRE.MatchString(prefix); got != want {
			t.Fatalf("validID(%q) = %v, IDPattern says %v", prefix, got, want)
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			each(prefix+string(c), n-1)
		}
	}
	each("", 5)
}

// FuzzValidID: validID agrees with IDPattern on any text.
func FuzzValidID(f *testing.F) {
	f.Add("placeholder.printf.001")
	f.Add("a--b.c")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validID(s), idRE.MatchString(s); got != want {
			t.Fatalf("validID(%q) = %v, IDPattern says %v", s, got, want)
		}
	})
}
