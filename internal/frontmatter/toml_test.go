package frontmatter

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/diag"
)

func TestTOMLTypes(t *testing.T) {
	src := `int = 42
neg = -17
hex = 0xff
under = 1_000
float = 3.5
exp = 1e3
nan = nan
inf = -inf
yes = true
str = "tab\there"
lit = 'C:\path'
multi = """
line"""
offset = 1979-05-27T07:32:00Z
offset_frac = 1979-05-27T00:32:00.999999-07:00
space = 1979-05-27 07:32:00Z
local_dt = 1979-05-27T07:32:00
local_date = 1979-05-27
local_time = 07:32:00.500
short_time = 07:32
arr = [1, "two", [3]]
inline = {a = 1, b = {c = "d"}}
`
	n, problems := ParseTOML([]byte(src), 1)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	numbers := map[string]float64{"int": 42, "neg": -17, "hex": 255, "under": 1000, "float": 3.5, "exp": 1000, "inf": math.Inf(-1)}
	for key, want := range numbers {
		if v := at(t, n, key); v.Kind != Number || v.Num != want {
			t.Errorf("%s = %s %v, want number %v", key, v.TypeName(), v.Num, want)
		}
	}
	if v := at(t, n, "nan"); v.Kind != Number || !math.IsNaN(v.Num) || v.Text != "nan" {
		t.Errorf("nan = %s %v %q", v.TypeName(), v.Num, v.Text)
	}
	if v := at(t, n, "inf"); v.Text != "-inf" {
		t.Errorf("inf spelled %q, want -inf", v.Text)
	}
	if v := at(t, n, "exp"); !v.IsInt() {
		t.Errorf("1e3 is not integral")
	}
	if v := at(t, n, "yes"); v.Kind != Bool || !v.Bool {
		t.Errorf("yes = %s", v.TypeName())
	}
	strs := map[string]string{
		"str":         "tab\there",
		"lit":         `C:\path`,
		"multi":       "line",
		"offset":      "1979-05-27T07:32:00Z",
		"offset_frac": "1979-05-27T00:32:00.999999-07:00",
		"space":       "1979-05-27T07:32:00Z",
		"local_dt":    "1979-05-27T07:32:00",
		"local_date":  "1979-05-27",
		"local_time":  "07:32:00.5",
		"short_time":  "07:32:00",
	}
	for key, want := range strs {
		if v := at(t, n, key); v.Kind != String || v.Text != want {
			t.Errorf("%s = %s %q, want string %q", key, v.TypeName(), v.Text, want)
		}
	}
	if arr := at(t, n, "arr"); arr.Kind != List || len(arr.Items) != 3 || arr.Items[2].Kind != List {
		t.Errorf("arr = %s", arr.TypeName())
	}
	if d := at(t, n, "inline", "b", "c"); d.Text != "d" {
		t.Errorf("inline.b.c = %q", d.Text)
	}
	var keys []string
	for _, e := range n.Entries {
		keys = append(keys, e.Key)
	}
	want := []string{"int", "neg", "hex", "under", "float", "exp", "nan", "inf", "yes", "str", "lit", "multi",
		"offset", "offset_frac", "space", "local_dt", "local_date", "local_time", "short_time", "arr", "inline"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("entries are not in source order (-want +got):\n%s", diff)
	}
}

