package judge

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/evalgate/evalgate/internal/repofs"
)

// Cache keeps one file per judged run under Dir (README "The AI judge"): judge/ab/<sha256>.json,
// written atomically. It is content-addressed: the key covers everything that decides a reply, so a
// changed prompt, model or parameter asks again. Keys and headers never enter a key or an entry, and
// the cache is never an error: an entry it cannot read is one it does not have.
//
// The folders are committed with the pages, so a pull request may have made any of them a symlink
// (README "The AI judge"): entries are read, written and pruned only when judge/ is inside Root
// after following symlinks, and only in entry folders that are folders, not symlinks; anywhere else
// the cache has no entry. Root "" is Dir. Close a cache that has been read from.
type Cache struct {
	Root, Dir string

	judge  sync.Once
	base   string // judge/'s absolute path; "" when it leaves Root
	mu     sync.Mutex
	reader *repofs.EntryDir // judge/, open once it is there
}

// Request is what decides a run's reply: the cache key's content.
type Request struct {
	Kind, BaseURL, Model string
	Params               string // the parameters sent, as one canonical string (temperature, max tokens)
	Run                  int
	Prompt               Prompt
}

// Key is the request's SHA-256, each field with its length first so that no two requests hash alike.
// A run makes its keys with one [Keys], which is faster.
func (r Request) Key() string { return new(Keys).Key(r) }

// Keys makes requests' keys. Every eval asked of one provider, model and run sends the same fields
// before its user message, so Keys hashes them once and goes on from a copy of that state: a key then
// costs the hashing of the user message alone. Safe for concurrent use; the zero value is ready.
type Keys struct {
	mu    sync.Mutex
	heads map[keyHead]hash.Cloner
}

// keyHead is what a key hashes before the user message.
type keyHead struct {
	kind, baseURL, model, params, system string
	run                                  int
}

// keyBufs holds the buffers a user message is copied into to be hashed: a hash.Hash takes no string
// without copying it.
var keyBufs = sync.Pool{New: func() any { return new([]byte) }}

// Key returns r's key.
func (k *Keys) Key(r Request) string {
	h := k.head(keyHead{r.Kind, r.BaseURL, r.Model, r.Params, r.Prompt.System, r.Run})
	buf := keyBufs.Get().(*[]byte)
	*buf = appendField((*buf)[:0], r.Prompt.User)
	h.Write(*buf)
	keyBufs.Put(buf)
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

// head returns a hash that has taken every field of hd, to go on with.
func (k *Keys) head(hd keyHead) hash.Hash {
	k.mu.Lock()
	defer k.mu.Unlock()
	h, ok := k.heads[hd]
	if !ok {
		h = hd.hash()
		if k.heads == nil {
			k.heads = map[keyHead]hash.Cloner{}
		}
		k.heads[hd] = h
	}
	if c, err := h.Clone(); err == nil {
		return c
	}
	return hd.hash() // a SHA-256 state always copies; this is the way without a copy
}

// hash hashes hd's fields into a new SHA-256.
func (hd keyHead) hash() hash.Cloner {
	var b []byte
	for _, f := range [...]string{Template, hd.kind, hd.baseURL, hd.model, hd.params, strconv.Itoa(hd.run), hd.system} {
		b = appendField(b, f)
	}
	h := sha256.New().(hash.Cloner)
	h.Write(b)
	return h
}

// appendField appends f after its length as a uvarint.
func appendField(b []byte, f string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(f))), f...)
}

// Entry is a cached run: its valid verdict and what the server said of it.
type Entry struct {
	Template string  `json:"template"`
	Verdict  Verdict `json:"verdict"`
	Model    string  `json:"model"` // the model that answered
	Tokens   int     `json:"tokens"`
}

// path returns key's entry file, and whether its folder may hold entries.
func (c *Cache) path(key string) (string, bool) {
	base, ok := c.judgeDir()
	if !ok {
		return "", false
	}
	dir := filepath.Join(base, key[:2])
	fi, err := os.Lstat(dir)
	return filepath.Join(dir, key+".json"), err == nil && fi.IsDir() || errors.Is(err, fs.ErrNotExist)
}

