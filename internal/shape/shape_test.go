package shape

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/testfs"
)

// parse reads a YAML value for a test.
func parse(t *testing.T, src string) *frontmatter.Node {
	t.Helper()
	n, probs := frontmatter.ParseYAML([]byte(src), 1)
	if len(probs) > 0 {
		t.Fatalf("parse %q: %v", src, probs)
	}
	return n
}

var sample = &Object{
	Name: "the sample",
	Fields: []Field{
		{Name: "name", Type: &Type{Kind: String, Pattern: &Pattern{RE: regexp.MustCompile(`^[a-z]+$`), Says: "lowercase letters", Code: "invalid_id",
			Near: []string{"alpha", "beta"}}}, Required: true},
		{Name: "level", Type: &Type{Kind: String, Enum: []string{"low", "high"}}},
		{Name: "runs", Type: &Type{Kind: Int, Min: Ptr(1), Max: Ptr(50)}},
		{Name: "codes", Type: &Type{Kind: List, NonEmpty: true, Items: &Type{Kind: Int}}},
		{Name: "weight", Type: &Type{Kind: Number, Min: Ptr(0), MinExclusive: true, RangeHint: "write skip: true"}},
		{Name: "rate", Type: &Type{Kind: Number, Min: Ptr(0), Max: Ptr(1)}},
		{Name: "tags", Type: &Type{Kind: List, Items: NonEmptyString, Unique: true}},
		{Name: "on", Type: Boolean},
		{Name: "re", Type: &Type{Kind: String, RE2: true}},
		{Name: "min", Type: &Type{Kind: Int, Min: Ptr(0)}},
		{Name: "max", Type: &Type{Kind: Int, Min: Ptr(0)}},
		{Name: "text", Type: NonEmptyString},
		{Name: "pattern", Type: NonEmptyString},
		{Name: "from", Type: AnyString},
		{Name: "to", Type: AnyString},
	},
	Rules: []Rule{
		{Kind: NotBoth, Keys: []string{"text", "pattern"}, Message: "give text or pattern, not both"},
		{Kind: Requires, Keys: []string{"from", "to"}, Message: "from needs to"},
		{Kind: NotAbove, Keys: []string{"min", "max"}, Message: "min may not exceed max"},
	},
}

func TestChecker(t *testing.T) {
	tests := []struct {
		src  string
		want []string // "line:col code message"
	}{
		{"name: abc", nil},
		{"[1]", []string{"1:1 wrong_type the sample must be a mapping, got a list"}},
		{"level: low", []string{"1:1 missing_field the sample needs name"}},
		{"name: Abc", []string{`1:7 invalid_id name must be lowercase letters, got "Abc"`}},
		{"name: Beta", []string{`1:7 invalid_id name must be lowercase letters, got "Beta"; did you mean "beta"?`}},
		{"name: alpha-1", []string{`1:7 invalid_id name must be lowercase letters, got "alpha-1"; did you mean "alpha"?`}},
		{"name: a\nlevel: mid", []string{`2:8 invalid_value level must be low or high, got "mid"`}},
		{"name: a\nruns: 0", []string{"2:7 invalid_value runs must be an integer from 1 to 50, got 0"}},
		{"name: a\nruns: 2.5", []string{"2:7 wrong_type runs must be an integer, got 2.5"}},
		{"name: a\nruns: 3.0", nil},
		{"name: a\nruns: .inf", []string{"2:7 invalid_value runs must be a finite integer, got .inf"}},
		{"name: a\ncodes: [9007199254740994]", []string{"2:9 invalid_value codes[0] must be an integer of at most 9007199254740992, got 9007199254740994"}},
		{"name: a\ncodes: [-9007199254740994]", []string{"2:9 invalid_value codes[0] must be an integer of at least -9007199254740992, got -9007199254740994"}},
		// 2^53+1 reads as 2^53 in a float64: its text says it is past the bound.
		{"name: a\ncodes: [9007199254740993]", []string{"2:9 invalid_value codes[0] must be an integer of at most 9007199254740992, got 9007199254740993"}},
		{"name: a\ncodes: [-9007199254740993, 0x20000000000001]", []string{
			"2:9 invalid_value codes[0] must be an integer of at least -9007199254740992, got -9007199254740993",
			"2:28 invalid_value codes[1] must be an integer of at most 9007199254740992, got 0x20000000000001"}},
		{"name: a\ncodes: [9007199254740992, -9007199254740992, 0x20000000000000]", nil},
		{"name: a\ncodes: []", []string{"2:8 invalid_value codes must not be an empty list"}},
		{"name: a\nweight: 0", []string{"2:9 invalid_value weight must be a number greater than 0 (write skip: true), got 0"}},
		{"name: a\nrate: 1.5", []string{"2:7 invalid_value rate must be a number from 0 to 1, got 1.5"}},
		{"name: a\nrate: x", []string{`2:7 wrong_type rate must be a number, got "x"`}},
		{"name: a\ntags: [x, y, x]", []string{`2:14 invalid_value tags[2] repeats "x": items must be unique`}},
		{"name: a\ntags: [x, '']", []string{`2:11 invalid_value tags[1] must be a non-empty string`}},
		{"name: a\non: yes", []string{`2:5 wrong_type on must be true or false, got "yes" (write true)`}},
		{"name: a\nre: '(x'", []string{"2:5 invalid_value re is not valid RE2: error parsing regexp: missing closing ): `(x`"}},
		{"name: a\ntext: x\npattern: y", []string{"3:1 invalid_value the sample: give text or pattern, not both"}},
		{"name: a\nfrom: x", []string{"2:1 missing_field the sample: from needs to"}},
		{"name: a\nmin: 5\nmax: 3", []string{"2:6 invalid_value the sample: min may not exceed max (5 exceeds 3)"}},
		{"name: a\nmin: x\nmax: 3", []string{`2:6 wrong_type min must be an integer, got "x"`}},
		{"name: a\nlevl: low", []string{`2:1 unknown_key unknown key "levl" in the sample: did you mean "level"? (allowed: name, level, runs, codes, weight, rate, tags, on, re, min, max, text, pattern, from, to)`}},
	}
	// A document's root checked as a value of a mapping type is named as by Object: the baseline or
	// a review that is a list said " must be a mapping".
	var k Checker
	k.Value(parse(t, "[1]"), &Type{Kind: Map, Object: sample}, "")
	if ps := k.Problems(); len(ps) != 1 || ps[0].Message != "the sample must be a mapping, got a list" {
		t.Errorf("a root that is a list: %v", ps)
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			var k Checker
			ok := k.Object(parse(t, tt.src), sample, "", nil)
			var got []string
			for _, p := range k.Problems() {
				got = append(got, p.Pos.String()+" "+p.Code+" "+p.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if ok != (len(tt.want) == 0) {
				t.Errorf("ok = %v with %d faults", ok, len(got))
			}
		})
	}
}

