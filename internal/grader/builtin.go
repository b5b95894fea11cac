package grader

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// Tool is a built-in deterministic grader: its definition (package tooldef) and how it runs. Tools are
// values of the one registry [Builtins], which `go generate` writes from the builtin_*.go files in
// tooldef.Builtins' order (builtins_gen.go); nothing registers itself at run time.
type Tool struct {
	*tooldef.Tool
	// Run grades one target. It returns findings (each one a fail result) and an error only when the tool
	// reached no verdict; see [ErrOutsideRepo] and [ErrUnreadable]. Options must have passed CheckOptions.
	Run func(ctx context.Context, in *ToolInput) ([]Finding, error)
}

// ToolInput is what a tool grades.
type ToolInput struct {
	// Target holds the target's bytes: the page body, the raw page, the frontmatter re-serialised, or the
	// companion file.
	Target []byte
	// TargetKind is "body", "raw", "frontmatter" or "file" (docmeta.TargetBody, ...).
	TargetKind string
	// File is the repository-relative path ('/') the findings are in: the page, or the companion for "file".
	File string
	// FirstLine is the 1-based line of File where Target starts: the body's first line for "body", 1 for
	// "raw" and "file". For "frontmatter" it is 0: findings in re-serialised text have no line of the file,
	// so tools leave their Pos zero and the caller points them at the eval entry.
	FirstLine int
	// Dir is the absolute directory relative links resolve from (File's directory).
	Dir string
	// OptionsDir is the absolute directory relative paths inside options resolve from: the page's directory
	// for page evals, the config file's directory for evals defined in the config (README "Graders").
	OptionsDir string
	// RepoRoot is the absolute repository root; no path read because of page or option text may leave it.
	RepoRoot string
	// Frontmatter is the page's parsed frontmatter, nil when the page has none. tool:frontmatter-schema
	// validates it unless TargetKind is "file".
	Frontmatter *frontmatter.Node
	// Options is the eval's options: a Map node (maybe empty, maybe nil), already valid for CheckOptions.
	Options *frontmatter.Node
	// Pages is shared across evals and goroutines; nil gives the call a cache of its own.
	Pages *PageCache
}

// Finding is one failure found by a tool: one fail result.
type Finding struct {
	// Pos is the position in File (FirstLine applied; columns count code points), zero when the finding is
	// about the whole target or its target has no file lines: the caller then uses the eval entry.
	Pos     diag.Pos
	Code    string
	Message string // one line
	// Key is the finding's own identity (the link as written, the heading text, the text or pattern, the
	// schema keyword and instance location): it feeds stable fingerprints and never holds a line number.
	Key      string
	Evidence map[string]any
}

// Errors a tool's Run wraps when it reaches no verdict; test them with errors.Is.
var (
	// ErrOutsideRepo: a path named by option text (a schema, a $ref) leaves the repository after cleaning
	// and following symlinks, is absolute, or is a URL evalgate does not fetch (target_outside_repo).
	ErrOutsideRepo = errors.New("path leaves the repository")
	// ErrUnreadable: a file the tool needs is missing, unreadable or unparseable (target_unreadable).
	ErrUnreadable = errors.New("cannot read")
)

//go:generate go run gen_builtins.go

