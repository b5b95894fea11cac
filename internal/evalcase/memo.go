package evalcase

import "sync"

// memo remembers the values of a pure function of a string, safely for
// concurrent use. It is bounded: holding more than max values, it forgets
// them all, so that a file of distinct strings cannot grow it without end.
type memo[V any] struct {
	mu  sync.Mutex
	m   map[string]V
	max int
	f   func(string) V
}

func newMemo[V any](max int, f func(string) V) *memo[V] {
	return &memo[V]{m: map[string]V{}, max: max, f: f}
}

// get is f(s), computed once while remembered. f runs outside the lock.
func (c *memo[V]) get(s string) V {
	c.mu.Lock()
	v, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = c.f(s)
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[s] = v
	c.mu.Unlock()
	return v
}
