package frontmatter

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/diag"
)

func TestYAMLCoreSchema(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		value string // written after "v: "
		kind  Kind
		num   float64
		bool  bool
		text  string
	}{
		{"", Null, 0, false, ""},
		{"~", Null, 0, false, "~"},
		{"null", Null, 0, false, "null"},
		{"Null", Null, 0, false, "Null"},
		{"NULL", Null, 0, false, "NULL"},
		{"nULL", String, 0, false, "nULL"},
		{"true", Bool, 0, true, "true"},
		{"True", Bool, 0, true, "True"},
		{"TRUE", Bool, 0, true, "TRUE"},
		{"false", Bool, 0, false, "false"},
		{"False", Bool, 0, false, "False"},
		{"FALSE", Bool, 0, false, "FALSE"},
		{"tRUE", String, 0, false, "tRUE"},
		{"yes", String, 0, false, "yes"},
		{"no", String, 0, false, "no"},
		{"on", String, 0, false, "on"},
		{"off", String, 0, false, "off"},
		{"y", String, 0, false, "y"},
		{"2026-01-01", String, 0, false, "2026-01-01"},
		{"2026-01-01T10:00:00Z", String, 0, false, "2026-01-01T10:00:00Z"},
		{"1_000", String, 0, false, "1_000"},
		{"0b101", String, 0, false, "0b101"},
		{"12:30", String, 0, false, "12:30"},
		{"0", Number, 0, false, "0"},
		{"12", Number, 12, false, "12"},
		{"-12", Number, -12, false, "-12"},
		{"+12", Number, 12, false, "+12"},
		{"007", Number, 7, false, "007"},
		{"0o17", Number, 15, false, "0o17"},
		{"0o8", String, 0, false, "0o8"},
		{"0x1F", Number, 31, false, "0x1F"},
		{"0xff", Number, 255, false, "0xff"},
		{"0x", String, 0, false, "0x"},
		{"-0x1", String, 0, false, "-0x1"},
		{"0xFFFFFFFFFFFFFFFFFF", Number, 0xFFFFFFFFFFFFFFFFFF, false, "0xFFFFFFFFFFFFFFFFFF"},
		{"3.0", Number, 3, false, "3.0"},
		{"1e3", Number, 1000, false, "1e3"},
		{"1.5", Number, 1.5, false, "1.5"},
		{".5", Number, 0.5, false, ".5"},
		{"1.", Number, 1, false, "1."},
		{"-1.5E-3", Number, -0.0015, false, "-1.5E-3"},
		{"1e400", Number, inf, false, "1e400"},
		{"1e", String, 0, false, "1e"},
		{".", String, 0, false, "."},
		{"+", String, 0, false, "+"},
		{".e3", String, 0, false, ".e3"},
		{".inf", Number, inf, false, ".inf"},
		{"+.Inf", Number, inf, false, "+.Inf"},
		{"-.INF", Number, -inf, false, "-.INF"},
		{".nan", Number, nan, false, ".nan"},
		{".NaN", Number, nan, false, ".NaN"},
		{"-.nan", String, 0, false, "-.nan"},
		{"inf", String, 0, false, "inf"},
		{"nan", String, 0, false, "nan"},
		{"<<", String, 0, false, "<<"},
		// Quoted and block scalars are strings whatever they spell.
		{`"true"`, String, 0, false, "true"},
		{`'12'`, String, 0, false, "12"},
		{`""`, String, 0, false, ""},
		{`"~"`, String, 0, false, "~"},
		{"|\n  12", String, 0, false, "12\n"},
		{">-\n  null", String, 0, false, "null"},
		// Explicit standard tags.
		{"!!str 123", String, 0, false, "123"},
		{"!!str true", String, 0, false, "true"},
		{`!!int "12"`, Number, 12, false, "12"},
		{"!!int 0x10", Number, 16, false, "0x10"},
		{"!!float 1", Number, 1, false, "1"},
		{"!!float .inf", Number, inf, false, ".inf"},
		{`!!bool "true"`, Bool, 0, true, "true"},
		{"!!null ~", Null, 0, false, "~"},
		{"!<tag:yaml.org,2002:str> 5", String, 0, false, "5"},
		// Other tags are ignored.
		{"!custom 12", Number, 12, false, "12"},
		{"!custom yes", String, 0, false, "yes"},
		{`!custom "12"`, String, 0, false, "12"},
		{"!!timestamp 2026-01-01", String, 0, false, "2026-01-01"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			n, problems := ParseYAML([]byte("v: "+tt.value+"\n"), 1)
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			v := at(t, n, "v")
			got := Node{Kind: v.Kind, Num: v.Num, Bool: v.Bool, Text: v.Text}
			want := Node{Kind: tt.kind, Num: tt.num, Bool: tt.bool, Text: tt.text}
			if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool {
				return a == b || math.IsNaN(a) && math.IsNaN(b)
			})); diff != "" {
				t.Errorf("v: %s (-want +got):\n%s", tt.value, diff)
			}
		})
	}
}

