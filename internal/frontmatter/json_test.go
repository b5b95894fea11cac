package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/evalgate/evalgate/internal/diag"
)

func TestParseJSONPositions(t *testing.T) {
	text := "{\n  \"id\": \"é1\",\n  \"list\": [1, -2.5e3, true, null],\n\t\"ü\": {\"k\": \"\\u00e9\\ud83d\\ude00\"}\n}"
	root, probs := ParseJSON([]byte(text), 10)
	if len(probs) > 0 || root == nil {
		t.Fatalf("problems %v", probs)
	}
	type want struct {
		path string
		pos  diag.Pos
	}
	at := func(n *Node, key string) *Entry {
		e := n.Get(key)
		if e == nil {
			t.Fatalf("no key %q", key)
		}
		return e
	}
	id, list, u := at(root, "id"), at(root, "list"), at(root, "ü")
	for _, w := range []struct {
		name string
		got  diag.Pos
		want diag.Pos
	}{
		{"root", root.Pos, diag.Pos{Line: 10, Col: 1}},
		{"id key", id.KeyPos, diag.Pos{Line: 11, Col: 3}},
		{"id value", id.Value.Pos, diag.Pos{Line: 11, Col: 9}},
		{"list", list.Value.Pos, diag.Pos{Line: 12, Col: 11}},
		{"list[1]", list.Value.Items[1].Pos, diag.Pos{Line: 12, Col: 15}},
		{"list[3]", list.Value.Items[3].Pos, diag.Pos{Line: 12, Col: 29}},
		{"ü key", u.KeyPos, diag.Pos{Line: 13, Col: 2}},
		{"ü.k value", at(u.Value, "k").Value.Pos, diag.Pos{Line: 13, Col: 13}},
	} {
		if w.got != w.want {
			t.Errorf("%s at %v, want %v", w.name, w.got, w.want)
		}
	}
	if got := at(u.Value, "k").Value.Text; got != "é😀" {
		t.Errorf("escapes decoded to %q", got)
	}
	if n := list.Value.Items[1]; n.Num != -2500 || n.Text != "-2.5e3" {
		t.Errorf("number %v %q", n.Num, n.Text)
	}
	if keys := []string{root.Entries[0].Key, root.Entries[1].Key, root.Entries[2].Key}; !reflect.DeepEqual(keys, []string{"id", "list", "ü"}) {
		t.Errorf("key order %v", keys)
	}
}

func TestParseJSONProblems(t *testing.T) {
	tests := []struct {
		text string
		want string // "line:col code", the first problem
	}{
		{``, "1:1 syntax_error"},
		{`  `, "1:3 syntax_error"},
		{`{"a": 1,}`, "1:9 syntax_error"},
		{`[1, 2,]`, "1:7 syntax_error"},
		{`{"a": 1} x`, "1:10 syntax_error"},
		{`{"a" 1}`, "1:6 syntax_error"},
		{`{a: 1}`, "1:2 syntax_error"},
		{`// c` + "\n1", "1:1 syntax_error"},
		{`01`, "1:1 syntax_error"},
		{`-`, "1:2 syntax_error"},
		{`1.`, "1:3 syntax_error"},
		{`1e`, "1:3 syntax_error"},
		{`tru`, "1:4 syntax_error"},
		{`"a` + "\n" + `b"`, "1:3 syntax_error"},
		{`"\x"`, "1:3 syntax_error"},
		{`"\u12g4"`, "1:6 syntax_error"},
		{`{"k": "é` + "\xff" + `"}`, "1:9 invalid_utf8"},
		{"[\xc3]", "1:2 invalid_utf8"},
		{"{\n  \"a\": 1,\n  \"a\": 2\n}", "3:3 duplicate_key"},
		{`{"a": {"b": 1, "b": 2}, "c": 3}`, "1:16 duplicate_key"},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), "1:1001 syntax_error"},
	}
	for _, tt := range tests {
		_, probs := ParseJSON([]byte(tt.text), 1)
		if len(probs) == 0 {
			t.Errorf("%q: no problem, want %s", tt.text, tt.want)
			continue
		}
		p := probs[0]
		if got := fmt.Sprintf("%d:%d %s", p.Pos.Line, p.Pos.Col, p.Code); got != tt.want {
			t.Errorf("%q: %s (%s), want %s", tt.text, got, p.Message, tt.want)
		}
	}
	// A duplicate key keeps the first entry and the parse goes on.
	root, probs := ParseJSON([]byte(`{"a": 1, "a": 2, "b": [1]}`), 1)
	if root == nil || len(probs) != 1 || len(root.Entries) != 2 || root.Entries[0].Value.Num != 1 {
		t.Errorf("duplicate: root %v, problems %v", root, probs)
	}
	// 1,000 levels are fine.
	if _, probs := ParseJSON([]byte(strings.Repeat("[", 1000)+strings.Repeat("]", 1000)), 1); len(probs) > 0 {
		t.Errorf("1,000 levels: %v", probs)
	}
}

