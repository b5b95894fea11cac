package docmeta

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

// Patterns of proposal.2 (spec-origins §2.2). Both are RE2-compatible, so the
// JSON Schema export uses them unchanged.
const (
	// IDPattern is the pattern of an inline eval's id, of a named eval's key
	// and of the ids in eval-provenance: a lowercase letter or digit first,
	// hyphens allowed anywhere after (trailing and doubled ones too).
	IDPattern = `^[a-z0-9][a-z0-9-]*$`
	// GraderPattern is the pattern of `grader`: the three closed graders and
	// the open tool:* namespace with a kebab name.
	GraderPattern = `^(ai|command|human|tool:[a-z0-9][a-z0-9-]*)$`
)

var (
	idRE     = regexp.MustCompile(IDPattern)
	graderRE = regexp.MustCompile(GraderPattern)
)

// ValidID reports whether s matches IDPattern.
func ValidID(s string) bool { return idRE.MatchString(s) }

// ValidGrader reports whether s matches GraderPattern.
func ValidGrader(s string) bool { return graderRE.MatchString(s) }

// maxInt is the largest integer an integer field accepts: beyond 2^53 a
// float64 (how YAML and JSON numbers arrive) no longer holds every integer.
const maxInt = 1 << 53

// maxTimeoutMS caps timeout-ms (about 24.8 days) so that it converts to a
// time.Duration without overflow; the spec sets no maximum.
const maxTimeoutMS = math.MaxInt32

// checker collects the definition faults and notes of one document as
// Results. Every fault is Check "definition", Outcome fail, Severity error
// (README "Results, outcomes and blocking"); File is left for the caller to stamp.
type checker struct {
	source  diag.Source
	results []diag.Result
	faults  int // the number of faults (not notes) in results
}

// fault records a definition fault. code must be a code of diag.Codes.
func (c *checker) fault(pos diag.Pos, code, format string, args ...any) {
	c.faults++
	c.results = append(c.results, diag.Result{
		Source:   c.source,
		Pos:      pos,
		Check:    diag.CheckDefinition,
		Outcome:  diag.Fail,
		Severity: diag.SeverityError,
		Code:     code,
		Message:  fmt.Sprintf(format, args...),
	})
}

// note records a result that never enters a verdict (README "Results, outcomes and blocking").
func (c *checker) note(pos diag.Pos, check string, sev diag.Severity, code, msg string) {
	c.results = append(c.results, diag.Result{
		Source:      c.source,
		Pos:         pos,
		Check:       check,
		Outcome:     diag.Fail,
		Severity:    sev,
		Code:        code,
		Message:     msg,
		Verdictless: true,
	})
}

// describe renders a value for a message: scalars as written (strings
// quoted and shortened), collections by their kind.
func describe(n *frontmatter.Node) string {
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
		return strconv.FormatFloat(n.Num, 'g', -1, 64)
	case frontmatter.String:
		return quote(n.Text)
	case frontmatter.List:
		return "a list"
	case frontmatter.Map:
		return "a mapping"
	}
	return "an unknown value"
}

// quote renders user text for a message: quoted, shortened, on one line.
func quote(s string) string { return strconv.Quote(shorten(s)) }

// shorten cuts s to 60 code points.
func shorten(s string) string {
	const limit = 60
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit]) + "…"
}

// simpleKey matches map keys that can be written unquoted in a message path.
var simpleKey = regexp.MustCompile(`^[A-Za-z0-9_:-]+$`)