// judgeDir returns judge/'s absolute path, and whether it stays inside Root after following
// symlinks; it is judged once.
func (c *Cache) judgeDir() (string, bool) {
	c.judge.Do(func() {
		root := c.Root
		if root == "" {
			root = c.Dir
		}
		if abs, err := repofs.Within(root, c.Dir, "judge"); err == nil {
			c.base = abs
		}
	})
	return c.base, c.base != ""
}

// entries returns judge/, opened on first use; nil while it is not there (a first run creates it).
func (c *Cache) entries() *repofs.EntryDir {
	base, ok := c.judgeDir()
	if !ok {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reader == nil {
		c.reader, _ = repofs.OpenEntryDir(base)
	}
	return c.reader
}

// Close releases judge/ if it was opened; call it when no Get is running. A later Get opens it again.
func (c *Cache) Close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reader == nil {
		return nil
	}
	err := c.reader.Close()
	c.reader = nil
	return err
}

// entryBufs holds Get's read buffers: a run reads its entries by the thousand, and Unmarshal keeps
// nothing of its input.
var entryBufs = sync.Pool{New: func() any { return new([]byte) }}

// Get returns the cached entry of key; false when there is none, or none readable.
func (c *Cache) Get(key string) (Entry, bool) {
	if c == nil || c.Dir == "" {
		return Entry{}, false
	}
	dir := c.entries()
	if dir == nil {
		return Entry{}, false
	}
	buf := entryBufs.Get().(*[]byte)
	defer entryBufs.Put(buf)
	b, err := dir.ReadEntry(key[:2]+"/"+key+".json", 1<<20, *buf)
	if err != nil {
		return Entry{}, false
	}
	*buf = b
	e, ok := decodeEntry(b)
	if !ok && json.Unmarshal(b, &e) != nil || e.Template != Template {
		return Entry{}, false
	}
	switch e.Verdict.Verdict {
	case Pass, Fail, Partial:
		return e, true
	}
	return Entry{}, false
}

// Put writes a valid run's entry. Invalid and failed runs are never written, so the next run asks only
// for what is missing; a write that fails is left unsaid (the cache is a speed-up).
func (c *Cache) Put(key string, e Entry) {
	if c == nil || c.Dir == "" {
		return
	}
	e.Template = Template
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return
	}
	p, ok := c.path(key)
	if !ok || os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	// Written as a path inside judge/, which stays inside Root: into a temporary file renamed over p, so
	// that a symlink or a FIFO a pull request put at p is replaced, never written through or waited on.
	base, _ := c.judgeDir()
	_ = repofs.WriteFile(base, p, func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err })
}

// Prune deletes every entry whose key keep does not hold, and the folders it empties; it returns how
// many entries it deleted and kept. Files that are not entries are left alone.
func (c *Cache) Prune(keep map[string]bool) (removed, kept int, err error) {
	root, ok := c.judgeDir()
	if !ok {
		return 0, 0, nil
	}
	dirs, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	for _, d := range dirs {
		if !d.IsDir() || len(d.Name()) != 2 {
			continue
		}
		dir := filepath.Join(root, d.Name()) // a symlinked folder is no directory entry here
		files, err := os.ReadDir(dir)
		if err != nil {
			return removed, kept, err
		}
		left := len(files)
		for _, f := range files {
			key, ok := strings.CutSuffix(f.Name(), ".json")
			if !ok || !f.Type().IsRegular() || !entryKey(key, d.Name()) {
				continue
			}
			if keep[key] {
				kept++
				continue
			}
			if err := os.Remove(filepath.Join(dir, f.Name())); err != nil {
				return removed, kept, err
			}
			removed++
			left--
		}
		if left == 0 {
			_ = os.Remove(dir)
		}
	}
	return removed, kept, nil
}

// entryKey says name is an entry's key: 64 lowercase hex digits starting with its folder's two.
func entryKey(name, folder string) bool {
	if len(name) != 64 || !strings.HasPrefix(name, folder) {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil && strings.ToLower(name) == name
}
