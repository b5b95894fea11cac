package evalcase

import (
	"encoding/json"
	"sync"
)

// paramCache decodes an assertion's params, which are validated before they are graded, into
// T. Fixtures repeat the same few params, so each decoded value is
// remembered by its text (a bounded cache); values are shared and must not
// be changed.
type paramCache[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

func (c *paramCache[T]) get(raw []byte) T {
	c.mu.Lock()
	p, ok := c.m[string(raw)]
	c.mu.Unlock()
	if ok {
		return p
	}
	return c.decode(raw)
}

// decode decodes and remembers what get did not find. It is get's slow path, apart so that the
// value it decodes into (whose address escapes to encoding/json) costs an allocation only here.
func (c *paramCache[T]) decode(raw []byte) T {
	var p T
	if len(raw) > 0 {
		json.Unmarshal(raw, &p) // validated before it is graded
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) > 1024 {
		c.m = map[string]T{}
	}
	c.m[string(raw)] = p
	c.mu.Unlock()
	return p
}

var (
	protocolCache    paramCache[protocolParams]
	placeholderCache paramCache[placeholderParams]
	forbiddenCache   paramCache[forbiddenParams]
	maxCharsCache    paramCache[maxCharsParams]
)