func TestYAMLIntegralNumbers(t *testing.T) {
	n, _ := ParseYAML([]byte("a: 3.0\nb: 1e3\nc: 2.5\nd: .inf\ne: .nan\nf: 7\n"), 1)
	for key, want := range map[string]bool{"a": true, "b": true, "c": false, "d": false, "e": false, "f": true} {
		if got := at(t, n, key).IsInt(); got != want {
			t.Errorf("%s: IsInt() = %v, want %v", key, got, want)
		}
	}
	if at(t, n, "d").IsFinite() || at(t, n, "e").IsFinite() || !at(t, n, "c").IsFinite() {
		t.Errorf("IsFinite wrong for .inf, .nan or 2.5")
	}
}

func TestYAMLTagMismatch(t *testing.T) {
	tests := []struct {
		src  string
		want []diag.Problem
		text string // the value, kept as a string
	}{
		{"v: !!int abc\n", []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: `"abc" is not a valid !!int`}}, "abc"},
		{"v: !!int 1.5\n", []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: `"1.5" is not a valid !!int`}}, "1.5"},
		{"v: !!bool yes\n", []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: `"yes" is not a valid !!bool`}}, "yes"},
		{"v: !!null x\n", []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: `"x" is not a valid !!null`}}, "x"},
		{"v: !!float 0x1\n", []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: `"0x1" is not a valid !!float`}}, "0x1"},
		{"v: !!map x\n", []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: "a scalar cannot have the tag !!map"}}, "x"},
	}
	for _, tt := range tests {
		n, problems := ParseYAML([]byte(tt.src), 1)
		if diff := cmp.Diff(tt.want, problems); diff != "" {
			t.Errorf("%q: problems (-want +got):\n%s", tt.src, diff)
		}
		if v := at(t, n, "v"); v.Kind != String || v.Text != tt.text {
			t.Errorf("%q: value %s %q, want string %q", tt.src, v.TypeName(), v.Text, tt.text)
		}
	}
	_, problems := ParseYAML([]byte("a: !!seq {b: 1}\nc: !!str [1]\nd: !!seq [1]\n"), 1)
	want := []diag.Problem{
		{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: "a mapping cannot have the tag !!seq"},
		{Pos: diag.Pos{Line: 2, Col: 4}, Code: "syntax_error", Message: "a list cannot have the tag !!str"},
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("collection tags: problems (-want +got):\n%s", diff)
	}
}

