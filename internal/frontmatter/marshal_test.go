package frontmatter

import (
	"math"
	"testing"
)

func TestMarshalYAMLOutput(t *testing.T) {
	tests := []struct {
		name string
		n    *Node
		want string
	}{
		{"nil", nil, "{}\n"},
		{"empty map", &Node{Kind: Map}, "{}\n"},
		{"null root", &Node{Kind: Null}, "null\n"},
		{"order and quoting", FromValue(map[string]any{
			"a": 1, "b": []any{"x", "true", "yes", "1", "", "null", "2026-01-01", "1_000"}, "c": map[string]any{},
		}), "a: 1\nb:\n  - x\n  - \"true\"\n  - \"yes\"\n  - \"1\"\n  - \"\"\n  - \"null\"\n  - \"2026-01-01\"\n  - \"1_000\"\nc: {}\n"},
		{"entries keep their order", &Node{Kind: Map, Entries: []Entry{
			{Key: "z", Value: FromValue(true)}, {Key: "a", Value: FromValue(nil)},
		}}, "z: true\na: null\n"},
		{"numbers", FromValue([]any{3.0, 2.5, math.Inf(1), math.Inf(-1), math.NaN(), 1e21, -0.000001}),
			"- 3\n- 2.5\n- .inf\n- -.inf\n- .nan\n- 1e+21\n- -1e-06\n"},
		{"source spelling kept", &Node{Kind: Map, Entries: []Entry{
			{Key: "h", Value: &Node{Kind: Number, Num: 31, Text: "0x1F"}},
			{Key: "f", Value: &Node{Kind: Number, Num: 3, Text: "3.0"}},
			{Key: "t", Value: &Node{Kind: Number, Num: 1000, Text: "1_000"}}, // TOML spelling: not core
			{Key: "n", Value: &Node{Kind: Number, Num: math.NaN(), Text: "nan"}},
		}}, "h: 0x1F\nf: 3.0\nt: 1000\n\"n\": .nan\n"}, // YAML 1.1 reads n as false
		{"multi-line string", FromValue(map[string]any{"s": "a\nb\n"}), "s: |\n  a\n  b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(MarshalYAML(tt.n)); got != tt.want {
				t.Errorf("MarshalYAML =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestMarshalYAMLRoundTrip(t *testing.T) {
	strs := []string{
		"", "true", "False", "null", "~", "1", "-1.5", "0x1F", "0o7", ".inf", ".nan", "yes", "no", "on", "off",
		"2026-01-01", "1_000", "0b101", "12:30", " lead", "trail ", "a\nb", "a\n", "\n", "a\n\n", " a\nb", "a \nb",
		"\ttab", "x\u2028y", "x\u0085y", "\ufeffbom", "#c", "- x", "-", ": x", "a: b", "a #b", "@a", "`b", "%x",
		"!tag", "&a", "*a", "|", ">", "'", "\"", "[", "{", "}", "]", ",", "?", "? x", "\r", "a\r\nb", "\x00", "\x7f",
		"\u00a0", "\U0001F600", "é ü", "---", "...", "--- x", "<<", "=", "very long " + string(make([]byte, 0)) + "text that goes on and on and on and on and on and on and on and on and on and on and on",
		"invalid \xff utf8",
	}
	m := &Node{Kind: Map}
	list := &Node{Kind: List}
	for _, s := range strs {
		list.Items = append(list.Items, FromValue(s))
		m.Entries = append(m.Entries, Entry{Key: s, Value: FromValue(s)})
	}
	root := &Node{Kind: Map, Entries: []Entry{
		{Key: "strings", Value: list},
		{Key: "keys", Value: m},
		{Key: "numbers", Value: FromValue([]any{0.0, math.Copysign(0, -1), 3.0, 1e300, 5e-324, math.MaxFloat64, math.NaN(), math.Inf(1), 1e21, 123456789.123})},
		{Key: "other", Value: FromValue([]any{true, false, nil, []any{}, map[string]any{}, []any{[]any{[]any{}}}})},
	}}
	out := MarshalYAML(root)
	back, problems := ParseYAML(out, 1)
	if len(problems) > 0 {
		t.Fatalf("re-parse: %v\n%s", problems, out)
	}
	// The invalid UTF-8 string comes back with U+FFFD.
	want := root
	last := len(strs) - 1
	list.Items[last] = FromValue("invalid \uFFFD utf8")
	m.Entries[last] = Entry{Key: "invalid \uFFFD utf8", Value: FromValue("invalid \uFFFD utf8")}
	if !sameValue(want, back) {
		for i := range list.Items {
			if got := at(t, back, "strings").Items[i]; !sameValue(list.Items[i], got) {
				t.Errorf("string %q came back as %s %q", list.Items[i].Text, got.TypeName(), got.Text)
			}
		}
		t.Fatalf("round trip changed the tree:\n%s", out)
	}
}

func TestMarshalYAMLParsedPage(t *testing.T) {
	n, problems := Parse(Split([]byte(benchPage())))
	if n == nil || len(problems) > 0 {
		t.Fatal(problems)
	}
	back, problems := ParseYAML(MarshalYAML(n), 1)
	if len(problems) > 0 || !sameValue(n, back) {
		t.Errorf("round trip of a parsed page: %v", problems)
	}
}