func TestTOMLPositions(t *testing.T) {
	page := "+++\n" + // line 1
		"title = \"Été\"\n" + // 2
		"\"quoted.key\" = 1\n" + // 3
		"site.name = 'x' # comment\n" + // 4
		"notes = \"\"\"\n" + // 5
		"fake = 1\n" + // 6: inside a multi-line string
		"[fake]\n" + // 7
		"\"\"\"\n" + // 8
		"list = [\n" + // 9
		"  1,\n" + // 10
		"  { \"é\" = 2 },\n" + // 11
		"]\n" + // 12
		"\n" + // 13
		"[ tbl . sub ]\n" + // 14
		"  k = 1\n" + // 15
		"[[evals]]\n" + // 16
		"id = \"a\"\n" + // 17
		"[evals.options]\n" + // 18
		"max = 3\n" + // 19
		"[[evals]]\n" + // 20
		"id = \"b\"\n" + // 21
		"+++\n"
	n, problems := parsePage(t, page)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	checkPositions(t, n, []posCheck{
		{nil, false, diag.Pos{Line: 2, Col: 1}},
		{[]string{"title"}, true, diag.Pos{Line: 2, Col: 1}},
		{[]string{"title"}, false, diag.Pos{Line: 2, Col: 9}},
		{[]string{"quoted.key"}, true, diag.Pos{Line: 3, Col: 1}},
		{[]string{"quoted.key"}, false, diag.Pos{Line: 3, Col: 16}},
		{[]string{"site"}, true, diag.Pos{Line: 4, Col: 1}},
		{[]string{"site", "name"}, true, diag.Pos{Line: 4, Col: 6}},
		{[]string{"site", "name"}, false, diag.Pos{Line: 4, Col: 13}},
		{[]string{"notes"}, false, diag.Pos{Line: 5, Col: 9}},
		{[]string{"list"}, false, diag.Pos{Line: 9, Col: 8}},
		{[]string{"list", "[0]"}, false, diag.Pos{Line: 10, Col: 3}},
		{[]string{"list", "[1]"}, false, diag.Pos{Line: 11, Col: 3}},
		{[]string{"list", "[1]", "é"}, true, diag.Pos{Line: 11, Col: 5}},
		{[]string{"list", "[1]", "é"}, false, diag.Pos{Line: 11, Col: 11}},
		{[]string{"tbl"}, true, diag.Pos{Line: 14, Col: 3}},
		{[]string{"tbl", "sub"}, true, diag.Pos{Line: 14, Col: 9}},
		{[]string{"tbl", "sub"}, false, diag.Pos{Line: 14, Col: 1}},
		{[]string{"tbl", "sub", "k"}, true, diag.Pos{Line: 15, Col: 3}},
		{[]string{"tbl", "sub", "k"}, false, diag.Pos{Line: 15, Col: 7}},
		{[]string{"evals"}, true, diag.Pos{Line: 16, Col: 3}},
		{[]string{"evals"}, false, diag.Pos{Line: 16, Col: 1}},
		{[]string{"evals", "[0]"}, false, diag.Pos{Line: 16, Col: 1}},
		{[]string{"evals", "[0]", "id"}, true, diag.Pos{Line: 17, Col: 1}},
		{[]string{"evals", "[0]", "options"}, true, diag.Pos{Line: 18, Col: 8}},
		{[]string{"evals", "[0]", "options", "max"}, false, diag.Pos{Line: 19, Col: 7}},
		{[]string{"evals", "[1]"}, false, diag.Pos{Line: 20, Col: 1}},
		{[]string{"evals", "[1]", "id"}, true, diag.Pos{Line: 21, Col: 1}},
		{[]string{"evals", "[1]", "id"}, false, diag.Pos{Line: 21, Col: 6}},
	})
	if at(t, n, "notes").Text != "fake = 1\n[fake]\n" || n.Get("fake") != nil {
		t.Errorf("the multi-line string was scanned as TOML")
	}
}

func TestTOMLPositionsCRLFAndBOM(t *testing.T) {
	n, problems := parsePage(t, "\ufeff+++\r\na = 1\r\n[t]\r\nb = \"é\"\r\n+++\r\n")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if got := at(t, n, "t", "b").Pos; got != (diag.Pos{Line: 4, Col: 5}) {
		t.Errorf("t.b at %v, want 4:5", got)
	}
	// A config file's BOM is the first code point of line 1.
	n, _ = ParseTOML([]byte("\ufeffa = 1\n"), 1)
	if got := keyPos(t, n, "a"); got != (diag.Pos{Line: 1, Col: 2}) {
		t.Errorf("key after BOM at %v, want 1:2", got)
	}
}