func TestYAMLPositions(t *testing.T) {
	tests := []struct {
		name   string
		page   string
		checks []posCheck
	}{
		{
			name: "keys and values",
			page: "---\ntitle: Hello\nevals:\n  - id: a\n    weight: 2\n---\n",
			checks: []posCheck{
				{[]string{"title"}, true, diag.Pos{Line: 2, Col: 1}},
				{[]string{"title"}, false, diag.Pos{Line: 2, Col: 8}},
				{[]string{"evals"}, false, diag.Pos{Line: 4, Col: 3}}, // a block list: its first "-"
				{[]string{"evals", "[0]"}, false, diag.Pos{Line: 4, Col: 5}},
				{[]string{"evals", "[0]", "weight"}, true, diag.Pos{Line: 5, Col: 5}},
				{[]string{"evals", "[0]", "weight"}, false, diag.Pos{Line: 5, Col: 13}},
			},
		},
		{
			name: "root is its first key",
			page: "---\n# comment\n\nfirst: 1\n---\n",
			checks: []posCheck{
				{nil, false, diag.Pos{Line: 4, Col: 1}},
			},
		},
		{
			name: "list at the parent's indentation",
			page: "---\nevals:\n- a\n- b\n---\n",
			checks: []posCheck{
				{[]string{"evals"}, false, diag.Pos{Line: 3, Col: 1}},
				{[]string{"evals", "[1]"}, false, diag.Pos{Line: 4, Col: 3}},
			},
		},
		{
			name: "columns count code points after non-ASCII text",
			page: "---\nété: «ü»\nk: [é, 日本, {b: ✓}]\n---\n",
			checks: []posCheck{
				{[]string{"été"}, false, diag.Pos{Line: 2, Col: 6}},
				{[]string{"k", "[1]"}, false, diag.Pos{Line: 3, Col: 8}},
				{[]string{"k", "[2]"}, false, diag.Pos{Line: 3, Col: 12}}, // a flow mapping: its "{"
				{[]string{"k", "[2]", "b"}, true, diag.Pos{Line: 3, Col: 13}},
				{[]string{"k", "[2]", "b"}, false, diag.Pos{Line: 3, Col: 16}},
				{[]string{"k"}, false, diag.Pos{Line: 3, Col: 4}}, // a flow list: its "["
			},
		},
		{
			name: "crlf",
			page: "---\r\na: 1\r\nb:\r\n  c: 2\r\n---\r\n",
			checks: []posCheck{
				{[]string{"b", "c"}, true, diag.Pos{Line: 4, Col: 3}},
				{[]string{"b", "c"}, false, diag.Pos{Line: 4, Col: 6}},
				{[]string{"b"}, false, diag.Pos{Line: 4, Col: 3}}, // a block mapping: its first key
			},
		},
		{
			name: "bom page",
			page: "\ufeff---\na: 1\nb: x\n---\n",
			checks: []posCheck{
				{[]string{"a"}, true, diag.Pos{Line: 2, Col: 1}},
				{[]string{"b"}, false, diag.Pos{Line: 3, Col: 4}},
			},
		},
		{
			name: "empty value after its colon",
			page: "---\na:\nb: 1\n---\n",
			checks: []posCheck{
				{[]string{"a"}, false, diag.Pos{Line: 2, Col: 3}},
			},
		},
		{
			// yaml.v3 breaks lines at U+2028 and at a lone "\r"; the file does not.
			name: "line separators inside strings",
			page: "---\na: \"x\u2028y\"\nb: 'p\rq'\nc: é\n---\n",
			checks: []posCheck{
				{[]string{"b"}, true, diag.Pos{Line: 3, Col: 1}},
				{[]string{"b"}, false, diag.Pos{Line: 3, Col: 4}},
				{[]string{"c"}, false, diag.Pos{Line: 4, Col: 4}},
			},
		},
		{
			name: "anchors and tags start their node",
			page: "---\na: &x 1\nb: !!str 2\n---\n",
			checks: []posCheck{
				{[]string{"a"}, false, diag.Pos{Line: 2, Col: 4}},
				{[]string{"b"}, false, diag.Pos{Line: 3, Col: 4}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, problems := parsePage(t, tt.page)
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			checkPositions(t, n, tt.checks)
		})
	}
}

func TestYAMLBOMConfig(t *testing.T) {
	// A config file is parsed whole; its BOM is the first code point of line 1.
	n, problems := ParseYAML([]byte("\ufeffa: 1\n"), 1)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if got := keyPos(t, n, "a"); got != (diag.Pos{Line: 1, Col: 2}) {
		t.Errorf("key after BOM at %v, want 1:2", got)
	}
}

func TestYAMLKeys(t *testing.T) {
	n, problems := parsePage(t, "---\na: 1\nb: 2\na: 3\n? [x]\n: 4\n<<: {c: 5}\n1: int key\n\"q\": quoted\n---\n")
	want := []diag.Problem{
		{Pos: diag.Pos{Line: 4, Col: 1}, Code: "duplicate_key", Message: `duplicate key "a"; the first is at line 2`},
		{Pos: diag.Pos{Line: 5, Col: 3}, Code: "wrong_type", Message: "mapping key must be a scalar"},
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	var keys []string
	for _, e := range n.Entries {
		keys = append(keys, e.Key)
	}
	if diff := cmp.Diff([]string{"a", "b", "<<", "1", "q"}, keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if a := at(t, n, "a"); a.Num != 1 {
		t.Errorf("a = %v, want the first entry's 1", a.Num)
	}
	if m := at(t, n, "<<"); m.Kind != Map || m.Get("c") == nil {
		t.Errorf("<< is %s, want an ordinary mapping entry", m.TypeName())
	}
}

func TestYAMLDuplicateKeyInLongMapping(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		b.WriteString("k" + strings.Repeat("x", i) + ": 1\n")
	}
	b.WriteString("kxxxxx: 2\n") // line 41 repeats the key of line 6
	n, problems := ParseYAML([]byte(b.String()), 1)
	want := []diag.Problem{{Pos: diag.Pos{Line: 41, Col: 1}, Code: "duplicate_key", Message: `duplicate key "kxxxxx"; the first is at line 6`}}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(n.Entries) != 40 {
		t.Errorf("%d entries, want 40", len(n.Entries))
	}
}

func TestYAMLAliases(t *testing.T) {
	n, problems := parsePage(t, "---\nbase: &b\n  x: 1\n  y: [2]\ncopy: *b\n---\n")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	c := at(t, n, "copy")
	if !sameValue(c, at(t, n, "base")) {
		t.Errorf("the alias is not a copy of its anchored node")
	}
	if c.Pos != (diag.Pos{Line: 5, Col: 7}) {
		t.Errorf("copy at %v, want the alias's 5:7", c.Pos)
	}
	if got := at(t, n, "copy", "y").Pos; got != (diag.Pos{Line: 4, Col: 6}) {
		t.Errorf("copied child at %v, want its source 4:6", got)
	}
	if c == at(t, n, "base") || c.Get("y").Value == at(t, n, "base", "y") {
		t.Errorf("the copy shares nodes with the anchored tree")
	}

	n, problems = ParseYAML([]byte("a: &x [1, *x]\n"), 1)
	want := []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 11}, Code: "syntax_error", Message: "alias *x is inside the node it names"}}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("recursive alias: problems (-want +got):\n%s", diff)
	}
	if got := at(t, n, "a", "[1]"); got.Kind != Null {
		t.Errorf("recursive alias is %s, want null", got.TypeName())
	}

	_, problems = ParseYAML([]byte("a: *nope\n"), 1)
	want = []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 4}, Code: "syntax_error", Message: "unknown anchor 'nope' referenced"}}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("unknown anchor: problems (-want +got):\n%s", diff)
	}
}