// TestEach: the callback sees every known entry in source order, with whether it passed; unknown keys never.
func TestEach(t *testing.T) {
	var seen []string
	var k Checker
	k.Object(parse(t, "runs: 0\nname: a\nbogus: 1\non: true"), sample, "x", func(f *Field, e *frontmatter.Entry, ok bool) {
		seen = append(seen, f.Name+"="+map[bool]string{true: "ok", false: "bad"}[ok])
	})
	if got := strings.Join(seen, " "); got != "runs=bad name=ok on=ok" {
		t.Errorf("each saw %q", got)
	}
}

func TestUnknownKeyOf(t *testing.T) {
	tests := []struct {
		key, where string
		allowed    []string
		hint       string
		noList     bool
		want       string
	}{
		{"x", "ai", nil, "", false, `unknown key "x" in ai (it takes no keys)`},
		{"follow", "evals[0].options", nil, "tool:links takes no options", false, `unknown key "follow" in evals[0].options (tool:links takes no options)`},
		{"successExitCodes", "evals[0], an inline eval", []string{"command", "success-exit-codes"}, "", true, `unknown key "successExitCodes" in evals[0], an inline eval: did you mean "success-exit-codes"?`},
		{"timeout", "commands", []string{"timeout-ms", "allow"}, "", false, `unknown key "timeout" in commands (allowed: timeout-ms, allow)`},
		{"time_out-ms", "commands", []string{"timeout-ms", "allow"}, "", false, `unknown key "time_out-ms" in commands: did you mean "timeout-ms"? (allowed: timeout-ms, allow)`},
		{"fooBar", "evals[0], an inline eval", []string{"command", "success-exit-codes"}, "", true, `unknown key "fooBar" in evals[0], an inline eval: write kebab-case`},
		{"my_key", "commands", []string{"timeout-ms", "allow"}, "", false, `unknown key "my_key" in commands: write kebab-case (allowed: timeout-ms, allow)`},
		{"maxOutputTokensPerCall", "ai", []string{"max-output-tokens-per-call", "runs"}, "", true, `unknown key "maxOutputTokensPerCall" in ai: did you mean "max-output-tokens-per-call"?`},
		// A snake_case vocabulary (EvalCase, jev) gets no kebab-case advice.
		{"fooBar", "the case", []string{"source_locale", "id"}, "", true, `unknown key "fooBar" in the case`},
	}
	for _, tt := range tests {
		if got := UnknownKeyOf(tt.key, tt.where, tt.allowed, tt.hint, tt.noList); got != tt.want {
			t.Errorf("UnknownKeyOf(%q)\n got %s\nwant %s", tt.key, got, tt.want)
		}
	}
}