// FuzzParseJSON compares ParseJSON with encoding/json: the same texts are accepted (but for duplicate keys,
// which ParseJSON reports and encoding/json takes, and numbers beyond float64, which encoding/json refuses
// to decode), to the same values; every position lies inside the text.
func FuzzParseJSON(f *testing.F) {
	addSeeds(f, []string{`{}`, `[]`, `{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00"}`, `"\ud800"`, `"\udc00\u0041"`,
		`-0.5e-3`, `1e400`, `[true,false,null]`, `{"a":1,"a":2}`, " {\n\"k\" : \"v\" } ", "\"\xff\"", `[1,]`})
	f.Fuzz(func(t *testing.T, text []byte) {
		root, probs := ParseJSON(text, 1)
		if owned, oprobs := ParseJSONWith(bytes.Clone(text), 1, JSONOptions{Owned: true}); !reflect.DeepEqual(owned, root) || !reflect.DeepEqual(oprobs, probs) {
			t.Fatalf("%q: an owned parse gives %+v %v, a copying one %+v %v", text, owned, oprobs, root, probs)
		}
		lines := bytes.Count(text, []byte("\n")) + 1
		for _, p := range probs {
			if p.Pos.Line < 1 || p.Pos.Line > lines || p.Pos.Col < 1 || p.Pos.Col > utf8.RuneCount(text)+1 {
				t.Fatalf("problem %v outside the text", p)
			}
		}
		if !utf8.Valid(text) {
			// encoding/json decodes invalid UTF-8 as U+FFFD; evalgate reports it, wherever it is.
			if len(probs) == 0 || probs[len(probs)-1].Code != "invalid_utf8" && probs[len(probs)-1].Code != "syntax_error" {
				t.Fatalf("invalid UTF-8 in %q: problems %v", text, probs)
			}
			return
		}
		var want any
		err := json.Unmarshal(text, &want)
		dup := len(probs) > 0 && probs[0].Code == "duplicate_key"
		var ute *json.UnmarshalTypeError
		switch {
		case errors.As(err, &ute): // a number beyond float64
			if root == nil && !dup {
				t.Fatalf("encoding/json reads %q (but for a number); ParseJSON: %v", text, probs)
			}
		case err != nil && root != nil:
			t.Fatalf("encoding/json refuses %q (%v); ParseJSON accepts it", text, err)
		case err == nil && root == nil:
			t.Fatalf("encoding/json accepts %q; ParseJSON: %v", text, probs)
		case err == nil && !dup && !reflect.DeepEqual(root.Value(), want):
			t.Fatalf("%q: ParseJSON gives %#v, encoding/json %#v", text, root.Value(), want)
		}
		if root != nil {
			checkInside(t, root, lines)
		}
		for depth := 1; depth <= 3; depth++ {
			checkEach(t, text, depth)
		}
	})
}

