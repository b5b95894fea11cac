// Package baseline is the baseline of known failures (README "Baseline"): a
// JSON file listing, as a multiset of fingerprints, the fail results a team
// accepts for now, so that only new ones block. It reads and writes the file
// and matches a run's results against it; the fingerprint itself is the
// caller's (the SARIF evalgate/v1 fingerprint), so this package knows only
// results.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
)

// Name is the baseline's file at the repository root, read when it exists.
const Name = ".evalgate-baseline.json"

// Version is the file's version.
const Version = 1

// MaxSize bounds the file evalgate reads: 64 MiB.
const MaxSize = 64 << 20

// Entry is one fingerprint of the baseline and how many fail results have
// it; rule, file and message are what a reader of the file (or its diff)
// needs to know what was accepted.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Count       int    `json:"count"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Message     string `json:"message"`
}

// File is the baseline file.
type File struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`

	told verdicts // of a built file: what its run could tell (Keep)
}

// evalOf names what one eval's results share in a baseline: their file and their rule's group (rule
// names the results of one grader or eval: tool:links for tool:links/broken_link, eval/ID for an eval
// judged or run). An entry's eval that reached no verdict in a run cannot tell whether the entry's fails
// are gone; the other evals of the file can.
type evalOf struct{ file, group string }

// verdicts is what a run's results tell of the evals a baseline's entries are of: the evals of which
// there was a result, and those of which some result reached no verdict (an error, a skip, a pending
// judge, an entry too faulty to run). The zero value is ready to use.
type verdicts struct {
	seen, undecided map[evalOf]bool
}

// note takes in one result, rule being its rule. A definition fault (an entry too faulty to run names no
// eval the baseline knows) and a page's eval-skip speak for their whole file (group ""): then an eval of
// the file that left no result at all cannot tell, one that did still can. A result that reached no
// verdict speaks as well for the companions its evidence names, where its eval's fails stand.
func (v *verdicts) note(res *diag.Result, rule string) {
	if v.seen == nil {
		v.seen, v.undecided = map[evalOf]bool{}, map[evalOf]bool{}
	}
	ev := evalOf{res.File, group(rule)}
	v.seen[ev] = true
	if res.Outcome == diag.Pass || res.Outcome == diag.Fail && res.Check != diag.CheckDefinition {
		return
	}
	if res.Check == diag.CheckDefinition || res.Code == "page_skipped" {
		ev.group = ""
	}
	v.undecided[ev] = true
	if cs, ok := res.Evidence[diag.EvidenceCompanions].([]any); ok {
		for _, c := range cs {
			if file, ok := c.(string); ok {
				v.undecided[evalOf{file, ev.group}] = true
			}
		}
	}
}

// cannotTell reports whether the run cannot tell whether e's fails are gone: its eval reached no verdict,
// or its file's evals were not all run and its eval left no result.
func (v *verdicts) cannotTell(e Entry) bool {
	ev := evalOf{e.File, group(e.Rule)}
	return v.undecided[ev] || v.undecided[evalOf{e.File, ""}] && !v.seen[ev]
}

// group is a rule's group: a tool's name (tool:links of tool:links/broken_link), else the rule.
func group(rule string) string {
	if name, _, ok := strings.Cut(rule, "/"); ok && strings.HasPrefix(rule, "tool:") {
		return name
	}
	return rule
}

// Fingerprint names a result for the baseline: the same for the same
// finding wherever its line moves.
type Fingerprint func(*diag.Result) string

// fileShape is the file's table for the checking kit.
var fileShape = &shape.Object{Name: "the baseline", Fields: []shape.Field{
	{Name: "version", Required: true, Missing: "needs version: 1",
		Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(Version), Max: shape.Ptr(Version)}},
	{Name: "entries", Required: true, Type: &shape.Type{Kind: shape.List, Items: &shape.Type{Kind: shape.Map, Object: entryShape}}},
}}

var entryShape = &shape.Object{Name: "an entry", Fields: []shape.Field{
	{Name: "fingerprint", Type: shape.NonEmptyString, Required: true},
	{Name: "count", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(1)}, Required: true},
	{Name: "rule", Type: &shape.Type{Kind: shape.String}},
	{Name: "file", Type: &shape.Type{Kind: shape.String}},
	{Name: "message", Type: &shape.Type{Kind: shape.String}},
}}

// Parse reads a baseline file's text. Its faults are positioned problems
// (syntax, duplicate keys, invalid UTF-8, the table's), at most diag.MaxFileFaults
// and one that counts the rest; with any fault, the file is nil. Each entry
// is checked and kept as soon as it is parsed, its nodes then reused for the
// next (frontmatter.JSONOptions.Each): a file of millions of entries is read
// without a tree of them all.
func Parse(text []byte) (*File, []diag.Problem) {
	f := &File{Version: Version, Entries: []Entry{}}
	var k shape.Checker
	entryType := &shape.Type{Kind: shape.Map, Object: entryShape}
	each := frontmatter.JSONOptions{EachDepth: 2, Each: func(path []frontmatter.JSONStep, it *frontmatter.Node) bool {
		if path[0].Index >= 0 || path[0].Key != "entries" || path[1].Index < 0 {
			return false
		}
		if k.Value(it, entryType, shape.Item("entries", path[1].Index)) && k.Faults() == 0 {
			text := func(key string) string {
				if e := it.Get(key); e != nil {
					return e.Value.Text // a string of its own: only the nodes are reused
				}
				return ""
			}
			f.Entries = append(f.Entries, Entry{
				Fingerprint: text("fingerprint"), Count: int(it.Get("count").Value.Num),
				Rule: text("rule"), File: text("file"), Message: text("message"),
			})
		}
		return true
	}}
	root, problems := frontmatter.ParseJSONWith(text, 1, each)
	if len(problems) > 0 {
		return nil, problems
	}
	if root == nil {
		return nil, []diag.Problem{{Pos: diag.Pos{Line: 1, Col: 1}, Code: "missing_field", Message: "the baseline is empty: it needs version and entries"}}
	}
	if !k.Value(root, &shape.Type{Kind: shape.Map, Object: fileShape}, "") || k.Faults() > 0 {
		return nil, sortedProblems(k.Problems())
	}
	return f, nil
}

// sortedProblems puts ps in file order: the entries are checked before the file's own keys.
func sortedProblems(ps []diag.Problem) []diag.Problem {
	slices.SortStableFunc(ps, func(a, b diag.Problem) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return ps
}

// Build makes the baseline of a run's results: every fail, counted by
// fingerprint, sorted by file, rule and fingerprint so that the diff of a
// re-baseline reads like a changelog. Errors are never baselined: they are
// no finding, only a check that did not run.
func Build(results iter.Seq[*diag.Result], fp Fingerprint, rule func(*diag.Result) string) *File {
	index := map[string]int{}
	f := &File{Version: Version, Entries: []Entry{}}
	for res := range results {
		r := rule(res)
		f.told.note(res, r)
		if res.Outcome != diag.Fail {
			continue
		}
		key := fp(res)
		if j, ok := index[key]; ok {
			f.Entries[j].Count++
			continue
		}
		index[key] = len(f.Entries)
		f.Entries = append(f.Entries, Entry{Fingerprint: key, Count: 1, Rule: r, File: res.File, Message: res.Message})
	}
	f.sort()
	return f
}

// Marshal is the file's text: indented JSON with a final newline, keys in
// the order of the format, no HTML escaping.
func (f *File) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Marker marks the fail results a baseline accepts, given one at a time in report order: each fail
// whose fingerprint still has count left is Baselined, and the count goes down.
type Marker struct {
	entries []Entry
	left    map[string]int
	fp      Fingerprint
	rule    func(*diag.Result) string
	told    verdicts
}

// Marker starts marking results against f; fp and rule are what Build was given.
func (f *File) Marker(fp Fingerprint, rule func(*diag.Result) string) *Marker {
	left := make(map[string]int, len(f.Entries))
	for _, e := range f.Entries {
		left[e.Fingerprint] += e.Count
	}
	return &Marker{entries: f.Entries, left: left, fp: fp, rule: rule}
}

// Mark marks res when the baseline accepts it.
func (m *Marker) Mark(res *diag.Result) {
	m.told.note(res, m.rule(res))
	if res.Outcome != diag.Fail {
		return
	}
	if key := m.fp(res); m.left[key] > 0 {
		m.left[key]--
		res.Baselined = true
	}
}

// Fixed is how many of the baseline's entries no longer occur: no fail marked so far had its
// fingerprint, and every result of its eval (its file and rule's group) reached a verdict. Where one did
// not (a judge not asked, an error, a skip), the run cannot tell whether the eval's known fails are gone.
func (m *Marker) Fixed() int {
	fixed := 0
	for _, e := range m.entries {
		if !m.told.cannotTell(e) && m.left[e.Fingerprint] >= e.Count {
			m.left[e.Fingerprint] -= e.Count // an entry written twice is counted once for each
			fixed++
		}
	}
	return fixed
}

// Fixed words the notice of a scope-all run whose baseline has n entries that no longer occur.
func Fixed(n int) string {
	if n == 1 {
		return "evalgate: 1 baseline entry no longer occurs (fixed)"
	}
	return fmt.Sprintf("evalgate: %d baseline entries no longer occur (fixed)", n)
}

// Keep adds to a built f the entries of old for the evals (file and rule's group) of which some result
// reached no verdict in the run f was built from (a judge not asked, an error, a skip): the run cannot
// tell whether their known fails are gone, so re-baselining without a judge's key does not drop its
// fails. Of a fingerprint in both, the larger count is kept.
func (f *File) Keep(old *File) {
	index := make(map[string]int, len(f.Entries))
	for i, e := range f.Entries {
		index[e.Fingerprint] = i
	}
	for _, e := range old.Entries {
		if !f.told.cannotTell(e) {
			continue
		}
		if i, ok := index[e.Fingerprint]; ok {
			f.Entries[i].Count = max(f.Entries[i].Count, e.Count)
			continue
		}
		index[e.Fingerprint] = len(f.Entries)
		f.Entries = append(f.Entries, e)
	}
	f.sort()
}

// sort puts the entries in the file's order: by file, rule and fingerprint.
func (f *File) sort() {
	slices.SortFunc(f.Entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Fingerprint, b.Fingerprint))
	})
}
