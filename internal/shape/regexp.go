package shape

import (
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
