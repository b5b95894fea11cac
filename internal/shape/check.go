package shape

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// maxExact is the largest magnitude an Int accepts without a bound of its own: beyond 2^53 a float64 (how
// YAML, TOML and JSON numbers arrive) no longer holds every integer.
const maxExact = 1 << 53

// Checker holds values against shapes and collects the faults, each one positioned Problem with the kit's
// wording: "WHAT must be …, got VALUE". what names a value in messages the way Child builds it
// ("evals[0].runs", "commands.timeout-ms"). Every method reports whether the value passed.
type Checker struct {
	problems diag.FileProblems
}

// Problems returns the faults found so far, in the order found: at most diag.MaxFileFaults, then one
// that counts the rest.
func (k *Checker) Problems() []diag.Problem { return k.problems.List() }

// Faults is the number of faults found so far.
func (k *Checker) Faults() int { return k.problems.Len() }

// Fault records a fault. code must be a code of the registry.
func (k *Checker) Fault(pos diag.Pos, code, format string, args ...any) {
	k.problems.Add(diag.Problem{Pos: pos, Code: code, Message: fmt.Sprintf(format, args...)})
}

// Value checks n against t, deeply: a list's items, a mapping's fields and rules.
func (k *Checker) Value(n *frontmatter.Node, t *Type, what string) bool {
	if t == nil || n == nil {
		return true
	}
	switch t.Kind {
	case Any:
		return true
	case String:
		return k.str(n, t, what)
	case Bool:
		return k.boolean(n, what)
	case Int, Number:
		return k.numeric(n, t, what)
	case List:
		return k.list(n, t, what)
	case Map:
		if n.Kind != frontmatter.Map {
			if what == "" && t.Object != nil {
				what = t.Object.Name // a document's root: "the baseline must be a mapping"
			}
			k.Fault(n.Pos, "wrong_type", "%s must be a mapping, got %s", what, Describe(n))
			return false
		}
		if t.Object == nil {
			return true
		}
		return k.Object(n, t.Object, what, nil)
	}
	return true
}

func (k *Checker) str(n *frontmatter.Node, t *Type, what string) bool {
	if n.Kind != frontmatter.String {
		k.Fault(n.Pos, "wrong_type", "%s must be a string, got %s", what, Describe(n))
		return false
	}
	s := n.Text
	switch {
	case (t.NonEmpty || t.NonBlank) && s == "":
		k.Fault(n.Pos, "invalid_value", "%s must be a non-empty string", what)
		return false
	case t.NonBlank && strings.TrimSpace(s) == "":
		k.Fault(n.Pos, "invalid_value", "%s must not be blank", what)
		return false
	case t.Enum != nil && !slices.Contains(t.Enum, s):
		k.Fault(n.Pos, "invalid_value", "%s must be %s, got %s", what, OrList(t.Enum), Quote(s))
		return false
	case t.Pattern != nil && !t.Pattern.RE.MatchString(s):
		code := t.Pattern.Code
		if code == "" {
			code = "invalid_value"
		}
		k.Fault(n.Pos, code, "%s must be %s, got %s%s", what, t.Pattern.Says, Quote(s), diag.Suggest(s, t.Pattern.Near))
		return false
	}
	if t.RE2 {
		if _, err := Compile(s); err != nil {
			k.Fault(n.Pos, "invalid_value", "%s is not valid RE2: %v", what, err)
			return false
		}
	}
	return true
}

// boolean: YAML 1.2 reads yes/no/on/off as strings (README "Decisions where the specs are silent"), so the
// message says what to write instead.
func (k *Checker) boolean(n *frontmatter.Node, what string) bool {
	if n.Kind == frontmatter.Bool {
		return true
	}
	hint := ""
	if n.Kind == frontmatter.String {
		switch n.Text {
		case "yes", "Yes", "YES", "on", "On", "ON", "y", "Y", "True", "TRUE":
			hint = " (write true)"
		case "no", "No", "NO", "off", "Off", "OFF", "n", "N", "False", "FALSE":
			hint = " (write false)"
		}
	}
	k.Fault(n.Pos, "wrong_type", "%s must be true or false, got %s%s", what, Describe(n), hint)
	return false
}