// LookupBuiltin returns the built-in grader named name ("tool:links"), or nil.
func LookupBuiltin(name string) *Tool {
	for _, t := range Builtins {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// PageCache holds what tools learn about files once per run: directory listings, the anchors of linked
// Markdown pages and compiled JSON Schemas. It is safe for concurrent use. Files are assumed not to change
// during a run.
type PageCache struct {
	entries sync.Map // string key -> *builtinCacheEntry
	// anchorBytes estimates the memory of the linked pages' anchors cached (builtinAnchorBudget).
	anchorBytes atomic.Int64

	closeMu sync.Mutex
	closers []func() // what Close ends: the git processes kept for the run
}

// Close ends what the cache keeps running for its run (a site's `git check-ignore`), once the run is
// over.
func (c *PageCache) Close() {
	c.closeMu.Lock()
	closers := c.closers
	c.closers = nil
	c.closeMu.Unlock()
	for _, f := range closers {
		f()
	}
}

// onClose registers f for Close.
func (c *PageCache) onClose(f func()) {
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	c.closers = append(c.closers, f)
}

// NewPageCache returns an empty cache.
func NewPageCache() *PageCache { return &PageCache{} }

type builtinCacheEntry struct {
	once sync.Once
	val  any
	err  error
}

// builtinGet returns the value cached under key, computing it with load once; concurrent callers for one
// key wait for the first. Errors are cached too.
func (c *PageCache) builtinGet(key string, load func() (any, error)) (any, error) {
	v, _ := c.entries.LoadOrStore(key, &builtinCacheEntry{})
	e := v.(*builtinCacheEntry)
	e.once.Do(func() { e.val, e.err = load() })
	return e.val, e.err
}

// builtinPages returns the input's cache, or a new one for this call alone (in is never written: callers
// may share one ToolInput between goroutines).
func builtinPages(in *ToolInput) *PageCache {
	if in.Pages == nil {
		return NewPageCache()
	}
	return in.Pages
}

// builtinPosMap maps byte offsets of a target to positions in its file.
type builtinPosMap struct {
	text  []byte
	first int // FirstLine; < 1 means the target has no file lines
	idx   *diag.LineIndex
}

func builtinNewPosMap(in *ToolInput) *builtinPosMap {
	return &builtinPosMap{text: in.Target, first: in.FirstLine}
}

// at returns the file position of byte offset off of the target, zero when the target has no file lines
// or off is negative (unknown).
func (m *builtinPosMap) at(off int) diag.Pos {
	if m.first < 1 || off < 0 {
		return diag.Pos{}
	}
	if m.idx == nil {
		m.idx = diag.NewLineIndex(m.text)
	}
	p := m.idx.Pos(off)
	p.Line += m.first - 1
	return p
}

// MaxFindings is the most findings one built-in eval reports on one target (README "Limits"): a page of a
// million broken links yields a thousand results and a count, never a report larger than the page.
const MaxFindings = 1000

// builtinFindings collects a tool's findings, keeping the first MaxFindings (in the order added) and counting
// the rest without keeping them.
type builtinFindings struct {
	list []Finding
	more int
	// atLeast: more is a lower bound (the tool stopped counting).
	atLeast bool
}

func (b *builtinFindings) add(f Finding) {
	if b.room() {
		b.list = append(b.list, f)
	}
}

// room reports whether one more finding is kept; when not, it counts it. A tool whose findings are costly
// to build (a column on a long line) asks first.
func (b *builtinFindings) room() bool {
	if len(b.list) < MaxFindings {
		return true
	}
	b.more++
	return false
}

// done returns the kept findings; when some were dropped, the last one says how many, in its message and as
// evidence "more_findings".
func (b *builtinFindings) done() []Finding {
	if b.more == 0 || len(b.list) == 0 {
		return b.list
	}
	last := &b.list[len(b.list)-1]
	n := fmt.Sprint(b.more)
	if b.atLeast {
		n = "at least " + n
	}
	last.Message += fmt.Sprintf(" (and %s more findings of this eval, not listed)", n)
	ev := make(map[string]any, len(last.Evidence)+1)
	for k, v := range last.Evidence {
		ev[k] = v
	}
	ev["more_findings"] = b.more
	last.Evidence = ev
	return b.list
}

// builtinSortFindings orders findings by position, code and key, so output never depends on map order.
func builtinSortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Pos != b.Pos {
			return a.Pos.Before(b.Pos)
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Key < b.Key
	})
}

// builtinTruncate shortens s to at most n code points, marking the cut with "…".
func builtinTruncate(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}