// aliasBomb is a billion-laughs text: 10 levels of 10 aliases each would
// expand to 10^10 nodes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 10; i++ {
		prev := "*l" + string(rune('0'+i-1))
		if i == 10 {
			prev = "*l9"
		}
		name := "l" + string(rune('0'+i))
		if i == 10 {
			name = "top"
		}
		b.WriteString(name + ": &" + name + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	return b.String()
}

func TestYAMLAliasBomb(t *testing.T) {
	start := time.Now()
	n, problems := ParseYAML([]byte(aliasBomb()), 1)
	elapsed := time.Since(start)
	// Milliseconds in practice; the bound is loose for slow, shared machines.
	if elapsed > 2*time.Second {
		t.Errorf("alias bomb took %v", elapsed)
	}
	if len(problems) != 1 || problems[0].Code != "syntax_error" || problems[0].Message != "alias expansion exceeds 10,000 nodes" {
		t.Fatalf("problems = %v, want one alias-expansion syntax_error", problems)
	}
	// Expanding l1 and l2 creates 110 + 1,110 nodes, each *l2 in l3 1,111
	// more: the 8th alias of l3 (line 4) crosses 10,000.
	if p := problems[0].Pos; p != (diag.Pos{Line: 4, Col: 45}) {
		t.Errorf("reported at %v, want l3's 8th alias at 4:45", p)
	}
	count := 0
	if err := checkTree(lineWidths([]byte(aliasBomb())), n, &count); err != nil {
		t.Error(err)
	}
	if count > maxAliasNodes+200 {
		t.Errorf("tree holds %d nodes, want at most the budget plus the text's own", count)
	}
}