// numeric checks an Int or a Number. Integral floats (3.0, 1e3) are integers (README "Decisions where the
// specs are silent"); .inf and .nan are invalid_value wherever a number is expected. An Int without a bound
// of its own is bounded by ±2^53; a range fault names only the bound n crossed when the other is open.
func (k *Checker) numeric(n *frontmatter.Node, t *Type, what string) bool {
	noun, article := "number", "a "
	if t.Kind == Int {
		noun, article = "integer", "an "
	}
	switch {
	case n.Kind != frontmatter.Number || t.Kind == Int && n.IsFinite() && !n.IsInt():
		k.Fault(n.Pos, "wrong_type", "%s must be %s%s, got %s", what, article, noun, Describe(n))
		return false
	case !n.IsFinite():
		k.Fault(n.Pos, "invalid_value", "%s must be a finite %s, got %s", what, noun, Describe(n))
		return false
	}
	lo, hi := t.Min, t.Max
	loOpen, hiOpen := lo == nil, hi == nil
	if t.Kind == Int {
		lo, hi = cmpOr(lo, -maxExact), cmpOr(hi, maxExact)
	}
	// A rounded integer (beyond 2^53) lies past the value it reads as: past a bound it reads as equal to.
	rounded := t.Kind == Int && n.Rounded()
	below := lo != nil && (n.Num < *lo || (t.MinExclusive || rounded && n.Num < 0) && n.Num == *lo)
	above := hi != nil && (n.Num > *hi || rounded && n.Num > 0 && n.Num == *hi)
	if !below && !above {
		return true
	}
	from := "of at least " + Num(*cmpOr(lo, 0))
	if t.MinExclusive {
		from = "greater than " + Num(*lo)
	}
	var want string
	switch {
	case below && hiOpen:
		want = from
	case above && loOpen:
		want = "of at most " + Num(*hi)
	case t.MinExclusive:
		want = from + " and at most " + Num(*hi)
	default:
		want = "from " + Num(*lo) + " to " + Num(*hi)
	}
	k.Fault(n.Pos, "invalid_value", "%s must be %s%s %s%s, got %s", what, article, noun, want, hint(t.RangeHint), Describe(n))
	return false
}

// cmpOr is p, or a pointer to def when p is nil.
func cmpOr(p *float64, def float64) *float64 {
	if p == nil {
		return &def
	}
	return p
}