// TestSchemaAgrees: the JSON Schema export of a table accepts exactly the values the checker accepts, except
// for what JSON Schema cannot say (NotAbove, RE2 validity, integral floats beyond the exact range).
func TestSchemaAgrees(t *testing.T) {
	raw, err := json.Marshal((&Type{Kind: Map, Object: sample}).JSONSchema())
	if err != nil {
		t.Fatal(err)
	}
	sch := testfs.Schema(t, raw)
	for _, src := range []string{
		"name: abc", "[1]", "level: low", "name: Abc", "name: a\nlevel: mid", "name: a\nruns: 0",
		"name: a\nruns: 2.5", "name: a\nruns: 3.0", "name: a\ncodes: []", "name: a\ncodes: [1, 2]",
		"name: a\nweight: 0", "name: a\nweight: 0.5", "name: a\nrate: 1.5", "name: a\nrate: x",
		"name: a\ntags: [x, y, x]", "name: a\ntags: [x, '']", "name: a\non: yes", "name: a\ntext: x\npattern: y",
		"name: a\nfrom: x", "name: a\nfrom: x\nto: y", "name: a\nlevl: low", "name: a\nmin: 5",
	} {
		n := parse(t, src)
		var k Checker
		kit := k.Object(n, sample, "", nil)
		schema := sch.Validate(n.JSONValue()) == nil
		if kit != schema {
			t.Errorf("%q: the checker says %v, the export says %v (%v)", src, kit, schema, k.Problems())
		}
	}
}

// TestDescribe renders values as messages show them.
func TestDescribe(t *testing.T) {
	long := strings.Repeat("é", 70)
	for _, tt := range []struct {
		n    *frontmatter.Node
		want string
	}{
		{frontmatter.FromValue(nil), "null"},
		{frontmatter.FromValue(3), "3"},
		{frontmatter.FromValue(true), "true"},
		{frontmatter.FromValue("a\nb"), `"a\nb"`},
		{frontmatter.FromValue(long), `"` + strings.Repeat("é", 60) + `…"`},
		{frontmatter.FromValue([]any{1}), "a list"},
		{frontmatter.FromValue(map[string]any{}), "a mapping"},
	} {
		if got := Describe(tt.n); got != tt.want {
			t.Errorf("Describe = %s, want %s", got, tt.want)
		}
	}
	if got := Child("evals[0]", "a b"); got != `evals[0]."a b"` {
		t.Errorf("Child = %s", got)
	}
	if got := OrList([]string{"a", "b", "c"}); got != "a, b or c" {
		t.Errorf("OrList = %s", got)
	}
}

// TestCompile: an expression is compiled once and the same regexp served after; an invalid one is an
// error every time; one too long to keep is compiled each time, and still right.
func TestCompile(t *testing.T) {
	a, err := Compile(`(?i)run the installer\.`)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := Compile(`(?i)run the installer\.`); b != a {
		t.Error("the same expression compiled twice")
	}
	if !a.MatchString("Run the Installer.") {
		t.Error("the remembered regexp does not match")
	}
	for range 2 {
		if _, err := Compile(`a(`); err == nil {
			t.Error("an invalid expression compiled")
		}
	}
	long := strings.Repeat("x", maxCompiledLen+1)
	l1, err1 := Compile(long)
	l2, err2 := Compile(long)
	if err1 != nil || err2 != nil || l1 == l2 || !l2.MatchString(long) {
		t.Errorf("a long expression: %v %v, kept %v", err1, err2, l1 == l2)
	}
}

// TestInsts: the instruction count is the compiled program's, the same whether Compile kept the
// expression (counted once) or not (an expression past maxCompiledLen).
func TestInsts(t *testing.T) {
	kept, err := Compile(`(?:.?){1000}Z`)
	if err != nil {
		t.Fatal(err)
	}
	if got := Insts(kept); got != 2003 {
		t.Errorf("Insts((?:.?){1000}Z) = %d, want 2003", got)
	}
	if again := Insts(kept); again != 2003 {
		t.Errorf("counted again: %d", again)
	}
	long := strings.Repeat("a?", maxCompiledLen) + "b"
	re, err := Compile(long)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Insts(re), instCount(long); got != want || got < maxCompiledLen {
		t.Errorf("Insts of an expression not kept = %d, want %d", got, want)
	}
}
