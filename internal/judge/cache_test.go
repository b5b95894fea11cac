package judge

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// TestCache: a valid entry round-trips in judge/ab/<key>.json, also through Close; a corrupt,
// foreign or verdict-less entry is no entry; no cache dir is no cache.
func TestCache(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	defer c.Close()
	key := Request{Model: "m", Run: 1}.Key()
	if _, ok := c.Get(key); ok {
		t.Fatal("an empty cache has the entry")
	}
	c.Put(key, Entry{Verdict: Verdict{Quotes: []string{"q"}, Reasoning: "r", Verdict: Pass}, Model: "m-1", Tokens: 9})
	e, ok := c.Get(key)
	if !ok || !e.Verdict.Passed() || e.Model != "m-1" || e.Tokens != 9 || e.Template != Template {
		t.Errorf("Get = %+v, %v", e, ok)
	}
	// judge/ appeared after the first Get (a first run writes it); once closed, it opens again.
	if c.Close() != nil {
		t.Error("Close failed")
	}
	if _, ok := c.Get(key); !ok {
		t.Error("a closed cache lost its entry")
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
	defer c.Close()
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

// TestCacheSymlinkedFolders: a folder of the cache that a symlink takes out of the repository holds no
// entry: nothing is read, written or pruned there; nor does a symlinked entry folder, wherever it points.
func TestCacheSymlinkedFolders(t *testing.T) {
	v := Entry{Verdict: Verdict{Quotes: []string{}, Verdict: Pass}}
	key, other := Request{Run: 1}.Key(), Request{Run: 7}.Key()
	for _, tc := range []struct {
		name string
		link func(repo, outside string) // makes the symlink, repo/.evalgate/cache being the cache
	}{
		{"entry folder", func(repo, outside string) {
			os.MkdirAll(filepath.Join(repo, ".evalgate", "cache", "judge"), 0o755)
			os.Symlink(filepath.Join(outside, "judge", key[:2]), filepath.Join(repo, ".evalgate", "cache", "judge", key[:2]))
		}},
		{"judge folder", func(repo, outside string) {
			os.MkdirAll(filepath.Join(repo, ".evalgate", "cache"), 0o755)
			os.Symlink(filepath.Join(outside, "judge"), filepath.Join(repo, ".evalgate", "cache", "judge"))
		}},
		{"cache folder", func(repo, outside string) {
			os.MkdirAll(filepath.Join(repo, ".evalgate"), 0o755)
			os.Symlink(outside, filepath.Join(repo, ".evalgate", "cache"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, outside := t.TempDir(), t.TempDir()
			(&Cache{Dir: outside}).Put(key, v)
			planted := filepath.Join(outside, "judge", key[:2], key+".json")
			before, err := os.ReadFile(planted)
			if err != nil {
				t.Fatal(err)
			}
			tc.link(repo, outside)
			c := &Cache{Root: repo, Dir: filepath.Join(repo, ".evalgate", "cache")}
			defer c.Close()
			if _, ok := c.Get(key); ok {
				t.Error("an entry outside the repository was read")
			}
			c.Put(other, v)
			c.Put(key, Entry{Verdict: Verdict{Quotes: []string{}, Verdict: Fail}})
			if _, err := os.Stat(filepath.Join(outside, "judge", other[:2], other+".json")); !os.IsNotExist(err) {
				t.Errorf("an entry was written outside the repository: %v", err)
			}
			c.Prune(nil)
			if after, err := os.ReadFile(planted); err != nil || string(after) != string(before) {
				t.Errorf("the entry outside the repository was changed: %v", err)
			}
		})
	}
	// A symlinked entry folder holds no entry even when it points inside the repository.
	repo := t.TempDir()
	c := &Cache{Root: repo, Dir: filepath.Join(repo, ".evalgate", "cache")}
	defer c.Close()
	c.Put(key, v)
	os.Rename(filepath.Join(c.Dir, "judge", key[:2]), filepath.Join(repo, "kept"))
	os.Symlink(filepath.Join(repo, "kept"), filepath.Join(c.Dir, "judge", key[:2]))
	c2 := &Cache{Root: repo, Dir: c.Dir}
	defer c2.Close()
	if _, ok := c2.Get(key); ok {
		t.Error("an entry was read through a symlinked entry folder")
	}
	// The cache folder itself may be reached through a symlink that stays inside.
	os.Symlink(filepath.Join(repo, ".evalgate"), filepath.Join(repo, "linked"))
	c = &Cache{Root: repo, Dir: filepath.Join(repo, "linked", "cache")}
	defer c.Close()
	c.Put(other, v)
	if _, ok := c.Get(other); !ok {
		t.Error("an entry under a cache folder linked inside the repository was not read")
	}
}

// TestKeyDerivation: a key is the SHA-256 of the template, kind, base URL, model, params, run, system and
// user prompt, each after its length as a uvarint, so that caches written by earlier versions stay found.
func TestKeyDerivation(t *testing.T) {
	r := Request{Kind: "openai", BaseURL: "https://api", Model: "m", Params: "max-output-tokens=1024", Run: 3,
		Prompt: Prompt{System: "sys\u00e9", User: strings.Repeat("user ", 300)}}
	if got, want := r.Key(), derivedKey(r); got != want {
		t.Errorf("Key() = %s, want %s", got, want)
	}
}

// TestKeysShared: one Keys, used at once by several goroutines for requests that share all but their
// user message, or differ before it, makes each request's derived key.
func TestKeysShared(t *testing.T) {
	var keys Keys
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				r := Request{Kind: "openai", BaseURL: "https://api", Model: "m" + strconv.Itoa(i%3), Params: "p", Run: 1 + i%2,
					Prompt: Prompt{System: "sys", User: strings.Repeat("u", g*50+i)}}
				if got, want := keys.Key(r), derivedKey(r); got != want {
					t.Errorf("goroutine %d, request %d: key %s, want %s", g, i, got, want)
				}
			}
		})
	}
	wg.Wait()
}

// derivedKey is a request's key as TestKeyDerivation defines it.
func derivedKey(r Request) string {
	h := sha256.New()
	for _, f := range []string{Template, r.Kind, r.BaseURL, r.Model, r.Params, strconv.Itoa(r.Run), r.Prompt.System, r.Prompt.User} {
		h.Write(binary.AppendUvarint(nil, uint64(len(f))))
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}
