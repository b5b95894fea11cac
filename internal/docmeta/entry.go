package docmeta

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// AssertionHash is the value generated-assertion-hash must hold: the
// lowercase hex SHA-256 of the exact assertion bytes (README "Decisions where the specs are silent").
func AssertionHash(assertion string) string {
	sum := sha256.Sum256([]byte(assertion))
	return hex.EncodeToString(sum[:])
}

// ShorthandID is the id of a string-shorthand eval before any clash suffix:
// "auto-" and the first 8 hex digits of the SHA-256 of the assertion
// (README "Results, outcomes and blocking"), so that it survives reordering.
func ShorthandID(assertion string) string {
	return "auto-" + AssertionHash(assertion)[:8]
}

// entryKind is the form of an eval entry (proposal.2's draft schema: evalEntry).
type entryKind int

const (
	kindShorthand entryKind = iota // a string
	kindReference                  // a mapping with `use`
	kindInline                     // any other mapping (and non-mappings, which fail)
)

// entry is one validated eval entry, before resolution.
type entry struct {
	kind  entryKind
	node  *frontmatter.Node
	path  string // for messages: "evals[2]"
	ok    bool   // no definition fault
	eval  *Eval  // shorthand and inline: the eval (nil when not ok)
	id    string // inline: its id; reference: the name it uses; "" when unreadable
	idPos diag.Pos
	ref   reference // kindReference only
	// hashPos is the generated-assertion-hash value (stale note).
	hashPos diag.Pos
}

// reference holds what a use: entry sets over its named eval.
type reference struct {
	typ        *string
	skip       *bool
	severity   *diag.Severity
	weight     *float64
	options    *frontmatter.Node // the page's options mapping, nil when absent
	optionsPos diag.Pos
}

// newEval returns an eval with every default of proposal.2, as its
// reference implementation (moose-docevals) fills them in: type regression, grader ai, severity error, weight 1,
// success-exit-codes [0], options {}, target body.
func newEval(pos diag.Pos, origin Origin) *Eval {
	return &Eval{
		Pos:              pos,
		Origin:           origin,
		Type:             diag.TypeRegression,
		Grader:           "ai",
		Weight:           1,
		SuccessExitCodes: []int{0},
		Options:          &frontmatter.Node{Kind: frontmatter.Map},
		Target:           Target{Kind: TargetBody},
	}
}

// checkEntry validates one item of an `evals` value (proposal.2's draft schema:
// evalEntry: a string, a mapping with use, else an inline eval).
func (c *checker) checkEntry(n *frontmatter.Node, path string, origin Origin) *entry {
	before := c.faults
	var e *entry
	switch {
	case n.Kind == frontmatter.String:
		e = &entry{kind: kindShorthand, node: n, path: path}
		if n.Text == "" {
			c.fault(n.Pos, "invalid_value", "%s must be a non-empty assertion", path)
			break
		}
		ev := newEval(n.Pos, origin)
		ev.Shorthand = true
		ev.Assertion = n.Text
		e.eval = ev
	case n.Kind == frontmatter.Map && n.Get("use") != nil:
		e = c.checkReference(n, path)
	case n.Kind == frontmatter.Map:
		ev, id, idPos, hashPos := c.checkInline(n, path, origin, false)
		e = &entry{kind: kindInline, node: n, path: path, eval: ev, id: id, idPos: idPos, hashPos: hashPos}
		if c.faults > before && ev != nil {
			// The entry is dropped for its faults, so its options are checked now, or their faults would
			// show only once the others are fixed; a valid entry's options are checked as it resolves.
			c.checkOptions(ev, ev.Options, path, optionsPos(n))
		}
	default:
		e = &entry{kind: kindInline, node: n, path: path}
		c.fault(n.Pos, "wrong_type", "%s must be an assertion string or a mapping, got %s", path, describe(n))
	}
	e.ok = c.faults == before
	if !e.ok {
		e.eval = nil
	}
	return e
}

