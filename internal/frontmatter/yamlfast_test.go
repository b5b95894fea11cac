package frontmatter

import (
	"fmt"
	"math"
	"testing"
)

// sameTree reports where a and b differ, positions and source texts included ("" when they do not).
func sameTree(a, b *Node, path string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return path + ": one is nil"
		}
		return ""
	case a.Kind != b.Kind || a.Pos != b.Pos || a.Text != b.Text || a.Bool != b.Bool ||
		a.Num != b.Num && !(math.IsNaN(a.Num) && math.IsNaN(b.Num)):
		return fmt.Sprintf("%s: %+v against %+v", path, *a, *b)
	case len(a.Items) != len(b.Items) || len(a.Entries) != len(b.Entries):
		return path + ": lengths differ"
	}
	for i := range a.Items {
		if d := sameTree(a.Items[i], b.Items[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
			return d
		}
	}
	for i, e := range a.Entries {
		f := b.Entries[i]
		if e.Key != f.Key || e.KeyPos != f.KeyPos {
			return fmt.Sprintf("%s: key %q at %v against %q at %v", path, e.Key, e.KeyPos, f.Key, f.KeyPos)
		}
		if d := sameTree(e.Value, f.Value, path+"."+e.Key); d != "" {
			return d
		}
	}
	return ""
}

// checkFast asserts that where the fast path takes src, yaml.v3's reading finds no problem and the
// same tree. It reports whether the fast path took it.
func checkFast(t *testing.T, src []byte, firstLine int) bool {
	t.Helper()
	if checkUTF8(src, firstLine) != nil {
		return false
	}
	fast, ok := fastYAML(src, firstLine)
	if !ok {
		return false
	}
	slow, problems := parseYAMLv3(src, firstLine)
	if len(problems) > 0 {
		t.Fatalf("the fast path took %q, which yaml.v3 rejects: %v", src, problems)
	}
	if d := sameTree(fast, slow, "root"); d != "" {
		t.Fatalf("the fast path reads %q otherwise than yaml.v3: %s", src, d)
	}
	return true
}

// fastSeeds are texts in the fast path's subset, and texts just outside it.
var fastSeeds = []string{
	"",
	"# only a comment\n",
	"title: Install\nweight: 3\ndraft: false\nratio: 1.5e3\nnothing: null\ntilde: ~\n",
	"tags: [guide, cli, 'it''s', \"quoted\", [nested], {a: b}]\nempty: []\nnone: {}\n",
	"evals:\n  - id: sections\n    grader: tool:headings\n    options: {required: [Install, Set up]}\n  - The page says which versions are supported.\n",
	"evals:\n- id: a\n  grader: command\n  run: [python3, check.py]\n- id: b\n  assertion: 'Says \"how\"' # a comment\n",
	"a:\n  b:\n    c: deep\n  d: [1, 2.5, -3, 0x1F, .inf, -.nan]\ne: 'x'\n",
	"  indented: root\n",
	"url: https://example.com/a#b\nkey with spaces: value with:colon\ntime: 12:30\n",
	"empty:\nspaces:   \nlast:\n",
	"é: ünïcode 日本語\nemoji: \"🎉\"\nlist:\n  - 日本\n  - {名: 値}\n",
	"a: b\na: c\n",
	"a: &x 1\nb: *x\n",
	"a: !!str 1\n",
	"a: |\n  block\n",
	"a: multi\n  line\n",
	"a: \"esc\\n\"\n",
	"a:\n",
	"a: # c\n  b: 1\n",
	"- - x\n",
	"-\n",
	"a: [x, ]\n",
	"a: [x # c\n]\n",
	"? a\n: b\n",
	"\"q\": 1\n",
	"a:\tb\n",
	"a: b\r\n",
	"---\na: 1\n",
	"a: b\n---\nc: d\n",
	"a: 1\n b: 2\n",
	"a: b: c\n",
	"a: yes\nb: on\nc: 2001-12-14\nd: 1_000\n<<: merge\n",
	"a: [a: b]\n",
	"a: {b}\n",
	"a: {b: }\n",
	"a: x:\n",
	"a: -1\nb: -x\nc: [-1, -b]\n",
	"list:\n- a\n- b\nnext: 1\n",
	"- a:\n  - x\n- b\n",
	"a:  \n",
	"a: 'unclosed\n",
	"a: [1, 2\n",
	"a: \"x\" y\n",
	"a: 'x'#y\n",
	"a: b #c\n\n\n# end\n",
	"k: \u2028\n",
	"\ufeffa: 1\n",
}

func TestFastYAML(t *testing.T) {
	// The texts of the subset are taken, and read as yaml.v3 reads them.
	for _, src := range fastSeeds[:11] {
		if !checkFast(t, []byte(src), 3) {
			t.Errorf("the fast path does not take %q", src)
		}
	}
	// The rest is left to yaml.v3, or read as it reads it.
	for _, src := range fastSeeds[11:] {
		checkFast(t, []byte(src), 1)
	}
}

// FuzzFastYAML: wherever the fast path takes a text, yaml.v3 reads the same tree from it, with the
// same positions, and finds nothing wrong.
func FuzzFastYAML(f *testing.F) {
	addSeeds(f, fastSeeds)
	addSeeds(f, fuzzSeeds())
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFast(t, src, 1)
	})
}