// checkEach parses text with an Each that takes every value at depth, and holds what it was handed,
// what is left and the problems to ParseJSON's: each value (positions and texts too) at its path, in
// order, and the tree without them.
func checkEach(t *testing.T, text []byte, depth int) {
	t.Helper()
	plain, plainProbs := ParseJSON(text, 3)
	var want []string
	var left func(n *Node, at int) string
	left = func(n *Node, at int) string { // dumps n, collecting and leaving out the values at depth
		if at == depth {
			want = append(want, dump(n))
			return ""
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d@%v%q%v(", n.Kind, n.Pos, n.Text, n.Bool)
		for _, it := range n.Items {
			b.WriteString(left(it, at+1))
		}
		for _, e := range n.Entries {
			if s := left(e.Value, at+1); s != "" {
				fmt.Fprintf(&b, "%q@%v:%s", e.Key, e.KeyPos, s)
			}
		}
		return b.String() + ")"
	}
	var wantLeft string
	if plain != nil {
		wantLeft = left(plain, 0)
	}
	var got []string
	root, probs := ParseJSONWith(text, 3, JSONOptions{EachDepth: depth, Each: func(path []JSONStep, v *Node) bool {
		if len(path) != depth {
			t.Fatalf("handed a value at path %v, not at depth %d", path, depth)
		}
		got = append(got, dump(v))
		return true
	}})
	if !slices.Equal(probs, plainProbs) {
		t.Fatalf("depth %d: problems %v, ParseJSON %v", depth, probs, plainProbs)
	}
	if (root == nil) != (plain == nil) {
		t.Fatalf("depth %d: root %v, ParseJSON's %v", depth, root != nil, plain != nil)
	}
	if root == nil {
		return
	}
	if !slices.Equal(got, want) {
		t.Fatalf("depth %d: handed\n%q\nwant\n%q", depth, got, want)
	}
	want = nil
	if l := left(root, 0); l != wantLeft {
		t.Fatalf("depth %d: left\n%s\nwant\n%s", depth, l, wantLeft)
	}
}

// dump writes n with every position and text, for comparing trees exactly.
func dump(n *Node) string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		fmt.Fprintf(&b, "%d@%v%q%v%v(", n.Kind, n.Pos, n.Text, n.Bool, n.Num)
		for _, it := range n.Items {
			walk(it)
		}
		for _, e := range n.Entries {
			fmt.Fprintf(&b, "%q@%v:", e.Key, e.KeyPos)
			walk(e.Value)
		}
		b.WriteString(")")
	}
	walk(n)
	return b.String()
}

// TestParseJSONEach: values taken one by one, over several slabs each, reach Each whole, and the rest of
// the tree is ParseJSON's without them; a repeated key's value is not handed over.
// TestParseJSONOwned: a string without escapes is a slice of the text the caller owns (Owned), and of
// a copy of it otherwise, which a change to the text after the parse leaves alone; a string with
// escapes is its own either way. The trees are the same.
func TestParseJSONOwned(t *testing.T) {
	const text = `{"plain": "abc", "escaped": "a\u00e9"}`
	within := func(s string, b []byte) bool {
		p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		return p >= start && p < start+uintptr(len(b))
	}
	owned, copied := []byte(text), []byte(text)
	a, probs := ParseJSONWith(owned, 1, JSONOptions{Owned: true})
	b, probs2 := ParseJSONWith(copied, 1, JSONOptions{})
	if len(probs)+len(probs2) > 0 || !reflect.DeepEqual(a, b) {
		t.Fatalf("owned and copied parses differ: %+v, %+v (%v, %v)", a, b, probs, probs2)
	}
	if plain := a.Get("plain").Value.Text; plain != "abc" || !within(plain, owned) {
		t.Errorf("owned: %q is not a slice of the text", plain)
	}
	if escaped := a.Get("escaped").Value.Text; within(escaped, owned) {
		t.Errorf("owned: the unescaped %q is in the text", escaped)
	}
	plain := b.Get("plain").Value.Text
	copy(copied, strings.Repeat("x", len(copied)))
	if plain != "abc" || within(plain, copied) {
		t.Errorf("copied: %q changed with the text, or is a slice of it", plain)
	}

	// Owned makes no copy of the text at all: a large string costs none of its bytes again.
	big := []byte(`{"big": "` + strings.Repeat("a", 1<<20) + `"}`)
	allocated := func(o JSONOptions) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ParseJSONWith(big, 1, o)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	if n := allocated(JSONOptions{Owned: true}); n >= 1<<20 {
		t.Errorf("owned: parsing a %d-byte text allocated %d bytes, a copy of it", len(big), n)
	}
	if n := allocated(JSONOptions{}); n < 1<<20 {
		t.Errorf("copied: parsing a %d-byte text allocated only %d bytes, no copy of it", len(big), n)
	}
}