// checkReference validates a use: entry (proposal.2's draft schema: evalReference, a
// closed object).
func (c *checker) checkReference(n *frontmatter.Node, path string) *entry {
	e := &entry{kind: kindReference, node: n, path: path}
	for i := range n.Entries {
		kv := &n.Entries[i]
		v, what := kv.Value, child(path, kv.Key)
		f := referenceShape.Field(kv.Key)
		switch {
		case f == nil && inlineShape.Field(kv.Key) != nil:
			c.fault(kv.KeyPos, "use_override_not_allowed", "%s: a use: reference may not set %s; it may override only skip, type, severity, weight and options", path, kv.Key)
			continue
		case f == nil:
			c.fault(kv.KeyPos, "unknown_key", "%s", shape.UnknownKey(kv.Key, path+", a use: reference", referenceShape))
			continue
		case !c.hold(v, f.Type, what):
			continue
		}
		switch kv.Key {
		case "use":
			e.id, e.idPos = v.Text, v.Pos
		case "type":
			e.ref.typ = &v.Text
		case "skip":
			e.ref.skip = &v.Bool
		case "severity":
			if s, ok := c.severity(v, what); ok {
				e.ref.severity = &s
			}
		case "weight":
			e.ref.weight = &v.Num
		case "options":
			e.ref.options, e.ref.optionsPos = v, v.Pos
		}
	}
	return e
}

// checkInline validates an inline eval (proposal.2's draft schema: inlineEval, a
// closed object) or, with named set, a named eval of the config (the same
// fields except id, which is the eval's key in the config). It returns the
// eval (complete only when no fault was found), the id and its position, and
// the position of generated-assertion-hash's value.
func (c *checker) checkInline(n *frontmatter.Node, path string, origin Origin, named bool) (ev *Eval, id string, idPos, hashPos diag.Pos) {
	ev = newEval(n.Pos, origin)
	has := map[string]*frontmatter.Entry{}
	graderOK := true // grader absent or valid: the conditionals can be judged
	plain := map[string]*string{"assertion": &ev.Assertion, "type": &ev.Type, "grader": &ev.Grader,
		"provider": &ev.Provider, "model": &ev.Model, "evidence": &ev.Evidence} // the fields taken as written
	for i := range n.Entries {
		kv := &n.Entries[i]
		v, what := kv.Value, child(path, kv.Key)
		has[kv.Key] = kv
		f := inlineShape.Field(kv.Key)
		switch {
		case f == nil:
			kind := ", an inline eval"
			if named {
				kind = ", a named eval"
			}
			c.fault(kv.KeyPos, "unknown_key", "%s", shape.UnknownKey(kv.Key, path+kind, inlineShape))
			continue
		case kv.Key == "id" && named:
			c.fault(kv.KeyPos, "unknown_key", "%s: a named eval takes no id: its key under evals is its id", path)
			continue
		case !c.hold(v, f.Type, what):
			graderOK = graderOK && kv.Key != "grader"
			continue
		}
		if to := plain[kv.Key]; to != nil {
			*to = v.Text
			continue
		}
		switch kv.Key {
		case "id":
			id, idPos, ev.ID = v.Text, v.Pos, v.Text
		case "runs":
			ev.Runs = int(v.Num)
		case "target":
			if t, ok := c.target(v, what); ok {
				ev.Target = t
			}
		case "weight":
			ev.Weight = v.Num
		case "examples":
			if c.examples(v, what) {
				ev.Examples.Pass, ev.Examples.Fail = anchors(v.Get("pass")), anchors(v.Get("fail"))
			}
		case "command":
			ev.Command = texts(v)
		case "success-exit-codes":
			ev.SuccessExitCodes = make([]int, len(v.Items))
			for i, it := range v.Items {
				ev.SuccessExitCodes[i] = int(it.Num)
			}
		case "timeout-ms":
			ev.TimeoutMS = int(v.Num)
		case "generated-assertion-hash":
			// Any string: no pattern, even "" is schema-legal (proposal.2's draft schema).
			ev.GeneratedAssertionHash, ev.HasHash, hashPos = v.Text, true, v.Pos
		case "options":
			ev.Options = v
		case "severity":
			if s, ok := c.severity(v, what); ok {
				ev.Severity = s
			}
		case "severity-map":
			if m, ok := c.severityMap(v, what); ok {
				ev.SeverityMap = m
			}
		case "skip":
			ev.Skip = v.Bool
		}
	}

	if !named && has["id"] == nil {
		c.fault(n.Pos, "missing_field", "%s: an inline eval needs an id (kebab-case); only the string shorthand has none", path)
	}

	// The conditionals of proposal.2 (its draft schema's allOf 1-8). They
	// branch on the grader, so an invalid grader suspends 1-7: its own fault
	// is the one to fix first.
	grader, graderSet := "ai", has["grader"] != nil
	if graderSet {
		grader = ev.Grader
	}
	commandFamily := has["command"] != nil || has["success-exit-codes"] != nil || has["timeout-ms"] != nil
	if graderOK {
		switch {
		case grader == "ai" && !graderSet && commandFamily:
			// The command keys show the grader: command was meant; their
			// own faults below say so, and a missing assertion would be
			// noise (a decision where the spec is silent).
		case grader == "ai" || grader == "human":
			if has["assertion"] == nil {
				c.fault(n.Pos, "missing_field", "%s: an eval with grader %s needs an assertion", path, grader)
			}
		case grader == "command":
			if has["assertion"] == nil && has["command"] == nil {
				c.fault(n.Pos, "missing_field", "%s: an eval with grader command needs an assertion or a command", path)
			}
		}
		if kv := has["command"]; kv != nil && grader != "command" {
			c.fault(kv.KeyPos, "command_needs_grader", "%s: command needs grader: command (%s)", path, graderSays(grader, graderSet))
		}
		for _, k := range []string{"success-exit-codes", "timeout-ms"} {
			if kv := has[k]; kv != nil && grader != "command" {
				c.fault(kv.KeyPos, "field_not_allowed_for_grader", "%s: %s needs grader: command (%s)", path, k, graderSays(grader, graderSet))
			}
		}
		for _, k := range []string{"provider", "model", "runs"} {
			if kv := has[k]; kv != nil && grader != "ai" {
				c.fault(kv.KeyPos, "field_not_allowed_for_grader", "%s: %s is allowed only with grader ai, not %s", path, k, grader)
			}
		}
	}
	// A built-in tool's severity-map names codes the tool gives: one it never gives is a typo that would
	// silently change nothing (README "The evals vocabulary").
	if kv := has["severity-map"]; kv != nil && graderOK && ev.SeverityMap != nil {
		if tool := tooldef.Lookup(ev.Grader); tool != nil {
			c.toolCodes(tool, kv.Value, child(path, "severity-map"))
		}
	}
	// dependentRequired: a hash is never legal without its command.
	if kv := has["generated-assertion-hash"]; kv != nil && has["command"] == nil {
		c.fault(kv.KeyPos, "hash_without_command", "%s: generated-assertion-hash needs the command it was generated with", path)
	}
	if !graderOK {
		ev.Grader = ""
	}
	return ev, id, idPos, hashPos
}

