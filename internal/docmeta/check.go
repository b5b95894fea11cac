package docmeta

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
)

// Patterns of proposal.2's draft schema (1.0.0-proposal.2.json). Both are RE2-compatible, so the
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
// It keeps diag.MaxFileFaults faults (README "Limits"): a page of 90,000 bad
// entries made 270,000 results, 494 MB, before.
type checker struct {
	source  diag.Source
	results []diag.Result
	faults  int         // the number of faults (not notes) found, those not kept included
	past    diag.Result // the first fault not kept, which stands for the rest (done)
}

// fault records a definition fault. code must be a code of diag.Codes.
func (c *checker) fault(pos diag.Pos, code, format string, args ...any) {
	r := diag.Result{Source: c.source, Pos: pos, Check: diag.CheckDefinition, Outcome: diag.Fail,
		Severity: diag.SeverityError, Code: code}
	if c.faults < diag.MaxFileFaults {
		r.Message = fmt.Sprintf(format, args...) // one not kept says only how many there are (done)
	}
	c.add(r)
}

// add records a result; a fault past diag.MaxFileFaults is counted, not kept.
func (c *checker) add(r diag.Result) {
	if r.Verdictless {
		c.results = append(c.results, r)
		return
	}
	if c.faults++; c.faults <= diag.MaxFileFaults {
		c.results = append(c.results, r)
	} else if c.faults == diag.MaxFileFaults+1 {
		c.past = r
	}
}

// done is the results: the faults kept and the notes, in the order found, then, past diag.MaxFileFaults,
// the first fault not kept, saying how many there are.
func (c *checker) done() []diag.Result {
	n := c.faults - diag.MaxFileFaults
	if n <= 0 {
		return c.results
	}
	r := c.past
	r.Message = diag.MoreFaults(n)
	return append(c.results[:len(c.results):len(c.results)], r)
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

// The kit's wording (README "Development": one checking kit): docmeta's checks are shape types.
var (
	describe = shape.Describe
	quote    = shape.Quote
	child    = shape.Child
	item     = shape.Item
)

var (
	idType = &shape.Type{Kind: shape.String, Pattern: shape.NewPattern(IDPattern,
		"kebab-case (lowercase letters, digits and hyphens, not starting with a hyphen)", "invalid_id")}
	numberType  = &shape.Type{Kind: shape.Number}
	evalTypes   = &shape.Type{Kind: shape.String, Enum: []string{diag.TypeRegression, diag.TypeCapability}}
	weightType  = &shape.Type{Kind: shape.Number, Min: shape.Ptr(0), MinExclusive: true, RangeHint: "write skip: true to disable an eval"}
	mappingType = &shape.Type{Kind: shape.Map}
	listType    = &shape.Type{Kind: shape.List}
	nonEmptyLst = &shape.Type{Kind: shape.List, NonEmpty: true}
)

// hold checks n against t with the kit and records its faults.
func (c *checker) hold(n *frontmatter.Node, t *shape.Type, what string) bool {
	var k shape.Checker
	ok := k.Value(n, t, what)
	for _, p := range k.Problems() {
		c.fault(p.Pos, p.Code, "%s", p.Message)
	}
	return ok
}

// str checks that n is a string.
func (c *checker) str(n *frontmatter.Node, what string) (string, bool) {
	if !c.hold(n, shape.AnyString, what) {
		return "", false
	}
	return n.Text, true
}

// nonEmpty checks that n is a string of at least one character.
func (c *checker) nonEmpty(n *frontmatter.Node, what string) (string, bool) {
	if !c.hold(n, shape.NonEmptyString, what) {
		return "", false
	}
	return n.Text, true
}

// id checks that n is a string matching IDPattern.
func (c *checker) id(n *frontmatter.Node, what string) (string, bool) {
	if !c.hold(n, idType, what) {
		return "", false
	}
	return n.Text, true
}

// number checks that n is a finite number (README "Decisions where the specs are silent": .inf and .nan are
// invalid_value wherever a number is expected).
func (c *checker) number(n *frontmatter.Node, what string) (float64, bool) {
	if !c.hold(n, numberType, what) {
		return 0, false
	}
	return n.Num, true
}

// integer checks that n is an integral number in [lo, hi]; ±maxInt is an open side. Integral floats (3.0,
// 1e3) count as integers (README "Decisions where the specs are silent").
func (c *checker) integer(n *frontmatter.Node, what string, lo, hi int) (int, bool) {
	t := &shape.Type{Kind: shape.Int}
	if lo != -maxInt {
		t.Min = shape.Ptr(float64(lo))
	}
	if hi != maxInt {
		t.Max = shape.Ptr(float64(hi))
	}
	if !c.hold(n, t, what) {
		return 0, false
	}
	return int(n.Num), true
}

// boolean checks that n is a boolean.
func (c *checker) boolean(n *frontmatter.Node, what string) (bool, bool) {
	if !c.hold(n, shape.Boolean, what) {
		return false, false
	}
	return n.Bool, true
}

// mapping checks that n is a mapping.
func (c *checker) mapping(n *frontmatter.Node, what string) bool { return c.hold(n, mappingType, what) }

// list checks that n is a list, non-empty when nonEmpty is set.
func (c *checker) list(n *frontmatter.Node, what string, nonEmpty bool) bool {
	if nonEmpty {
		return c.hold(n, nonEmptyLst, what)
	}
	return c.hold(n, listType, what)
}

// stringList checks that n is a non-empty list of non-empty strings; with
// unique, a repeated string is invalid_value at the later item.
func (c *checker) stringList(n *frontmatter.Node, what string, unique bool) ([]string, bool) {
	t := &shape.Type{Kind: shape.List, NonEmpty: true, Items: shape.NonEmptyString, Unique: unique}
	if !c.hold(n, t, what) {
		return nil, false
	}
	out := make([]string, len(n.Items))
	for i, it := range n.Items {
		out[i] = it.Text
	}
	return out, true
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
