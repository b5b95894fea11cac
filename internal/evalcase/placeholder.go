package evalcase

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/shape"
)

// token is one placeholder occurrence in a text.
type token struct {
	Text string // the exact text: a substring of the input at Off
	Off  int    // byte offset in the input
	// ID is the identity compared as a multiset: the text, except for ICU,
	// whose identity is canonical (see icuArg).
	ID string
	// Base is what a mutation keeps: the name or position without the
	// conversion, spec or type. Two tokens of one kind and Base that differ
	// in ID are a mutation of each other.
	Base  string
	Kind  tokKind
	Order order
}

type tokKind uint8

const (
	kindEscape tokKind = iota // %%, {{, }}
	kindPrintf
	kindPython
	kindICU
	kindCustom
)

// order says whether a token may move (README "EvalCase v1 fixtures").
type order uint8

const (
	orderNone  order = iota // escapes: counted, but literal text has no order
	orderFixed              // sequential printf and Python %, bare {}: the place is the argument
	orderFree               // positional, named and indexed: may move when allow_reorder is true
)

// tokenize returns the placeholders of s in the given syntax, in order.
// custom, when not nil, matches the params.patterns tokens (syntax custom,
// or added to auto's union). Under auto, at each offset the most specific
// form wins: a custom pattern, an ICU argument with a type, Python's
// %(name), printf, Python's other % forms, then a str.format field or escape.
// ICU's apostrophe quoting applies at the top level only under syntax icu
// (under auto, "'{name}'" is a quoted Python placeholder).
func tokenize(s, syntax string, custom *regexp.Regexp) []token {
	toks, _ := tokenizeAtMost(nil, s, syntax, custom, -1)
	return toks
}

// tokenBufs are the slices assertions find tokens in, used again by later assertions: a run of 100,000
// candidates would otherwise grow four of them per candidate. One that grew past maxPooledTokens (a
// hostile text) is dropped.
var tokenBufs = sync.Pool{New: func() any { return new([]token) }}

const maxPooledTokens = 256

func getTokens() *[]token { return tokenBufs.Get().(*[]token) }

// placeholderTokens are a case's source and candidate text tokenized under one syntax and custom
// pattern, each text when first asked for (input.tokens).
type placeholderTokens struct {
	syntax string
	custom *regexp.Regexp
	made   [2]bool // source, text
	toks   [2][]token
	over   [2]bool // more than MaxTokens
	bufs   [2]*[]token
}

// tokens returns the placeholder tokens of in's source (which 0) or candidate text (which 1) under
// syntax and custom, found once for every assertion that asks for the same, and whether the text holds
// more than MaxTokens. They are read-only and in.release gives them back.
func (in *input) tokens(which int, syntax string, custom *regexp.Regexp) ([]token, bool) {
	t := &in.toks
	if t.syntax != syntax || t.custom != custom {
		in.release()
		t.syntax, t.custom = syntax, custom
	}
	if !t.made[which] {
		text := in.source
		if which == 1 {
			text = in.text
		}
		if t.bufs[which] == nil {
			t.bufs[which] = getTokens()
		}
		t.toks[which], t.over[which] = tokenizeAtMost((*t.bufs[which])[:0], text, syntax, custom, MaxTokens)
		t.made[which] = true
	}
	return t.toks[which], t.over[which]
}

// release gives back the slices tokens found tokens in.
func (in *input) release() {
	t := &in.toks
	for i, b := range t.bufs {
		if b != nil {
			putTokens(b, t.toks[i])
		}
	}
	*t = placeholderTokens{}
}

func putTokens(b *[]token, toks []token) {
	if cap(toks) <= maxPooledTokens {
		clear(toks)
		*b = toks[:0]
		tokenBufs.Put(b)
	}
}

// MaxTokens is the most placeholders, and the most numbers, an assertion reads
// in one text (README "Limits"): real strings hold a handful, and a hostile
// case with hundreds of thousands would otherwise cost memory in proportion.
const MaxTokens = 10_000

// placeholderStarts are the bytes a placeholder of a built-in syntax can start at, and the ICU quote.
const placeholderStarts = "%{}'"