// graderSays describes the grader for a conditional's message.
func graderSays(grader string, set bool) string {
	if !set {
		return "the grader defaults to ai"
	}
	return "the grader is " + grader
}

// target checks `target`: body, raw, frontmatter, or the closed object
// {source: file, path: <non-empty>}. Whether the path stays inside the
// repository is judged when grading (target_outside_repo, README "Graders").
func (c *checker) target(n *frontmatter.Node, what string) (Target, bool) {
	switch n.Kind {
	case frontmatter.String:
		switch n.Text {
		case TargetBody, TargetRaw, TargetFrontmatter:
			return Target{Kind: n.Text, Pos: n.Pos}, true
		}
		c.fault(n.Pos, "invalid_value", "%s must be body, raw, frontmatter or {source: file, path: PATH}, got %s", what, quote(n.Text))
		return Target{}, false
	case frontmatter.Map:
		t := Target{Kind: TargetFile, Pos: n.Pos}
		ok, source, path := true, false, false
		for i := range n.Entries {
			kv := &n.Entries[i]
			switch kv.Key {
			case "source":
				source = true
				s, good := c.str(kv.Value, child(what, "source"))
				if good && s != "file" {
					c.fault(kv.Value.Pos, "invalid_value", "%s must be file, got %s", child(what, "source"), quote(s))
					good = false
				}
				ok = ok && good
			case "path":
				path = true
				s, good := c.nonEmpty(kv.Value, child(what, "path"))
				t.Path = s
				ok = ok && good
			default:
				c.fault(kv.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(kv.Key, what, []string{"source", "path"}, "a companion target takes source: file and path", false))
				ok = false
			}
		}
		for _, k := range []struct {
			name    string
			present bool
		}{{"source", source}, {"path", path}} {
			if !k.present {
				c.fault(n.Pos, "missing_field", "%s: a companion target needs %s (write {source: file, path: PATH})", what, k.name)
				ok = false
			}
		}
		return t, ok
	}
	c.fault(n.Pos, "wrong_type", "%s must be body, raw, frontmatter or {source: file, path: PATH}, got %s", what, describe(n))
	return Target{}, false
}

