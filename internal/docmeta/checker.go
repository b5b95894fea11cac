package docmeta

import (
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// Checker checks values of other documents (the config's own sections) with
// the messages and codes docmeta uses for entries, collecting every fault as
// a definition Result. what names the value in messages ("commands.allow").
// Each method reports whether the value is valid; on a fault it records one
// Result at the value.
type Checker struct{ c checker }

// NewChecker returns a Checker whose results have the given source.
func NewChecker(source diag.Source) *Checker { return &Checker{c: checker{source: source}} }

// Fault records a definition fault: Check "definition", Outcome fail,
// Severity error. code must be a code of diag.Codes.
func (k *Checker) Fault(pos diag.Pos, code, format string, args ...any) {
	k.c.fault(pos, code, format, args...)
}

// Add appends results produced elsewhere (NamedEval, SuiteEvals); faults
// among them count in Faults.
func (k *Checker) Add(rs ...diag.Result) {
	for _, r := range rs {
		k.c.add(r)
	}
}

// Faults is the number of faults recorded so far (notes excluded).
func (k *Checker) Faults() int { return k.c.faults }

// Results returns the results recorded so far, in the order found.
func (k *Checker) Results() []diag.Result { return k.c.done() }

// String checks for a string; NonEmpty for a non-empty one.
func (k *Checker) String(n *frontmatter.Node, what string) (string, bool) { return k.c.str(n, what) }

// NonEmpty checks for a string of at least one character.
func (k *Checker) NonEmpty(n *frontmatter.Node, what string) (string, bool) {
	return k.c.nonEmpty(n, what)
}

// ID checks for a string matching IDPattern (invalid_id otherwise).
func (k *Checker) ID(n *frontmatter.Node, what string) (string, bool) { return k.c.id(n, what) }

// Number checks for a finite number.
func (k *Checker) Number(n *frontmatter.Node, what string) (float64, bool) {
	return k.c.number(n, what)
}

// Integer checks for an integral number in [lo, hi] (3.0 and 1e3 are
// integers).
func (k *Checker) Integer(n *frontmatter.Node, what string, lo, hi int) (int, bool) {
	return k.c.integer(n, what, lo, hi)
}

// Bool checks for a boolean.
func (k *Checker) Bool(n *frontmatter.Node, what string) (bool, bool) { return k.c.boolean(n, what) }

// Mapping checks for a mapping.
func (k *Checker) Mapping(n *frontmatter.Node, what string) bool { return k.c.mapping(n, what) }

// List checks for a list, non-empty when nonEmpty is set.
func (k *Checker) List(n *frontmatter.Node, what string, nonEmpty bool) bool {
	return k.c.list(n, what, nonEmpty)
}

// Strings checks for a list of non-empty strings, itself non-empty when
// nonEmpty is set. The list is non-nil when valid, even when empty.
func (k *Checker) Strings(n *frontmatter.Node, what string, nonEmpty bool) ([]string, bool) {
	if nonEmpty {
		return k.c.stringList(n, what, false)
	}
	if !k.c.list(n, what, false) {
		return nil, false
	}
	if len(n.Items) == 0 {
		return []string{}, true
	}
	return k.c.stringList(n, what, false)
}

// Describe renders a value for a message, as docmeta's own messages do.
func Describe(n *frontmatter.Node) string { return describe(n) }

// Quote renders user text for a message: quoted, shortened, on one line.
func Quote(s string) string { return quote(s) }

// Child names key inside path for messages: Child("suites", "how-to") is
// "suites.how-to"; keys that are not plain are quoted.
func Child(path, key string) string { return child(path, key) }

// MaxTimeoutMS is the largest timeout-ms, on an eval and in the config.
const MaxTimeoutMS = maxTimeoutMS