// tokenizeAtMost is tokenize that stops after limit tokens (no limit when
// limit < 0), appending them to toks; over reports that the text holds more.
func tokenizeAtMost(toks []token, s, syntax string, custom *regexp.Regexp, limit int) (_ []token, over bool) {
	var spans [][]int
	if custom != nil {
		n := -1
		if limit >= 0 {
			n = limit + 1
		}
		spans = custom.FindAllStringIndex(s, n)
	}
	next := 0 // index into spans
	for i := 0; i < len(s); {
		if limit >= 0 && len(toks) > limit {
			return toks[:limit], true
		}
		for next < len(spans) && spans[next][0] < i {
			next++
		}
		if next < len(spans) && spans[next][0] == i && spans[next][1] > i {
			text := s[i:spans[next][1]]
			toks = append(toks, token{Text: text, ID: text, Base: text, Off: i, Kind: kindCustom, Order: orderFree})
			i = spans[next][1]
			continue
		}
		if syntax == SyntaxCustom {
			if next < len(spans) {
				i = max(i+1, spans[next][0])
			} else {
				i = len(s)
			}
			continue
		}
		if t, ok := scanAt(s, i, syntax); ok {
			toks = append(toks, t)
			i += len(t.Text)
			continue
		}
		if syntax == SyntaxICU && s[i] == '\'' {
			i = skipQuote(s, i, false)
			continue
		}
		i++
		// No placeholder starts before the next of these bytes, or the next custom span.
		stop := len(s)
		if j := strings.IndexAny(s[i:], placeholderStarts); j >= 0 {
			stop = i + j
		}
		for next < len(spans) && spans[next][0] < i {
			next++
		}
		if next < len(spans) {
			stop = min(stop, spans[next][0])
		}
		i = stop
	}
	if limit >= 0 && len(toks) > limit {
		return toks[:limit], true
	}
	return toks, false
}

// customWork refuses a custom placeholder pattern that would take more than shape.MatchBudget steps at
// worst on the source and the candidate (README "Limits"): Go's regexp cannot be stopped once it runs;
// (?:.?){1000}Z on a 2 MB candidate took 36 s, a(?:.*Z)? on 200 KB of "a" 101 s.
func customWork(in *input, insts int) (verdict, bool) {
	if insts == 0 {
		return verdict{}, false
	}
	// Each match may read to the end of the text before it settles (a(?:.*Z)? on "aaaa..."), and the
	// tokens are every match, up to MaxTokens+1 of them: at worst, matches times bytes times instructions.
	n := len(in.source) + len(in.text)
	matches := int64(min(n, MaxTokens+1))
	if work := int64(insts) * int64(n) * matches; work > shape.MatchBudget {
		return verdict{unchecked: fmt.Sprintf("the placeholders were not checked: the custom pattern over %d bytes of source and candidate is %d steps at worst, past the %d allowed",
			n, work, int64(shape.MatchBudget))}, true
	}
	return verdict{}, false
}

// tooManyTokens is the verdict of an assertion that did not compare a text
// holding more than MaxTokens of what it counts: error too_large.
func tooManyTokens(what, where string) verdict {
	return verdict{unchecked: fmt.Sprintf("the %s holds more than 10,000 %s; evalgate compares at most 10,000", where, what)}
}

// scanAt reads a placeholder of syntax at s[i], if one starts there.
func scanAt(s string, i int, syntax string) (token, bool) {
	switch c := s[i]; {
	case c == '%':
		switch syntax {
		case SyntaxPrintf:
			return scanPrintf(s, i)
		case SyntaxPython:
			return scanPythonPercent(s, i)
		case SyntaxAuto:
			if i+1 < len(s) && s[i+1] == '(' {
				if t, ok := scanPythonPercent(s, i); ok {
					return t, true
				}
			}
			if t, ok := scanPrintf(s, i); ok {
				return t, true
			}
			return scanPythonPercent(s, i)
		}
	case c == '{' || c == '}':
		switch syntax {
		case SyntaxICU:
			if c == '{' {
				return scanICU(s, i)
			}
		case SyntaxPython:
			return scanPythonBrace(s, i)
		case SyntaxAuto:
			if c == '{' {
				if t, ok := scanICU(s, i); ok && strings.Contains(t.ID, ",") {
					return t, true
				}
			}
			return scanPythonBrace(s, i)
		}
	}
	return token{}, false
}

// placeholderParams are placeholder_integrity's params, defaults applied.
type placeholderParams struct {
	Syntax       string   `json:"syntax"`
	AllowReorder *bool    `json:"allow_reorder"`
	Patterns     []string `json:"patterns"`
}

func decodePlaceholderParams(raw []byte) placeholderParams {
	p := placeholderCache.getBytes(raw)
	if p.Syntax == "" {
		p.Syntax = SyntaxAuto
	}
	return p
}

