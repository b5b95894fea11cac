package docmeta

import (
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// resolver turns an `evals` value into an eval plan (README "Decisions where the specs are silent"; where
// README is silent, as the vocabulary's reference tool resolves). It serves a
// page (its entries after its suite's evals) and a config suite (its entries
// alone).
type resolver struct {
	c      *checker
	origin Origin // of inline and shorthand entries
	// named are the config's named evals (use: targets, shorthand_names_eval).
	// A nil value is a name that is defined but invalid: a use: of it is left
	// out without a fault of its own, since the definition already has one.
	named map[string]*Eval
	// suite are the evals of the page's suite, already resolved; a use: of
	// an id the suite holds starts from the suite's copy.
	suite []*Eval
}

// resolve validates the `evals` value n (path names it in messages) and
// returns the plan: base first (the suites' evals, copies placed where their
// results point), then
// the entries in document order. An entry whose id is already in the plan
// replaces that eval in place: silently for a suite eval, with duplicate_id
// at the later entry for another entry, and the later entry wins, even when
// it has faults of its own (then neither is in the plan).
func (r *resolver) resolve(n *frontmatter.Node, path string, base []*Eval) []*Eval {
	var entries []*entry
	switch {
	case n == nil:
	case n.Kind == frontmatter.String:
		entries = append(entries, r.c.checkEntry(n, path, r.origin))
	case n.Kind == frontmatter.List:
		if len(n.Items) == 0 {
			r.c.fault(n.Pos, "invalid_value", "%s must not be an empty list", path)
		}
		for i, it := range n.Items {
			entries = append(entries, r.c.checkEntry(it, item(path, i), r.origin))
		}
	default:
		r.c.fault(n.Pos, "wrong_type", "%s must be an assertion string or a list of entries, got %s", path, describe(n))
	}

	plan := make([]*Eval, 0, len(base)+len(entries))
	index := map[string]int{} // id -> index in plan
	// taken holds every id on the page, collected before shorthands are
	// numbered, so that a shorthand never takes an explicit id.
	taken := map[string]bool{}
	for _, ev := range base {
		index[ev.ID] = len(plan)
		plan = append(plan, ev)
		taken[ev.ID] = true
	}
	for _, e := range entries {
		if e.id != "" {
			taken[e.id] = true
		}
	}

	next := map[string]int{}    // shorthand id -> its last clash suffix
	seen := map[string]*entry{} // id -> the earlier entry with that id
	for _, e := range entries {
		var ev *Eval
		switch e.kind {
		case kindShorthand:
			if e.eval == nil {
				continue
			}
			ev = e.eval
			auto := ShorthandID(ev.Assertion)
			ev.ID = auto
			for taken[ev.ID] {
				// next remembers the last suffix tried, so that many equal
				// shorthands cost linear time.
				next[auto] = max(next[auto], 1) + 1
				ev.ID = fmt.Sprintf("%s-%d", auto, next[auto])
			}
			taken[ev.ID] = true
			if _, ok := r.named[ev.Assertion]; ok {
				r.c.note(e.node.Pos, ev.ID, diag.SeverityWarning, "shorthand_names_eval",
					fmt.Sprintf("%s is a string, so it is an assertion for a judge, yet %s is the id of a named eval: write \"use: %s\" to refer to the eval",
						e.path, quote(ev.Assertion), ev.Assertion))
			}
		case kindReference:
			ev = r.reference(e)
		case kindInline:
			ev = e.eval
			if ev != nil && !r.c.checkOptions(ev, ev.Options, e.path, optionsPos(e.node)) {
				ev = nil
			}
		}
		if ev != nil && ev.Origin == OriginPage && ev.Command != nil {
			ev.CommandInPage = true
		}
		if ev != nil {
			r.staleNote(ev, e.hashPos)
		}

		if e.id != "" {
			if earlier := seen[e.id]; earlier != nil {
				at := e.idPos
				if e.node != nil && at.Before(e.node.Pos) {
					// The entry is an alias's copy (its id was written before the entry starts): the
					// duplicate is the alias, not the anchored entry, which is the first.
					at = e.node.Pos
				}
				r.c.fault(at, "duplicate_id", "%s: id %s is already used by %s; the later entry wins", e.path, quote(e.id), earlier.path)
			}
			seen[e.id] = e
		}
		id := e.id
		if ev != nil {
			id = ev.ID
		}
		if i, ok := index[id]; ok && id != "" {
			plan[i] = ev // nil when the later entry is invalid
			continue
		}
		if ev != nil {
			index[id] = len(plan)
			plan = append(plan, ev)
		}
	}

	out := plan[:0]
	for _, ev := range plan {
		if ev != nil {
			out = append(out, ev)
		}
	}
	return out
}

// optionsPos is where an options problem without a position goes: the
// entry's options value, else the entry.
func optionsPos(n *frontmatter.Node) diag.Pos {
	if kv := n.Get("options"); kv != nil {
		return kv.Value.Pos
	}
	return n.Pos
}

// reference resolves a valid use: entry: a copy of the named eval (the
// suite's copy when the page's suite holds the id), with skip, type,
// severity and weight overridden and options merged one level deep, page
// keys over the named eval's (README "Decisions where the specs are silent"). Its id is the name it uses,
// its position the page entry, its Origin config.
func (r *resolver) reference(e *entry) *Eval {
	if e.id == "" {
		return nil
	}
	var named *Eval
	found := false
	for _, s := range r.suite {
		if s.ID == e.id {
			named, found = s, true
			break
		}
	}
	if !found {
		named, found = r.named[e.id]
	}
	if !found {
		r.c.fault(e.idPos, "unknown_use", "%s: use names no eval of the config: %s%s", e.path, quote(e.id), diag.Suggest(e.id, r.names()))
		return nil
	}
	if named == nil || !e.ok {
		return nil
	}
	ev := *named
	ev.ID = e.id
	ev.Use = e.id
	ev.Suite = "" // the page's own entry, even when it starts from the suite's copy
	ev.Pos = e.node.Pos
	ev.Origin = OriginConfig
	ev.CommandInPage = false
	ref := e.ref
	if ref.typ != nil {
		ev.Type = *ref.typ
	}
	if ref.skip != nil {
		ev.Skip = *ref.skip
	}
	if ref.severity != nil {
		ev.Severity = *ref.severity
	}
	if ref.weight != nil {
		ev.Weight = *ref.weight
	}
	if ref.options != nil {
		ev.Options = mergeOptions(named.Options, ref.options)
		if !r.c.checkOptions(&ev, ev.Options, e.path, ref.optionsPos) {
			return nil
		}
	}
	return &ev
}

// mergeOptions merges page options over a named eval's, one level deep: a
// page key replaces the named eval's value for that key whole (README
// "Decisions where the specs are silent"). The named eval's entries keep their order and lose their positions,
// which belong to another file; the page's new keys follow in page order.
func mergeOptions(base, page *frontmatter.Node) *frontmatter.Node {
	out := &frontmatter.Node{Kind: frontmatter.Map, Pos: page.Pos}
	if base != nil {
		for _, kv := range base.Entries {
			if p := page.Get(kv.Key); p != nil {
				out.Entries = append(out.Entries, *p)
				continue
			}
			out.Entries = append(out.Entries, frontmatter.Entry{Key: kv.Key, Value: unpositioned(kv.Value)})
		}
	}
	for _, kv := range page.Entries {
		if base.Get(kv.Key) == nil {
			out.Entries = append(out.Entries, kv)
		}
	}
	return out
}

// unpositioned is a deep copy of n without positions.
func unpositioned(n *frontmatter.Node) *frontmatter.Node {
	cp := *n
	cp.Pos = diag.Pos{}
	if n.Items != nil {
		cp.Items = make([]*frontmatter.Node, len(n.Items))
		for i, it := range n.Items {
			cp.Items[i] = unpositioned(it)
		}
	}
	if n.Entries != nil {
		cp.Entries = make([]frontmatter.Entry, len(n.Entries))
		for i, kv := range n.Entries {
			cp.Entries[i] = frontmatter.Entry{Key: kv.Key, Value: unpositioned(kv.Value)}
		}
	}
	return &cp
}

// staleNote reports stale_generated_command (README "Decisions where the specs are silent"): grader
// command, command, hash and assertion present, and the hash differs from
// the lowercase hex SHA-256 of the exact assertion bytes. The command still
// runs. Only the definition's own entry reports it (hashPos known), not a
// use: of it.
func (r *resolver) staleNote(ev *Eval, hashPos diag.Pos) {
	if !hashPos.Known() || ev.Grader != "command" || ev.Command == nil || !ev.HasHash || ev.Assertion == "" {
		return
	}
	if ev.GeneratedAssertionHash == AssertionHash(ev.Assertion) {
		return
	}
	r.c.note(hashPos, ev.ID, diag.SeverityWarning, "stale_generated_command",
		"the assertion changed since its command was generated (generated-assertion-hash differs from its SHA-256); the command still runs: regenerate it")
}

// names are the ids a use: may name, sorted: the suite's evals and the
// config's named evals.
func (r *resolver) names() []string {
	var out []string
	for _, s := range r.suite {
		out = append(out, s.ID)
	}
	for id := range r.named {
		out = append(out, id)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
