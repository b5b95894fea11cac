package jsonpos

import (
	"encoding/json"
	"testing"
)

const doc = `{"id": "a.b.001", "assertions": [{"name": "x", "params": {"max": 3}}, {"name": "y"}],
 "k\u00e9y": true, "nested": {"deep": [1, [2, {"z": null}]]}}`

func TestLocate(t *testing.T) {
	tests := []struct {
		path         []string
		wantKey, val string // the text at the key's and the value's offset
	}{
		{[]string{"id"}, `"id"`, `"a.b.001"`},
		{[]string{"assertions", "0", "params", "max"}, `"max"`, `3}`},
		{[]string{"assertions", "1"}, "", `{"name": "y"}`},
		{[]string{"kéy"}, `"k\u00e9y"`, `true`},
		{[]string{"nested", "deep", "1", "1", "z"}, `"z"`, `null`},
	}
	for _, tt := range tests {
		k, v, ok := Locate([]byte(doc), tt.path...)
		if !ok {
			t.Errorf("Locate(%q): not found", tt.path)
			continue
		}
		if tt.wantKey == "" {
			if k != -1 {
				t.Errorf("Locate(%q): key offset %d for an array item", tt.path, k)
			}
		} else if got := doc[k : k+len(tt.wantKey)]; got != tt.wantKey {
			t.Errorf("Locate(%q): key at %d is %q, want %q", tt.path, k, got, tt.wantKey)
		}
		if got := doc[v : v+len(tt.val)]; got != tt.val {
			t.Errorf("Locate(%q): value at %d is %q, want %q", tt.path, v, got, tt.val)
		}
	}
	if _, _, ok := Locate([]byte(doc), "nope"); ok {
		t.Error(`Locate("nope") found something`)
	}
	if _, v, ok := Locate([]byte(doc)); !ok || v != 0 {
		t.Errorf("Locate() of the root = %d, %v", v, ok)
	}
}

func TestDuplicate(t *testing.T) {
	tests := []struct {
		text string
		key  string
		off  int
	}{
		{`{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 2}]}`, "", -1},
		{`{"a": 1, "a": 2}`, "a", 9},
		{`{"x": {"k": 1, "y": [1], "k": 2}}`, "k", 25},
		{`{"x": {"k": 1}, "k": 2, "x": 3}`, "x", 24},
	}
	for _, tt := range tests {
		key, off, found := Duplicate([]byte(tt.text))
		if found != (tt.off >= 0) || key != tt.key || (found && off != tt.off) {
			t.Errorf("Duplicate(%s) = %q, %d, %v; want %q at %d", tt.text, key, off, found, tt.key, tt.off)
		}
	}
}

func TestScanRejectsDeepNesting(t *testing.T) {
	deep := make([]byte, 0, 2*(MaxDepth+10))
	for range MaxDepth + 5 {
		deep = append(deep, '[')
	}
	for range MaxDepth + 5 {
		deep = append(deep, ']')
	}
	if err := Scan(deep, func(*Member) bool { return true }); err == nil {
		t.Error("Scan accepted nesting deeper than MaxDepth")
	}
}

// FuzzScan: on any text Scan neither panics nor hangs, and on valid JSON
// every offset it reports points at the start of a value or a key inside
// the text.
func FuzzScan(f *testing.F) {
	f.Add([]byte(doc))
	f.Add([]byte(`[1, "two", {"3": [true, false, null]}]`))
	f.Add([]byte(`{"a\"b": "c\\"}`))
	f.Fuzz(func(t *testing.T, text []byte) {
		valid := json.Valid(text)
		err := Scan(text, func(m *Member) bool {
			if m.ValOff < 0 || m.ValOff >= len(text) || m.KeyOff >= len(text) {
				t.Fatalf("offsets %d, %d outside %d bytes", m.KeyOff, m.ValOff, len(text))
			}
			if valid && m.KeyOff >= 0 && text[m.KeyOff] != '"' {
				t.Fatalf("key offset %d is %q", m.KeyOff, text[m.KeyOff])
			}
			return true
		})
		if valid && err != nil && len(text) < 1<<16 {
			// Only nesting beyond MaxDepth may fail on valid JSON.
			depth, max := 0, 0
			for _, c := range text {
				switch c {
				case '[', '{':
					depth++
					max = maxDepth(max, depth)
				case ']', '}':
					depth--
				}
			}
			if max <= MaxDepth {
				t.Fatalf("Scan rejected valid JSON: %v", err)
			}
		}
	})
}

func maxDepth(a, b int) int {
	if a > b {
		return a
	}
	return b
}