// customPattern joins patterns into one leftmost-first alternation, so that
// at one offset an earlier pattern wins, and returns it with its compiled
// instructions (0 for a literal: customWork); nil when there are none.
func customPattern(patterns []string) (*regexp.Regexp, int, error) {
	if len(patterns) == 0 {
		return nil, 0, nil
	}
	parts := make([]string, len(patterns))
	for i, p := range patterns {
		parts[i] = "(?:" + p + ")"
	}
	e := lookupPattern(strings.Join(parts, "|"))
	if e.err != nil {
		return nil, 0, errors.New(e.err.msg)
	}
	return e.re, e.insts, nil
}

func runPlaceholders(in *input, raw []byte) verdict {
	p := decodePlaceholderParams(raw)
	custom, insts, err := customPattern(p.Patterns)
	if err != nil {
		panic(err) // validated before it is graded
	}
	if v, over := customWork(in, insts); over {
		return v
	}
	allowReorder := p.AllowReorder == nil || *p.AllowReorder
	exp, over := in.tokens(0, p.Syntax, custom)
	if over {
		return tooManyTokens("placeholders", "source")
	}
	act, over := in.tokens(1, p.Syntax, custom)
	if over {
		return tooManyTokens("placeholders", "candidate text")
	}
	v := comparePlaceholders(exp, act, in.text, allowReorder)
	if v.evidence != nil {
		v.evidence["syntax"] = p.Syntax
	}
	if !v.failed() {
		v.passMsg = strconv.Itoa(len(exp)) + " placeholder(s) preserved"
	}
	return v
}

// comparePlaceholders compares the multisets of the source's tokens (exp)
// and the candidate's (act, found in text), then their order.
func comparePlaceholders(exp, act []token, text string, allowReorder bool) (v verdict) {
	defer func() {
		if v.failed() {
			v.evidence = map[string]any{}
			diag.PutList(v.evidence, "expected", len(exp), func(i int) any { return exp[i].ID })
			diag.PutList(v.evidence, "actual", len(act), func(i int) any { return act[i].ID })
		}
	}()
	if sameMultiset(exp, act) {
		// The common case: only the order can be wrong.
		if !sameOrder(exp, act, allowReorder) {
			e, a := orderedIDs(exp, allowReorder), orderedIDs(act, allowReorder)
			why := "sequential placeholders cannot be reordered"
			if !allowReorder {
				why = "allow_reorder is false"
			}
			detail := map[string]any{}
			diag.PutList(detail, "expected_order", len(e), func(i int) any { return e[i] })
			diag.PutList(detail, "actual_order", len(a), func(i int) any { return a[i] })
			v.fail("placeholder_reordered", fmt.Sprintf("placeholders were reordered (%s): expected %s, got %s", why, joinSome(e), joinSome(a)), detail)
		}
		return v
	}
	// Each distinct ID gets a dense index, so that the counts below are
	// slices rather than maps: a hostile text holds hundreds of thousands
	// of placeholders.
	ids := make(map[string]int32, len(exp))
	index := func(toks []token) []int32 {
		out := make([]int32, len(toks))
		for i, t := range toks {
			d, ok := ids[t.ID]
			if !ok {
				d = int32(len(ids))
				ids[t.ID] = d
			}
			out[i] = d
		}
		return out
	}
	ei, ai := index(exp), index(act)
	expN, actN := make([]int32, len(ids)), make([]int32, len(ids))
	for _, d := range ei {
		expN[d]++
	}
	for _, d := range ai {
		actN[d]++
	}
	// Surplus: the candidate's occurrences of an ID beyond the source's
	// count of it.
	var surplus []int // indexes into act
	seen := make([]int32, len(ids))
	for i, d := range ai {
		seen[d]++
		if seen[d] > expN[d] {
			surplus = append(surplus, i)
		}
	}
	near := newNearMisses(act, surplus, text)
	// Deficit: source tokens beyond the candidate's count, in source order.
	// Each is first explained as a mutation, in its place. Tokens missing
	// altogether are looked at first: a token that is still there, only
	// fewer times, is more likely a count mismatch.
	deficit := make([]int32, len(ids))
	for round := 0; round < 2; round++ {
		clear(seen)
		for i, t := range exp {
			d := ei[i]
			seen[d]++
			if seen[d] <= actN[d] || (actN[d] == 0) != (round == 0) {
				continue
			}
			if found, ok := near.find(t); ok {
				if v.wants("placeholder_mutated") {
					v.record("placeholder_mutated", fmt.Sprintf("placeholder %s was altered to %s", short(t.ID), short(found)), map[string]any{"token": t.ID, "found": found})
				}
				continue
			}
			deficit[d]++
		}
	}
	reported := make([]bool, len(ids))
	for i, t := range exp {
		d := ei[i]
		if deficit[d] == 0 || reported[d] {
			continue
		}
		reported[d] = true
		if actN[d] == 0 {
			if v.wants("placeholder_missing") {
				v.record("placeholder_missing", fmt.Sprintf("expected placeholder %s is missing", short(t.ID)), map[string]any{"token": t.ID, "expected": int(expN[d]), "actual": 0})
			}
		} else {
			v.countMismatch(t.ID, int(expN[d]), int(actN[d]))
		}
	}
	for _, i := range surplus {
		t, d := act[i], ai[i]
		if near.used[i] || reported[d] {
			continue
		}
		reported[d] = true
		if expN[d] == 0 {
			if v.wants("placeholder_extra") {
				v.record("placeholder_extra", fmt.Sprintf("placeholder %s is not in the source", short(t.ID)), map[string]any{"token": t.ID, "expected": 0, "actual": int(actN[d])})
			}
		} else {
			v.countMismatch(t.ID, int(expN[d]), int(actN[d]))
		}
	}
	return v
}

