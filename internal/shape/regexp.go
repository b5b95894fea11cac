package shape

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// Compile is regexp.Compile, remembered: an eval's pattern is checked when its page is validated and
// compiled again for each page it grades (a config's eval reaches every page), and compiling cost
// tool:contains more than matching. A compiled *regexp.Regexp is safe for concurrent use. At most
// maxCompiled expressions, each of at most maxCompiledLen bytes, are kept; others are compiled each time.
func Compile(expr string) (*regexp.Regexp, error) {
	if re, ok := compiled.Load(expr); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(expr)
	if err == nil && len(expr) <= maxCompiledLen && compiledN.Load() < maxCompiled {
		if _, loaded := compiled.LoadOrStore(expr, re); !loaded {
			compiledN.Add(1)
		}
	}
	return re, err
}

var (
	compiled  sync.Map // expression -> *regexp.Regexp
	compiledN atomic.Int32
)

const (
	maxCompiled    = 4096
	maxCompiledLen = 4096
)
