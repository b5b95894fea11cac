package frontmatter

import (
	"fmt"
	"strings"
	"testing"
)

// TestKeyIndex: a key is found among a mapping's entries before and after the index turns into a map,
// and past keyIndexFrom entries it is a map: a mapping of n keys costs n lookups, not n² comparisons.
func TestKeyIndex(t *testing.T) {
	var x keyIndex
	var entries []Entry
	for i := range 100 {
		key := fmt.Sprintf("k%d", i)
		if j := x.find(entries, key); j != -1 {
			t.Fatalf("find(%s) before it was added = %d", key, j)
		}
		entries = append(entries, Entry{Key: key})
		x.added(entries)
		for _, k := range []int{0, i / 2, i} {
			if j := x.find(entries, fmt.Sprintf("k%d", k)); j != k {
				t.Fatalf("with %d entries, find(k%d) = %d", len(entries), k, j)
			}
		}
		if got, want := x.m != nil, len(entries) > keyIndexFrom; got != want {
			t.Fatalf("with %d entries, indexed = %v, want %v", len(entries), got, want)
		}
	}
}

// TestManyKeys: a mapping of 50,000 keys reads the same through every reader, block and flow YAML and
// JSON, and a key repeated at its end is found (the fast path gives the text to yaml.v3, which reports it).
func TestManyKeys(t *testing.T) {
	const n = 50_000
	var block, flow, obj strings.Builder
	for i := range n {
		fmt.Fprintf(&block, "k%d: %d\n", i, i)
		fmt.Fprintf(&flow, "k%d: %d, ", i, i)
		fmt.Fprintf(&obj, `"k%d": %d, `, i, i)
	}
	for name, texts := range map[string][2]string{
		"block": {block.String(), block.String() + "k7: again\n"},
		"flow":  {"m: {" + flow.String() + "k50000: 0}\n", "m: {" + flow.String() + "k7: again}\n"},
	} {
		text, again := texts[0], texts[1]
		root, probs := ParseYAML([]byte(text), 1)
		if len(probs) > 0 {
			t.Fatalf("%s: %v", name, probs)
		}
		m := root
		if name == "flow" {
			m = root.Get("m").Value
		}
		if len(m.Entries) < n || m.Get("k49999") == nil {
			t.Fatalf("%s: %d entries", name, len(m.Entries))
		}
		_, probs = ParseYAML([]byte(again), 1)
		if len(probs) != 1 || probs[0].Code != "duplicate_key" {
			t.Fatalf("%s with k7 again: %v, want one duplicate_key", name, probs)
		}
	}
	root, probs := ParseJSON([]byte("{"+obj.String()+`"k7": 0}`), 1)
	if len(probs) != 1 || probs[0].Code != "duplicate_key" || len(root.Entries) != n {
		t.Fatalf("JSON: %d entries, %v", len(root.Entries), probs)
	}
}