func (v *verdict) countMismatch(id string, want, got int) {
	if v.wants("placeholder_count_mismatch") {
		v.record("placeholder_count_mismatch", fmt.Sprintf("placeholder %s occurs %d time(s), expected %d", short(id), got, want),
			map[string]any{"token": id, "expected": want, "actual": got})
	}
}

// joinSome joins the first ids for a message, saying how many more there
// are (README "Results": bounded evidence).
func joinSome(ids []string) string {
	const most = 20
	if len(ids) <= most {
		return strings.Join(ids, " ")
	}
	parts := make([]string, most)
	for i, id := range ids[:most] {
		parts[i] = short(id)
	}
	return fmt.Sprintf("%s … (and %d more)", strings.Join(parts, " "), len(ids)-most)
}

// sameMultiset reports whether a and b hold the same IDs as often. Texts
// hold few placeholders: up to 32, it counts by scanning, without
// allocating.
func sameMultiset(a, b []token) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 32 {
		n := make(map[string]int, len(a))
		for _, t := range a {
			n[t.ID]++
		}
		for _, t := range b {
			if n[t.ID]--; n[t.ID] < 0 {
				return false
			}
		}
		return true
	}
	for i, t := range a {
		first := true
		for _, u := range a[:i] {
			if u.ID == t.ID {
				first = false
				break
			}
		}
		if !first {
			continue
		}
		n := 0
		for _, u := range a[i:] {
			if u.ID == t.ID {
				n++
			}
		}
		for _, u := range b {
			if u.ID == t.ID {
				n--
			}
		}
		if n != 0 {
			return false
		}
	}
	return true
}

// sameOrder reports whether the tokens whose order must be kept (see
// orderedIDs) come in the same order in a and b.
func sameOrder(a, b []token, allowReorder bool) bool {
	kept := func(t token) bool { return t.Order != orderNone && !(allowReorder && t.Order == orderFree) }
	i, j := 0, 0
	for {
		for i < len(a) && !kept(a[i]) {
			i++
		}
		for j < len(b) && !kept(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i].ID != b[j].ID {
			return false
		}
		i, j = i+1, j+1
	}
}

// orderedIDs lists the IDs whose order must be kept: every token but
// escapes when reordering is not allowed, else only the fixed ones.
func orderedIDs(toks []token, allowReorder bool) []string {
	var ids []string
	for _, t := range toks {
		if t.Order == orderNone || (allowReorder && t.Order == orderFree) {
			continue
		}
		ids = append(ids, t.ID)
	}
	return ids
}

// looseBudget bounds the bytes of candidate text that the loose search for
// near misses scans in one comparison, so that a text with thousands of
// missing placeholders stays linear; beyond it, missing tokens are reported
// without a near miss.
const looseBudget = 1 << 20

// nearMisses finds what became of missing tokens: a surplus candidate
// token that equals one but for case, width and white space, or that has
// its kind and base (another conversion, spec or type); else a text that is
// not a token but matches it loosely (a full-width ％, a space or a case
// change inside it). What it finds is used up.
type nearMisses struct {
	act     []token
	used    []bool
	byFold  map[string][]int  // unused surplus tokens by folded text
	byBase  map[baseKey][]int // unused surplus tokens by kind and base
	text    string
	covered [][2]int // spans of loose matches already used
	budget  int      // bytes the loose search may still scan
}