// child names key inside path for messages: "evals[0].runs".
func child(path, key string) string {
	if !simpleKey.MatchString(key) {
		key = strconv.Quote(shorten(key))
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// item names the i-th (0-based) item of the list at path.
func item(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// str checks that n is a string.
func (c *checker) str(n *frontmatter.Node, what string) (string, bool) {
	if n.Kind != frontmatter.String {
		c.fault(n.Pos, "wrong_type", "%s must be a string, got %s", what, describe(n))
		return "", false
	}
	return n.Text, true
}

// nonEmpty checks that n is a string of at least one character.
func (c *checker) nonEmpty(n *frontmatter.Node, what string) (string, bool) {
	s, ok := c.str(n, what)
	if ok && s == "" {
		c.fault(n.Pos, "invalid_value", "%s must be a non-empty string", what)
		return "", false
	}
	return s, ok
}

// id checks that n is a string matching IDPattern.
func (c *checker) id(n *frontmatter.Node, what string) (string, bool) {
	s, ok := c.str(n, what)
	if ok && !ValidID(s) {
		c.fault(n.Pos, "invalid_id", "%s must be kebab-case (lowercase letters, digits and hyphens, not starting with a hyphen), got %s", what, quote(s))
		return "", false
	}
	return s, ok
}

// number checks that n is a finite number (README "Decisions where the specs are silent": .inf and .nan are
// invalid_value wherever a number is expected).
func (c *checker) number(n *frontmatter.Node, what string) (float64, bool) {
	if n.Kind != frontmatter.Number {
		c.fault(n.Pos, "wrong_type", "%s must be a number, got %s", what, describe(n))
		return 0, false
	}
	if !n.IsFinite() {
		c.fault(n.Pos, "invalid_value", "%s must be a finite number, got %s", what, describe(n))
		return 0, false
	}
	return n.Num, true
}

// integer checks that n is an integral number in [lo, hi]. Integral floats
// (3.0, 1e3) count as integers (README "Decisions where the specs are silent").
func (c *checker) integer(n *frontmatter.Node, what string, lo, hi int) (int, bool) {
	if n.Kind != frontmatter.Number {
		c.fault(n.Pos, "wrong_type", "%s must be an integer, got %s", what, describe(n))
		return 0, false
	}
	if !n.IsFinite() {
		c.fault(n.Pos, "invalid_value", "%s must be a finite integer, got %s", what, describe(n))
		return 0, false
	}
	if !n.IsInt() {
		c.fault(n.Pos, "wrong_type", "%s must be an integer, got %s", what, describe(n))
		return 0, false
	}
	if below, above := n.Num < float64(lo), n.Num > float64(hi); below || above {
		// An open side (±maxInt, a float64's exact integers) is not named
		// as a range: the message names the bound that n crossed.
		switch {
		case below && hi == maxInt:
			c.fault(n.Pos, "invalid_value", "%s must be an integer of at least %d, got %s", what, lo, describe(n))
		case above && lo == -maxInt:
			c.fault(n.Pos, "invalid_value", "%s must be an integer of at most %d, got %s", what, hi, describe(n))
		default:
			c.fault(n.Pos, "invalid_value", "%s must be an integer from %d to %d, got %s", what, lo, hi, describe(n))
		}
		return 0, false
	}
	return int(n.Num), true
}

// boolean checks that n is a boolean. YAML 1.2 reads yes/no/on/off as
// strings (README "Decisions where the specs are silent"), so the message says what to write instead.
func (c *checker) boolean(n *frontmatter.Node, what string) (bool, bool) {
	if n.Kind == frontmatter.Bool {
		return n.Bool, true
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
	c.fault(n.Pos, "wrong_type", "%s must be true or false, got %s%s", what, describe(n), hint)
	return false, false
}

// mapping checks that n is a mapping.
func (c *checker) mapping(n *frontmatter.Node, what string) bool {
	if n.Kind != frontmatter.Map {
		c.fault(n.Pos, "wrong_type", "%s must be a mapping, got %s", what, describe(n))
		return false
	}
	return true
}

// list checks that n is a list, non-empty when nonEmpty is set.
func (c *checker) list(n *frontmatter.Node, what string, nonEmpty bool) bool {
	if n.Kind != frontmatter.List {
		c.fault(n.Pos, "wrong_type", "%s must be a list, got %s", what, describe(n))
		return false
	}
	if nonEmpty && len(n.Items) == 0 {
		c.fault(n.Pos, "invalid_value", "%s must not be an empty list", what)
		return false
	}
	return true
}

// stringList checks that n is a non-empty list of non-empty strings; with
// unique, a repeated string is invalid_value at the later item.
func (c *checker) stringList(n *frontmatter.Node, what string, unique bool) ([]string, bool) {
	if !c.list(n, what, true) {
		return nil, false
	}
	ok := true
	out := make([]string, 0, len(n.Items))
	seen := map[string]bool{}
	for i, it := range n.Items {
		s, good := c.nonEmpty(it, item(what, i))
		if !good {
			ok = false
			continue
		}
		if unique {
			if seen[s] {
				c.fault(it.Pos, "invalid_value", "%s repeats %s: items must be unique", item(what, i), quote(s))
				ok = false
				continue
			}
			seen[s] = true
		}
		out = append(out, s)
	}
	return out, ok
}

// severity checks a severity value. `notice` is proposal.4's spelling of
// info (README "Decisions where the specs are silent"), so its message says so.
func (c *checker) severity(n *frontmatter.Node, what string) (diag.Severity, bool) {
	s, ok := c.str(n, what)
	if !ok {
		return 0, false
	}
	if sev, ok := diag.ParseSeverity(s); ok {
		return sev, true
	}
	if s == "notice" {
		c.fault(n.Pos, "invalid_value", "%s must be error, warning or info, got \"notice\" (a later proposal's spelling: write info)", what)
	} else {
		c.fault(n.Pos, "invalid_value", "%s must be error, warning or info, got %s", what, quote(s))
	}
	return 0, false
}

// canonical renders a value as a key that is equal for two values exactly
// when they are equal as JSON values (JSON Schema uniqueItems): positions
// and map key order do not count, and 1 equals 1.0.
func canonical(n *frontmatter.Node) string {
	var b strings.Builder
	writeCanonical(&b, n)
	return b.String()
}

func writeCanonical(b *strings.Builder, n *frontmatter.Node) {
	switch n.Kind {
	case frontmatter.Null:
		b.WriteString("n")
	case frontmatter.Bool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case frontmatter.Number:
		b.WriteString("#" + strconv.FormatFloat(n.Num, 'g', -1, 64))
	case frontmatter.String:
		b.WriteString(strconv.Quote(n.Text))
	case frontmatter.List:
		b.WriteByte('[')
		for _, it := range n.Items {
			writeCanonical(b, it)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case frontmatter.Map:
		entries := slices.Clone(n.Entries)
		slices.SortFunc(entries, func(x, y frontmatter.Entry) int { return strings.Compare(x.Key, y.Key) })
		b.WriteByte('{')
		for _, e := range entries {
			b.WriteString(strconv.Quote(e.Key) + ":")
			writeCanonical(b, e.Value)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	}
}
