package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheKey: every field of a request changes the key; the same request
// has the same key.
func TestCacheKey(t *testing.T) {
	base := Request{Kind: "openai", BaseURL: "https://api", Model: "m", Params: "t=0", Run: 1, Prompt: Prompt{System: "s", User: "u"}}
	seen := map[string]string{base.Key(): "base"}
	for name, r := range map[string]Request{
		"kind": {Kind: "anthropic", BaseURL: "https://api", Model: "m", Params: "t=0", Run: 1, Prompt: Prompt{System: "s", User: "u"}},
		"url":  {Kind: "openai", BaseURL: "https://api2", Model: "m", Params: "t=0", Run: 1, Prompt: Prompt{System: "s", User: "u"}},
		"mod":  {Kind: "openai", BaseURL: "https://api", Model: "m2", Params: "t=0", Run: 1, Prompt: Prompt{System: "s", User: "u"}},
		"par":  {Kind: "openai", BaseURL: "https://api", Model: "m", Params: "t=1", Run: 1, Prompt: Prompt{System: "s", User: "u"}},
		"run":  {Kind: "openai", BaseURL: "https://api", Model: "m", Params: "t=0", Run: 2, Prompt: Prompt{System: "s", User: "u"}},
		"usr":  {Kind: "openai", BaseURL: "https://api", Model: "m", Params: "t=0", Run: 1, Prompt: Prompt{System: "s", User: "u2"}},
		"cat":  {Kind: "openai", BaseURL: "https://api", Model: "m", Params: "t=0", Run: 1, Prompt: Prompt{System: "su", User: ""}},
	} {
		k := r.Key()
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s share a key", name, other)
		}
		seen[k] = name
	}
	if base.Key() != (Request{Kind: "openai", BaseURL: "https://api", Model: "m", Params: "t=0", Run: 1, Prompt: Prompt{System: "s", User: "u"}}).Key() {
		t.Error("the same request has two keys")
	}
}

// TestCache: a valid entry round-trips in judge/ab/<key>.json; a corrupt,
// foreign or verdict-less entry is no entry; no cache dir is no cache.
func TestCache(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	key := Request{Model: "m", Run: 1}.Key()
	if _, ok := c.Get(key); ok {
		t.Fatal("an empty cache has the entry")
	}
	c.Put(key, Entry{Verdict: Verdict{Quotes: []string{"q"}, Reasoning: "r", Verdict: Pass}, Model: "m-1", Tokens: 9})
	e, ok := c.Get(key)
	if !ok || !e.Verdict.Passed() || e.Model != "m-1" || e.Tokens != 9 || e.Template != Template {
		t.Errorf("Get = %+v, %v", e, ok)
	}
	p := filepath.Join(c.Dir, "judge", key[:2], key+".json")
	for _, bad := range []string{"{", `{"template": "other/9", "verdict": {"verdict": "pass"}}`, `{"template": "` + Template + `", "verdict": {"verdict": "maybe"}}`} {
		os.WriteFile(p, []byte(bad), 0o644)
		if _, ok := c.Get(key); ok {
			t.Errorf("entry %q was read", bad)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
	var none *Cache
	none.Put(key, Entry{})
	if _, ok := (&Cache{}).Get(key); ok {
		t.Error("no cache dir has an entry")
	}
}

// TestCachePrune: entries nothing keeps are deleted with the folders they empty; kept entries and
// files that are not entries stay.
func TestCachePrune(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	v := Entry{Verdict: Verdict{Quotes: []string{}, Verdict: Fail}}
	keep, drop := Request{Run: 1}.Key(), Request{Run: 2}.Key()
	c.Put(keep, v)
	c.Put(drop, v)
	stray := filepath.Join(c.Dir, "judge", keep[:2], "notes.txt")
	os.WriteFile(stray, []byte("mine"), 0o644)
	removed, kept, err := c.Prune(map[string]bool{keep: true})
	if err != nil || removed != 1 || kept != 1 {
		t.Fatalf("Prune = %d removed, %d kept, %v; want 1, 1, nil", removed, kept, err)
	}
	if _, ok := c.Get(keep); !ok {
		t.Error("the kept entry is gone")
	}
	if _, ok := c.Get(drop); ok {
		t.Error("the dropped entry is still there")
	}
	if _, err := os.Stat(stray); err != nil {
		t.Errorf("a file that is no entry was touched: %v", err)
	}
	if keep[:2] != drop[:2] {
		if _, err := os.Stat(filepath.Join(c.Dir, "judge", drop[:2])); !os.IsNotExist(err) {
			t.Errorf("the emptied folder stays: %v", err)
		}
	}
	if r, k, err := (&Cache{Dir: filepath.Join(c.Dir, "none")}).Prune(nil); r != 0 || k != 0 || err != nil {
		t.Errorf("Prune of no cache = %d, %d, %v", r, k, err)
	}
}