type baseKey struct {
	kind tokKind
	base string
}

// baseOf is t's key among near misses. An ICU argument and a Python field of one name are one
// argument written two ways: under auto, {n} is read as Python's and {n, number} as ICU's, and one in
// place of the other is a changed type (placeholder_mutated), as under syntax icu.
func baseOf(t token) baseKey {
	if t.Kind == kindICU {
		return baseKey{kindPython, t.Base}
	}
	return baseKey{t.Kind, t.Base}
}

func newNearMisses(act []token, surplus []int, text string) *nearMisses {
	n := &nearMisses{
		act: act, used: make([]bool, len(act)), text: text, budget: looseBudget,
		byFold: map[string][]int{}, byBase: map[baseKey][]int{},
	}
	for _, i := range surplus {
		f := fold(act[i].Text)
		n.byFold[f] = append(n.byFold[f], i)
		k := baseOf(act[i])
		n.byBase[k] = append(n.byBase[k], i)
	}
	return n
}

// take uses up the first unused index of list, which it shortens.
func (n *nearMisses) take(list []int) ([]int, int, bool) {
	for len(list) > 0 && n.used[list[0]] {
		list = list[1:]
	}
	if len(list) == 0 {
		return list, 0, false
	}
	n.used[list[0]] = true
	return list[1:], list[0], true
}

// find returns the near miss in place of the missing token t.
func (n *nearMisses) find(t token) (string, bool) {
	f := fold(t.Text)
	if rest, i, ok := n.take(n.byFold[f]); ok {
		n.byFold[f] = rest
		return n.act[i].Text, true
	}
	k := baseOf(t)
	if rest, i, ok := n.take(n.byBase[k]); ok {
		n.byBase[k] = rest
		return n.act[i].Text, true
	}
	if len(t.Text) > 64 || n.budget < len(n.text) {
		return "", false // a complex ICU argument (its mutations are tokens), or the budget is spent
	}
	n.budget -= len(n.text)
	re := loosePattern(t.Text)
	for _, m := range re.FindAllStringIndex(n.text, len(n.act)+len(n.covered)+1) {
		if n.overlapsToken(m) || overlapsSpan(m, n.covered) {
			continue
		}
		n.covered = append(n.covered, [2]int{m[0], m[1]})
		return n.text[m[0]:m[1]], true
	}
	return "", false
}

// overlapsToken reports whether m overlaps a candidate token; tokens are
// in text order and do not overlap.
func (n *nearMisses) overlapsToken(m []int) bool {
	i := sort.Search(len(n.act), func(i int) bool { return n.act[i].Off+len(n.act[i].Text) > m[0] })
	return i < len(n.act) && n.act[i].Off < m[1]
}

func overlapsSpan(m []int, spans [][2]int) bool {
	for _, s := range spans {
		if m[0] < s[1] && s[0] < m[1] {
			return true
		}
	}
	return false
}

// looseSpace is the white space a mutation may insert inside a token.
const looseSpace = `[\s\x{00A0}\x{2000}-\x{200B}\x{202F}\x{3000}]*`

// looseCache remembers loose patterns: the same tokens go missing in many
// candidates.
var looseCache = newMemo(1024, compileLoose)

// loosePattern matches s with each character in any case or width, and
// white space allowed between characters.
func loosePattern(s string) *regexp.Regexp { return looseCache.get(s) }

func compileLoose(s string) *regexp.Regexp {
	var b strings.Builder
	for i, r := range []rune(s) {
		if i > 0 {
			b.WriteString(looseSpace)
		}
		var alts []string
		for _, v := range []rune{r, unicode.ToLower(r), unicode.ToUpper(r)} {
			for _, w := range []rune{v, fullWidth(v)} {
				if q := regexp.QuoteMeta(string(w)); !slices.Contains(alts, q) {
					alts = append(alts, q)
				}
			}
		}
		b.WriteString("(?:" + strings.Join(alts, "|") + ")")
	}
	return regexp.MustCompile(b.String())
}

// fullWidth maps printable ASCII to its full-width form (U+FF01..U+FF5E);
// other runes are returned unchanged.
func fullWidth(r rune) rune {
	if 0x21 <= r && r <= 0x7E {
		return r + 0xFEE0
	}
	return r
}

// fold maps full-width forms to ASCII, lowercases and drops white space.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r) || r == '\u200B':
			return -1
		case 0xFF01 <= r && r <= 0xFF5E:
			r -= 0xFEE0
		case r == '\u3000':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// short cuts s to at most 80 code points for a message.
func short(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
