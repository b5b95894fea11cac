package evalcase

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndex: every id added is found at its slot through every growth of the table, long ids
// included; ids never added, prefixes and extensions of added ones among them, are not found.
func TestIndex(t *testing.T) {
	x := newIndex()
	id := func(i int) string {
		if i%1000 == 7 {
			return fmt.Sprintf("long.%d.%s", i, strings.Repeat("x", textChunk)) // a chunk of its own
		}
		return fmt.Sprintf("case.%d", i)
	}
	const n = 20_000
	for i := range n {
		if _, dup := x.find(id(i)); dup {
			t.Fatalf("%s found before it was added", id(i))
		}
		x.add(caseRef{line: int32(i + 1)}, id(i))
	}
	if x.len() != n {
		t.Fatalf("len %d, want %d", x.len(), n)
	}
	for i := range n {
		slot, ok := x.find(id(i))
		if !ok || slot != int32(i) || x.at(slot).line != int32(i+1) || x.id(x.at(slot)) != id(i) {
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
}