// examples checks `examples`: a closed object with pass and fail, each a
// non-empty string or a non-empty list of unique non-empty strings. It
// reports whether they hold.
func (c *checker) examples(n *frontmatter.Node, what string) bool {
	if !c.mapping(n, what) {
		return false
	}
	before := c.faults
	for i := range n.Entries {
		kv := &n.Entries[i]
		w := child(what, kv.Key)
		switch kv.Key {
		case "pass", "fail":
			if kv.Value.Kind == frontmatter.List {
				c.stringList(kv.Value, w, true)
				continue
			}
			if kv.Value.Kind != frontmatter.String {
				c.fault(kv.Value.Pos, "wrong_type", "%s must be a string or a list of strings, got %s", w, describe(kv.Value))
				continue
			}
			c.nonEmpty(kv.Value, w)
		default:
			c.fault(kv.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(kv.Key, what, []string{"pass", "fail"}, "examples take pass and fail", false))
		}
	}
	return c.faults == before
}

// anchors is one side of a valid examples: a string is one anchor.
func anchors(e *frontmatter.Entry) []string {
	switch {
	case e == nil:
		return nil
	case e.Value.Kind == frontmatter.String:
		return []string{e.Value.Text}
	}
	return texts(e.Value)
}

// severityMap checks `severity-map`: a mapping whose values are severities.
// Its keys (a built-in's finding codes) are not constrained by proposal.2.
func (c *checker) severityMap(n *frontmatter.Node, what string) (map[string]diag.Severity, bool) {
	if !c.mapping(n, what) {
		return nil, false
	}
	ok := true
	m := make(map[string]diag.Severity, len(n.Entries))
	for i := range n.Entries {
		kv := &n.Entries[i]
		if s, good := c.severity(kv.Value, child(what, kv.Key)); good {
			m[kv.Key] = s
		} else {
			ok = false
		}
	}
	return m, ok
}

// toolCodes checks that each key of a built-in tool's severity-map n is a code of the tool.
func (c *checker) toolCodes(tool *tooldef.Tool, n *frontmatter.Node, what string) {
	codes := tool.CodeNames()
	for _, kv := range n.Entries {
		if !slices.Contains(codes, kv.Key) {
			c.fault(kv.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(kv.Key, what+", which names codes of "+tool.Name, codes, "", false))
		}
	}
}

// checkOptions validates a built-in tool:* grader's options with the
// tool's own check (README "Built-in tool:* graders": an unknown or ill-typed option is a
// definition result) and turns its problems into faults; at is where a
// problem without a position goes (the tool's missing_field). Other graders'
// options are free, and a tool:* name that is not built in is no fault here:
// the engine reports unknown_tool when grading. It reports whether the
// options are valid.
func (c *checker) checkOptions(ev *Eval, opts *frontmatter.Node, path string, at diag.Pos) bool {
	if !strings.HasPrefix(ev.Grader, "tool:") {
		return true
	}
	tool := tooldef.Lookup(ev.Grader)
	if tool == nil {
		return true
	}
	problems := tool.CheckOptions(opts, path+".options")
	for _, p := range problems {
		pos := p.Pos
		if !pos.Known() {
			pos = at
		}
		code := p.Code
		if _, ok := diag.LookupCode(code); !ok {
			code = "invalid_value"
		}
		c.fault(pos, code, "%s", p.Message)
	}
	return len(problems) == 0
}

// texts returns the texts of a list of strings that passed its check.
func texts(n *frontmatter.Node) []string {
	out := make([]string, len(n.Items))
	for i, it := range n.Items {
		out[i] = it.Text
	}
	return out
}