func TestTOMLProblems(t *testing.T) {
	testPageProblems(t, []pageProblem{
		{"duplicate key", "+++\na = 1\nb = 2\na = 3\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 4, Col: 1}, Code: "duplicate_key", Message: "key 'a' has already been defined"}},
		{"duplicate table", "+++\n[t]\nx = 1\n[t]\ny = 2\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 4, Col: 2}, Code: "duplicate_key", Message: "key 't' has already been defined"}},
		{"key redefined as table", "+++\na = 1\n[a]\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 2}, Code: "duplicate_key", Message: "key 'a' has already been defined"}},
		{"value used as a table", "+++\na = 1\n[a.b]\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 2}, Code: "duplicate_key", Message: "key 'a' was already created as a hash"}},
		{"array used as a table", "+++\nt = {b = [1], b.c = 2}\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 15}, Code: "duplicate_key", Message: `"t.b" is not a table`}},
		{"array redefined as array of tables", "+++\na = [1]\n[[a]]\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 3}, Code: "duplicate_key", Message: "key 'a' was already created and cannot be used as an array"}},
		{"duplicate in inline table", "+++\na = {b = 1, b = 2}\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 13}, Code: "duplicate_key", Message: "key 'a.b' has already been defined"}},
		// TOML 1.0: "Keys and sub-tables cannot be added outside the braces" of an inline table; the
		// decoder took these.
		{"an inline table extended by a dotted key", "+++\na = {b = 1}\na.c = 2\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 3}, Code: "duplicate_key", Message: `"c" is added to an inline table outside its braces, which TOML does not allow`}},
		{"evals extended", "+++\nevals = { id = \"x\" }\nevals.assertion = \"y\"\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 7}, Code: "duplicate_key", Message: `"assertion" is added to an inline table outside its braces, which TOML does not allow`}},
		{"an inline table extended through its own inline table", "+++\na = {b = {c = 1}}\na.b.d = 2\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 3}, Code: "duplicate_key", Message: `"b" is added to an inline table outside its braces, which TOML does not allow`}},
		{"an inline table extended by a header", "+++\na = {b = 1}\n[a.c]\nx = 1\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 4}, Code: "duplicate_key", Message: `"c" is added to an inline table outside its braces, which TOML does not allow`}},
		{"an inner inline table extended inside the outer one", "+++\nt = {b = {c = 1}, b.d = 2}\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 21}, Code: "duplicate_key", Message: `"d" is added to an inline table outside its braces, which TOML does not allow`}},
		{"a control character", "+++\na = \"x\x00\"\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 7}, Code: "syntax_error", Message: "TOML files cannot contain control characters: '0x00'"}},
		{"a control character first", "+++\n\x13\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 1}, Code: "syntax_error", Message: "TOML files cannot contain control characters: '0x13'"}},
		{"missing value", "+++\na = 1\nb = \n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 5}, Code: "syntax_error", Message: `expected value but found '\n' instead`}},
		{"junk after value", "+++\nk = \"é\" x\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 8}, Code: "syntax_error", Message: "expected a top-level item to end with a newline, comment, or EOF, but got 'x' instead"}},
		{"nesting", "+++\na = " + strings.Repeat("[", 2000) + "\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 4 + 1000}, Code: "syntax_error", Message: "nesting deeper than 1,000 levels"}},
		// One key of more than 1,000 segments stops the scan at its 1,001st: the decoder copies a key's
		// path for each segment, and 50,000 of them took it minutes.
		{"a dotted key too long", "+++\n" + strings.Repeat("a.", 50_000) + "b = 1\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 2001}, Code: "syntax_error", Message: "nesting deeper than 1,000 levels"}},
		{"a header too long", "+++\nx = 1\n[" + strings.Repeat("a.", 200_000) + "b]\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 3, Col: 2002}, Code: "syntax_error", Message: "nesting deeper than 1,000 levels"}},
		{"an array of tables too long", "+++\n[[" + strings.Repeat("a.", 50_000) + "b]]\n+++\n",
			diag.Problem{Pos: diag.Pos{Line: 2, Col: 2003}, Code: "syntax_error", Message: "nesting deeper than 1,000 levels"}},
	})
}

func TestTOMLErrorInsideCharacter(t *testing.T) {
	// The decoder reports this error at the last byte of U+2000; the column
	// is the character's.
	_, problems := ParseTOML([]byte(" \"00\u2000"), 1)
	if len(problems) != 1 || problems[0].Pos != (diag.Pos{Line: 1, Col: 5}) {
		t.Errorf("problems = %v, want one at 1:5", problems)
	}
}

func TestTOMLDeepTables(t *testing.T) {
	// Headers nest tables without recursion in the decoder; the tree still
	// stops at 1,000 levels.
	header := "[" + strings.TrimSuffix(strings.Repeat("a.", 1000), ".") + "]\nk = 1\n"
	n, problems := ParseTOML([]byte("top = 1\n"+header), 1)
	if n == nil || at(t, n, "top").Num != 1 {
		t.Fatalf("the tree is not kept")
	}
	if len(problems) != 1 || problems[0].Code != "syntax_error" || problems[0].Pos.Line != 2 {
		t.Errorf("problems = %v, want one syntax_error on line 2", problems)
	}
}

func TestTOMLEmpty(t *testing.T) {
	n, problems := parsePage(t, "+++\n+++\n")
	if len(problems) > 0 || n == nil || n.Kind != Map || len(n.Entries) != 0 || n.Pos != (diag.Pos{Line: 2, Col: 1}) {
		t.Errorf("empty TOML: %+v, %v; want an empty mapping at 2:1", n, problems)
	}
}

// TestTOMLInlineTablesAllowed: what TOML allows around inline tables is no problem: dotted keys of
// tables no inline table defined, an inline table as a value in a header table that grows, and arrays
// of tables whose items hold inline tables.
func TestTOMLInlineTablesAllowed(t *testing.T) {
	for _, text := range []string{
		"a.b = 1\na.c = 2\n",
		"[a]\nb = {c = 1}\n[a.d]\ne = 1\n",
		"[[items]]\nx = {y = 1}\n[[items]]\nx = {y = 2}\n",
		"t = {b = {c = 1}, d = 2}\nu = 1\n",
		"a = [{b = 1}, {b = 2}]\n",
	} {
		if _, probs := ParseTOML([]byte(text), 1); len(probs) > 0 {
			t.Errorf("%q: %v", text, probs)
		}
	}
}