func TestParseJSONEach(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"head": {"x": [1, 2]}, "cases": [`)
	for i := range 40 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "c%d", "big": [`, i)
		for j := range 100 * (i % 7) {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"k": "v\u00e9%d", "n": [%d, true, null]}`, j, j)
		}
		b.WriteString("]}")
	}
	b.WriteString(`], "cases": [{"id": "again"}], "tail": "é"}`)
	text := []byte(b.String())
	for depth := 1; depth <= 4; depth++ {
		checkEach(t, text, depth)
	}
	var handed []string
	_, probs := ParseJSONWith(text, 1, JSONOptions{EachDepth: 2, Each: func(path []JSONStep, v *Node) bool {
		if path[0].Key == "cases" {
			handed = append(handed, v.Get("id").Value.Text)
			return true
		}
		return false
	}})
	if len(handed) != 40 || handed[39] != "c39" || len(probs) != 1 || probs[0].Code != "duplicate_key" {
		t.Errorf("handed %d values (last %q), problems %v; want the 40 of the first cases and one duplicate", len(handed), handed[len(handed)-1], probs)
	}
}

func checkInside(t *testing.T, n *Node, lines int) {
	if n.Pos.Line < 1 || n.Pos.Line > lines || n.Pos.Col < 1 {
		t.Fatalf("node at %v outside %d lines", n.Pos, lines)
	}
	if n.Kind == Number && math.IsNaN(n.Num) {
		t.Fatalf("NaN from %q", n.Text)
	}
	for _, it := range n.Items {
		checkInside(t, it, lines)
	}
	for _, e := range n.Entries {
		checkInside(t, e.Value, lines)
	}
}

// TestParseJSONDupPaths: Dup hears of every duplicate key with the path of the object that holds it, and
// the tree and problems are ParseJSON's.
func TestParseJSONDupPaths(t *testing.T) {
	src := `{"a": {"a": 1, "a": 2}, "l": [{}, {"k": 1, "k": 2}], "a": 3}`
	type heard struct {
		key, path string
		pos       diag.Pos
	}
	var got []heard
	root, probs := ParseJSONWith([]byte(src), 1, JSONOptions{Dup: func(key string, object []JSONStep, pos diag.Pos) {
		var b strings.Builder
		for _, s := range object {
			if s.Index >= 0 {
				fmt.Fprintf(&b, "[%d]", s.Index)
			} else {
				b.WriteString("." + s.Key)
			}
		}
		got = append(got, heard{key, b.String(), pos})
	}})
	want := []heard{
		{"a", ".a", diag.Pos{Line: 1, Col: 16}},
		{"k", ".l[1]", diag.Pos{Line: 1, Col: 44}},
		{"a", "", diag.Pos{Line: 1, Col: 54}},
	}
	if len(got) != len(want) {
		t.Fatalf("dup heard %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].key != want[i].key || got[i].path != want[i].path || got[i].pos.Line != want[i].pos.Line || got[i].pos.Col != want[i].pos.Col {
			t.Errorf("dup %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	plain, plainProbs := ParseJSON([]byte(src), 1)
	if len(probs) != 3 || len(plainProbs) != len(probs) || len(root.Entries) != len(plain.Entries) {
		t.Errorf("ParseJSONWith: %d problems, %d entries; ParseJSON: %d, %d", len(probs), len(root.Entries), len(plainProbs), len(plain.Entries))
	}
	for i := range probs {
		if probs[i] != plainProbs[i] {
			t.Errorf("problem %d: %+v, ParseJSON %+v", i, probs[i], plainProbs[i])
		}
	}
}

// TestParseJSONStringFaults: a string that does not decode stops the parse at its first fault, with
// its position and wording; one that does keeps its escapes' meaning (a lone surrogate is U+FFFD).
func TestParseJSONStringFaults(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`"a\qb"`, "1:4 syntax_error JSON: unexpected 'q' after '\\' in a string (not an escape)"},
		{`"a\u12G4"`, "1:7 syntax_error JSON: unexpected 'G' in a \\u escape, where a hex digit should be"},
		{"\"a\\n\x01\"", "1:5 syntax_error JSON: unexpected control character U+0001 in a string (write it as an escape)"},
		{"\"\\t\xff\"", "1:4 invalid_utf8 invalid UTF-8: byte 0xff is not part of a valid encoding"},
		{`"\u12`, "1:6 syntax_error JSON: unexpected end of the text in a \\u escape"},
		{`"abc\`, "1:6 syntax_error JSON: unexpected end of the text in an escape"},
		{`"a\nb`, "1:6 syntax_error JSON: unexpected end of the text in a string, where its closing '\"' should be"},
		{`"\ud800\u12x4"`, "1:12 syntax_error JSON: unexpected 'x' in a \\u escape, where a hex digit should be"},
	} {
		root, probs := ParseJSON([]byte(tt.in), 1)
		if len(probs) != 1 || root != nil {
			t.Errorf("%q: %v, %v", tt.in, root, probs)
			continue
		}
		if got := fmt.Sprintf("%v %s %s", probs[0].Pos, probs[0].Code, probs[0].Message); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
	root, probs := ParseJSON([]byte(`["x\"y", "\u00e9\ud83d\ude00\ud800\/"]`), 1)
	if len(probs) > 0 || len(root.Items) != 2 || root.Items[0].Text != `x"y` || root.Items[1].Text != "é😀\uFFFD/" {
		t.Errorf("escapes: %v, %v", root, probs)
	}
}
