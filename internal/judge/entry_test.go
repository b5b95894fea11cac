package judge

import (
	"encoding/json"
	"reflect"
	"testing"
)

// checkEntry asserts that where decodeEntry reads b, encoding/json reads the same entry from it.
func checkEntry(t *testing.T, b []byte) bool {
	t.Helper()
	e, ok := decodeEntry(b)
	if !ok {
		return false
	}
	var want Entry
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("decodeEntry read %q, which encoding/json rejects: %v", b, err)
	}
	if !reflect.DeepEqual(e, want) {
		t.Fatalf("decodeEntry read %q as %#v, encoding/json as %#v", b, e, want)
	}
	return true
}

// entrySeeds are entries decodeEntry reads (the first seven), and texts it leaves to encoding/json.
var entrySeeds = []string{
	`{"template": "t", "verdict": {"quotes": [], "reasoning": "", "verdict": "pass"}, "model": "m", "tokens": 0}`,
	`{"template":"t","verdict":{"quotes":["a \"b\"","\u00e9\ud83c\udf89\n\t\/\\"],"reasoning":"r<>&","verdict":"fail"},"model":"m","tokens":12}`,
	`{}`,
	`{"t\u0065mplate": "x", "tokens": 7, "tokens": 8}`,
	`{"verdict":{"reasoning":"a"},"verdict":{"verdict":"pass"}}`,
	`{"model": "\ud800"}`,
	"{\"model\": \"\xff\"}",
	`{"Template": "x"}`,
	`{"tokens": -1}`,
	`{"tokens": 01}`,
	`{"tokens": 1.5}`,
	`{"tokens": 1e2}`,
	`{"model": null}`,
	`{"model": "\xff"}`,
	"{\"model\": \"a\x01\"}",
	`{"model": "a"} x`,
	`{"verdict": {"quotes": ["a",]}}`,
	`{"verdict": {"quotes": [1]}}`,
	`{"model": "a",}`,
	`[]`,
}

func TestDecodeEntry(t *testing.T) {
	// What Put writes is read without encoding/json.
	e := Entry{Template: Template, Model: "gpt-x", Tokens: 321, Verdict: Verdict{
		Quotes: []string{`Run "make"`, "日本語 <b>", "tab\tnew\nline"}, Reasoning: "It says & shows \u2028 how.", Verdict: Pass}}
	b, _ := json.MarshalIndent(e, "", "  ")
	if !checkEntry(t, b) {
		t.Fatalf("decodeEntry does not read what Put writes:\n%s", b)
	}
	for i, s := range entrySeeds {
		if got := checkEntry(t, []byte(s)); got != (i < 7) {
			t.Errorf("decodeEntry(%s): read %v, want %v", s, got, i < 7)
		}
	}
}

// FuzzDecodeEntry: wherever decodeEntry reads a text, encoding/json reads the same entry.
func FuzzDecodeEntry(f *testing.F) {
	for _, s := range entrySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkEntry(t, b) })
}

// BenchmarkDecodeEntry reads a typical entry; kind=json is encoding/json on the same bytes.
func BenchmarkDecodeEntry(b *testing.B) {
	e := Entry{Template: Template, Model: "gpt-4.1-mini-2025-04-14", Tokens: 1234, Verdict: Verdict{
		Quotes:    []string{"Run the installer, then restart the shell.", "Supported versions are 1.24 and later."},
		Reasoning: "The page says how to install (\"Run the installer\") and names the versions it supports; both quotes are in the page.",
		Verdict:   Pass}}
	data, _ := json.MarshalIndent(e, "", "  ")
	b.Run("kind=evalgate", func(b *testing.B) {
		for b.Loop() {
			if _, ok := decodeEntry(data); !ok {
				b.Fatal("not read")
			}
		}
	})
	b.Run("kind=json", func(b *testing.B) {
		for b.Loop() {
			var e Entry
			if err := json.Unmarshal(data, &e); err != nil {
				b.Fatal(err)
			}
		}
	})
}