func TestYAMLNesting(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want diag.Pos // of the syntax_error; Line 0: none
		yaml bool     // the error is yaml.v3's own depth limit
	}{
		{"flow 1000 deep", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), diag.Pos{}, false},
		{"flow 1001 deep", strings.Repeat("[", 1001) + strings.Repeat("]", 1001), diag.Pos{Line: 1, Col: 1001}, false},
		{"flow 10000 deep", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), diag.Pos{Line: 1, Col: 1001}, false},
		{"flow 10001 open", strings.Repeat("[", 10001), diag.Pos{Line: 1, Col: 10001}, true},
		{"flow mappings 10000 deep", "x: " + strings.Repeat("{a: ", 10000) + "1" + strings.Repeat("}", 10000), diag.Pos{Line: 1, Col: 4 + 4*999}, false},
		{"block 1001 deep", strings.Repeat("- ", 1001) + "x\n", diag.Pos{Line: 1, Col: 2001}, false},
		{"block 10000 deep", strings.Repeat("- ", 10000) + "x\n", diag.Pos{Line: 1, Col: 2001}, false},
		{"block 10001 deep", strings.Repeat("- ", 10001) + "x\n", diag.Pos{Line: 1, Col: 20001}, true},
		{"indented mappings 1001 deep", indentedMappings(1001), diag.Pos{Line: 1001, Col: 1001}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			n, problems := ParseYAML([]byte(tt.src), 1)
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Errorf("took %v", elapsed)
			}
			if tt.want.Line == 0 {
				if len(problems) > 0 || n == nil {
					t.Errorf("problems %v, node %v; want a tree and no problem", problems, n != nil)
				}
				return
			}
			if len(problems) != 1 || problems[0].Code != "syntax_error" || problems[0].Pos != tt.want ||
				problems[0].Message != maxDepthMessage {
				t.Fatalf("problems = %v, want one syntax_error %q at %v", problems, maxDepthMessage, tt.want)
			}
			if tt.yaml != (n == nil) {
				t.Errorf("node nil = %v, want %v", n == nil, tt.yaml)
			}
		})
	}
}

// indentedMappings is depth mappings, each indented one space below the
// previous: "k:\n k:\n  k: ...".
func indentedMappings(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	b.WriteString(strings.Repeat(" ", depth) + "k: v\n")
	return b.String()
}

func TestYAMLSyntaxErrors(t *testing.T) {
	testPageProblems(t, []pageProblem{
		{"missing colon", "---\na: 1\nb: 2\nc 2\nd: 3\n---\n", diag.Problem{Pos: diag.Pos{Line: 4, Col: 1}, Code: "syntax_error", Message: "could not find expected ':'"}},
		{"unclosed flow", "---\na: [\n---\n", diag.Problem{Pos: diag.Pos{Line: 2, Col: 4}, Code: "syntax_error", Message: "did not find expected node content"}},
		{"bad list indent on line 5", "---\nevals:\n  - id: a\n    grader: command\n   - id: b\n---\n",
			diag.Problem{Pos: diag.Pos{Line: 5, Col: 4}, Code: "syntax_error", Message: "did not find expected '-' indicator"}},
		{"control character", "---\na: ok\nb: x\x01\n---\n", diag.Problem{Pos: diag.Pos{Line: 3, Col: 5}, Code: "syntax_error", Message: "control characters are not allowed"}},
	})
}