func hint(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func (k *Checker) list(n *frontmatter.Node, t *Type, what string) bool {
	if n.Kind != frontmatter.List {
		k.Fault(n.Pos, "wrong_type", "%s must be a list, got %s", what, Describe(n))
		return false
	}
	if t.NonEmpty && len(n.Items) == 0 {
		k.Fault(n.Pos, "invalid_value", "%s must not be an empty list", what)
		return false
	}
	if t.MaxItems > 0 && len(n.Items) > t.MaxItems {
		k.Fault(n.Pos, "invalid_value", "%s holds %d items; evalgate reads at most %d", what, len(n.Items), t.MaxItems)
		return false
	}
	ok := true
	seen := map[string]bool{}
	for i, it := range n.Items {
		w := Item(what, i)
		if !k.Value(it, t.Items, w) {
			ok = false
			continue
		}
		if t.Unique && it.Kind == frontmatter.String {
			if seen[it.Text] {
				k.Fault(it.Pos, "invalid_value", "%s repeats %s: items must be unique", w, Quote(it.Text))
				ok = false
				continue
			}
			seen[it.Text] = true
		}
	}
	return ok
}

// Object checks that n is a mapping of o's shape: every key a field,
// every value of its field's Type, every required field present, every rule kept. each, when not nil, is
// called for every entry that is a field, in source order, with whether its value passed, so that the caller
// reads what is valid; a nil n (an absent optional mapping) passes.
func (k *Checker) Object(n *frontmatter.Node, o *Object, what string, each func(f *Field, e *frontmatter.Entry, ok bool)) bool {
	if n == nil {
		return true
	}
	where := what
	if where == "" {
		where = o.Name
	}
	if n.Kind != frontmatter.Map {
		k.Fault(n.Pos, "wrong_type", "%s must be a mapping, got %s", where, Describe(n))
		return false
	}
	before := k.Faults()
	good := map[string]*frontmatter.Entry{}
	for i := range n.Entries {
		e := &n.Entries[i]
		f := o.Field(e.Key)
		if f == nil {
			k.Fault(e.KeyPos, "unknown_key", "%s", UnknownKey(e.Key, where, o))
			continue
		}
		ok := k.Value(e.Value, f.Type, Child(what, e.Key))
		if ok {
			good[e.Key] = e
		}
		if each != nil {
			each(f, e, ok)
		}
	}
	for _, f := range o.Fields {
		if f.Required && n.Get(f.Name) == nil {
			if f.Missing != "" {
				k.Fault(n.Pos, "missing_field", "%s %s", where, f.Missing)
			} else {
				k.Fault(n.Pos, "missing_field", "%s needs %s", where, f.Name)
			}
		}
	}
	for _, r := range o.Rules {
		k.rule(n, r, good, where)
	}
	return k.Faults() == before
}

func (k *Checker) rule(n *frontmatter.Node, r Rule, good map[string]*frontmatter.Entry, what string) {
	code := r.Code
	switch r.Kind {
	case AtLeastOne:
		for _, key := range r.Keys {
			if n.Get(key) != nil {
				return
			}
		}
		k.Fault(n.Pos, or(code, "missing_field"), "%s: %s", what, r.Message)
	case NotBoth:
		var later *frontmatter.Entry
		count := 0
		for _, key := range r.Keys {
			if e := n.Get(key); e != nil {
				count++
				if later == nil || before(later.KeyPos, e.KeyPos) {
					later = e
				}
			}
		}
		if count > 1 {
			k.Fault(later.KeyPos, or(code, "invalid_value"), "%s: %s", what, r.Message)
		}
	case Requires:
		if e := n.Get(r.Keys[0]); e != nil {
			for _, key := range r.Keys[1:] {
				if n.Get(key) == nil {
					k.Fault(e.KeyPos, or(code, "missing_field"), "%s: %s", what, r.Message)
					return
				}
			}
		}
	case NotAbove:
		lo, hi := good[r.Keys[0]], good[r.Keys[1]]
		if lo != nil && hi != nil && lo.Value.Num > hi.Value.Num {
			k.Fault(lo.Value.Pos, or(code, "invalid_value"), "%s: %s (%s exceeds %s)", what, r.Message, lo.Value.Text, hi.Value.Text)
		}
	}
}

func before(a, b diag.Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// UnknownKey is the one wording of an unknown key (code unknown_key) in every vocabulary: the key, where it
// is, the nearest allowed key when one is close ("did you mean"), then in parentheses the object's Hint or
// else its allowed keys. where names the object ("commands", "evals[0]", "the case").
func UnknownKey(key, where string, o *Object) string {
	return UnknownKeyOf(key, where, o.Names(), o.Hint, o.NoList)
}

// UnknownKeyOf is UnknownKey for a vocabulary whose keys are not an Object: allowed are its keys in
// documentation order, hint (may be empty) is said instead of them, and noList leaves the list out.
func UnknownKeyOf(key, where string, allowed []string, hint string, noList bool) string {
	var b strings.Builder
	b.WriteString("unknown key " + Quote(key) + " in " + where)
	near, ok := diag.NearMiss(key, allowed)
	if kebab := kebabCase(key); !ok && kebab != key && len(allowed) > 0 && !slices.ContainsFunc(allowed, notKebab) {
		// camelCase or snake_case in a kebab-case vocabulary (README "The evals vocabulary").
		near, ok = kebab, slices.Contains(allowed, kebab)
		if !ok {
			b.WriteString(": write kebab-case")
		}
	}
	if ok {
		b.WriteString(": did you mean " + strconv.Quote(near) + "?")
	}
	switch {
	case hint != "":
		b.WriteString(" (" + hint + ")")
	case len(allowed) == 0:
		b.WriteString(" (it takes no keys)")
	case !noList:
		b.WriteString(" (allowed: " + strings.Join(allowed, ", ") + ")")
	}
	return b.String()
}

// kebabCase writes a camelCase or snake_case name in kebab-case: timeoutMs and timeout_ms are timeout-ms.
func kebabCase(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_':
			b.WriteByte('-')
		case 'A' <= r && r <= 'Z':
			if i > 0 && name[i-1] != '_' && name[i-1] != '-' {
				b.WriteByte('-')
			}
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// notKebab says a vocabulary's key is not kebab-case: it has a capital or an underscore.
func notKebab(key string) bool {
	return strings.ContainsFunc(key, func(r rune) bool { return r == '_' || 'A' <= r && r <= 'Z' })
}

// OrList joins words as "a, b or c".
func OrList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Describe renders a value for a message: scalars as written (strings quoted and shortened), collections by
// their kind.
func Describe(n *frontmatter.Node) string {
	switch n.Kind {
	case frontmatter.Null:
		return "null"
	case frontmatter.Bool, frontmatter.Number:
		if n.Text != "" {
			return shorten(n.Text)
		}
		if n.Kind == frontmatter.Bool {
			return strconv.FormatBool(n.Bool)
		}
		return Num(n.Num)
	case frontmatter.String:
		return Quote(n.Text)
	case frontmatter.List:
		return "a list"
	case frontmatter.Map:
		return "a mapping"
	}
	return "an unknown value"
}

// Quote renders user text for a message: quoted, shortened to 60 code points, on one line.
func Quote(s string) string { return strconv.Quote(shorten(s)) }

func shorten(s string) string {
	const limit = 60
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit]) + "…"
}

// Num renders a number the shortest way that reads back exactly (integers without an exponent below 2^53).
func Num(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) <= maxExact {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// simpleKey matches map keys that can be written unquoted in a message path.
var simpleKey = regexp.MustCompile(`^[A-Za-z0-9_:-]+$`)

// Child names key inside path for messages: "evals[0].runs"; a key with other characters is quoted.
func Child(path, key string) string {
	if !simpleKey.MatchString(key) {
		key = Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// Item names the i-th (0-based) item of the list at path.
func Item(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
