package shape

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sync"
	"sync/atomic"
)

// Compile is regexp.Compile, remembered: an eval's pattern is checked when its page is validated and
// compiled again for each page it grades (a config's eval reaches every page), and compiling cost
// tool:contains more than matching. A compiled *regexp.Regexp is safe for concurrent use. At most
// maxCompiled expressions, each of at most maxCompiledLen bytes, are kept; others are compiled each time.
func Compile(expr string) (*regexp.Regexp, error) {
	if c, ok := compiled.Load(expr); ok {
		return c.(*compiledExpr).re, nil
	}
	re, err := regexp.Compile(expr)
	if err == nil && len(expr) <= maxCompiledLen && compiledN.Load() < maxCompiled {
		if _, loaded := compiled.LoadOrStore(expr, &compiledExpr{re: re}); !loaded {
			compiledN.Add(1)
		}
	}
	return re, err
}

// MatchBudget bounds the work of one pattern on one text, as the text's bytes times the pattern's
// compiled instructions (README "Limits"). Go's regexp takes time linear in the text, but in proportion
// to the pattern's size as well, and cannot be stopped: (?:.?){1000}Z, 13 bytes, compiles to about 2,000
// instructions and took 21 s on 1 MB (some 10 ns a byte and instruction). At the budget a match takes a
// few seconds at worst; an ordinary pattern (a few dozen instructions) has it for 4 MiB of text.
const MatchBudget = 1 << 29

// ErrTooMuchWork: matching would take more work than MatchBudget allows.
var ErrTooMuchWork = errors.New("more work than evalgate allows")

// MatchWork refuses re on a text of n bytes past MatchBudget (ErrTooMuchWork). A literal is found by a
// plain search, whatever its length.
func MatchWork(re *regexp.Regexp, n int) error {
	if _, complete := re.LiteralPrefix(); complete {
		return nil
	}
	insts := Insts(re) // counted once for a pattern matched on many texts
	if work := int64(insts) * int64(n); work > MatchBudget {
		return fmt.Errorf("%w: matching: the pattern compiles to %d instructions, which over %d bytes is %d steps at worst, "+
			"past the %d allowed; simplify the pattern (a counted repeat such as {1000} multiplies it)",
			ErrTooMuchWork, insts, n, work, int64(MatchBudget))
	}
	return nil
}

// Insts is the number of instructions re's program has once compiled: what a match costs at worst for
// each byte of the text. It is counted once for an expression Compile keeps.
func Insts(re *regexp.Regexp) int {
	c, ok := compiled.Load(re.String())
	if !ok {
		return instCount(re.String())
	}
	e := c.(*compiledExpr)
	if n := e.insts.Load(); n > 0 {
		return int(n - 1)
	}
	n := instCount(re.String())
	e.insts.Store(int64(n) + 1)
	return n
}

// instCount compiles expr, which regexp.Compile accepted, to count its instructions.
func instCount(expr string) int {
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return 0
	}
	return len(prog.Inst)
}

type compiledExpr struct {
	re    *regexp.Regexp
	insts atomic.Int64 // Insts plus one; 0 until counted
}

var (
	compiled  sync.Map // expression -> *compiledExpr
	compiledN atomic.Int32
)

const (
	maxCompiled    = 4096
	maxCompiledLen = 4096
)