// TestYAMLSyntaxErrorPositions pins where a syntax error is reported: the
// line and column of the character yaml.v3 stopped on, not the line its own
// message names (the start of the construct it was parsing).
func TestYAMLSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		text string
		pos  string // line:col
		msg  string
	}{
		// yaml.v3 says "line 1"; the "-" on line 4 is less indented than the list.
		{"evals:\n  - id: a\n    command: [x]\n   - id: b\n", "4:4", "did not find expected '-' indicator"},
		// yaml.v3 says "line 3" (the mapping of c).
		{"a: 1\nb:\n  c: 2\n d: 3\n", "4:2", "did not find expected key"},
		{"a: 1\r\nb:\r\n  c: 2\r\n d: 3\r\n", "4:2", "did not find expected key"},
		{"\ufeffa: 1\n b: 2: 3\n", "2:3", "mapping values are not allowed in this context"},
		// A key where a list item belongs: found at its ":".
		{"a:\n  - 1\n  b: 2\n", "3:4", "did not find expected '-' indicator"},
		{"- a\nb: 1\n", "2:2", "did not find expected '-' indicator"},
		{"a: b: c\n", "1:5", "mapping values are not allowed in this context"},
		{"é: ü: x\n", "1:5", "mapping values are not allowed in this context"},
		{"a: 1\n  b: 2\n", "2:4", "mapping values are not allowed in this context"},
		{"key: value\nother\n", "2:1", "could not find expected ':'"},
		{"a: 1\n\tb: 2\n", "2:1", "found a tab character that violates indentation"},
		{"a: |\n  x\n y: 1\n", "3:2", "did not find expected key"},
		{"a: @x\n", "1:4", "found character that cannot start any token"},
		{"a: *\n", "1:4", "did not find expected alphabetic or numeric character"},
		{"x: &a 1\ny: *b\n", "2:4", "unknown anchor 'b' referenced"},
		{"x: &ab 1\ny: [*a, *abc]\n", "2:5", "unknown anchor 'a' referenced"},
		{"a: {b: 1\n", "1:8", "did not find expected ',' or '}'"},
		{"a: 'x\n", "1:6", "found unexpected end of stream"},
		{"[1, 2]]\n", "1:7", "did not find expected <document start>"},
		{"a: 1\n...\nb\n", "3:1", "did not find expected <document start>"},
		{"%YAML 1.3\n---\na: 1\n", "1:9", "found incompatible YAML document"},
		// In the second document, after a valid first one.
		{"a: 1\n---\nb: [\n", "3:4", "did not find expected node content"},
	}
	for _, tt := range tests {
		_, probs := ParseYAML([]byte(tt.text), 1)
		if len(probs) != 1 || probs[0].Code != "syntax_error" || probs[0].Pos.String() != tt.pos || probs[0].Message != tt.msg {
			t.Errorf("%q: %v, want one syntax_error at %s: %s", tt.text, probs, tt.pos, tt.msg)
		}
	}
}

func TestYAMLSecondDocument(t *testing.T) {
	n, problems := ParseYAML([]byte("a: 1\n--- b\n"), 1)
	want := []diag.Problem{{Pos: diag.Pos{Line: 2, Col: 1}, Code: "syntax_error",
		Message: "a second YAML document starts here; the frontmatter or config is one document"}}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if at(t, n, "a").Num != 1 {
		t.Errorf("the first document is not returned")
	}
	// An explicit start and a document end marker make one document.
	if _, problems := ParseYAML([]byte("---\na: 1\n...\n# end\n"), 1); len(problems) > 0 {
		t.Errorf("one document with markers: %v", problems)
	}
	// A syntax error in a second document is reported; the first is kept.
	n, problems = ParseYAML([]byte("a: 1\n---\nb: [\n"), 1)
	if n == nil || len(problems) != 1 || problems[0].Code != "syntax_error" {
		t.Errorf("second document with an error: node %v, problems %v", n != nil, problems)
	}
}

func TestYAMLEmpty(t *testing.T) {
	for _, page := range []string{"---\n---\n", "---\n# only a comment\n\n---\n", "---\n...\n"} {
		n, problems := parsePage(t, page)
		if len(problems) > 0 || n == nil || n.Kind != Null || n.Pos != (diag.Pos{Line: 2, Col: 1}) {
			t.Errorf("%q: node %+v, problems %v; want null at 2:1", page, n, problems)
		}
	}
	n, _ := ParseYAML([]byte("~\n"), 1)
	if n.Kind != Null || n.Text != "~" {
		t.Errorf("root ~ is %s %q", n.TypeName(), n.Text)
	}
}

func TestParseLimits(t *testing.T) {
	page := "---\na: 1\nb: \xc3\xa9\xff\n---\n"
	n, problems := parsePage(t, page)
	want := []diag.Problem{{Pos: diag.Pos{Line: 3, Col: 5}, Code: "invalid_utf8", Message: "invalid UTF-8: byte 0xff is not part of a valid encoding"}}
	if n != nil || !cmp.Equal(want, problems) {
		t.Errorf("invalid UTF-8: node %v, problems %v; want nil, %v", n != nil, problems, want)
	}
	_, problems = parsePage(t, "+++\na = \"\xe2\x82\"\n+++\n")
	if len(problems) != 1 || problems[0].Code != "invalid_utf8" || problems[0].Pos != (diag.Pos{Line: 2, Col: 6}) {
		t.Errorf("TOML invalid UTF-8: %v, want invalid_utf8 at 2:6", problems)
	}

	big := "---\n" + strings.Repeat("k: v\n", MaxSize/5) + "x: 1\n---\n"
	n, problems = parsePage(t, big)
	want = []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 1}, Code: "too_large", Message: "the frontmatter is 1048580 bytes; evalgate reads at most 1048576 (1 MiB)"}}
	if n != nil || !cmp.Equal(want, problems) {
		t.Errorf("too large: node %v, problems %v; want nil, %v", n != nil, problems, want)
	}
	// Exactly MaxSize is read.
	exact := Document{Format: FormatYAML, Text: []byte("a: " + strings.Repeat("x", MaxSize-4) + "\n"), TextLine: 2}
	if n, problems := Parse(exact); n == nil || len(problems) > 0 {
		t.Errorf("MaxSize bytes: problems %v", problems)
	}
	if n, problems := Parse(Document{Format: FormatNone, Body: []byte("x")}); n != nil || problems != nil {
		t.Errorf("FormatNone: %v, %v; want nil, nil", n, problems)
	}
}

// TestYAMLSyntaxErrorPositionBounded: the search for the character the parser stopped on parses the
// text about log2(len) times, so a large broken text (which took 2.9 s at 750 KB) keeps the line
// yaml.v3 names, without a column; a text of a size real frontmatter has is placed exactly.
func TestYAMLSyntaxErrorPositionBounded(t *testing.T) {
	for _, tt := range []struct {
		entries int
		want    string
	}{
		{100, "102:5"},    // exactly: the "[" of the last item
		{20_000, "20002"}, // the line yaml.v3 names (its item, whose content is missing), no column
	} {
		var b strings.Builder
		b.WriteString("evals:\n")
		for i := range tt.entries {
			fmt.Fprintf(&b, "  - id: e%d\n", i)
		}
		b.WriteString("  - [\n")
		_, probs := ParseYAML([]byte(b.String()), 1)
		if len(probs) != 1 || probs[0].Code != "syntax_error" || probs[0].Pos.String() != tt.want {
			t.Errorf("%d bytes: %v, want syntax_error at %s", b.Len(), probs, tt.want)
		}
	}
}
